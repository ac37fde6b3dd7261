/**
 * Footnotes placed as Word and LibreOffice place them: on the page of the line that holds the mark (not the page
 * the paragraph ends on), the body of that page shortened above them, and a note too tall for the room left split
 * between lines, its rest at the foot of the next page under a continuation separator as wide as the text.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { docxPages, findText, textBoxes, type LaidPage } from '../engine/pdf/boxes.js';
import { escapeXml, p } from './build-docx.js';
import { docx } from './notes-docx.js';

/** A4 with 1-inch margins (build-docx's default section). */
const TEXT_WIDTH = 595.28 - 144;

function fillers(n: number): string {
  return Array.from({ length: n }, (_, i) => p(`Filler line ${i + 1}`)).join('');
}

/** A paragraph whose mark comes right after `lead`, followed by `rest`. */
function refParagraph(lead: string, id: string, rest: string): string {
  return `<w:p><w:r><w:t>${escapeXml(lead)}</w:t></w:r><w:r><w:footnoteReference w:id="${id}"/></w:r><w:r><w:t xml:space="preserve"> ${escapeXml(rest)}</w:t></w:r></w:p>`;
}

/** Horizontal rules of a page (the note separators). */
function rules(page: LaidPage): Array<{ x1: number; x2: number; y: number }> {
  const out: Array<{ x1: number; x2: number; y: number }> = [];
  for (const b of page.boxes) if (b.kind === 'line' && b.y1 === b.y2) out.push({ x1: b.x1, x2: b.x2, y: b.y1 });
  return out;
}

for (const [name, lead, data] of [['', 'Marked opening', {}], [' (a filled tag in the paragraph)', 'Marked {{word}}', { word: 'opening' }]] as const) {
test(`a note goes on the page of its mark's line, not the page its paragraph ends on; the body there ends above it${name}`, async () => {
  // The paragraph starts on page 1 with its mark in its first line and runs on well into page 2.
  const long = 'Running words of a long paragraph that carries on. '.repeat(60);
  const bytes = docx(fillers(30) + refParagraph(lead, '1', long) + p('After the paragraph'), { 1: 'Note of the opening' }, {});
  const pages = await docxPages(bytes, data);
  const opening = findText(pages, 'Marked opening');
  const note = findText(pages, 'Note of the opening');
  const after = findText(pages, 'After the paragraph');
  assert.equal(opening.page, 1);
  assert.equal(after.page, 2, 'the paragraph runs onto page 2');
  assert.equal(note.page, 1, `the note is on its mark's page (page ${note.page})`);
  const separator = rules(pages[0]).find((r) => r.y < note.y);
  assert.ok(separator, 'a separator above the note');
  assert.ok(separator.x2 - separator.x1 <= 144.01, 'the short separator (not a continuation)');
  const bodyOnFirst = textBoxes(pages).filter((b) => b.page === 1 && b.y < separator.y);
  const lowest = Math.max(...bodyOnFirst.map((b) => b.y));
  assert.ok(lowest < separator.y, 'the body on page 1 ends above the note');
  assert.ok(textBoxes(pages).some((b) => b.page === 1 && b.text.includes('Running')), 'the paragraph fills page 1 down to the notes');
  assert.ok(!textBoxes(pages).some((b) => b.page === 2 && b.text.includes('Note of the opening')));
});
}

test('a note taller than the room left is split: its start under its mark, the rest at the foot of the next page under a full-width rule', async () => {
  const noteText = 'Notestart ' + 'words of a very long footnote that goes on and on. '.repeat(70) + 'Noteend';
  const bytes = docx(fillers(36) + refParagraph('Marked line', '1', '') + p('Tail paragraph'), { 1: noteText }, {});
  const pages = await docxPages(bytes);
  const mark = findText(pages, 'Marked line');
  const start = findText(pages, 'Notestart');
  const end = findText(pages, 'Noteend');
  const tail = findText(pages, 'Tail paragraph');
  assert.equal(mark.page, 1, 'the marked line stays on page 1');
  assert.equal(start.page, 1, "the note starts on its mark's page");
  assert.equal(end.page, 2, 'and ends on the next one');
  // The split note takes all the room left on page 1: the body goes on on page 2, above the rest of the note.
  assert.equal(tail.page, 2);
  const second = pages[1];
  const continuation = rules(second).find((r) => r.x2 - r.x1 > TEXT_WIDTH - 1);
  assert.ok(continuation, `a continuation separator as wide as the text on page 2: ${JSON.stringify(rules(second))}`);
  assert.ok(tail.y < continuation.y);
  const carried = textBoxes(pages).filter((b) => b.page === 2 && b.text.includes('footnote'));
  assert.ok(carried.length > 0 && carried.every((b) => b.y > continuation.y), 'the rest of the note below it');
  const first = rules(pages[0]).find((r) => r.y < start.y && r.y > mark.y);
  assert.ok(first, 'the short separator on page 1 between the body and the note');
  const lowestBody = Math.max(...textBoxes(pages).filter((b) => b.page === 1 && b.y < first.y).map((b) => b.y));
  assert.ok(lowestBody < first.y);
  // Every word of the note is drawn once.
  const all = textBoxes(pages).map((b) => b.text).join(' ');
  assert.equal(all.match(/very long footnote/g)?.length, 70);
});

test('notes continued past the last page of the body get a page of their own', async () => {
  const noteText = 'Beginning ' + 'of a footnote that does not fit anywhere near the end. '.repeat(60) + 'Finish';
  const bytes = docx(fillers(44) + refParagraph('Last marked line', '1', ''), { 1: noteText }, {});
  const pages = await docxPages(bytes);
  const last = findText(pages, 'Last marked line');
  const finish = findText(pages, 'Finish');
  assert.equal(findText(pages, 'Beginning').page, last.page);
  assert.equal(finish.page, last.page + 1, 'the rest of the note on a page after the body');
  assert.equal(pages.length, finish.page);
});
