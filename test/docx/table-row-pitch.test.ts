/**
 * Vertical rhythm of table rows, read from the PDF (pdftotext -bbox): horizontal cell borders take room in the row
 * (as in Word and LibreOffice), a row of exact height too short for its line still shows that line, and the empty
 * paragraph that must follow a table ending a cell takes no room. Proven on
 * small .docx files built here and on corpus files, against the pitches LibreOffice 7.4 draws for them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { buildDocx, p } from './build-docx.js';
import { word, words, type Word } from '../engine/pdf/helpers.js';

const CORPUS = process.env.DOCLOOM_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/docx');

async function pdfWords(bytes: Uint8Array): Promise<Word[]> {
  const compiled = compileTemplate({ kind: 'docx', bytes });
  assert.ok(compiled.ok);
  return words((await renderPdf(compiled.template, {})).bytes);
}

const ARIAL = '<w:rFonts w:ascii="Arial" w:hAnsi="Arial"/><w:sz w:val="20"/>';
const line = (sz: number, val = 'single'): string => `w:val="${val}" w:sz="${sz}" w:space="0" w:color="000000"`;

/** "Before", a one-column table of rows "Row 1".."Row 4", "After"; `tblBorders` inner XML, row 2's cell bottom border. */
function rowsDoc(tblBorders: string, row2Bottom = ''): Uint8Array {
  const cell = (n: number): string =>
    `<w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/>${n === 2 && row2Bottom ? `<w:tcBorders><w:bottom ${row2Bottom}/></w:tcBorders>` : ''}</w:tcPr>${p(`Row ${n}`, '', ARIAL)}</w:tc>`;
  let rows = '';
  for (let n = 1; n <= 4; n++) rows += `<w:tr>${cell(n)}</w:tr>`;
  const body = p('Before', '', ARIAL) +
    `<w:tbl><w:tblPr><w:tblW w:w="4000" w:type="dxa"/><w:tblBorders>${tblBorders}</w:tblBorders></w:tblPr><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid>${rows}</w:tbl>` +
    p('After', '', ARIAL);
  return buildDocx({ body });
}

const NONE = ['top', 'left', 'bottom', 'right', 'insideH', 'insideV'].map((s) => `<w:${s} w:val="nil"/>`).join('');
const GRID = ['top', 'left', 'bottom', 'right', 'insideH', 'insideV'].map((s) => `<w:${s} ${line(4)}/>`).join('');

test('a horizontal cell border takes its width in the row: the text below it moves down by that much', async () => {
  const y = (all: Word[], n: number): number => word(all, String(n)).yMin;
  const plain = await pdfWords(rowsDoc(NONE));
  const grid = await pdfWords(rowsDoc(GRID));
  const thick = await pdfWords(rowsDoc(GRID, line(24)));
  const pitch = (all: Word[], n: number): number => y(all, n + 1) - y(all, n);
  // No borders: rows one line apart. A 0.5 pt grid (w:sz 4): each row 0.5 pt taller, as LibreOffice draws it.
  for (const n of [1, 2, 3]) assert.ok(Math.abs(pitch(grid, n) - pitch(plain, n) - 0.5) < 0.02, `row ${n}: ${pitch(grid, n)} vs ${pitch(plain, n)}`);
  // Row 2's 3 pt bottom border (w:sz 24) meets row 3's 0.5 pt top: the edge takes the heavier line's width, once.
  assert.ok(Math.abs(pitch(thick, 2) - pitch(plain, 2) - 3) < 0.02, `${pitch(thick, 2)} vs ${pitch(plain, 2)}`);
  assert.ok(Math.abs(pitch(thick, 3) - pitch(grid, 3)) < 0.02);
  // The table's top border above row 1 and its bottom border below row 4 take room too.
  const gapAbove = (all: Word[]): number => y(all, 1) - word(all, 'Before').yMin;
  const gapBelow = (all: Word[]): number => word(all, 'After').yMin - y(all, 4);
  assert.ok(Math.abs(gapAbove(grid) - gapAbove(plain) - 0.5) < 0.02);
  assert.ok(Math.abs(gapBelow(grid) - gapBelow(plain) - 0.5) < 0.02);
  // A double line is two lines and the gap between them (3 × 0.5 pt).
  const double = await pdfWords(rowsDoc(GRID, line(4, 'double')));
  assert.ok(Math.abs(pitch(double, 2) - pitch(plain, 2) - 1.5) < 0.02, `${pitch(double, 2)} vs ${pitch(plain, 2)}`);
});

test('a row of exact height a little shorter than its line still shows the line (Word clips its foot)', async () => {
  // 10 pt Arial needs 11.5 pt; the row is exactly 11.35 pt (227 twips) with a 0.5 pt border above.
  const cell = (text: string): string => `<w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr>${p(text, '', ARIAL)}</w:tc>`;
  const body = `<w:tbl><w:tblPr><w:tblW w:w="4000" w:type="dxa"/><w:tblBorders>${GRID}</w:tblBorders></w:tblPr><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid>` +
    `<w:tr><w:trPr><w:trHeight w:hRule="exact" w:val="227"/></w:trPr>${cell('Squeezed')}</w:tr>` +
    `<w:tr><w:trPr><w:trHeight w:hRule="exact" w:val="227"/></w:trPr><w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr>${p('Shown', '', ARIAL)}${p('Hidden', '', ARIAL)}</w:tc></w:tr>` +
    `<w:tr>${cell('Next')}</w:tr></w:tbl>`;
  const all = await pdfWords(buildDocx({ body }));
  const squeezed = word(all, 'Squeezed');
  const shown = word(all, 'Shown');
  // Both exact rows keep their height (11.35 pt apart), and the second line of the second one is cut.
  assert.ok(Math.abs(shown.yMin - squeezed.yMin - 11.35) < 0.02, `${shown.yMin - squeezed.yMin}`);
  assert.equal(all.some((w) => w.text === 'Hidden'), false);
  assert.ok(Math.abs(word(all, 'Next').yMin - shown.yMin - 11.35) < 0.02);
});

const corpusFile = (name: string): string => path.join(CORPUS, name);

test('corpus: rubydocx__tables keeps LibreOffice\'s 12 pt row pitch and shows its exact-height header row', { skip: !fs.existsSync(corpusFile('rubydocx__tables.docx')) && 'no corpus' }, async () => {
  const all = await pdfWords(new Uint8Array(fs.readFileSync(corpusFile('rubydocx__tables.docx'))));
  // The header row is exactly 11.35 pt tall and its 10 pt bold line needs 11.5 pt: LibreOffice (and Word) show it.
  assert.equal(word(all, 'ENGLISH').page, 1);
  assert.equal(word(all, 'FRANÇAIS').page, 1);
  // One-line rows of 10 pt Arial (11.5 pt) with a 0.5 pt grid: LibreOffice draws them 12.0 pt apart.
  const rows = ['aphids', 'stockhouse', 'orchard', 'BRC', 'Altrain'].map((t) => word(all, t, 1).yMin);
  const pitches = ['aphids', 'firme', 'stockhouse', 'bio'].map((t) => word(all, t, 1).yMin);
  for (let i = 1; i < pitches.length; i++) assert.ok(Math.abs(pitches[i] - pitches[i - 1] - 12) < 0.05, `${pitches[i] - pitches[i - 1]}`);
  // Over 9 rows (aphids → Altrain) the drift stays under a point: LibreOffice has them 132.0 pt apart.
  assert.ok(Math.abs(rows[4] - rows[0] - 132) < 1, `${rows[4] - rows[0]}`);
});

test('corpus: docling__word_tables rows are as far apart as LibreOffice draws them (a 1.5 pt header rule, 0.5 pt grid)', { skip: !fs.existsSync(corpusFile('docling__word_tables.docx')) && 'no corpus' }, async () => {
  const all = await pdfWords(new Uint8Array(fs.readFileSync(corpusFile('docling__word_tables.docx'))));
  const header = all.find((w) => w.text === 'Header')!.yMin;
  const cells = all.filter((w) => w.text === 'Cell' && w.page === 1).map((w) => w.yMin);
  // LibreOffice 7.4: header → row 1 16.2 pt (14.65 pt of text + the firstRow's 1.5 pt bottom border), then 15.1.
  assert.ok(Math.abs(cells[0] - header - 16.2) < 0.1, `${cells[0] - header}`);
  const next = cells.find((y) => y > cells[0] + 1)!;
  assert.ok(Math.abs(next - cells[0] - 15.1) < 0.1, `${next - cells[0]}`);
});

test('the empty paragraph Word writes after a table that ends a cell takes no room; one with text does', async () => {
  const tc = (w: number, content: string): string => `<w:tc><w:tcPr><w:tcW w:w="${w}" w:type="dxa"/></w:tcPr>${content}</w:tc>`;
  const inner = '<w:tbl><w:tblPr><w:tblW w:w="3000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/></w:tblGrid>' +
    `<w:tr>${tc(3000, p('Inner', '', ARIAL))}</w:tr></w:tbl>`;
  const doc = (end: string): Uint8Array => buildDocx({
    body: `<w:tbl><w:tblPr><w:tblW w:w="4000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid><w:tr>${tc(4000, inner + end)}</w:tr></w:tbl>` + p('After', '', ARIAL),
  });
  const gap = async (end: string): Promise<number> => {
    const all = await pdfWords(doc(end));
    return word(all, 'After').yMin - word(all, 'Inner').yMin;
  };
  const empty = await gap('<w:p/>');
  const withText = await gap(p('Text', '', ARIAL));
  // LibreOffice 7.4 on such a cell (textract__paragraphs_and_tables): the paragraph below the outer table is one
  // line below the nested table's last line; a paragraph with text after the nested table adds its line.
  assert.ok(Math.abs(empty - 11.5) < 0.05, `empty mark: ${empty}`);
  assert.ok(Math.abs(withText - empty - 11.5) < 0.05, `text: ${withText} vs ${empty}`);
  // Its line goes, its space after stays (LibreOffice 7.4 on aspose__Newsletter_1's banner rows: 18 pt each).
  const spaced = await gap('<w:p><w:pPr><w:spacing w:after="360"/></w:pPr></w:p>');
  assert.ok(Math.abs(spaced - empty - 18) < 0.5, `space after: ${spaced} vs ${empty}`);
});

test('corpus: textract__paragraphs_and_tables puts the paragraph after its nested table where LibreOffice does', { skip: !fs.existsSync(corpusFile('textract__paragraphs_and_tables.docx')) && 'no corpus' }, async () => {
  const all = await pdfWords(new Uint8Array(fs.readFileSync(corpusFile('textract__paragraphs_and_tables.docx'))));
  const first = all.find((w) => w.text === 'Row')!.yMin;
  const inner = all.filter((w) => w.text === 'Inner').map((w) => w.yMin);
  const after = all.find((w) => w.text === 'after')!.yMin;
  // LibreOffice 7.4: "Row 1" 115.1, last "Inner" row 186.1, "This is the paragraph after the table." 228.6.
  assert.ok(Math.abs(inner[inner.length - 1] - first - 71.0) < 0.5, `${inner[inner.length - 1] - first}`);
  assert.ok(Math.abs(after - first - 113.5) < 0.5, `${after - first}`);
});

/**
 * "Top", a spacer row of two empty cells (18 pt of space after their empty paragraphs), "Bottom": `hide` puts
 * w:hideMark on the spacer's cells (`hideSecond` false leaves it off the second), `trHeight` its declared height.
 */
function spacerDoc(hide: boolean, trHeight?: number, hideSecond = hide): Uint8Array {
  const cell = (content: string, hideMark: boolean): string => `<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/>${hideMark ? '<w:hideMark/>' : ''}</w:tcPr>${content}</w:tc>`;
  const empty = '<w:p><w:pPr><w:spacing w:after="360" w:line="240" w:lineRule="auto"/></w:pPr></w:p>';
  const height = trHeight ? `<w:trPr><w:trHeight w:val="${trHeight}"/></w:trPr>` : '';
  const body =
    `<w:tbl><w:tblPr><w:tblW w:w="6000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>` +
    `<w:tr>${cell(p('Top', '', ARIAL), false)}${cell(p('x', '', ARIAL), false)}</w:tr>` +
    `<w:tr>${height}${cell(empty, hide)}${cell(empty, hideSecond)}</w:tr>` +
    `<w:tr>${cell(p('Bottom', '', ARIAL), false)}${cell(p('y', '', ARIAL), false)}</w:tr></w:tbl>` + p('');
  return buildDocx({ body });
}

test('w:hideMark: a row whose cells hold only their hidden end-of-cell marks is its declared height (or none), not its empty lines', async () => {
  const pitch = async (bytes: Uint8Array): Promise<number> => {
    const all = await pdfWords(bytes);
    return word(all, 'Bottom').yMin - word(all, 'Top').yMin;
  };
  const shown = await pitch(spacerDoc(false, 100));
  const hidden = await pitch(spacerDoc(true, 100));
  const hiddenNoHeight = await pitch(spacerDoc(true));
  const oneShown = await pitch(spacerDoc(true, 100, false));
  // Row "Top" is ~11.5 pt; the spacer with its marks shown is an empty line plus 18 pt after (~29.5 pt).
  assert.ok(shown - hidden > 20, `hidden marks: the spacer row is its 5 pt height (pitch ${hidden} against ${shown})`);
  // Without a declared height the row keeps only the 1 pt every row has at least (pdf/layout/table.ts).
  assert.ok(Math.abs(hidden - hiddenNoHeight - 4) < 0.5, `without a declared height it takes no room (pitch ${hiddenNoHeight}, with 5 pt: ${hidden})`);
  assert.ok(Math.abs(oneShown - shown) < 0.5, `one cell showing its mark keeps the row's empty line (pitch ${oneShown} against ${shown})`);
});
