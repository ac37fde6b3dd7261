/**
 * The layout as data: pages of positioned boxes from layoutPages (no PDF), the same pages the renderer paints.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { A4, model, para, render, section, words } from './helpers.js';
import { findText, modelPages, textBoxes } from './boxes.js';
import type { Block } from '../../../server/engine/model/types.js';
import { Emitter } from '../../../server/engine/pdf/flow/emit.js';
import { PageSequence } from '../../../server/engine/pdf/flow/pages.js';

test('paragraphs become text boxes inside the content box, flowing onto as many pages as the PDF has', async () => {
  const body: Block[] = [];
  for (let i = 1; i <= 120; i++) body.push(para(`Line number ${i} of the flowing text.`));
  const m = model(body);
  const pages = modelPages(m);
  assert.ok(pages.length >= 3, `${pages.length} pages`);
  pages.forEach((p, i) => {
    assert.equal(p.number, i + 1);
    assert.equal(p.width, A4.width);
    for (const b of p.boxes) if (b.kind === 'text') {
      assert.ok(b.x >= 72 - 0.01 && b.y > 72 && b.y <= A4.height - 72 + 0.01, `page ${p.number}: "${b.text}" at ${b.x},${b.y}`);
    }
  });
  const first = findText(pages, 'Line number 1 ');
  assert.equal(first.page, 1);
  assert.ok(Math.abs(first.x - 72) < 0.01);
  // The PDF painted from the same boxes: same page count, the same word where the box says.
  const bytes = await render(m);
  const all = words(bytes);
  const pdfPages = Math.max(...all.map((w) => w.page));
  assert.equal(pdfPages, pages.length);
  const last = findText(pages, 'Line number 120 ');
  const w = all.find((x) => x.text === '120')!;
  assert.equal(w.page, last.page);
  // pdftotext's word box runs from the font's ascent to its descent around the baseline.
  assert.ok(w.yMin < last.y && w.yMax > last.y, `baseline ${last.y} within ${w.yMin}..${w.yMax}`);
});

test('a heading is a bookmark on the page it starts on; a page count in the body is a pageCount box', () => {
  const body: Block[] = [para('Intro')];
  body.push({ type: 'pageBreak' });
  body.push(para('Chapter two', { heading: 1 }));
  body.push({ type: 'paragraph', runs: [{ type: 'text', text: 'of ' }, { type: 'field', field: 'pages' }] });
  const pages = modelPages(model(body));
  assert.equal(pages.length, 2);
  assert.deepEqual(pages[1].bookmarks, [{ level: 1, title: 'Chapter two' }]);
  assert.equal(pages[0].bookmarks.length, 0);
  assert.equal(pages[1].boxes.filter((b) => b.kind === 'pageCount').length, 1);
});

test('a long table: its rows continue on the next page below the repeated header row, cell text inside its column', () => {
  const rows = [{ header: true, cells: [{ blocks: [para('Item')] }, { blocks: [para('Price')] }] }];
  for (let i = 1; i <= 80; i++) rows.push({ header: false, cells: [{ blocks: [para(`Row ${i}`)] }, { blocks: [para(`${i}.00`)] }] });
  const pages = modelPages(model([section([{ type: 'table', columns: [300, 151.28], rows }])]));
  assert.ok(pages.length >= 2);
  for (const p of pages) {
    const texts = p.boxes.filter((b) => b.kind === 'text');
    const header = texts.find((b) => b.kind === 'text' && b.text === 'Item');
    assert.ok(header, `header on page ${p.number}`);
    // The header is the first row of every page: above every other text of the table.
    for (const b of texts) if (b.kind === 'text' && b !== header) assert.ok(b.y >= header!.y - 0.01);
  }
  const prices = textBoxes(pages).filter((b) => /^\d+\.00$/.test(b.text));
  assert.equal(prices.length, 80);
  for (const b of prices) assert.ok(b.x >= 72 + 300, `${b.text} in the second column`);
});

test('pages are handed over one by one as the next starts (the renderer paints and drops each)', () => {
  const emitter = new Emitter();
  const handed: number[] = [];
  const boxesHanded: number[] = [];
  const pages = new PageSequence(emitter, (p) => {
    handed.push(p.number);
    boxesHanded.push(p.boxes.length);
  });
  pages.start(100, 200);
  emitter.fillRect(0, 0, 10, 10, [0, 0, 0]);
  assert.deepEqual(handed, []);
  pages.start(100, 200);
  assert.deepEqual(handed, [1]);
  assert.deepEqual(boxesHanded, [1], 'page 1 handed over with its box when page 2 starts');
  assert.equal(emitter.out.length, 0, 'the new page starts empty');
  pages.close();
  assert.deepEqual(handed, [1, 2]);
  pages.close();
  assert.deepEqual(handed, [1, 2], 'closing twice hands nothing more');
});
