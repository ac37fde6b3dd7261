/** Tables: widths, spans, shading, borders, vertical alignment, rich cells, page breaks and repeated headers. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pdfPageCount, pdfText } from '../../helpers/pdf.js';
import type { Table, TableCell, TableRow } from '../../../server/engine/model/types.js';
import { renderModel } from '../../../server/engine/pdf/render.js';
import { assertValidPdf, countPixels, model, near, para, raster, render, run, word, words } from './helpers.js';
import { encodePng, pngDataUri } from './png.js';

function cell(text: string, extra: Partial<TableCell> = {}): TableCell {
  return { blocks: [para(text)], ...extra };
}

function table(columns: number[], rows: TableRow[], style?: Table['style']): Table {
  return { type: 'table', columns, rows, style };
}

test('column widths are used as given, and scaled down when wider than the column', async () => {
  const bytes = await render(model([
    table([100, 200], [{ cells: [cell('Alpha'), cell('Beta')] }], { cellPadding: 0 }),
    para('gap'),
    // 900 pt of columns in a 451 pt column: everything scaled by about a half.
    table([300, 600], [{ cells: [cell('Gamma'), cell('Delta')] }], { cellPadding: 0 }),
  ]));
  const w = words(bytes);
  assert.ok(Math.abs(word(w, 'Beta').xMin - (72 + 100)) < 0.5, `second column at 172: ${word(w, 'Beta').xMin}`);
  const scale = (595.28 - 144) / 900;
  assert.ok(Math.abs(word(w, 'Delta').xMin - (72 + 300 * scale)) < 0.5, `scaled: ${word(w, 'Delta').xMin}`);
});

test('cells hold several paragraphs of rich text, lists and images; vertical alignment', async () => {
  const red = pngDataUri(encodePng(10, 10, () => [255, 0, 0, 255]));
  const bytes = await render(model([table([150, 150, 151], [{
    cells: [
      { blocks: [para([run('Bold', { bold: true }), run(' and '), run('italic', { italic: true, color: '#0000ff' })]), para('Second paragraph'), { ...para('Listed'), list: { id: 'l', level: 0, format: 'decimal' } }] },
      cell('Middle', { vAlign: 'middle' }),
      { blocks: [para([{ type: 'image', src: red, width: 30, height: 30 }]), para('Bottom')], vAlign: 'bottom' },
    ],
  }])]));
  const text = pdfText(bytes);
  for (const t of ['Bold and italic', 'Second paragraph', '1. Listed', 'Middle', 'Bottom']) assert.ok(text.includes(t), `"${t}" in ${text}`);
  const w = words(bytes);
  const top = word(w, 'Bold');
  const listed = word(w, 'Listed');
  const middle = word(w, 'Middle');
  const mid = (top.yMin + listed.yMax) / 2;
  assert.ok(Math.abs((middle.yMin + middle.yMax) / 2 - mid) < 6, 'middle cell centred vertically');
  assert.ok(word(w, 'Bottom').yMax >= listed.yMax - 1, 'bottom cell at the bottom');
  const dpi = 72;
  const r = raster(bytes, 1, dpi);
  assert.ok(countPixels(r, dpi, { x: 72 + 300, y: 60, w: 151, h: 120 }, (p) => near(p, [255, 0, 0], 20)) > 500, 'image in the cell');
});

test('colSpan, rowSpan, shading and borders', async () => {
  const bytes = await render(model([table([100, 100, 100], [
    { cells: [cell('Wide', { colSpan: 2, shading: '#ffcc00' }), cell('Tall', { rowSpan: 2, shading: '#00ccff' })] },
    { cells: [cell('Left'), cell('Right')] },
  ], { borders: { width: 2, color: '#ff0000' }, cellPadding: 4 })]));
  const w = words(bytes);
  assert.ok(Math.abs(word(w, 'Right').xMin - (72 + 100 + 4)) < 0.5, 'second-row cells fill the columns left of the span');
  const dpi = 72;
  const r = raster(bytes, 1, dpi);
  const wide = word(w, 'Wide');
  // The shading of the spanning cell runs across both columns; the tall cell's shading covers both rows.
  assert.ok(countPixels(r, dpi, { x: 72 + 110, y: wide.yMin, w: 80, h: 5 }, (p) => near(p, [255, 204, 0], 10)) > 100, 'colSpan shading');
  const right = word(w, 'Right');
  assert.ok(countPixels(r, dpi, { x: 72 + 210, y: right.yMin, w: 80, h: 5 }, (p) => near(p, [0, 204, 255], 10)) > 100, 'rowSpan shading');
  // A red border line between the two rows under "Left".
  const left = word(w, 'Left');
  assert.ok(countPixels(r, dpi, { x: 80, y: left.yMin - 8, w: 60, h: 8 }, (p) => near(p, [255, 0, 0], 60)) > 40, 'border between rows');
  // No border inside the spanning cell (between column 1 and 2 in the first row).
  assert.equal(countPixels(r, dpi, { x: 72 + 98, y: wide.yMin, w: 4, h: 4 }, (p) => near(p, [255, 0, 0], 60)), 0, 'no border inside the span');
});

test('long tables break across pages and repeat their header rows on every page', async () => {
  const rows: TableRow[] = [{ header: true, cells: [cell('Item'), cell('Price')] }];
  for (let i = 1; i <= 150; i++) rows.push({ cells: [cell(`Row ${i}`), cell(`${i}.00`)] });
  const bytes = await render(model([para('Before'), table([300, 151], rows), para('After the table')]));
  assertValidPdf(bytes);
  const pages = pdfPageCount(bytes);
  assert.ok(pages >= 3, `${pages} pages`);
  for (let p = 1; p <= pages; p++) {
    const t = pdfText(bytes, { page: p });
    assert.ok(/Item\s+Price/.test(t), `header on page ${p}`);
  }
  const all = pdfText(bytes);
  for (let i = 1; i <= 150; i++) assert.ok(all.includes(`Row ${i}\n`) || all.includes(`Row ${i} `), `row ${i}`);
  // Rows are never cut: each row's two cells are on one page.
  const w = words(bytes);
  for (const i of [40, 80, 120]) {
    const label = w.find((x) => x.text === String(i) && w.some((y) => y.text === 'Row' && y.page === x.page && Math.abs(y.yMin - x.yMin) < 1))!;
    const price = word(w, `${i}.00`);
    assert.equal(label.page, price.page, `row ${i} on one page`);
  }
  assert.equal(word(w, 'After').page, pages);
});

test('a row taller than a page is cut between lines instead of overflowing', async () => {
  const tall = Array.from({ length: 90 }, (_, i) => para(`Tall line ${i + 1}`));
  const bytes = await render(model([table([200, 251], [{ cells: [{ blocks: tall }, cell('Short')] }])]));
  assertValidPdf(bytes);
  assert.ok(pdfPageCount(bytes) >= 2);
  const w = words(bytes);
  for (const x of w) assert.ok(x.yMax <= 841.89 - 72 + 1, `"${x.text}" inside the page margins (${x.yMax})`);
  assert.equal(w.filter((x) => x.text === 'Tall').length, 90, 'every line drawn once');
});

test('a 10,000-row table renders every row', async () => {
  const rows: TableRow[] = [{ header: true, cells: [cell('#'), cell('Name'), cell('Amount')] }];
  for (let i = 1; i <= 10_000; i++) rows.push({ cells: [cell(String(i)), cell(`Customer ${i}`), cell(`${(i * 1.5).toFixed(2)}`)] });
  const result = await renderModel(model([table([50, 250, 151], rows)]), { test: false });
  assertValidPdf(result.bytes);
  assert.ok(result.pages > 150, `${result.pages} pages`);
  const text = pdfText(result.bytes);
  assert.ok(text.includes('Customer 1\n') || text.includes('Customer 1 '), 'first row');
  assert.ok(text.includes('Customer 10000'), 'last row');
});

test('page fields inside a table that spans pages show the page each row is on', async () => {
  const rows: TableRow[] = [];
  for (let i = 1; i <= 120; i++) rows.push({ cells: [{ blocks: [para([run(`row${i} on `), { type: 'field', field: 'page' }])] }] });
  const bytes = await render(model([table([300], rows)]));
  const pages = pdfPageCount(bytes);
  assert.ok(pages >= 2);
  for (let p = 1; p <= pages; p++) {
    const found = [...pdfText(bytes, { page: p }).matchAll(/row\d+ on (\d+)/g)].map((m) => Number(m[1]));
    assert.ok(found.length > 0 && found.every((n) => n === p), `page ${p}: ${found.join(',')}`);
  }
});
