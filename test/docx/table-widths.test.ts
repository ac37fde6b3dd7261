/**
 * Table widths as Word computes them, read back from the rendered PDF (pdftotext -bbox): w:tblW (dxa, pct in
 * fiftieths of a percent and written "100%"), w:tblInd, cell widths (w:tcW) over a placeholder grid, and the
 * cell margins (Word's default 108 twips, w:tblCellMar, w:tcMar). The page is A4 with 1-inch margins: the text
 * box runs from x = 72 to x = 523.3 pt.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { words, word, type Word } from '../engine/pdf/helpers.js';
import { buildDocx, p } from './build-docx.js';

const CORPUS = process.env.DOCLOOM_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/docx');
const LEFT = 72;
const RIGHT = 595.3 - 72;
const BORDERS =
  '<w:tblBorders><w:top w:val="single" w:sz="4" w:color="000000"/><w:left w:val="single" w:sz="4" w:color="000000"/><w:bottom w:val="single" w:sz="4" w:color="000000"/><w:right w:val="single" w:sz="4" w:color="000000"/><w:insideH w:val="single" w:sz="4" w:color="000000"/><w:insideV w:val="single" w:sz="4" w:color="000000"/></w:tblBorders>';

function tbl(tblPr: string, grid: number[], cells: Array<{ text: string; tcPr?: string; pPr?: string }>): string {
  const tcs = cells.map((c) => `<w:tc>${c.tcPr ? `<w:tcPr>${c.tcPr}</w:tcPr>` : ''}${p(c.text, c.pPr)}</w:tc>`).join('');
  return `<w:tbl><w:tblPr>${BORDERS}${tblPr}</w:tblPr><w:tblGrid>${grid.map((w) => `<w:gridCol w:w="${w}"/>`).join('')}</w:tblGrid><w:tr>${tcs}</w:tr></w:tbl>`;
}

const WORD_2013 = '<w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat>';

/** Renders as Word 2013 and later lay tables out unless `settings` says otherwise ('' = a settings part without a mode). */
async function render(body: string, settings: string = WORD_2013): Promise<Word[]> {
  const result = compileTemplate({ kind: 'docx', bytes: buildDocx({ body: body + p(''), settings }) });
  if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('; '));
  return words((await renderPdf(result.template, {})).bytes);
}

const near = (actual: number, expected: number, what: string, tol = 1): void =>
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual.toFixed(2)} pt, expected ${expected.toFixed(2)} ± ${tol}`);

const RIGHT_ALIGNED = '<w:jc w:val="right"/>';

test('tblW pct 5000 (fiftieths of a percent) spans the text width over a narrow grid', async () => {
  const all = await render(tbl('<w:tblW w:w="5000" w:type="pct"/>', [1000, 1000], [{ text: 'Alpha' }, { text: 'Omega', pPr: RIGHT_ALIGNED }]));
  // The last cell's right-aligned text ends one cell margin (5.4 pt) before the right margin.
  near(word(all, 'Omega').xMax, RIGHT - 5.4, 'right edge of the last cell text');
  near(word(all, 'Alpha').xMin, LEFT + 5.4, 'first cell text');
});

test('tblW written "100%" spans the text width; "50%" half of it', async () => {
  const all = await render(
    tbl('<w:tblW w:w="100%" w:type="pct"/>', [1000, 1000], [{ text: 'Alpha' }, { text: 'Omega', pPr: RIGHT_ALIGNED }]) +
      p('between') +
      tbl('<w:tblW w:w="50%" w:type="pct"/>', [1000, 1000], [{ text: 'Beta' }, { text: 'Half', pPr: RIGHT_ALIGNED }]),
  );
  near(word(all, 'Omega').xMax, RIGHT - 5.4, 'right edge at 100 %');
  near(word(all, 'Half').xMax, LEFT + (RIGHT - LEFT) / 2 - 5.4, 'right edge at 50 %');
});

test('tblW in twips sets the width of an autofit table; a fixed table keeps its grid', async () => {
  const all = await render(
    tbl('<w:tblW w:w="4000" w:type="dxa"/>', [1000, 1000], [{ text: 'a' }, { text: 'Dxa', pPr: RIGHT_ALIGNED }]) +
      p('between') +
      tbl('<w:tblW w:w="4000" w:type="dxa"/><w:tblLayout w:type="fixed"/>', [1000, 1000], [{ text: 'b' }, { text: 'Fixed', pPr: RIGHT_ALIGNED }]),
  );
  near(word(all, 'Dxa').xMax, LEFT + 200 - 5.4, 'autofit: tblW');
  near(word(all, 'Fixed').xMax, LEFT + 100 - 5.4, 'fixed: the grid');
});

test('tblInd moves the table\'s edge right by the indent (Word 2013 and later)', async () => {
  const body = tbl('', [3000], [{ text: 'Plain' }]) + p('between') + tbl('<w:tblInd w:w="1440" w:type="dxa"/>', [3000], [{ text: 'Indented' }]);
  const all = await render(body, WORD_2013);
  near(word(all, 'Indented').xMin - word(all, 'Plain').xMin, 72, 'indent');
  near(word(all, 'Indented').xMin, LEFT + 72 + 5.4, 'text of the indented table');
  // Word 2010 and older (no compatibilityMode 15) measure the indent to the first cell's text.
  const old = await render(body, '');
  near(word(old, 'Indented').xMin, LEFT + 72, 'text at the indent');
});

test('Word 2010 and older: a table without tblInd has its first cell\'s text on the margin, its border outside', async () => {
  const body = p('Para') + tbl('', [3000], [{ text: 'Cell' }]);
  // No compatibility mode (no settings part, or one without the setting) and mode 14: as LibreOffice 7.4 and Word
  // lay these files out, the text lines up with the paragraph above.
  for (const settings of [undefined, '', WORD_2013.replace('w:val="15"', 'w:val="14"')]) {
    const result = compileTemplate({ kind: 'docx', bytes: buildDocx({ body: body + p(''), ...(settings !== undefined ? { settings } : {}) }) });
    if (!result.ok) throw new Error('refused');
    const all = words((await renderPdf(result.template, {})).bytes);
    near(word(all, 'Cell').xMin, word(all, 'Para').xMin, `cell text on the margin (settings ${JSON.stringify(settings)})`);
  }
  // Word 2013 and later: the border is on the margin, the text one cell margin inside.
  const modern = await render(body);
  near(word(modern, 'Cell').xMin, word(modern, 'Para').xMin + 5.4, 'Word 2013: text one margin in');
});

test('corpus (compatibilityMode 14, no tblInd): the cells\' text lines up with the body text, as in LibreOffice', { skip: !fs.existsSync(CORPUS) && 'corpus not found' }, async () => {
  const result = compileTemplate({ kind: 'docx', bytes: fs.readFileSync(path.join(CORPUS, 'sablon__conditionals_sample.docx')) });
  if (!result.ok) throw new Error('refused');
  const all = words((await renderPdf(result.template, {})).bytes);
  // LibreOffice: "ParagraphBefore" and "RowBefore" (first table's first cell) both start at x = 90.1.
  near(word(all, 'RowBefore').xMin, word(all, 'ParagraphBefore').xMin, 'cell text against body text');
});

test('a placeholder grid (tiny columns) takes its widths from the cells (tcW)', async () => {
  const cells = [
    { text: 'One', tcPr: '<w:tcW w:w="2000" w:type="dxa"/>' },
    { text: 'Two', tcPr: '<w:tcW w:w="3000" w:type="dxa"/>' },
    { text: 'Three', tcPr: '<w:tcW w:w="1000" w:type="dxa"/>' },
  ];
  const all = await render(tbl('', [10, 10, 10], cells));
  near(word(all, 'One').xMin, LEFT + 5.4, 'first column');
  near(word(all, 'Two').xMin, LEFT + 100 + 5.4, 'second column');
  near(word(all, 'Three').xMin, LEFT + 250 + 5.4, 'third column');
});

test('an equal placeholder grid gives way to pct cell widths under a pct table width', async () => {
  const cells = [
    { text: 'Quarter', tcPr: '<w:tcW w:w="1250" w:type="pct"/>' },
    { text: 'Rest', tcPr: '<w:tcW w:w="3750" w:type="pct"/>' },
  ];
  const all = await render(tbl('<w:tblW w:w="5000" w:type="pct"/>', [2000, 2000], cells));
  near(word(all, 'Rest').xMin, LEFT + (RIGHT - LEFT) / 4 + 5.4, 'second column');
});

test('cell margins: Word\'s default 5.4 pt, tblCellMar and tcMar', async () => {
  const all = await render(
    tbl('', [3000], [{ text: 'Default' }]) +
      p('between') +
      tbl('<w:tblCellMar><w:left w:w="360" w:type="dxa"/></w:tblCellMar>', [3000], [{ text: 'Table' }]) +
      p('between') +
      tbl('', [3000], [{ text: 'Cell', tcPr: '<w:tcMar><w:left w:w="720" w:type="dxa"/></w:tcMar>' }]),
  );
  near(word(all, 'Default').xMin, LEFT + 5.4, 'default margin');
  near(word(all, 'Table').xMin, LEFT + 18, 'tblCellMar');
  near(word(all, 'Cell').xMin, LEFT + 36, 'tcMar');
});

test('autofit: a column too narrow for its longest word is widened (no word cut letter by letter)', async () => {
  // A placeholder grid with no cell widths: 10 twips a column.
  const all = await render(tbl('', [10, 10, 10], [{ text: 'Extraordinarily' }, { text: 'long' }, { text: 'Incomprehensibilities' }]));
  const first = word(all, 'Extraordinarily');
  const third = word(all, 'Incomprehensibilities');
  assert.ok(first.xMax < third.xMin, 'the words side by side, in their own columns');
  near(first.xMin, LEFT + 5.4, 'first column');
  // A fixed table keeps its grid: there the word is cut.
  const fixed = await render(tbl('<w:tblLayout w:type="fixed"/>', [10, 10, 10], [{ text: 'Extraordinarily' }, { text: 'x' }, { text: 'y' }]));
  assert.ok(!fixed.some((w) => w.text === 'Extraordinarily'));
});

test('autofit: a right-aligned or centred table widens into the whole box, not only what is right of it', async () => {
  for (const jc of ['right', 'center']) {
    const all = await render(tbl(`<w:jc w:val="${jc}"/>`, [10, 10, 10], [{ text: 'Extraordinarily' }, { text: 'long' }, { text: 'Incomprehensibilities' }]));
    const first = word(all, 'Extraordinarily');
    const third = word(all, 'Incomprehensibilities');
    assert.ok(first.xMax < third.xMin, `${jc}: the words side by side, whole`);
    if (jc === 'right') near(third.xMax, RIGHT - 5.4, 'right: the last column ends at the right margin', 3);
  }
});

test('a grid with fewer columns than the rows use takes its widths from the cells (tcW)', async () => {
  // pydocx's nested_table_rowspan: one gridCol of 6,000 twips, rows of two 3,000-twip cells.
  const tcW = (w: number): string => `<w:tcW w:w="${w}" w:type="dxa"/>`;
  const all = await render(tbl('', [6000], [{ text: 'Left', tcPr: tcW(3000) }, { text: 'Right', tcPr: tcW(3000) }]));
  near(word(all, 'Right').xMin, LEFT + 150 + 5.4, 'second column starts at 3,000 twips');
});

test('a table wider than the text column keeps its width into the margins (Word), centred on both sides, never past the page edge', async () => {
  // A4 with 1-inch margins: the column is 451.3 pt; these tables are 500 pt (48.7 pt too wide).
  const wide = [5000, 5000];
  const all = await render(
    tbl('<w:jc w:val="center"/>', wide, [{ text: 'CentreL' }, { text: 'CentreR', pPr: RIGHT_ALIGNED }]) +
      p('between') +
      tbl('', wide, [{ text: 'LeftL' }, { text: 'LeftR', pPr: RIGHT_ALIGNED }]) +
      p('between') +
      tbl('', [7200, 7200], [{ text: 'HugeL' }, { text: 'HugeR', pPr: RIGHT_ALIGNED }]) +
      p('between') +
      // A nested table as wide inside a cell still fits its cell.
      `<w:tbl><w:tblPr>${BORDERS}</w:tblPr><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid><w:tr><w:tc>${tbl('', wide, [{ text: 'InnerL' }, { text: 'InnerR', pPr: RIGHT_ALIGNED }])}${p('')}</w:tc></w:tr></w:tbl>`,
  );
  const excess = 500 - (RIGHT - LEFT);
  near(word(all, 'CentreL').xMin, LEFT - excess / 2 + 5.4, 'centred: reaches half the excess into the left margin');
  near(word(all, 'CentreR').xMax, RIGHT + excess / 2 - 5.4, 'centred: and half into the right margin');
  near(word(all, 'LeftL').xMin, LEFT + 5.4, 'left-aligned: starts on the margin');
  near(word(all, 'LeftR').xMax, LEFT + 500 - 5.4, 'left-aligned: reaches into the right margin');
  near(word(all, 'HugeR').xMax, 595.3 - 5.4, 'a table wider than the page stops at its edge');
  assert.ok(word(all, 'InnerR').xMax <= LEFT + 200, `a nested table fits its 200 pt cell: ${word(all, 'InnerR').xMax}`);
});
