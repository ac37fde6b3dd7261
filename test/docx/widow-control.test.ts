/**
 * w:widowControl (ECMA-376 17.3.1.44): on unless turned off, as Word and LibreOffice read a .docx; turned off in
 * docDefaults, a style or the paragraph, a paragraph's first line may stay alone at a page's foot (and its last
 * alone at the next page's top). Geometry from the layout as data.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDocx, p } from './build-docx.js';
import { docxPages, findText } from '../engine/pdf/boxes.js';

const exact = (pt: number): string => `<w:spacing w:before="0" w:after="0" w:line="${pt * 20}" w:lineRule="exact"/>`;

/**
 * 34 lines of 20 pt on an A4 page with 1-inch margins leave 17.9 pt: room for one 15 pt line of the three-line
 * paragraph that follows (`pPr` added to its properties).
 */
function doc(pPr = '', styles?: string): Uint8Array {
  let body = '';
  for (let i = 1; i <= 34; i++) body += p(`Filler ${i}`, exact(20));
  body += `<w:p><w:pPr>${exact(15)}${pPr}</w:pPr><w:r><w:t>Line one</w:t><w:br/><w:t>Line two</w:t><w:br/><w:t>Line three</w:t></w:r></w:p>`;
  return buildDocx({ body, styles });
}

test('with widow control (the default) a lone first line moves to the next page with its paragraph', async () => {
  const pages = await docxPages(doc());
  assert.equal(findText(pages, 'Filler 34').page, 1);
  assert.equal(findText(pages, 'Line one').page, 2);
  assert.equal(findText(pages, 'Line three').page, 2);
});

test('w:widowControl w:val="0" on the paragraph lets its first line stay alone at the foot of the page', async () => {
  const pages = await docxPages(doc('<w:widowControl w:val="0"/>'));
  assert.equal(findText(pages, 'Line one').page, 1);
  assert.equal(findText(pages, 'Line two').page, 2);
});

test('turned off in docDefaults, turned on again by the paragraph', async () => {
  const styles = '<w:docDefaults><w:pPrDefault><w:pPr><w:widowControl w:val="0"/></w:pPr></w:pPrDefault></w:docDefaults>';
  const off = await docxPages(doc('', styles));
  assert.equal(findText(off, 'Line one').page, 1);
  const on = await docxPages(doc('<w:widowControl/>', styles));
  assert.equal(findText(on, 'Line one').page, 2);
});

test('a three-line paragraph with room for two at the foot moves whole: one line each side would be a widow, one an orphan', async () => {
  // 33 lines of 20 pt leave 37.9 pt: two 15 pt lines fit, but the last alone on page 2 is a widow, and keeping two
  // for page 2 leaves the first alone on page 1.
  let body = '';
  for (let i = 1; i <= 33; i++) body += p(`Filler ${i}`, exact(20));
  body += `<w:p><w:pPr>${exact(15)}</w:pPr><w:r><w:t>Line one</w:t><w:br/><w:t>Line two</w:t><w:br/><w:t>Line three</w:t></w:r></w:p>`;
  const pages = await docxPages(buildDocx({ body }));
  assert.equal(findText(pages, 'Filler 33').page, 1);
  assert.equal(findText(pages, 'Line one').page, 2);
  assert.equal(findText(pages, 'Line two').page, 2);
  // Four lines split two and two.
  const four = await docxPages(buildDocx({ body: body.replace('<w:t>Line three</w:t>', '<w:t>Line three</w:t><w:br/><w:t>Line four</w:t>') }));
  assert.equal(findText(four, 'Line two').page, 1);
  assert.equal(findText(four, 'Line three').page, 2);
});
