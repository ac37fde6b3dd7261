/**
 * Word's automatic space between East Asian and Latin text (w:autoSpaceDE, letters; w:autoSpaceDN, digits), on
 * unless a style or the paragraph turns it off: a fifth of an em between an ideograph and a Latin letter or digit
 * that touch, read from the PDF (pdftotext -bbox) against what LibreOffice 7.4 (given docloom's fonts) draws.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { buildDocx, p } from './build-docx.js';
import { word } from '../engine/pdf/helpers.js';
import { corpusFile, pdfWords } from './static-words.js';

test('corpus: aspose__Asian_typography has LibreOffice\'s gaps where ideographs meet Latin letters', { skip: !fs.existsSync(corpusFile('aspose__Asian_typography.docx')) && 'no corpus' }, async () => {
  const all = await pdfWords(new Uint8Array(fs.readFileSync(corpusFile('aspose__Asian_typography.docx'))));
  // LibreOffice, 11 pt, line 2: "Aspose.Words" ends at 136.3, "支持" runs 138.6–160.6, "DOC，…" starts at 162.8
  // (2.2 pt each, 0.2 em); the source has no space on either side of 支持.
  const zhichi = word(all, '支持');
  const aspose = all.find((w) => w.text === 'Aspose.Words' && Math.abs(w.yMax - zhichi.yMax) < 1);
  assert.ok(aspose, 'Aspose.Words on the line of 支持');
  const doc = all.find((w) => w.text.startsWith('DOC，') && Math.abs(w.yMax - zhichi.yMax) < 1);
  assert.ok(doc, 'DOC，… on the line of 支持');
  assert.ok(Math.abs(zhichi.xMin - aspose.xMax - 2.2) < 0.3, `before 支持: ${zhichi.xMin - aspose.xMax}`);
  assert.ok(Math.abs(doc.xMin - zhichi.xMax - 2.2) < 0.3, `after 支持: ${doc.xMin - zhichi.xMax}`);
});

test('digits get the space by w:autoSpaceDN, letters by w:autoSpaceDE; off in the paragraph, no space', async () => {
  const rPr = '<w:rFonts w:ascii="Arial" w:hAnsi="Arial" w:eastAsia="SimSun"/><w:sz w:val="20"/>';
  const body = p('2007年Word', '', rPr) +
    p('2008年Word', '<w:autoSpaceDE w:val="0"/>', rPr) +
    p('2009年Word', '<w:autoSpaceDE w:val="0"/><w:autoSpaceDN w:val="0"/>', rPr);
  const all = await pdfWords(buildDocx({ body }));
  // 10 pt: 2 pt between 2007 and 年 and between 年 and Word.
  const y7 = word(all, '2007');
  const nian = all.find((w) => w.text === '年' && Math.abs(w.yMax - y7.yMax) < 1);
  const w7 = all.find((w) => w.text === 'Word' && Math.abs(w.yMax - y7.yMax) < 1);
  assert.ok(nian && w7, all.map((w) => w.text).join(' '));
  assert.ok(Math.abs(nian.xMin - y7.xMax - 2) < 0.3, `2007|年: ${nian.xMin - y7.xMax}`);
  assert.ok(Math.abs(w7.xMin - nian.xMax - 2) < 0.3, `年|Word: ${w7.xMin - nian.xMax}`);
  // autoSpaceDE off: the digits keep their space, the letters touch.
  assert.ok(word(all, '2008'), 'digits apart from 年');
  assert.ok(word(all, '年Word'), 'letters touch 年');
  // Both off: one word.
  assert.ok(word(all, '2009年Word'));
});
