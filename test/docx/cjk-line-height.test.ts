/**
 * The line height of East Asian text, read from the PDF (pdftotext -bbox) of small files built here and of corpus
 * files, against what LibreOffice 7.4 (given docloom's fonts) draws for them:
 * - ideographs in a font we do not have ("Hei") are drawn by the bundled CJK font, but the line keeps the height of
 *   the run's own family (LibreOffice's glyph fallback does not set the line height);
 * - a theme whose East Asian font is empty names one per script: the document's East Asian language picks it
 *   (宋体 for zh-CN), which is the CJK font, so its lines take its height.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { buildDocx, p } from './build-docx.js';
import { word } from '../engine/pdf/helpers.js';
import { corpusFile, pdfWords } from './static-words.js';

/** Twelve 12 pt paragraphs of ideographs and Latin in `eastAsia`: the pitch from "Line1" to "Line12", per line. */
async function pitch(eastAsia: string): Promise<number> {
  const rPr = `<w:rFonts w:ascii="Hei" w:hAnsi="Hei" w:eastAsia="${eastAsia}"/><w:sz w:val="24"/>`;
  let body = '';
  for (let i = 1; i <= 12; i++) body += p(`第${i}行 小计 Line${i}`, '', rPr);
  const all = await pdfWords(buildDocx({ body, settings: '' }));
  return (word(all, 'Line12').yMax - word(all, 'Line1').yMax) / 11;
}

test('ideographs drawn by fallback keep the line height of the run\'s family; in the CJK font they take its own', async () => {
  // LibreOffice draws this very file 13.8 pt a line with w:eastAsia "Hei" (12 pt × 1.149 em, the default family)
  // and 15.7 pt with "SimSun" (the bundled CJK font: 12 pt × 1.309 em).
  const unknown = await pitch('Hei');
  assert.ok(Math.abs(unknown - 13.8) < 0.05, `"Hei": ${unknown} pt a line`);
  const cjk = await pitch('SimSun');
  assert.ok(Math.abs(cjk - 15.7) < 0.05, `SimSun: ${cjk} pt a line`);
});

test('corpus: poitl__payment\'s totals table rows are as far apart as LibreOffice draws them (fallback ideographs)', { skip: !fs.existsSync(corpusFile('poitl__payment.docx')) && 'no corpus' }, async () => {
  const all = await pdfWords(new Uint8Array(fs.readFileSync(corpusFile('poitl__payment.docx'))));
  // 9 pt "Hei" (unknown: the default family) with ideographs, line 276 auto: LibreOffice 14.9 pt from row to row
  // (小计 454.3, 税额 469.2, 其他 498.9); drawn with the CJK font's height the rows were 16.3 pt apart.
  const rows = ['小计:', '税额:', '其他:'].map((t) => word(all, t, 1).yMin);
  assert.ok(Math.abs(rows[1] - rows[0] - 14.9) < 0.3, `${rows[1] - rows[0]}`);
  assert.ok(Math.abs(rows[2] - rows[0] - 44.6) < 0.6, `${rows[2] - rows[0]}`);
});

test('corpus: poitl__sdt_cell\'s ideographs in the theme\'s zh-CN font (宋体, an empty <a:ea>) keep the CJK line height', { skip: !fs.existsSync(corpusFile('poitl__sdt_cell.docx')) && 'no corpus' }, async () => {
  const all = await pdfWords(new Uint8Array(fs.readFileSync(corpusFile('poitl__sdt_cell.docx'))));
  // LibreOffice: "1. 常规：" 73.3, its next line 90.3, "2. 表格" 122.2 (13 pt 宋体 = the CJK font, 17.0 pt a line);
  // with the default family's height the numbers were 44.6 pt apart.
  const first = word(all, '1.', 1).yMin;
  const next = word(all, '2.', 1).yMin;
  assert.ok(Math.abs(next - first - 48.9) < 0.6, `${next - first}`);
});
