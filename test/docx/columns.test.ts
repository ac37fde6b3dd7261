/**
 * Newspaper columns (w:cols): text fills column 1 then column 2 of the same page, a column break moves on to the
 * next column, the line between columns (w:sep) is drawn, unequal widths are honoured, and a section that ends in
 * a continuous section break evens out its columns with the next section's text below them on the same page.
 * Read back from the PDF with pdftotext -bbox (and the layout data for the separator line), on built files and on
 * corpus files nobody here wrote.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { docxPages } from '../engine/pdf/boxes.js';
import { word, words, type Word } from '../engine/pdf/helpers.js';
import { buildDocx, p } from './build-docx.js';

const CORPUS = process.env.DOCLOOM_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/docx');
const DELIMITERS = ['\u0001<<', '>>\u0001'] as const;

/** A4, 1-inch margins (content 451.3 pt wide): 2 columns of 207.6 pt, 36 pt apart. */
const sect = (cols: string, type = ''): string =>
  `<w:sectPr>${type}<w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/>${cols}</w:sectPr>`;
const TWO = '<w:cols w:num="2" w:space="720"/>';
const LEFT = 72;
const MIDDLE = 72 + 451.3 / 2;
/** A 2-inch column, a half-inch gap, a 3.77-inch column (oxsdk__complex2010's "Left Small Column, Right Wide Column"). */
const UNEQUAL = '<w:cols w:num="2" w:space="720" w:equalWidth="0"><w:col w:w="2880" w:space="720"/><w:col w:w="5426"/></w:cols>';
const WIDE_LEFT = LEFT + 144 + 36;
/** Lines a column's words sit on. */
const rowsOf = (ws: Word[]): number => new Set(ws.map((w) => Math.round(w.yMin))).size;

async function pdfWords(bytes: Uint8Array): Promise<{ all: Word[]; pages: number }> {
  const compiled = compileTemplate({ kind: 'docx', bytes, delimiters: DELIMITERS });
  assert.ok(compiled.ok, JSON.stringify(compiled));
  assert.deepEqual(compiled.warnings, []);
  const pdf = await renderPdf(compiled.template, {});
  return { all: words(pdf.bytes), pages: pdf.pages };
}

test('two columns: the text goes on at the top of column 2, right of column 1, on the same page', async () => {
  const paragraphs = Array.from({ length: 80 }, (_, i) => p(`Line${i} of the text flowing down the columns`)).join('');
  const { all, pages } = await pdfWords(buildDocx({ body: paragraphs, sectPr: sect(TWO) }));
  assert.equal(pages, 1, 'two columns hold what one column could not');
  const first = word(all, 'Line0');
  const inSecond = all.filter((w) => /^Line\d+$/.test(w.text) && w.xMin > MIDDLE);
  assert.ok(inSecond.length > 10, 'column 2 holds lines');
  const top2 = inSecond.reduce((a, w) => (w.yMin < a.yMin ? w : a));
  assert.ok(Math.abs(top2.yMin - first.yMin) < 1, `column 2 starts at column 1's top: ${top2.yMin} vs ${first.yMin}`);
  const inFirst = all.filter((x) => /^Line\d+$/.test(x.text) && x.xMin < MIDDLE);
  assert.equal(Number(top2.text.slice(4)), inFirst.length, 'column 2 goes on where column 1 ends');
  for (const w of inFirst) assert.ok(w.xMax < MIDDLE, `${w.text} stays in column 1`);
  assert.ok(Math.abs(first.xMin - LEFT) < 1);
  assert.ok(Math.abs(top2.xMin - (LEFT + (451.3 - 36) / 2 + 36)) < 1, `column 2 at ${top2.xMin}`);
});

test('a column break moves on to the next column; the separator line is drawn between the columns', async () => {
  const body = `<w:p><w:r><w:t>Alpha</w:t></w:r><w:r><w:br w:type="column"/></w:r><w:r><w:t>Beta</w:t></w:r></w:p>` + p('Gamma');
  const bytes = buildDocx({ body, sectPr: sect('<w:cols w:num="2" w:space="720" w:sep="1"/>') });
  const { all, pages } = await pdfWords(bytes);
  assert.equal(pages, 1);
  const alpha = word(all, 'Alpha');
  const beta = word(all, 'Beta');
  assert.ok(beta.xMin > MIDDLE && alpha.xMax < MIDDLE, `Beta right of Alpha: ${alpha.xMin} → ${beta.xMin}`);
  assert.ok(Math.abs(beta.yMin - alpha.yMin) < 1, 'same line height on the page');
  assert.ok(word(all, 'Gamma').xMin > MIDDLE, 'the next paragraph goes on in column 2');

  const laid = await docxPages(bytes);
  const rule = laid[0].boxes.find((b) => b.kind === 'line' && b.x1 === b.x2);
  assert.ok(rule && rule.kind === 'line', 'a vertical line');
  assert.ok(Math.abs(rule.x1 - MIDDLE) < 0.5, `in the middle of the gap: ${rule.x1}`);
});

test('unequal columns (w:col) are placed at their own widths', async () => {
  const cols = '<w:cols w:num="2" w:space="720" w:equalWidth="0"><w:col w:w="2880" w:space="720"/><w:col w:w="5426"/></w:cols>';
  const body = `<w:p><w:r><w:t>Narrow</w:t></w:r><w:r><w:br w:type="column"/></w:r><w:r><w:t>Wide</w:t></w:r></w:p>`;
  const { all } = await pdfWords(buildDocx({ body, sectPr: sect(cols) }));
  // Column 2 starts after 2 inches and a half-inch gap.
  assert.ok(Math.abs(word(all, 'Wide').xMin - (LEFT + 144 + 36)) < 1, `${word(all, 'Wide').xMin}`);
});

test('unequal columns: each paragraph is laid out at the width of its column, and a paragraph that goes on in a wider one is wrapped at that width there', async () => {
  // 2 inches, a half-inch gap, the rest (about 3.77 inches).
  const cols = '<w:cols w:num="2" w:space="720" w:equalWidth="0"><w:col w:w="2880" w:space="720"/><w:col w:w="5426"/></w:cols>';
  const narrow = 144;
  const wideLeft = LEFT + 144 + 36;
  const wideRight = wideLeft + 5426 / 20;
  const text = Array.from({ length: 420 }, (_, i) => `w${i}`).join(' ');
  const { all } = await pdfWords(buildDocx({ body: p(text), sectPr: sect(cols) }));
  const ws = all.filter((w) => /^w\d+$/.test(w.text));
  const first = ws.filter((w) => w.page === 1 && w.xMin < wideLeft - 1);
  const second = ws.filter((w) => w.page === 1 && w.xMin >= wideLeft - 1);
  assert.ok(first.length > 0 && second.length > 0, 'the paragraph runs from column 1 into column 2');
  for (const w of first) assert.ok(w.xMax <= LEFT + narrow + 0.5, `${w.text} stays in the narrow column: ${w.xMax}`);
  const reach = Math.max(...second.map((w) => w.xMax));
  assert.ok(reach > wideLeft + narrow + 60 && reach <= wideRight + 0.5, `column 2's lines fill its ${wideRight - wideLeft} pt: reach ${reach}`);
  // The words go on in order: column 2 starts with the word after column 1's last.
  const next = (ws2: typeof ws): number => Math.min(...ws2.map((w) => Number(w.text.slice(1))));
  assert.equal(next(second), Math.max(...first.map((w) => Number(w.text.slice(1)))) + 1);
  // A paragraph wholly in the wide column (after a column break) is laid out at its width too.
  const broken = `<w:p><w:r><w:t>Before</w:t><w:br w:type="column"/></w:r></w:p>` + p(Array.from({ length: 60 }, (_, i) => `v${i}`).join(' '));
  const vs = (await pdfWords(buildDocx({ body: broken, sectPr: sect(cols) }))).all.filter((w) => /^v\d+$/.test(w.text));
  assert.ok(vs.length === 60 && Math.max(...vs.map((w) => w.xMax)) > wideLeft + narrow + 60, "the wide column's own paragraph is wide");
});

test('unequal columns: a shaded paragraph that goes on in a wider column is shaded to that column\'s edge there', async () => {
  const text = Array.from({ length: 420 }, (_, i) => `w${i}`).join(' ');
  const shaded = p(text, '<w:shd w:val="clear" w:color="auto" w:fill="FFFF00"/>');
  const pages = await docxPages(buildDocx({ body: shaded, sectPr: sect(UNEQUAL) }));
  const fills = pages[0].boxes.filter((b) => b.kind === 'fill');
  const [first, second] = [fills.find((f) => Math.abs(f.x - LEFT) < 0.5), fills.find((f) => Math.abs(f.x - WIDE_LEFT) < 0.5)];
  assert.ok(first && second, `a fill in each column: ${fills.map((f) => `${f.x}+${f.w}`).join(', ')}`);
  assert.ok(Math.abs(first.w - 144) < 0.5, `column 1's shading is its 144 pt: ${first.w}`);
  assert.ok(Math.abs(second.w - 5426 / 20) < 0.5, `column 2's shading is its ${5426 / 20} pt, not column 1's: ${second.w}`);
});

test('unequal columns before a continuous break are balanced on the lines as wrapped in each column', async () => {
  // oxsdk__complex2010's "Left Small Column, Right Wide Column": one paragraph over a 2-inch and a 3.77-inch
  // column. Balanced on the narrow layout, column 1 took 14 lines and the wide one 5; wrapped per column, the two
  // end at the same height (LibreOffice: 9 and 9).
  const cols = '<w:cols w:num="2" w:space="720" w:equalWidth="0"><w:col w:w="2880" w:space="720"/><w:col w:w="5426"/></w:cols>';
  const text = Array.from({ length: 120 }, (_, i) => `w${i}`).join(' ');
  const body = p(text) + `<w:p><w:pPr>${sect(cols)}</w:pPr></w:p>` + p('After the columns');
  const { all, pages } = await pdfWords(buildDocx({ body, sectPr: sect('', '<w:type w:val="continuous"/>') }));
  assert.equal(pages, 1);
  const ws = all.filter((w) => /^w\d+$/.test(w.text));
  const wideLeft = LEFT + 144 + 36;
  const rows = (side: Word[]): number => new Set(side.map((w) => Math.round(w.yMin))).size;
  const [left, right] = [rows(ws.filter((w) => w.xMin < wideLeft - 1)), rows(ws.filter((w) => w.xMin >= wideLeft - 1))];
  assert.ok(right > 0 && Math.abs(left - right) <= 1, `the columns end together: ${left} and ${right} lines`);
  const lowest = Math.max(...ws.map((w) => w.yMax));
  assert.ok(word(all, 'After').yMin > lowest, 'the next section below both');
});

test('a section before a continuous section break balances its columns; the next section follows below them', async () => {
  const items = Array.from({ length: 10 }, (_, i) => p(`Item${i}`)).join('');
  const body = items + `<w:p><w:pPr>${sect(TWO)}</w:pPr></w:p>` + p('After the columns');
  const { all, pages } = await pdfWords(buildDocx({ body, sectPr: sect('<w:cols w:space="720"/>', '<w:type w:val="continuous"/>') }));
  assert.equal(pages, 1);
  const col1 = all.filter((w) => /^Item\d$/.test(w.text) && w.xMin < MIDDLE);
  const col2 = all.filter((w) => /^Item\d$/.test(w.text) && w.xMin > MIDDLE);
  // Ten lines: the paragraph that holds only the section's properties takes none before a continuous break (Word
  // splits oxsdk__complex2010's four paragraphs and such a mark two and two; LibreOffice drops the paragraph).
  assert.deepEqual([col1.length, col2.length], [5, 5]);
  const after = word(all, 'After');
  const lowest = Math.max(...col1.concat(col2).map((w) => w.yMax));
  const pitch = col1[1].yMin - col1[0].yMin;
  assert.ok(after.yMin > lowest, 'below both columns');
  assert.ok(after.yMin < lowest + pitch, `the next line, no empty one between: ${after.yMin} vs ${lowest} (line ${pitch})`);
  assert.ok(Math.abs(after.xMin - LEFT) < 1, 'one column again');
});

test('a section mark that is all its section holds, or that ends a section before a new page, keeps its line', async () => {
  const CONTINUOUS = '<w:type w:val="continuous"/>';
  const mark = (cols: string, type = ''): string => `<w:p><w:pPr>${sect(cols, type)}</w:pPr></w:p>`;
  // A two-column section of nothing but its mark, between two continuous breaks: its empty line stays.
  const body = p('Top') + mark('') + mark(TWO, CONTINUOUS) + p('Bottom');
  const { all, pages } = await pdfWords(buildDocx({ body, sectPr: sect('', CONTINUOUS) }));
  assert.equal(pages, 1);
  const alone = word(all, 'Bottom').yMin - word(all, 'Top').yMin;
  const { all: plain } = await pdfWords(buildDocx({ body: p('Top') + p('Bottom') }));
  const pitch = word(plain, 'Bottom').yMin - word(plain, 'Top').yMin;
  assert.ok(Math.abs(alone - 2 * pitch) < 0.5, `Top, the lone mark's empty line, Bottom: ${alone} vs a line of ${pitch}`);
  // Before a section that starts on a new page the mark is an ordinary empty paragraph.
  const paged = await pdfWords(buildDocx({ body: p('One') + mark('') + p('Two'), sectPr: sect('') }));
  assert.equal(paged.pages, 2);
});

test('corpus: continuous sections with 2, 1 and 3 columns on one page, as LibreOffice lays them out', { skip: !fs.existsSync(path.join(CORPUS, 'docx2pdf__ContinuousSectionsWithMultipleColumns.docx')) && 'no corpus' }, async () => {
  const bytes = fs.readFileSync(path.join(CORPUS, 'docx2pdf__ContinuousSectionsWithMultipleColumns.docx'));
  const { all, pages } = await pdfWords(bytes);
  assert.equal(pages, 2);
  const first = all.filter((w) => w.text === 'First');
  assert.equal(first.length, 2);
  assert.ok(Math.abs(first[0].yMin - first[1].yMin) < 1 && first[1].xMin > first[0].xMin + 200, 'columns 1 and 2 side by side');
  const single = word(all, 'single');
  assert.equal(single.page, 1);
  assert.ok(single.yMin > first[0].yMax, 'the single-column section below');
  const column2 = word(all, 'column2');
  const col = word(all, 'col');
  assert.equal(column2.page, 1);
  assert.ok(column2.yMin > single.yMax && Math.abs(col.yMin - column2.yMin) < 1 && col.xMin > column2.xMin + 100, 'three columns below it');
});

test('a table taller than a column goes on at the top of column 2, beside column 1, not over it', async () => {
  const row = (i: number): string => `<w:tr><w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr>${p(`Row${i}`)}</w:tc></w:tr>`;
  const table = `<w:tbl><w:tblPr><w:tblW w:w="2000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid>${Array.from({ length: 70 }, (_, i) => row(i)).join('')}</w:tbl>`;
  const { all, pages } = await pdfWords(buildDocx({ body: table + p('After'), sectPr: sect(TWO) }));
  assert.equal(pages, 1, 'two columns hold the rows one column could not');
  const rows = all.filter((w) => /^Row\d+$/.test(w.text));
  assert.equal(rows.length, 70);
  const second = rows.filter((w) => w.xMin > MIDDLE);
  assert.ok(second.length > 5, `rows in column 2: ${second.length}`);
  const first = rows.filter((w) => w.xMin < MIDDLE);
  const top2 = second.reduce((a, w) => (w.yMin < a.yMin ? w : a));
  assert.ok(Math.abs(top2.yMin - word(all, 'Row0').yMin) < 1, `column 2 starts at the top: ${top2.yMin}`);
  assert.equal(Number(top2.text.slice(3)), first.length, 'column 2 goes on with the next row');
  // No two rows drawn on the same spot.
  const spots = new Set(rows.map((w) => `${Math.round(w.xMin)},${Math.round(w.yMin)}`));
  assert.equal(spots.size, rows.length, 'every row has its own place');
});

test('corpus: a table over two columns and two pages reads in order, its second column beside the first', { skip: !fs.existsSync(path.join(CORPUS, 'docx2pdf__TableOverSectionColumnsOverPages.docx')) && 'no corpus' }, async () => {
  const bytes = new Uint8Array(fs.readFileSync(path.join(CORPUS, 'docx2pdf__TableOverSectionColumnsOverPages.docx')));
  const { all, pages } = await pdfWords(bytes);
  assert.equal(pages, 2);
  const other = word(all, 'Some');
  assert.equal(other.page, 1);
  assert.ok(other.xMin > 300, `"Some other text" in the right-hand column: ${other.xMin}`);
  const page1 = all.filter((w) => w.page === 1);
  const clash = page1.filter((a) => page1.some((b) => b !== a && Math.abs(a.yMin - b.yMin) < 2 && a.xMin < b.xMax - 1 && b.xMin < a.xMax - 1));
  assert.deepEqual(clash.map((w) => w.text), [], 'no word drawn over another');
});

test('a balanced section that runs onto a second page evens out its columns there, not only on its first page', async () => {
  const THREE = '<w:cols w:num="3" w:space="720"/>';
  // 46 lines of one column push the section's start near page 1's foot; its 75 items fill page 1's three
  // columns (fourteen lines each) and go on over page 2, where Word balances them (oxsdk__complex2010's page 2).
  const before = Array.from({ length: 46 }, (_, i) => p(`Lead${i}`)).join('');
  const items = Array.from({ length: 75 }, (_, i) => p(`Item${i}`)).join('');
  const body = before + `<w:p><w:pPr>${sect('')}</w:pPr></w:p>` + items + `<w:p><w:pPr>${sect(THREE, '<w:type w:val="continuous"/>')}</w:pPr></w:p>` + p('After the columns');
  const { all, pages } = await pdfWords(buildDocx({ body, sectPr: sect('', '<w:type w:val="continuous"/>') }));
  assert.equal(pages, 2);
  const onPage = (n: number): Word[] => all.filter((w) => w.page === n && /^Item\d+$/.test(w.text));
  const third = 451.3 / 3;
  const counts = (ws: Word[]): number[] => [0, 1, 2].map((c) => ws.filter((w) => w.xMin >= LEFT + c * third - 1 && w.xMin < LEFT + (c + 1) * third - 1).length);
  const [p1, p2] = [counts(onPage(1)), counts(onPage(2))];
  assert.ok(p1.every((n) => n > 0), `page 1's three columns are filled: ${p1}`);
  assert.equal(p1.reduce((a, n) => a + n, 0) + p2.reduce((a, n) => a + n, 0), 75);
  assert.ok(Math.max(...p2) - Math.min(...p2) <= 1, `page 2's columns even: ${p2}`);
  const after = word(all, 'After');
  assert.equal(after.page, 2);
  const lowest = Math.max(...onPage(2).map((w) => w.yMax));
  assert.ok(after.yMin > lowest && after.yMin < lowest + 20, `the next section right below the columns: ${after.yMin} vs ${lowest}`);
});

test('a balanced section whose paragraph goes on over the page evens out the rest of it on the next page, as each column wraps it', async () => {
  // One paragraph of 1,400 words: page 1's two columns full, the rest split evenly on page 2. The rest was counted
  // from the first line of page 1's last column (placed already), and in columns of different widths from the
  // block's own lines (laid out at the narrowest width) at the index of the lines placed (each column's width):
  // page 2's first column full, the second short or empty, the next section on a page of its own.
  const text = Array.from({ length: 1400 }, (_, i) => `w${i}`).join(' ');
  for (const [what, cols, split] of [['equal', TWO, MIDDLE], ['unequal', UNEQUAL, WIDE_LEFT - 1]] as const) {
    const body = p(text) + `<w:p><w:pPr>${sect(cols)}</w:pPr></w:p>` + p('After the columns');
    const { all, pages } = await pdfWords(buildDocx({ body, sectPr: sect('', '<w:type w:val="continuous"/>') }));
    assert.equal(pages, 2, what);
    const ws = all.filter((w) => /^w\d+$/.test(w.text));
    assert.equal(ws.length, 1400, `${what}: every word once`);
    const page2 = ws.filter((w) => w.page === 2);
    const [left, right] = [rowsOf(page2.filter((w) => w.xMin < split)), rowsOf(page2.filter((w) => w.xMin >= split))];
    assert.ok(right > 0 && Math.abs(left - right) <= 1, `${what}: page 2's columns even: ${left} and ${right} lines`);
    assert.equal(word(all, 'After').page, 2, what);
  }
});

test('unequal columns: a paragraph far longer than a page is laid out again per column only up to a bound, then cut to the narrowest column', async () => {
  // Each column of another width lays the whole paragraph out again: 20,000 words over 56 columns took 5 s. Past
  // 20,000 lines laid out again (body.ts MAX_RELAID_LINES) the rest is cut to the narrowest column, which fits all.
  const text = Array.from({ length: 20000 }, (_, i) => `w${i}`).join(' ');
  const { all, pages } = await pdfWords(buildDocx({ body: p(text), sectPr: sect(UNEQUAL) }));
  const ws = all.filter((w) => /^w\d+$/.test(w.text));
  assert.deepEqual(ws.map((w) => Number(w.text.slice(1))), Array.from({ length: 20000 }, (_, i) => i), 'every word once, in order');
  const reach = (page: number): number => Math.max(...ws.filter((w) => w.page === page && w.xMin >= WIDE_LEFT - 1).map((w) => w.xMax));
  assert.ok(reach(1) > WIDE_LEFT + 144 + 60, `page 1's wide column is laid out at its width: ${reach(1)}`);
  assert.ok(reach(pages - 1) <= WIDE_LEFT + 144 + 0.5, `late pages' wide column holds lines cut to the narrow one: ${reach(pages - 1)}`);
});
