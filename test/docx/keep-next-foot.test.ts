/**
 * Keep with next at a page's foot, read from a real .docx on the layout as data (docxPages): the last paragraph
 * of a section that a new page follows needs room for its lines, not for its space after.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDocx, DEFAULT_SECT, p } from './build-docx.js';
import { docxPages, findText } from '../engine/pdf/boxes.js';

test('a kept paragraph that ends its section needs no room for its space after at the page foot', async () => {
  // A4, 1-inch margins: 697.9 pt of body. 34 lines of exactly 20 pt leave 17.9 pt: room for a 15 pt line, not
  // for its 10 pt space after as well.
  const line = '<w:spacing w:before="0" w:after="0" w:line="400" w:lineRule="exact"/>';
  const filler = Array.from({ length: 34 }, (_, i) => p(`Filler ${i + 1}`, line)).join('');
  const kept = (after: number): string =>
    p('Kept heading', `<w:keepNext/><w:spacing w:before="0" w:after="${after}" w:line="300" w:lineRule="exact"/>${DEFAULT_SECT}`);
  const body = (after: number): string => filler + kept(after) + p('Next section');
  for (const after of [0, 200]) {
    const pages = await docxPages(buildDocx({ body: body(after) }));
    assert.equal(findText(pages, 'Filler 34').page, 1);
    assert.equal(findText(pages, 'Kept heading').page, 1, `space after ${after / 20} pt: the heading stays on page 1`);
    assert.equal(findText(pages, 'Next section').page, 2);
  }
});
