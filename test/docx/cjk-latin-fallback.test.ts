/**
 * Latin text in an East Asian face (w:ascii="微软雅黑", drawn with the bundled CJK font, which has no Latin letters
 * or digits) is drawn in the default family, as LibreOffice draws it (Liberation Sans in its PDF of poitl__OKR),
 * not in the much wider DejaVu Sans: "{{user.name}}" there starts at x = 161.2 after a tab, as in LibreOffice.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDocx, p } from './build-docx.js';
import { docxPages, findText, textBoxes } from '../engine/pdf/boxes.js';

test('Latin letters and digits of a run in a CJK font take the default family; ideographs keep the CJK font', async () => {
  const cjk = '<w:rFonts w:ascii="微软雅黑" w:hAnsi="微软雅黑" w:eastAsia="微软雅黑"/>';
  const arial = '<w:rFonts w:ascii="Arial" w:hAnsi="Arial"/>';
  const pages = await docxPages(buildDocx({ body: p('Hello 123', '', cjk) + p('Arial 123', '', arial) + p('目标', '', cjk) }));
  const reference = findText(pages, 'Arial 123').face;
  // The CJK font draws the space between them (it has one), so the words are two boxes.
  for (const word of ['Hello', '123']) {
    const box = textBoxes(pages).find((b) => b.text === word);
    assert.ok(box, `${word} laid out`);
    assert.equal(box.face, reference, `${word} drawn with ${box.face.key}, Arial with ${reference.key}`);
    assert.ok(Math.abs(box.width - reference.width(word, box.size)) < 0.01, `${word} ${box.width}`);
  }
  assert.notEqual(findText(pages, '目标').face, reference);
});
