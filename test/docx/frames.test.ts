/**
 * Text frames (w:framePr) and floating tables (w:tblpPr) placed by position, out of the flow: read from the layout
 * data (test/engine/pdf/boxes.ts) on built .docx files, and from the PDF (pdftotext -bbox) on corpus files.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { docxPages, findText, textBoxes } from '../engine/pdf/boxes.js';
import { words } from '../engine/pdf/helpers.js';
import { buildDocx, p } from './build-docx.js';

/** The public corpus (as corpus.test.ts finds it; importing that file would run its tests here). */
const CORPUS = process.env.DOCLOOM_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/docx');

/** DEFAULT_SECT: A4 (595.3 × 841.9 pt), 1-inch margins. */
const MARGIN = 72;
const RIGHT = 595.3 - MARGIN;
const LOREM = 'Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. '.repeat(8);

const near = (actual: number, expected: number, what: string, tolerance = 1): void =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not ${expected} ± ${tolerance}`);

function framed(text: string, framePr: string): string {
  return p(text, `<w:framePr ${framePr}/>`);
}

test('a frame with a size and a page position sits there, and the paragraph after it goes beside it', async () => {
  // 3 inches wide at 1 inch from the page's left edge, half an inch below the top of the paragraph that follows it.
  const body = p('Opening line') + framed('Framed words', 'w:w="4320" w:h="1440" w:hSpace="180" w:wrap="around" w:vAnchor="text" w:hAnchor="page" w:x="1440" w:y="720"') + p(LOREM);
  const pages = await docxPages(buildDocx({ body }));
  const framedWord = findText(pages, 'Framed');
  const lorem = findText(pages, 'Lorem');
  const opening = findText(pages, 'Opening');
  near(framedWord.x, 72, 'frame x (from the page)');
  // The anchor is the next paragraph (text boxes are at their baseline: both first lines have the same ascent).
  near(framedWord.y, lorem.y + 36, 'frame y (from its anchor paragraph)', 1);
  assert.ok(lorem.y - opening.y < 30, 'the frame takes no room in the flow');
  // Lines beside the frame (from 36 to 108 pt below the anchor) start right of it: 72 + 216 + 9 pt.
  const beside = pages[0].boxes.filter((b) => b.kind === 'text' && b.y > lorem.y + 45 && b.y < lorem.y + 100);
  assert.ok(beside.length > 0, 'text beside the frame');
  for (const b of beside) if (b.kind === 'text') assert.ok(b.x >= 72 + 216 + 9 - 1, `"${b.text}" at x ${b.x} runs over the frame`);
});

test('a frame without a width takes its text width and is aligned in the margins (a page number in a footer)', async () => {
  const footer = framed('Page 7', 'w:wrap="around" w:vAnchor="text" w:hAnchor="margin" w:xAlign="right" w:y="1"') + p('');
  const bytes = buildDocx({
    body: p('Body'),
    footers: { footer1: footer },
    sectPr: '<w:sectPr><w:footerReference w:type="default" r:id="rId_footer1"/><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>',
  });
  // Headers and footers are drawn apart from the body's layout data: read from the PDF.
  const compiled = compileTemplate({ kind: 'docx', bytes });
  assert.ok(compiled.ok);
  const all = words((await renderPdf(compiled.template, {})).bytes);
  const seven = all.find((w) => w.text === '7');
  const page = all.find((w) => w.text === 'Page');
  assert.ok(seven && page, 'the footer is drawn');
  near(seven.xMax, RIGHT, 'right end of the frame at the right margin', 1.5);
  assert.ok(page.xMin > RIGHT - 60, `the frame is as wide as its text (starts at ${page.xMin})`);
});

test('consecutive paragraphs with the same frame share it; the frame keeps its exact height', async () => {
  const pr = 'w:w="2880" w:h="720" w:hRule="exact" w:wrap="around" w:vAnchor="page" w:hAnchor="page" w:x="7200" w:y="1440"';
  const body = framed('Alpha', pr) + framed('Beta', pr) + p('Flow text');
  const pages = await docxPages(buildDocx({ body }));
  const alpha = findText(pages, 'Alpha');
  const beta = findText(pages, 'Beta');
  near(alpha.x, 360, 'first paragraph x');
  near(beta.x, 360, 'second paragraph x');
  assert.ok(beta.y > alpha.y + 5, 'one below the other in the frame');
  // Text boxes are at their baseline: the flow's first line is at the top margin, the frame's one inch down.
  const flow = findText(pages, 'Flow');
  near(alpha.y - flow.y, 72 - MARGIN, 'frame y from the page', 1);
  assert.ok(flow.y < MARGIN + 14, `the flow starts at the top margin (baseline ${flow.y})`);
});

function floatingTable(tblpPr: string, rows: number): string {
  const row = (i: number): string => `<w:tr><w:tc><w:tcPr><w:tcW w:w="2880" w:type="dxa"/></w:tcPr>${p(`Cell${i}`)}</w:tc></w:tr>`;
  return `<w:tbl><w:tblPr><w:tblpPr ${tblpPr}/><w:tblW w:w="2880" w:type="dxa"/><w:tblBorders><w:top w:val="single" w:sz="4"/><w:bottom w:val="single" w:sz="4"/></w:tblBorders></w:tblPr>` +
    `<w:tblGrid><w:gridCol w:w="2880"/></w:tblGrid>${Array.from({ length: rows }, (_, i) => row(i)).join('')}</w:tbl>`;
}

test('a floating table sits at its position (right of the margin, from its anchor paragraph) and text wraps beside it', async () => {
  const body = p('Before') + floatingTable('w:leftFromText="180" w:rightFromText="180" w:vertAnchor="text" w:horzAnchor="margin" w:tblpXSpec="right" w:tblpY="1"', 3) + p(LOREM);
  const pages = await docxPages(buildDocx({ body }));
  const cell = findText(pages, 'Cell0');
  const lorem = findText(pages, 'Lorem');
  // 144 pt wide, aligned to the right margin; its cell text starts after the default cell margin (5.4 pt).
  near(cell.x, RIGHT - 144 + 5.4, 'table x', 1.5);
  near(cell.y, lorem.y, 'table top at its anchor paragraph top', 2);
  const ends = pages[0].boxes.filter((b) => b.kind === 'text' && b.y < findText(pages, 'Cell2').y + 5);
  for (const b of ends) {
    if (b.kind === 'text' && !b.text.startsWith('Cell')) assert.ok(b.x + b.width <= RIGHT - 144 - 9 + 1, `"${b.text}" ends at ${b.x + b.width}, over the table`);
  }
});

test('a floating table in the middle of the column has text on both sides of it (Word\'s "Around"), a frame with wrap="around" too', async () => {
  // 144 pt wide, centred in the margins: 153 pt of room left and right of it once its 9 pt distances are kept.
  const table = floatingTable('w:leftFromText="180" w:rightFromText="180" w:vertAnchor="text" w:horzAnchor="margin" w:tblpXSpec="center" w:tblpY="1"', 4);
  const frame = framed('Cell0', 'w:w="2880" w:h="1440" w:hRule="exact" w:hSpace="180" w:wrap="around" w:vAnchor="text" w:hAnchor="margin" w:xAlign="center" w:y="1"');
  for (const [what, float] of [['table', table], ['frame', frame]] as const) {
    const pages = await docxPages(buildDocx({ body: float + p(LOREM) }));
    const cell = findText(pages, 'Cell0');
    const left = (595.3 - 144) / 2;
    const beside = textBoxes(pages).filter((b) => b.page === cell.page && !b.text.startsWith('Cell') && b.y > cell.y && b.y < cell.y + 50);
    const baselines = [...new Set(beside.map((b) => b.y.toFixed(2)))];
    assert.ok(baselines.length >= 3, `${what}: lines beside it: ${baselines.length}`);
    for (const y of baselines) {
      const row = beside.filter((b) => b.y.toFixed(2) === y);
      const leftPart = row.filter((b) => b.x + b.width <= left - 9 + 0.5);
      const rightPart = row.filter((b) => b.x >= left + 144 + 9 - 0.5);
      assert.equal(leftPart.length + rightPart.length, row.length, `${what}: nothing over it at ${y}`);
      assert.ok(leftPart.length > 0 && rightPart.length > 0, `${what}: text on both sides at ${y}`);
    }
  }
});

test('a floating table that would pass the page foot goes to the next page with its anchor paragraph', async () => {
  const filler = Array.from({ length: 50 }, (_, i) => p(`Filler ${i}`)).join('');
  const body = filler + floatingTable('w:vertAnchor="text" w:horzAnchor="margin" w:tblpY="1"', 12) + p('Anchor paragraph');
  const pages = await docxPages(buildDocx({ body }));
  const cell = findText(pages, 'Cell0');
  const last = findText(pages, 'Cell11');
  assert.equal(cell.page, last.page, 'the table is on one page');
  assert.ok(last.y < 841.9 - MARGIN, `its last row (${last.y}) is above the page foot`);
  assert.equal(findText(pages, 'Anchor').page, cell.page, 'with its anchor paragraph');
});

test('a floating table nested in a cell stays in the cell (as LibreOffice shows it)', async () => {
  const inner = floatingTable('w:vertAnchor="text" w:horzAnchor="page" w:tblpX="7200" w:tblpY="1"', 1);
  const body = `<w:tbl><w:tblPr><w:tblW w:w="5000" w:type="pct"/></w:tblPr><w:tblGrid><w:gridCol w:w="9000"/></w:tblGrid><w:tr><w:tc>${p('Outer')}${inner}${p('After')}</w:tc></w:tr></w:tbl>`;
  const pages = await docxPages(buildDocx({ body }));
  const cell = findText(pages, 'Cell0');
  assert.ok(cell.x < 100, `nested table at x ${cell.x}, not at its page position`);
  assert.ok(findText(pages, 'After').y > cell.y, 'the text after it is below it');
});

test('corpus: aspose__Paragraph_frame and oxsdk__textDirection-tbRl-frame put the frame at its page position, left of the text, as LibreOffice', async (t) => {
  for (const name of ['aspose__Paragraph_frame.docx', 'oxsdk__textDirection-tbRl-frame.docx']) {
    const file = path.join(CORPUS, name);
    if (!fs.existsSync(file)) {
      t.skip(`corpus not found at ${CORPUS} (set DOCLOOM_CORPUS)`);
      return;
    }
    const compiled = compileTemplate({ kind: 'docx', bytes: new Uint8Array(fs.readFileSync(file)) });
    assert.ok(compiled.ok);
    const all = words((await renderPdf(compiled.template, {})).bytes);
    // hAnchor="page" w:x: the frame's text starts at that many points from the page's edge, not at the margin.
    const frameX = name.startsWith('aspose') ? 681 / 20 : 1816 / 20;
    if (name.startsWith('oxsdk')) {
      // The tbRl frame's text is turned (test/docx/vertical-text.test.ts): its lines stand between the frame's
      // edges (w:w 2851 twips), the first at the right one.
      // (Below the heading line, whose "a" is taller than wide too.)
      const turned = all.filter((w) => w.yMin > 95 && w.yMax - w.yMin > w.xMax - w.xMin);
      assert.ok(turned.length > 20, `${name}: ${turned.length} turned words`);
      for (const w of turned) assert.ok(w.xMin >= frameX - 1 && w.xMax <= frameX + 2851 / 20 + 1, `${name}: ${w.text} at x ${w.xMin}–${w.xMax}`);
      continue;
    }
    const inFrame = all.filter((w) => Math.abs(w.xMin - frameX) < 3);
    assert.ok(inFrame.length >= 1, `${name}: lines start at the frame's x (${frameX}); first words at ${[...new Set(all.map((w) => Math.round(w.xMin)))].slice(0, 8).join(', ')}`);
  }
});
