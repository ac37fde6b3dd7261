/**
 * Paragraph borders (w:pBdr) take room, read from real .docx files and checked on the layout as data (docxPages):
 * a top border's line and its w:space sit above the first line, a bottom border's below the last, side borders
 * sit w:space outside the text. LibreOffice 7.4 draws poitl__OKR's Title (a 1 pt line 10 pt above, a 3 pt line
 * 15 pt below) 29 pt taller than its text, its lines at the box's edges.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDocx, p } from './build-docx.js';
import { docxPages, findText, type LaidPage } from '../engine/pdf/boxes.js';

const TITLE_BORDERS =
  '<w:pBdr><w:top w:val="single" w:sz="8" w:space="10" w:color="000000"/><w:bottom w:val="single" w:sz="24" w:space="15" w:color="000000"/></w:pBdr>';

/** Horizontal lines of page 1 (y, width), top to bottom. */
function rules(pages: LaidPage[]): Array<{ y: number; width: number; x1: number; x2: number }> {
  const out: Array<{ y: number; width: number; x1: number; x2: number }> = [];
  for (const b of pages[0].boxes) if (b.kind === 'line' && b.y1 === b.y2) out.push({ y: b.y1, width: b.width, x1: b.x1, x2: b.x2 });
  return out.sort((a, b) => a.y - b.y);
}

test('a top and a bottom border add their width and w:space above and below the text', async () => {
  const body = (pPr: string): string => p('Before') + p('Title', pPr) + p('After');
  const plain = await docxPages(buildDocx({ body: body('') }));
  const bordered = await docxPages(buildDocx({ body: body(TITLE_BORDERS) }));
  const y = (pages: LaidPage[], t: string): number => findText(pages, t).y;
  // The bordered paragraph's text is 1 + 10 pt lower, the next paragraph 11 + 15 + 3 = 29 pt lower.
  assert.ok(Math.abs(y(bordered, 'Title') - y(plain, 'Title') - 11) < 0.01, `title ${y(bordered, 'Title') - y(plain, 'Title')}`);
  assert.ok(Math.abs(y(bordered, 'After') - y(plain, 'After') - 29) < 0.01, `after ${y(bordered, 'After') - y(plain, 'After')}`);
  // The lines lie inside that room: the 1 pt top line 10 pt above the first line's top, the 3 pt bottom line 15 pt
  // below the last line's foot (the line's own width beyond that, its centre half of it).
  const [top, bottom] = rules(bordered);
  assert.equal(top.width, 1);
  assert.equal(bottom.width, 3);
  const title = findText(bordered, 'Title');
  const lineTop = title.y - title.face.ascent * title.size;
  const lineFoot = title.y + title.face.descent * title.size;
  assert.ok(Math.abs(lineTop - 10 - 0.5 - top.y) < 0.01, `top line at ${top.y}, text line from ${lineTop}`);
  assert.ok(Math.abs(lineFoot + 15 + 1.5 - bottom.y) < 0.01, `bottom line at ${bottom.y}, text line to ${lineFoot}`);
});

test('side borders sit their w:space outside the text; consecutive paragraphs with the same borders share the room once', async () => {
  const box = '<w:pBdr><w:top w:val="single" w:sz="4" w:space="6" w:color="000000"/><w:left w:val="single" w:sz="4" w:space="12" w:color="000000"/><w:bottom w:val="single" w:sz="4" w:space="6" w:color="000000"/></w:pBdr>';
  const pages = await docxPages(buildDocx({ body: p('One', box) + p('Two', box) + p('Three') }));
  const plain = await docxPages(buildDocx({ body: p('One') + p('Two') + p('Three') }));
  const dy = (t: string): number => findText(pages, t).y - findText(plain, t).y;
  // One box: 6.5 pt above "One", nothing between "One" and "Two", 6.5 pt below "Two".
  assert.ok(Math.abs(dy('One') - 6.5) < 0.01, `One ${dy('One')}`);
  assert.ok(Math.abs(dy('Two') - 6.5) < 0.01, `Two ${dy('Two')}`);
  assert.ok(Math.abs(dy('Three') - 13) < 0.01, `Three ${dy('Three')}`);
  // The left line 12 pt left of the text (w:space="12"), not Word's 4 pt default.
  const left = pages[0].boxes.find((b) => b.kind === 'line' && b.x1 === b.x2);
  assert.ok(left && left.kind === 'line');
  assert.ok(Math.abs(findText(pages, 'One').x - 12 - left.x1) < 0.01, `left line at ${left.x1}, text at ${findText(pages, 'One').x}`);
});
