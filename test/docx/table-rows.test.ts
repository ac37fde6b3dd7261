/**
 * Table rows across pages, read from real .docx files: geometry from the layout as data (docxPages), the split
 * row also checked in the PDF (pdftotext -bbox).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { buildDocx, p } from './build-docx.js';
import { docxPages, findText, textBoxes } from '../engine/pdf/boxes.js';
import { words } from '../engine/pdf/helpers.js';

const CORPUS = process.env.DOCLOOM_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/docx');

/** 40 filler paragraphs (most of an A4 page), then a table: a header row and a row of `lines` paragraphs. */
function tableDoc(lines: number, trPr = ''): Uint8Array {
  let body = '';
  for (let i = 1; i <= 40; i++) body += p(`Filler paragraph ${i}`);
  const cell = (content: string): string => `<w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr>${content}</w:tc>`;
  let tall = '';
  for (let i = 1; i <= lines; i++) tall += p(`Cell line ${i}`);
  body += '<w:tbl><w:tblPr><w:tblW w:w="8000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="4000"/><w:gridCol w:w="4000"/></w:tblGrid>' +
    `<w:tr><w:trPr><w:tblHeader/></w:trPr>${cell(p('Heading A'))}${cell(p('Heading B'))}</w:tr>` +
    `<w:tr>${trPr ? `<w:trPr>${trPr}</w:trPr>` : ''}${cell(tall)}${cell(p('Beside'))}</w:tr>` +
    `<w:tr>${cell(p('After row'))}${cell(p('x'))}</w:tr></w:tbl>`;
  return buildDocx({ body: body + p('') });
}

test('a row taller than the rest of the page splits between lines; the header row repeats above the rest', async () => {
  const bytes = tableDoc(20);
  const pages = await docxPages(bytes);
  assert.equal(pages.length, 2);
  const first = findText(pages, 'Cell line 1');
  const last = findText(pages, 'Cell line 20');
  assert.equal(first.page, 1, 'the row starts on the page where the table starts');
  assert.equal(last.page, 2);
  const headings = textBoxes(pages).filter((b) => b.text === 'Heading A');
  assert.deepEqual(headings.map((b) => b.page), [1, 2], 'header row on both pages');
  const onTwo = textBoxes(pages).filter((b) => b.page === 2 && b.text.startsWith('Cell line'));
  assert.ok(onTwo.length > 0 && onTwo.length < 20);
  // Below the repeated header, in reading order.
  assert.ok(onTwo[0].y > headings[1].y);
  // Every line once, none lost at the cut.
  assert.equal(textBoxes(pages).filter((b) => b.text.startsWith('Cell line')).length, 20);
  // The PDF agrees: the row's first and last lines on different pages.
  const compiled = compileTemplate({ kind: 'docx', bytes });
  assert.ok(compiled.ok);
  const all = words((await renderPdf(compiled.template, {})).bytes);
  const lineWords = all.filter((w) => /^\d+$/.test(w.text) && all.some((v) => v.page === w.page && v.text === 'line' && Math.abs(v.yMin - w.yMin) < 1));
  assert.deepEqual([...new Set(lineWords.map((w) => w.page))], [1, 2]);
});

test('a row with w:cantSplit moves to the next page whole', async () => {
  const pages = await docxPages(tableDoc(20, '<w:cantSplit/>'));
  assert.equal(findText(pages, 'Cell line 1').page, 2);
  assert.equal(findText(pages, 'Cell line 20').page, 2);
  assert.equal(findText(pages, 'Beside').page, 2);
  // Its header row went with it: the table starts on page 2.
  assert.deepEqual(textBoxes(pages).filter((b) => b.text === 'Heading A').map((b) => b.page), [2]);
});

test('w:cantSplit w:val="0" lets the row split', async () => {
  const pages = await docxPages(tableDoc(20, '<w:cantSplit w:val="0"/>'));
  assert.equal(findText(pages, 'Cell line 1').page, 1);
  assert.equal(findText(pages, 'Cell line 20').page, 2);
});

test('a row that cannot split but is taller than a page splits all the same', async () => {
  const pages = await docxPages(tableDoc(80, '<w:cantSplit/>'));
  assert.equal(textBoxes(pages).filter((b) => b.text.startsWith('Cell line')).length, 80);
  const used = new Set(textBoxes(pages).filter((b) => b.text.startsWith('Cell line')).map((b) => b.page));
  assert.ok(used.size >= 2);
  for (const page of pages) for (const b of page.boxes) if (b.kind === 'text') assert.ok(b.y < page.height - 72 + 0.01, `"${b.text}" below the margin`);
});

/** A one-column table of three rows; the middle one holds `lines` paragraphs and has the given w:trHeight. */
function heightDoc(lines: number, trHeight: string): Uint8Array {
  const cell = (content: string): string => `<w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr>${content}</w:tc>`;
  let middle = '';
  for (let i = 1; i <= lines; i++) middle += p(`Middle ${i}`);
  const body = '<w:tbl><w:tblPr><w:tblW w:w="4000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid>' +
    `<w:tr>${cell(p('Above'))}</w:tr><w:tr><w:trPr>${trHeight}</w:trPr>${cell(middle)}</w:tr><w:tr>${cell(p('Below'))}</w:tr></w:tbl>`;
  return buildDocx({ body: body + p('') });
}

test('w:trHeight: at least its height (the default rule), exactly it with hRule="exact" (what does not fit is cut)', async () => {
  const gap = async (lines: number, trHeight: string): Promise<{ gap: number; shown: number }> => {
    const pages = await docxPages(heightDoc(lines, trHeight));
    const shown = textBoxes(pages).filter((b) => b.text.startsWith('Middle')).length;
    return { gap: findText(pages, 'Below').y - findText(pages, 'Above').y, shown };
  };
  const plain = await gap(1, '');
  // 2 inches (2880 twips = 144 pt) at least: the row grows to 144 pt.
  const atLeast = await gap(1, '<w:trHeight w:val="2880"/>');
  assert.ok(atLeast.gap > plain.gap + 100, `${atLeast.gap} vs ${plain.gap}`);
  // At least, with more content than that: the content decides.
  const grown = await gap(20, '<w:trHeight w:val="2880"/>');
  assert.equal(grown.shown, 20);
  assert.ok(grown.gap > atLeast.gap + 50, `${grown.gap} vs ${atLeast.gap}`);
  // Exactly 144 pt, whatever the content: the rows below do not move, and only the lines that fit are shown.
  const exact = await gap(20, '<w:trHeight w:val="2880" w:hRule="exact"/>');
  const exactOne = await gap(1, '<w:trHeight w:val="2880" w:hRule="exact"/>');
  assert.ok(Math.abs(exact.gap - exactOne.gap) < 0.01, `${exact.gap} vs ${exactOne.gap}`);
  assert.ok(Math.abs(exactOne.gap - atLeast.gap) < 0.01);
  assert.ok(exact.shown > 1 && exact.shown < 20, `${exact.shown} lines shown`);
  // hRule="auto": the value is ignored.
  const auto = await gap(1, '<w:trHeight w:val="2880" w:hRule="auto"/>');
  assert.ok(Math.abs(auto.gap - plain.gap) < 0.01);
});

/** A one-cell table holding a nested table of `rows` rows (each "Nested row N"), then "After outer". */
function nestedDoc(rows: number): Uint8Array {
  const tc = (w: number, content: string): string => `<w:tc><w:tcPr><w:tcW w:w="${w}" w:type="dxa"/></w:tcPr>${content}</w:tc>`;
  let inner = '<w:tbl><w:tblPr><w:tblW w:w="6000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>';
  for (let i = 1; i <= rows; i++) inner += `<w:tr>${tc(3000, p(`Nested row ${i}`))}${tc(3000, p(`Right ${i}`))}</w:tr>`;
  inner += '</w:tbl>';
  const outer = '<w:tbl><w:tblPr><w:tblW w:w="8000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="8000"/></w:tblGrid>' +
    `<w:tr>${tc(8000, p('Outer start') + inner + p('Outer end'))}</w:tr></w:tbl>`;
  return buildDocx({ body: outer + p('After outer') });
}

test('a nested table taller than a page continues on the next page between its rows (not clipped at the foot)', async () => {
  const pages = await docxPages(nestedDoc(120));
  const rows = textBoxes(pages).filter((b) => b.text.startsWith('Nested row'));
  assert.equal(rows.length, 120, 'every nested row drawn once');
  assert.ok(pages.length >= 3, `${pages.length} pages`);
  const pageOf = (n: number): number => findText(pages, `Nested row ${n}`).page;
  assert.equal(pageOf(1), 1);
  assert.ok(pageOf(120) >= 3);
  // Rows keep their order and no row is drawn below the page's bottom margin (841.9 − 72 pt).
  for (let n = 2; n <= 120; n++) assert.ok(pageOf(n) >= pageOf(n - 1));
  for (const b of rows) assert.ok(b.y < 841.9 - 72, `row at y ${b.y} on page ${b.page}`);
  // Each row's right cell on the same page as its left one.
  for (const n of [1, 60, 120]) assert.equal(findText(pages, `Right ${n}`).page, pageOf(n));
  assert.equal(findText(pages, 'Outer end').page, pageOf(120));
  assert.ok(findText(pages, 'After outer').page >= pageOf(120));
});

test('corpus: the 017097 job posting (its whole text in one cell, nested tables inside) runs over many pages, none clipped', { skip: !fs.existsSync(path.join(CORPUS, 'tika__017097.docx')) && 'no corpus' }, async () => {
  const pages = await docxPages(new Uint8Array(fs.readFileSync(path.join(CORPUS, 'tika__017097.docx'))));
  // LibreOffice 7.4 with docloom's fonts: 15 pages; before nested tables were cut, docloom clipped it to 3.
  assert.ok(pages.length >= 13 && pages.length <= 19, `${pages.length} pages`);
  assert.ok(findText(pages, 'Qualifications:').page > 2);
});

/** 40 filler paragraphs, then a table whose first cell spans `rows` rows (vMerge) and holds `lines` paragraphs. */
function spanDoc(rows: number, lines: number): Uint8Array {
  let body = '';
  for (let i = 1; i <= 40; i++) body += p(`Filler paragraph ${i}`);
  const cell = (content: string, tcPr = ''): string => `<w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/>${tcPr}</w:tcPr>${content}</w:tc>`;
  let tall = '';
  for (let i = 1; i <= lines; i++) tall += p(`Span line ${i}`);
  let trs = '';
  for (let r = 1; r <= rows; r++) {
    const first = r === 1 ? cell(tall, '<w:vMerge w:val="restart"/>') : cell(p(''), '<w:vMerge/>');
    trs += `<w:tr>${first}${cell(p(`Row ${r}`))}</w:tr>`;
  }
  body += `<w:tbl><w:tblPr><w:tblW w:w="8000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="4000"/><w:gridCol w:w="4000"/></w:tblGrid>${trs}</w:tbl>`;
  return buildDocx({ body: body + p('') });
}

test('rows tied by a vertically merged cell break between them at the page foot; the merged cell goes on below', async () => {
  const pages = await docxPages(spanDoc(24, 30));
  assert.equal(pages.length, 2);
  // The rows that fit stay on page 1 with the merged cell's first lines, as in Word and LibreOffice (before: all
  // all 24 rows moved to page 2 with the cell).
  assert.equal(findText(pages, 'Row 1').page, 1);
  assert.equal(findText(pages, 'Span line 1').page, 1);
  assert.equal(findText(pages, 'Row 24').page, 2);
  assert.equal(findText(pages, 'Span line 30').page, 2);
  // Every line of the merged cell once, in order; on page 2 it goes on at the top of the row below the cut.
  const span = textBoxes(pages).filter((b) => b.text.startsWith('Span line'));
  assert.deepEqual(span.map((b) => b.text), Array.from({ length: 30 }, (_, i) => `Span line ${i + 1}`));
  const firstOnTwo = span.find((b) => b.page === 2);
  const rowsOnTwo = textBoxes(pages).filter((b) => b.page === 2 && b.text.startsWith('Row '));
  assert.ok(firstOnTwo && rowsOnTwo.length > 0);
  assert.ok(Math.abs(firstOnTwo.y - rowsOnTwo[0].y) < 0.5, 'the rest of the merged cell starts level with the first row below the cut');
  // Nothing drawn below the page's text area on page 1.
  const onOne = textBoxes(pages).filter((b) => b.page === 1);
  assert.ok(Math.max(...onOne.map((b) => b.y)) < 841.9 - 72);
});

test('corpus: a week of rows merged down the first columns starts on page 1, as in LibreOffice (docx2python__Weekly_Schedule)', { skip: !fs.existsSync(CORPUS) && 'corpus not found' }, async () => {
  const pages = await docxPages(fs.readFileSync(path.join(CORPUS, 'docx2python__Weekly_Schedule.docx')));
  // LibreOffice: "1/26" (week 4, merged over its rows) and "Test 1" are on page 1; the week's last rows on page 2.
  assert.equal(findText(pages, '1/26').page, 1);
  assert.equal(findText(pages, 'Test 1').page, 1);
  assert.equal(pages.length, 5);
});

test('a row whose w:trHeight does not fit in the room left moves to the next page whole, as in Word', async () => {
  // 20 lines of about 14 pt with at least 400 pt set: after 40 filler paragraphs only a few lines fit.
  const pages = await docxPages(tableDoc(20, '<w:trHeight w:val="8000"/>'));
  assert.equal(findText(pages, 'Cell line 1').page, 2, 'its first line starts the next page');
  assert.equal(findText(pages, 'Cell line 20').page, 2);
  // Content taller than the set height still splits where the height fits: 40 lines over a 100 pt minimum.
  const split = await docxPages(tableDoc(40, '<w:trHeight w:val="2000"/>'));
  assert.equal(findText(split, 'Cell line 1').page, 1);
  assert.equal(findText(split, 'Cell line 40').page, 2);
});

test('corpus: aspose__Merged_table moves its 403 pt row to page 2, where Word\'s lastRenderedPageBreak mark is (4 pages, as LibreOffice)', { skip: !fs.existsSync(path.join(CORPUS, 'aspose__Merged_table.docx')) && 'no corpus' }, async () => {
  const bytes = new Uint8Array(fs.readFileSync(path.join(CORPUS, 'aspose__Merged_table.docx')));
  const compiled = compileTemplate({ kind: 'docx', bytes });
  assert.ok(compiled.ok);
  const pdf = (await renderPdf(compiled.template, {})).bytes;
  const all = words(pdf);
  assert.equal(new Set(all.map((w) => w.page)).size, 4);
  const first = (text: string): number => all.find((w) => w.text.startsWith(text))?.page ?? -1;
  assert.equal(first('研究设计'), 2, 'the row with w:trHeight 8070 starts page 2');
});

test('a merged cell more than half a page tall but shorter than a page stays one cell: its centred text sits in the middle of its rows', async () => {
  // aspose__Rotated_cell_text: one cell merged (vMerge) over rows 413 pt tall together, vAlign center. It used to
  // be broken into ordinary cells above half a page, its text left in the first row.
  const cell = (merge: string, content: string): string => `<w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/><w:vMerge${merge}/><w:vAlign w:val="center"/></w:tcPr>${content}</w:tc>`;
  const row = (twips: number, merge: string, content: string): string => `<w:tr><w:trPr><w:trHeight w:val="${twips}"/></w:trPr>${cell(merge, content)}</w:tr>`;
  let rows = row(1600, ' w:val="restart"', p('Merged and centred'));
  for (let i = 0; i < 4; i++) rows += row(1600, '', p(''));
  const body = p('Above the table') + `<w:tbl><w:tblPr><w:tblW w:w="4000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid>${rows}</w:tbl>` + p('Below the table');
  const pages = await docxPages(buildDocx({ body }));
  assert.equal(pages.length, 1);
  const above = findText(pages, 'Above');
  const below = findText(pages, 'Below');
  const merged = findText(pages, 'Merged');
  // Five rows of 80 pt: 400 pt together (A4's body is ~698 pt, half of it ~349 pt). Baselines (y) are compared.
  assert.ok(below.y - above.y >= 400, `the rows keep their 400 pt (${below.y - above.y})`);
  const fromTop = merged.y - above.y;
  assert.ok(fromTop > 180 && fromTop < 230, `centred over the five rows, about 205 pt below the line above: ${fromTop}`);
});
