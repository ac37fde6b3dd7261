/**
 * Latin letters in a run whose Latin font is an East Asian face (w:ascii "微软雅黑", as Chinese templates often
 * set every slot to one face): the real face has its own Latin letters, about as wide as Arial's; the bundled CJK
 * stand-in has none, so they are drawn by the default family (Liberation Sans), not DejaVu Sans' wider letters.
 * Read back from the PDF (pdftotext -bbox widths), on a built file and on a corpus file nobody here wrote.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { word, words } from '../engine/pdf/helpers.js';
import { buildDocx, escapeXml } from './build-docx.js';
import { corpusFile, pdfWords } from './static-words.js';

const run = (font: string, text: string): string =>
  `<w:p><w:r><w:rPr><w:rFonts w:ascii="${font}" w:eastAsia="${font}" w:hAnsi="${font}"/><w:sz w:val="20"/></w:rPr><w:t>${escapeXml(text)}</w:t></w:r></w:p>`;

test('Latin in an East Asian face is as wide as in Arial; the ideographs stay in the CJK font', async () => {
  const body = run('微软雅黑', '籍贯Sunflower') + run('Arial', 'Sunflower') + run('宋体', 'Sunflower');
  const compiled = compileTemplate({ kind: 'docx', bytes: buildDocx({ body }), delimiters: ['\u0001<<', '>>\u0001'] });
  assert.ok(compiled.ok, JSON.stringify(compiled));
  const all = words((await renderPdf(compiled.template, {})).bytes);
  const [yahei, arial, simsun] = all.filter((w) => w.text === 'Sunflower');
  assert.ok(all.some((w) => w.text.includes('籍贯')), 'the ideographs are drawn');
  assert.ok(Math.abs(yahei.xMax - yahei.xMin - (arial.xMax - arial.xMin)) < 0.5,
    `Latin as wide as Arial's: ${yahei.xMax - yahei.xMin} vs ${arial.xMax - arial.xMin}`);
  assert.ok(Math.abs(simsun.xMax - simsun.xMin - (arial.xMax - arial.xMin)) < 0.5, 'the same for SimSun');
});

const RESUME = 'poitl__resume.docx';
test('corpus: a résumé in Microsoft YaHei keeps "籍贯：{{province}}生日：{{birthday}}" on one line, as Word', { skip: !fs.existsSync(corpusFile(RESUME)) && 'no corpus' }, async () => {
  const all = await pdfWords(new Uint8Array(fs.readFileSync(corpusFile(RESUME))));
  const province = all.find((w) => w.text.includes('{{province}}'));
  const birthday = all.find((w) => w.text.includes('{{birthday}}'));
  assert.ok(province && birthday);
  assert.ok(Math.abs(province.yMin - birthday.yMin) < 1, `same line: ${province.yMin} vs ${birthday.yMin}`);
  assert.ok(Math.abs(word(all, '{{rank}}').yMin - all.find((w) => w.text.includes('{{profession}}'))!.yMin) < 1, 'the degree line is one line');
});
