/**
 * Newspaper columns of different widths (w:cols w:equalWidth="0" with w:col w:w): list items, right-to-left
 * paragraphs, lines beside a float and tables take the width of the column they are in, not the narrowest
 * column's; and a balanced section evens out a page it reaches in the middle of a table. Read back from the PDF
 * with pdftotext -bbox.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { words, type Word } from '../engine/pdf/helpers.js';
import { buildDocx, makePng, p, type DocxParts } from './build-docx.js';

const DELIMITERS = ['\u0001<<', '>>\u0001'] as const;
const EMU = 12700;

/** A4, 1-inch margins (content 451.3 pt wide). */
const sect = (cols: string, type = ''): string =>
  `<w:sectPr>${type}<w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/>${cols}</w:sectPr>`;
/** 2 inches, a half-inch gap, the rest (271.3 pt). */
const UNEQUAL = '<w:cols w:num="2" w:space="720" w:equalWidth="0"><w:col w:w="2880" w:space="720"/><w:col w:w="5426"/></w:cols>';
const LEFT = 72;
const NARROW = 144;
const WIDE_LEFT = LEFT + 144 + 36;
const WIDE_RIGHT = WIDE_LEFT + 5426 / 20;
const COLUMN_BREAK = '<w:p><w:r><w:t>Before</w:t><w:br w:type="column"/></w:r></w:p>';

async function pdfWords(parts: DocxParts): Promise<Word[]> {
  const compiled = compileTemplate({ kind: 'docx', bytes: buildDocx(parts), delimiters: DELIMITERS });
  assert.ok(compiled.ok, JSON.stringify(compiled));
  return words((await renderPdf(compiled.template, {})).bytes);
}

const numbered = (prefix: string, n: number): string => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(' ');

/** One decimal list, "%1." with a half-inch indent and a quarter-inch hanging one. */
const numbering = '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/>' +
  '<w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>';
const item = (text: string): string => p(text, '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>');

/** A 100 × 60 pt picture at its column's left edge and its paragraph's top, text wrapped around it (9 pt away). */
const e = (pt: number): number => Math.round(pt * EMU);
const picture = `<w:r><w:drawing><wp:anchor distT="0" distB="0" distL="${e(9)}" distR="${e(9)}" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">` +
  `<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH>` +
  `<wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV>` +
  `<wp:extent cx="${e(100)}" cy="${e(60)}"/><wp:wrapSquare wrapText="bothSides"/><wp:docPr id="1" name="Float"/>` +
  '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:blipFill><a:blip r:embed="img_logo"/></pic:blipFill><pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>';
const media = { 'logo.png': makePng(4, 4) };

test('unequal columns: a list item is wrapped at its column\'s width, its indents from that column, its number counted once', async () => {
  // Item 1 runs from the narrow column into the wide one; items 2 and 3 are in the wide one.
  const body = item(numbered('a', 400)) + item(numbered('b', 40)) + item(numbered('c', 40));
  const all = await pdfWords({ body, numbering, sectPr: sect(UNEQUAL) });
  assert.deepEqual(all.filter((w) => /^\d+\.$/.test(w.text)).map((w) => w.text), ['1.', '2.', '3.'], 'each number once, in order');
  const as = all.filter((w) => /^a\d+$/.test(w.text) && w.page === 1);
  const narrowA = as.filter((w) => w.xMin < WIDE_LEFT - 1);
  const wideA = as.filter((w) => w.xMin >= WIDE_LEFT - 1);
  assert.ok(narrowA.length > 0 && wideA.length > 0, 'item 1 goes on in the wide column');
  for (const w of narrowA) assert.ok(w.xMax <= LEFT + NARROW + 0.5 && w.xMin >= LEFT + 36 - 0.5, `${w.text} in the narrow column, indented: ${w.xMin}–${w.xMax}`);
  // In the wide column its lines start at the column's own indent and use its width.
  assert.ok(Math.abs(Math.min(...wideA.map((w) => w.xMin)) - (WIDE_LEFT + 36)) < 1, `indented from the wide column: ${Math.min(...wideA.map((w) => w.xMin))}`);
  const reach = Math.max(...wideA.map((w) => w.xMax));
  assert.ok(reach > WIDE_LEFT + NARROW + 60 && reach <= WIDE_RIGHT + 0.5, `item 1 fills the wide column: reach ${reach}`);
  const two = all.find((w) => w.text === '2.');
  assert.ok(two && Math.abs(two.xMin - (WIDE_LEFT + 18)) < 1, `item 2's number at the wide column's hanging indent: ${two?.xMin}`);
  const bs = all.filter((w) => /^b\d+$/.test(w.text));
  assert.ok(Math.max(...bs.map((w) => w.xMax)) > WIDE_LEFT + NARROW + 60, 'item 2 is wrapped at the wide column');
});

test('unequal columns: a right-to-left paragraph ends at its column\'s right edge, in the narrow column and in the wide one', async () => {
  const body = p(numbered('r', 600), '<w:bidi/>');
  const rs = (await pdfWords({ body, sectPr: sect(UNEQUAL) })).filter((w) => /^r\d+$/.test(w.text) && w.page === 1);
  const narrow = rs.filter((w) => w.xMin < WIDE_LEFT - 1);
  const wide = rs.filter((w) => w.xMin >= WIDE_LEFT - 1);
  assert.ok(narrow.length > 0 && wide.length > 0, 'the paragraph runs into the wide column');
  const lines = (ws: Word[]): Word[][] => {
    const byY = new Map<number, Word[]>();
    for (const w of ws) byY.set(Math.round(w.yMin), [...(byY.get(Math.round(w.yMin)) ?? []), w]);
    return [...byY.values()];
  };
  // Right-aligned (its start side): every line but the last ends at its column's right edge.
  for (const line of lines(narrow)) {
    const right = Math.max(...line.map((w) => w.xMax));
    assert.ok(Math.abs(right - (LEFT + NARROW)) < 1, `a narrow column line ends at its edge: ${right}`);
  }
  const wideLines = lines(wide);
  assert.ok(wideLines.length > 2, `lines in the wide column: ${wideLines.length}`);
  for (const line of wideLines.slice(0, -1)) {
    const right = Math.max(...line.map((w) => w.xMax));
    assert.ok(Math.abs(right - WIDE_RIGHT) < 1, `a wide column line ends at its edge: ${right} vs ${WIDE_RIGHT}`);
  }
  const from = Math.min(...wideLines.slice(0, -1).flat().map((w) => w.xMin));
  assert.ok(from < WIDE_RIGHT - NARROW - 60 && from >= WIDE_LEFT - 0.5, `the wide column's lines are wider than the narrow one: from ${from}`);
});

test('unequal columns: lines beside a float in the wide column are narrowed from its edges, those below it take its width', async () => {
  const body = COLUMN_BREAK + `<w:p>${picture}<w:r><w:t>${numbered('f', 120)}</w:t></w:r></w:p>`;
  const fs = (await pdfWords({ body, sectPr: sect(UNEQUAL), media })).filter((w) => /^f\d+$/.test(w.text));
  assert.equal(fs.length, 120);
  const top = Math.min(...fs.map((w) => w.yMin));
  const beside = fs.filter((w) => w.yMax < top + 60);
  const below = fs.filter((w) => w.yMin > top + 60 + 12);
  assert.ok(beside.length > 0 && below.length > 0, `lines beside (${beside.length}) and below (${below.length}) the float`);
  for (const w of beside) assert.ok(w.xMin >= WIDE_LEFT + 109 - 0.5 && w.xMax <= WIDE_RIGHT + 0.5, `${w.text} right of the float, in the column: ${w.xMin}–${w.xMax}`);
  assert.ok(Math.max(...beside.map((w) => w.xMax)) > WIDE_LEFT + NARROW + 60, 'the lines beside it reach the wide column\'s edge');
  const reach = Math.max(...below.map((w) => w.xMax));
  assert.ok(Math.min(...below.map((w) => w.xMin)) - WIDE_LEFT < 1 && reach > WIDE_LEFT + NARROW + 60 && reach <= WIDE_RIGHT + 0.5, `below it the column's width: reach ${reach}`);
});

test('unequal columns: a list item beside a float in the wide column has its number right of the float, its text after it', async () => {
  const body = COLUMN_BREAK + `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr>${picture}<w:r><w:t>${numbered('g', 80)}</w:t></w:r></w:p>`;
  const all = await pdfWords({ body, numbering, sectPr: sect(UNEQUAL), media });
  const one = all.find((w) => w.text === '1.');
  const gs = all.filter((w) => /^g\d+$/.test(w.text));
  assert.ok(one && gs.length === 80, 'the number and the text');
  // The float and its 9 pt distance take the column's first 109 pt; the number starts after them (its hanging
  // indent, 18 pt, counted from there as the text's 36 pt indent is), the text 18 pt further.
  assert.ok(one.xMin >= WIDE_LEFT + 109 - 0.5, `the number right of the float: ${one.xMin}`);
  const firstLine = gs.filter((w) => Math.abs(w.yMin - gs[0].yMin) < 1);
  assert.ok(Math.min(...firstLine.map((w) => w.xMin)) > one.xMax, 'the text after the number');
  assert.ok(Math.max(...firstLine.map((w) => w.xMax)) <= WIDE_RIGHT + 0.5 && Math.max(...firstLine.map((w) => w.xMax)) > WIDE_LEFT + NARROW + 40, 'to the wide column\'s edge');
});

test('unequal columns: a table in the wide column is as wide as its width or grid says there, not held to the narrow column', async () => {
  const table = (tblW: string, grid: number, prefix: string): string =>
    `<w:tbl><w:tblPr>${tblW}</w:tblPr><w:tblGrid><w:gridCol w:w="${grid}"/></w:tblGrid>` +
    `<w:tr><w:tc>${p(numbered(prefix, 60))}</w:tc></w:tr></w:tbl>`;
  const FULL = '<w:tblW w:w="5000" w:type="pct"/>';
  // A table as wide as its column, in the narrow one and in the wide one; a 250 pt table in the wide one (a body
  // table keeps its width up to the page's margin: at the narrow column's width it was held to 144 + 72 pt).
  const body = table(FULL, 2000, 'n') + COLUMN_BREAK + table(FULL, 2000, 'm') + p('Between') + table('<w:tblW w:w="5000" w:type="dxa"/><w:tblLayout w:type="fixed"/>', 5000, 'k');
  const all = await pdfWords({ body, sectPr: sect(UNEQUAL) });
  const reach = (prefix: string): { from: number; to: number } => {
    const ws = all.filter((w) => new RegExp(`^${prefix}\\d+$`).test(w.text));
    assert.equal(ws.length, 60);
    return { from: Math.min(...ws.map((w) => w.xMin)), to: Math.max(...ws.map((w) => w.xMax)) };
  };
  const n = reach('n');
  assert.ok(n.to <= LEFT + NARROW + 0.5 && n.to > LEFT + NARROW - 40, `the narrow column's width: ${n.to}`);
  const m = reach('m');
  assert.ok(m.from >= WIDE_LEFT - 0.5 && m.to > WIDE_RIGHT - 40 && m.to <= WIDE_RIGHT + 0.5, `the wide column's width: ${m.from}–${m.to}`);
  const k = reach('k');
  assert.ok(k.to > WIDE_LEFT + NARROW + 72 + 10 && k.to <= WIDE_LEFT + 250 + 0.5, `250 pt wide in the wide column: ${k.to}`);
});

test('a balanced section that reaches a new page in the middle of a table evens out its columns there', async () => {
  const THREE = '<w:cols w:num="3" w:space="720"/>';
  const row = (i: number): string => `<w:tr><w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr>${p(`Row${i}`)}</w:tc></w:tr>`;
  const table = `<w:tbl><w:tblPr><w:tblW w:w="2000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid>${Array.from({ length: 75 }, (_, i) => row(i)).join('')}</w:tbl>`;
  // 46 lines of one column push the section's start near page 1's foot; the table fills page 1's three columns
  // and goes on on page 2, where the section ends in a continuous break: its columns there are evened out.
  const before = Array.from({ length: 46 }, (_, i) => p(`Lead${i}`)).join('');
  const body = before + `<w:p><w:pPr>${sect('')}</w:pPr></w:p>` + table + `<w:p><w:pPr>${sect(THREE, '<w:type w:val="continuous"/>')}</w:pPr></w:p>` + p('After the columns');
  const all = await pdfWords({ body, sectPr: sect('', '<w:type w:val="continuous"/>') });
  const rows = all.filter((w) => /^Row\d+$/.test(w.text));
  assert.equal(rows.length, 75);
  const third = 451.3 / 3;
  const counts = (page: number): number[] => [0, 1, 2].map((c) => rows.filter((w) => w.page === page && w.xMin >= LEFT + c * third - 1 && w.xMin < LEFT + (c + 1) * third - 1).length);
  const [p1, p2] = [counts(1), counts(2)];
  assert.ok(p1.every((n) => n > 0), `page 1's three columns hold rows: ${p1}`);
  assert.ok(p2.every((n) => n > 0) && Math.max(...p2) - Math.min(...p2) <= 1, `page 2's columns even: ${p2}`);
  const after = all.find((w) => w.text === 'After');
  const lowest = Math.max(...rows.filter((w) => w.page === 2).map((w) => w.yMax));
  assert.ok(after && after.page === 2 && after.yMin > lowest, `the next section below the columns: ${after?.yMin} vs ${lowest}`);
});
