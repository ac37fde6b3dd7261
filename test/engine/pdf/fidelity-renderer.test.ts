/**
 * Renderer fixes found by the DOCX fidelity measurement (scripts/fidelity.ts), each checked on the real PDF:
 * a page break ending a section adds no page, decimal tabs per locale, font subsets shared by documents built
 * at the same time, a no-break space drawn with the run's own font, tab stops past the right margin.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { PageSetup } from '../../../server/engine/model/types.js';
import { compileTemplate, renderPdf, sampleData } from '../../../server/engine/index.js';
import { pdfFonts, pdfPageCount, pdfText, squash } from '../../helpers/pdf.js';
import { docxFixture } from '../../helpers/fixtures.js';
import { assertValidPdf, countPixels, headerFooter, model, para, raster, render, run, section, word, words } from './helpers.js';

/** US Letter with Word 2003's 1.25-inch side margins: a 432 pt column (the docxtemplater examples' page). */
const LETTER: PageSetup = { width: 612, height: 792, margins: { top: 72, right: 90, bottom: 72, left: 90 } };

// ─── 1. page breaks ───────────────────────────────────────────────────────────────────────────────────────

test('a page break that ends a section adds no page; breaks before it still do', async () => {
  const trailing = await render(model([para('One'), { type: 'pageBreak' }, para('Two'), { type: 'pageBreak' }]));
  assert.equal(pdfPageCount(trailing), 2);
  assert.equal(squash(pdfText(trailing, { page: 2 })), 'Two');

  // Two breaks in a row at the end: the first still makes a (blank) page, as in Word.
  const twice = await render(model([para('One'), { type: 'pageBreak' }, { type: 'pageBreak' }]));
  assert.equal(pdfPageCount(twice), 2);

  // A section ending with a break: the next section starts on the very next page.
  const sections = await render(model([section([para('First section'), { type: 'pageBreak' }]), section([para('Second section')])]));
  assert.equal(pdfPageCount(sections), 2);
  assert.equal(squash(pdfText(sections, { page: 2 })), 'Second section');

  // A break followed by content still starts a page for it.
  const middle = await render(model([para('A'), { type: 'pageBreak' }, para('B')]));
  assert.equal(pdfPageCount(middle), 2);
  assert.equal(squash(pdfText(middle, { page: 2 })), 'B');
});

const productLoop = docxFixture('tag-product-loop');

test('tag-product-loop (each product ends with a page break) renders 2 pages, as Word and LibreOffice do', async () => {
  // No skip when the fixture is missing: like every other fixture test, a missing fixture is a failure.
  const compiled = compileTemplate({ kind: 'docx', bytes: fs.readFileSync(productLoop), delimiters: ['{', '}'] });
  assert.ok(compiled.ok, JSON.stringify(compiled.ok ? '' : compiled.errors));
  const pdf = await renderPdf(compiled.template, sampleData(compiled.fields));
  assert.equal(pdf.pages, 2);
  assert.equal(pdfPageCount(pdf.bytes), 2);
  assert.match(squash(pdfText(pdf.bytes, { page: 2 })), /^Title 2 Product name : Name 2/);
  // Its "Product name : Name" holds no-break spaces in Calibri: no fallback font for them (fix 4).
  assert.deepEqual(pdfFonts(pdf.bytes).map((f) => f.name.replace(/^[A-Z]{6}\+/, '')).sort(), ['Caladea-Bold', 'Caladea-Regular', 'Carlito-Regular']);
});

// ─── 2. decimal separators per locale ─────────────────────────────────────────────────────────────────────

test('decimal tabs align on the locale\'s separator, render after render, locales interleaved', async () => {
  const body = [
    para('\t1.5', { tabs: [{ pos: 200, align: 'decimal' }] }),
    para('\t12,75', { tabs: [{ pos: 200, align: 'decimal' }] }),
  ];
  for (const locale of ['de-DE', 'en-US', 'de-DE', 'en-US']) {
    const w = words(await render(model(body, { locale })));
    const x = (text: string): number => word(w, text).xMin;
    if (locale === 'de-DE') {
      // "12,75" aligned on its comma at 272 pt; "1.5" has no comma: it ends there.
      assert.ok(Math.abs(word(w, '1.5').xMax - 272) < 0.6, `${locale}: ${word(w, '1.5').xMax}`);
      assert.ok(x('12,75') < 272 && word(w, '12,75').xMax > 272, locale);
    } else {
      assert.ok(Math.abs(word(w, '12,75').xMax - 272) < 0.6, `${locale}: ${word(w, '12,75').xMax}`);
      assert.ok(x('1.5') < 272 && word(w, '1.5').xMax > 272, locale);
    }
  }
});

// ─── 3. font subsets shared across documents ──────────────────────────────────────────────────────────────

test('documents built at the same time share font subsets but not their glyph use', async () => {
  // The same characters (one subset, parsed and deflated once), drawn in different orders and sizes; a third
  // document with other characters; all rendered concurrently, twice.
  const texts = ['Съешь же ещё этих булок', 'булок этих ещё же Съешь', 'Привет, мир'];
  const docs = texts.map((t, i) => model([para(t, undefined, { font: 'Calibri', size: 12 + 6 * i })]));
  const rendered = await Promise.all([...docs, ...docs].map((m) => render(m)));
  rendered.forEach((bytes, i) => {
    assertValidPdf(bytes);
    assert.equal(squash(pdfText(bytes)), texts[i % 3]);
    const fonts = pdfFonts(bytes);
    assert.equal(fonts.length, 1, fonts.map((f) => f.name).join(', '));
    assert.match(fonts[0].name, /^[A-Z]{6}\+Carlito-Regular$/);
    assert.ok(fonts[0].embedded && fonts[0].subset);
    // The glyphs are really drawn (the shared, pre-deflated font program decodes): ink where the first word is.
    const first = word(words(bytes), texts[i % 3].split(' ')[0]);
    const ink = countPixels(raster(bytes, 1, 72), 72, { x: first.xMin, y: first.yMin, w: first.xMax - first.xMin, h: first.yMax - first.yMin },
      ([r, g, b]) => r + g + b < 300);
    assert.ok(ink > 10, `ink in "${texts[i % 3]}": ${ink}`);
  });
  // The same model renders to the same bytes but for the dates.
  const strip = (b: Uint8Array): string => Buffer.from(b).toString('latin1').replace(/D:\d{14}[^)]*/g, '').replace(/\/ID \[[^\]]*\]/, '');
  assert.equal(strip(rendered[0]), strip(rendered[3]));
});

// ─── 4. no-break space in the run's own font ──────────────────────────────────────────────────────────────

test('a no-break space in Calibri text is drawn with Carlito\'s space: no DejaVu, the same spacing, no break', async () => {
  const nbsp = await render(model([para('Product name\u00a0: Name 1', undefined, { font: 'Calibri' })]));
  const plain = await render(model([para('Product name : Name 1', undefined, { font: 'Calibri' })]));
  assert.deepEqual(pdfFonts(nbsp).map((f) => f.name.replace(/^[A-Z]{6}\+/, '')), ['Carlito-Regular']);
  const a = words(nbsp);
  const b = words(plain);
  for (const w of [':', 'Name', '1']) assert.ok(Math.abs(word(a, w).xMin - word(b, w).xMin) < 0.01, `${w}: ${word(a, w).xMin} vs ${word(b, w).xMin}`);

  // Hyphens Carlito lacks (U+2010, U+2011) are drawn as its hyphen-minus, in Carlito too.
  const hyphens = await render(model([para('well\u2010known non\u2011breaking', undefined, { font: 'Calibri' })]));
  assert.deepEqual(pdfFonts(hyphens).map((f) => f.name.replace(/^[A-Z]{6}\+/, '')), ['Carlito-Regular']);
  assert.equal(squash(pdfText(hyphens)), 'well-known non-breaking');

  // Still no break opportunity: in a column too narrow for "aaaa bbbb", the no-break space keeps them on one line.
  const narrow = { width: 200, height: 400, margins: { top: 36, right: 36, bottom: 36, left: 36 } };
  const kept = words(await render(model([section([para('xxxxxxxxxxxxxxxxxxxxxxxxxxx aaaa\u00a0bbbb', undefined, { font: 'Calibri', size: 11 })], { page: narrow })])));
  assert.equal(word(kept, 'aaaa').yMin, word(kept, 'bbbb').yMin);
});

// ─── 5. tab stops past the right margin ───────────────────────────────────────────────────────────────────

const WORD_FOOTER_TABS = { tabs: [{ pos: 234, align: 'center' as const }, { pos: 468, align: 'right' as const }] };

test('a right tab stop past the right margin is honoured up to the page edge (Word\'s footer at 468 pt in a 432 pt column)', async () => {
  const footer = para([run('Last name', { font: 'Calibri' }), run('\tFirst name\tPhone', { font: 'Calibri' })], WORD_FOOTER_TABS);
  const body = para('Body\tEnd', { tabs: [{ pos: 450, align: 'left' }] });
  const bytes = await render(model([section([body], { page: LETTER, footer: headerFooter([footer]) })]));
  const w = words(bytes);
  // Right-aligned on the stop: 90 + 468 = 558 pt from the page's left edge, 36 pt into the right margin.
  assert.ok(Math.abs(word(w, 'Phone').xMax - 558) < 0.6, `Phone ends at ${word(w, 'Phone').xMax}`);
  // "First name" centred on the stop at 234: 324 pt from the page's left edge.
  const first = word(w, 'First');
  const name = w.find((x) => x.text === 'name' && x.xMin > first.xMin)!;
  assert.ok(Math.abs((first.xMin + name.xMax) / 2 - 324) < 0.6, `centred at ${(first.xMin + name.xMax) / 2}`);
  assert.equal(word(w, 'Phone').yMin > 700, true, 'in the footer, on one line');
  // In the body too: after a left tab at 450 the word starts at 540, on the same line, in the margin.
  assert.ok(Math.abs(word(w, 'End').xMin - 540) < 0.6, `End starts at ${word(w, 'End').xMin}`);
  assert.equal(word(w, 'End').yMin, word(w, 'Body').yMin);
});

test('tab stops beyond the page edge, and beyond a table cell\'s edge, are still ignored', async () => {
  // 540 pt from the column = 630 pt from the page's left edge: past the 612 pt page; the tab falls back to a space.
  const past = words(await render(model([section([para('Left\tRight', { tabs: [{ pos: 540, align: 'right' }] })], { page: LETTER })])));
  assert.ok(word(past, 'Right').xMin < word(past, 'Left').xMax + 10, `Right at ${word(past, 'Right').xMin}`);
  // In a 200 pt cell, a right stop at 300 pt is past the cell: ignored (the text stays in the cell).
  const cell = words(await render(model([section([{
    type: 'table',
    columns: [200, 200],
    rows: [{ cells: [{ blocks: [para('In\tcell', { tabs: [{ pos: 300, align: 'right' }] })] }, { blocks: [para('Next')] }] }],
  }], { page: LETTER })])));
  assert.ok(word(cell, 'cell').xMax < word(cell, 'Next').xMin, `cell ends at ${word(cell, 'cell').xMax}, next cell at ${word(cell, 'Next').xMin}`);
});
