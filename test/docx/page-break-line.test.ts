/**
 * A page break that starts its paragraph sits on that paragraph's first, empty line, and the line is on the page
 * before the break: where the page has no room left for it, Word and LibreOffice put the line on the next page and
 * the break then starts the page after, leaving a page empty (the familiar blank page after a table that fills its
 * page; oxsdk__hyperlink's appendix tables). Geometry from the layout as data, the page count also from the PDF.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { buildDocx, p } from './build-docx.js';
import { docxPages, findText } from '../engine/pdf/boxes.js';
import { words } from '../engine/pdf/helpers.js';

/** Exactly `pt` points tall, no space around it. */
const exact = (pt: number): string => `<w:spacing w:before="0" w:after="0" w:line="${pt * 20}" w:lineRule="exact"/>`;

/**
 * 34 lines of 20 pt on an A4 page with 1-inch margins (697.9 pt of body): 17.9 pt stay free under them. Then the
 * break's paragraph, its line `breakLine` points tall, then `tail` (the text that follows the break).
 */
function doc(breakLine: number, breakParagraph?: string): Uint8Array {
  let body = '';
  for (let i = 1; i <= 34; i++) body += p(`Filler ${i}`, exact(20));
  body += breakParagraph ?? `<w:p><w:pPr>${exact(breakLine)}</w:pPr><w:r><w:br w:type="page"/></w:r></w:p>`;
  body += p('After the break', exact(20));
  return buildDocx({ body });
}

async function pdfPages(bytes: Uint8Array): Promise<number> {
  const compiled = compileTemplate({ kind: 'docx', bytes });
  assert.ok(compiled.ok);
  const all = words((await renderPdf(compiled.template, {})).bytes);
  return Math.max(...all.map((w) => w.page));
}

/** The break's line `breakLine` points tall: the page the text after the break lands on, in the layout and the PDF. */
async function afterBreak(breakLine: number, page: number): Promise<void> {
  const bytes = doc(breakLine);
  const pages = await docxPages(bytes);
  assert.equal(findText(pages, 'Filler 34').page, 1);
  assert.equal(findText(pages, 'After the break').page, page);
  assert.equal(pages.length, page);
  assert.equal(await pdfPages(bytes), page);
}

test('a break-only paragraph whose line fits under the last line breaks to the next page', () => afterBreak(15, 2));

test('a break-only paragraph with no room left on the page goes to the next one: that page stays empty', () => afterBreak(20, 3));

test('the same for a paragraph that starts with its break and goes on after it', async () => {
  const bytes = doc(0, `<w:p><w:pPr>${exact(20)}</w:pPr><w:r><w:br w:type="page"/><w:t>Rest of the paragraph</w:t></w:r></w:p>`);
  const pages = await docxPages(bytes);
  assert.equal(findText(pages, 'Rest of the paragraph').page, 3);
  assert.equal(findText(pages, 'After the break').page, 3);
});

test('a break after text on the same line needs no room of its own', async () => {
  const bytes = doc(0, `<w:p><w:pPr>${exact(17)}</w:pPr><w:r><w:t>Before</w:t><w:br w:type="page"/></w:r></w:p>`);
  const pages = await docxPages(bytes);
  assert.equal(findText(pages, 'Before').page, 1);
  assert.equal(findText(pages, 'After the break').page, 2);
});

test('at the top of a page (after another break) the line is on that page: one empty page, not two', async () => {
  let body = '';
  for (let i = 1; i <= 34; i++) body += p(`Filler ${i}`, exact(20));
  body += `<w:p><w:r><w:br w:type="page"/></w:r></w:p><w:p><w:pPr>${exact(20)}</w:pPr><w:r><w:br w:type="page"/></w:r></w:p>`;
  body += p('After the break', exact(20));
  const pages = await docxPages(buildDocx({ body }));
  assert.equal(findText(pages, 'After the break').page, 3);
});
