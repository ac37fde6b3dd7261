/** Sections, page sizes and margins, page breaks, flowing text, metadata, outline. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pdfInfo, pdfPageCount, pdfText, squash } from '../../helpers/pdf.js';
import { renderModel } from '../../../server/engine/pdf/render.js';
import { A4, assertValidPdf, model, para, qpdfJson, render, section, structure, word, words } from './helpers.js';

const LETTER_LANDSCAPE = { width: 792, height: 612, margins: { top: 36, right: 36, bottom: 36, left: 100 } };

test('each section has its own page size, orientation and margins, and starts a new page', async () => {
  const bytes = await render(model([
    section([para('First section text.')]),
    section([para('Second section text.')], { page: LETTER_LANDSCAPE }),
  ]));
  assertValidPdf(bytes);
  assert.equal(pdfPageCount(bytes), 2);
  const info = pdfInfo(bytes);
  // pdfinfo reports the first page's size.
  assert.match(info['Page size'], /^595\.28 x 841\.89 pts/);
  const w = words(bytes);
  const first = word(w, 'First');
  const second = word(w, 'Second');
  assert.equal(first.page, 1);
  assert.equal(second.page, 2);
  // Margins: left 72 on A4, left 100 on the landscape page; text starts at the top margin.
  assert.ok(Math.abs(first.xMin - 72) < 1, `A4 text at x=${first.xMin}`);
  assert.ok(Math.abs(second.xMin - 100) < 1, `landscape text at x=${second.xMin}`);
  assert.ok(first.yMin >= 72 && first.yMin < 80, `A4 text top at ${first.yMin}`);
  assert.ok(second.yMin >= 36 && second.yMin < 44, `landscape text top at ${second.yMin}`);
  const sizes = structure(bytes).match(/\/MediaBox \[[^\]]+\]/g) ?? [];
  assert.ok(sizes.some((s) => /792/.test(s) && /612/.test(s)), `media boxes: ${sizes.join(', ')}`);
});

test('long text flows across pages inside the margins and the page count is returned', async () => {
  const sentence = 'The quick brown fox jumps over the lazy dog. ';
  const body = Array.from({ length: 60 }, (_, i) => para(`Paragraph ${i + 1}. ${sentence.repeat(6)}`));
  const result = await renderModel(model(body), { test: false });
  assertValidPdf(result.bytes);
  const pages = pdfPageCount(result.bytes);
  assert.ok(pages >= 4, `expected several pages, got ${pages}`);
  assert.equal(result.pages, pages);
  const all = words(result.bytes);
  for (const w of all) {
    assert.ok(w.xMin >= 71 && w.xMax <= A4.width - 71, `word "${w.text}" outside the margins: ${w.xMin}–${w.xMax}`);
    assert.ok(w.yMin >= 71 && w.yMax <= A4.height - 71, `word "${w.text}" outside the margins: ${w.yMin}–${w.yMax}`);
  }
  const text = squash(pdfText(result.bytes));
  for (let i = 1; i <= 60; i++) assert.ok(text.includes(`Paragraph ${i}.`), `paragraph ${i} missing`);
});

test('page breaks, pageBreakBefore and empty sections each give a page', async () => {
  const bytes = await render(model([
    section([para('One'), { type: 'pageBreak' }, para('Two'), para('Three', { pageBreakBefore: true })]),
    section([]),
    section([para('Five')]),
  ]));
  assert.equal(pdfPageCount(bytes), 5);
  const w = words(bytes);
  assert.deepEqual(['One', 'Two', 'Three', 'Five'].map((t) => word(w, t).page), [1, 2, 3, 5]);
});

test('keepWithNext moves a heading to the page of the paragraph it introduces', async () => {
  // 55 lines of 11 pt fit a page: the heading is the 55th, the body would start on page 2.
  const filler = Array.from({ length: 54 }, (_, i) => para(`Filler line ${i + 1}`));
  const withKeep = await render(model([...filler, para('Heading kept', { keepWithNext: true }), para('Body after heading. '.repeat(30))]));
  const w = words(withKeep);
  assert.equal(word(w, 'kept').page, word(w, 'Body').page, 'heading and its paragraph on one page');
  assert.equal(word(w, 'kept').page, 2);
  // Without keepWithNext the heading stays alone at the bottom of page 1.
  const without = words(await render(model([...filler, para('Heading kept'), para('Body after heading. '.repeat(30))])));
  assert.equal(word(without, 'kept').page, 1);
  assert.equal(word(without, 'Body').page, 2);
});

test('metadata: title, author, subject, keywords from the model, options override, creator docloom', async () => {
  const m = model([para('x')], { metadata: { title: 'Model title', author: 'Ann Author', subject: 'Subj', keywords: 'a, b' } });
  const info = pdfInfo((await renderModel(m, { test: false, metadata: { title: 'Заголовок документа' } })).bytes);
  assert.equal(info.Title, 'Заголовок документа');
  assert.equal(info.Author, 'Ann Author');
  assert.equal(info.Subject, 'Subj');
  assert.equal(info.Keywords, 'a, b');
  assert.equal(info.Creator, 'docloom');
  assert.match(info.CreationDate, /\d{4}/);
});

test('headings become nested bookmarks pointing at their pages', async () => {
  const bytes = await render(model([
    para('Глава первая', { heading: 1 }),
    para('Section 1.1', { heading: 2 }),
    para('Body text is not a bookmark'),
    { type: 'pageBreak' },
    para('Chapter (two)', { heading: 1 }),
    para('Deep', { heading: 3 }),
  ]));
  interface Node { title: string; destpageposfrom1: number; kids: Node[] }
  const outlines = (JSON.parse(qpdfJson(bytes, 'outlines')) as { outlines: Node[] }).outlines;
  const shape = (n: Node): unknown => ({ title: n.title, page: n.destpageposfrom1, kids: n.kids.map(shape) });
  assert.deepEqual(outlines.map(shape), [
    { title: 'Глава первая', page: 1, kids: [{ title: 'Section 1.1', page: 1, kids: [] }] },
    { title: 'Chapter (two)', page: 2, kids: [{ title: 'Deep', page: 2, kids: [] }] },
  ]);
});

test('a model with no sections still gives one valid empty page', async () => {
  const result = await renderModel({ version: 1, sections: [], defaults: { run: {}, paragraph: {} } }, { test: false });
  assertValidPdf(result.bytes);
  assert.equal(result.pages, 1);
});
