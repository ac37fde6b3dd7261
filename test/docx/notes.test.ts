/**
 * Footnotes and endnotes from real .docx packages: numbered superscript reference marks, footnotes at the foot of
 * the page of their reference (the body shortened to fit them), endnotes after the body.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { docxPages, findText, textBoxes } from '../engine/pdf/boxes.js';
import { words } from '../engine/pdf/helpers.js';
import { p } from './build-docx.js';
import { docx, withRef } from './notes-docx.js';

test('endnotes: numbered superscript marks in the body, the notes after the body with the same numbers', async () => {
  const body = withRef('Alpha claim', 'endnote', '2') + p('Middle paragraph') + withRef('Beta claim', 'endnote', '1') + p('Closing words');
  const bytes = docx(body, {}, { 1: 'Beta source explained', 2: 'Alpha source explained' });
  const pages = await docxPages(bytes);
  const boxes = textBoxes(pages);
  const alpha = findText(pages, 'Alpha');
  const closing = findText(pages, 'Closing');
  // Word numbers endnotes in lower-Roman by default, counted in reference order (not by w:id).
  const marks = boxes.filter((b) => b.text === 'i' || b.text === 'ii');
  assert.deepEqual(marks.map((b) => b.text), ['i', 'ii', 'i', 'ii'], boxes.map((b) => b.text).join('|'));
  assert.ok(marks[0].size < alpha.size, 'the mark is smaller than the text (superscript)');
  assert.ok(marks[0].y < alpha.y, 'the mark is raised (superscript)');
  const first = findText(pages, 'Alpha source');
  const second = findText(pages, 'Beta source');
  assert.ok(first.page > closing.page || first.y > closing.y, 'endnotes come after the body');
  assert.ok(second.page > first.page || second.y > first.y, 'endnotes in reference order');
  assert.ok(marks[2].y < first.y + 1 && Math.abs(marks[2].y - first.y) < first.size, "the note's own mark stands on its line");
  // Word's endnote separator: a 2-inch rule from the left margin between the body and the first endnote.
  const rules = pages.flatMap((pg) => pg.boxes.filter((b) => b.kind === 'line' && b.y1 === b.y2 && b.y1 > closing.y && b.y1 < first.y));
  assert.equal(rules.length, 1, 'one rule between the body and the endnotes');
  const [rule] = rules as Array<{ x1: number; x2: number }>;
  assert.ok(Math.abs(rule.x1 - 72) < 1 && Math.abs(rule.x2 - rule.x1 - 144) < 1, `the rule runs ${rule.x1}–${rule.x2}`);

  const compiled = compileTemplate({ kind: 'docx', bytes });
  assert.ok(compiled.ok);
  assert.deepEqual(compiled.warnings.map((w) => w.code), [], 'endnotes drawn: nothing to report');
  const text = words((await renderPdf(compiled.template, {})).bytes).map((w) => w.text).join(' ');
  assert.match(text, /Alpha source explained/);
  assert.match(text, /Beta source explained/);
});

test('note numbers follow w:footnotePr / w:endnotePr', async () => {
  const settings = '<w:footnotePr><w:numFmt w:val="lowerLetter"/></w:footnotePr><w:endnotePr><w:numFmt w:val="decimal"/></w:endnotePr>';
  const body = withRef('First', 'footnote', '5') + withRef('Second', 'footnote', '6') + withRef('Third', 'endnote', '3');
  const bytes = docx(body, { 5: 'foot one', 6: 'foot two' }, { 3: 'end one' }, settings);
  const boxes = textBoxes(await docxPages(bytes));
  const texts = boxes.map((b) => b.text);
  assert.ok(texts.includes('a') && texts.includes('b'), texts.join('|'));
  assert.ok(texts.includes('1'), texts.join('|'));
  assert.ok(texts.some((t) => t.includes('end one')), texts.join('|'));
  const compiled = compileTemplate({ kind: 'docx', bytes });
  assert.ok(compiled.ok);
  assert.deepEqual(compiled.warnings, []);
});

const A4_BOTTOM = 841.89 - 72;

test('a footnote sits at the foot of the page of its reference, under a separator, with its number', async () => {
  const filler = Array.from({ length: 4 }, (_, i) => p(`Filler paragraph ${i + 1}`)).join('');
  const bytes = docx(filler + withRef('Noted sentence', 'footnote', '1') + p('After the note'), { 1: 'Footnote body text' }, {});
  const pages = await docxPages(bytes);
  assert.equal(pages.length, 1);
  const note = findText(pages, 'Footnote body text');
  const after = findText(pages, 'After the note');
  assert.ok(note.y > after.y + 100, `the note (y ${note.y}) is at the page foot, far below the body (y ${after.y})`);
  assert.ok(note.y <= A4_BOTTOM + 0.5, `above the bottom margin (baseline ${note.y})`);
  assert.ok(note.y > A4_BOTTOM - 40, 'bottom-aligned');
  const marks = textBoxes(pages).filter((b) => b.text === '1');
  assert.equal(marks.length, 2, 'the mark in the body and before the note');
  assert.ok(Math.abs(marks[1].y - note.y) < note.size, "the note's number stands on its line");
  const separator = pages[0].boxes.find((b) => b.kind === 'line' && b.y1 === b.y2 && b.y1 < note.y && b.y1 > after.y);
  assert.ok(separator && separator.kind === 'line' && separator.x2 - separator.x1 <= 144.01, 'a short separator line above the notes');

  const text = words((await renderPdf(compileOk(bytes), {})).bytes).map((w) => w.text).join(' ');
  assert.match(text, /Footnote body text/);
});

test("a reference near the page foot moves to the next page with its note when the note doesn't fit below it", async () => {
  // Lines of 11-point text: enough to fill the page to its last line, then a line whose note needs 3 more lines.
  const filler = Array.from({ length: 80 }, (_, i) => p(`Filler line ${i + 1}`)).join('');
  const plain = await docxPages(docx(filler + p('Referencing line') + p('Tail'), {}, {}));
  const lastOnFirst = textBoxes(plain).filter((b) => b.page === 1).map((b) => b.text).pop() ?? '';
  const match = /Filler line (\d+)/.exec(lastOnFirst);
  assert.ok(match, `page 1 ends with a filler line: ${lastOnFirst}`);
  const last = Number(match[1]);
  // The reference goes on the last line that fits on page 1 without notes.
  const body = Array.from({ length: last - 1 }, (_, i) => p(`Filler line ${i + 1}`)).join('') +
    withRef('Referencing line', 'footnote', '1') + p('Tail');
  const note = 'A long footnote text. '.repeat(12);
  const pages = await docxPages(docx(body, { 1: note }, {}));
  const ref = findText(pages, 'Referencing line');
  const noteBox = findText(pages, 'A long footnote');
  assert.equal(ref.page, 2, 'the referencing line moved to the next page');
  assert.equal(noteBox.page, 2, 'its note with it');
  assert.ok(noteBox.y > findText(pages, 'Tail').y, 'below the body');
  assert.equal(findText(pages, `Filler line ${last - 1}`).page, 1);
});

function compileOk(bytes: Uint8Array): Parameters<typeof renderPdf>[0] {
  const compiled = compileTemplate({ kind: 'docx', bytes });
  assert.ok(compiled.ok, JSON.stringify(compiled));
  return compiled.template;
}

test('a custom mark (w:customMarkFollows) is not numbered; a reference to a missing note draws nothing and is reported', async () => {
  const body =
    '<w:p><w:r><w:t>Custom</w:t></w:r><w:r><w:endnoteReference w:customMarkFollows="1" w:id="1"/><w:t>*</w:t></w:r></w:p>' +
    withRef('Next', 'endnote', '2') + withRef('Lost', 'endnote', '9');
  const bytes = docx(body, {}, { 1: 'starred', 2: 'numbered' });
  const texts = textBoxes(await docxPages(bytes)).map((b) => b.text);
  assert.ok(texts.includes('i'), texts.join('|'));
  assert.ok(!texts.includes('ii'), texts.join('|'));
  const compiled = compileTemplate({ kind: 'docx', bytes });
  assert.ok(compiled.ok);
  assert.deepEqual(compiled.warnings.map((w) => [w.code, w.location.element, w.count]), [['notes_not_drawn', 'w:endnoteReference', 1]]);
});
