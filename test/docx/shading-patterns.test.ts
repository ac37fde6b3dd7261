/**
 * Shading patterns (w:shd w:val): the pattern colour (w:color) over the fill (w:fill), flattened to the colour it
 * looks like — "solid" is the pattern colour, "pctN" N % of it over the fill, auto colours black over white — read
 * from the layout as data (the fill boxes the painter draws), on built files and on corpus files whose cells
 * LibreOffice paints grey (oxsdk__complex_tables: pct25 auto over auto) and blue (aspose__Northwind_traders:
 * solid 86B4CF over a white fill).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { buildDocx, p } from './build-docx.js';
import { docxPages, findText, type LaidPage } from '../engine/pdf/boxes.js';

const CORPUS = process.env.DOCLOOM_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/docx');

/** The colour of the fill box under the text box holding `needle`, as rrggbb (none: null). */
function fillUnder(pages: LaidPage[], needle: string): string | null {
  const t = findText(pages, needle);
  const page = pages.find((pg) => pg.number === t.page);
  const hits = (page?.boxes ?? []).filter(
    (b) => b.kind === 'fill' && b.x <= t.x + 0.01 && b.x + b.w >= t.x + t.width - 0.01 && b.y <= t.y && b.y + b.h >= t.y,
  );
  const last = hits[hits.length - 1];
  return last && last.kind === 'fill' ? last.color.map((c) => c.toString(16).padStart(2, '0')).join('') : null;
}

function cell(text: string, shd: string): string {
  return `<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/>${shd}</w:tcPr>${p(text)}</w:tc>`;
}

test('a cell shading pattern is its colour over its fill: solid, pct25, a stripe, clear', async () => {
  const cells = [
    cell('Solid', '<w:shd w:val="solid" w:color="86B4CF" w:fill="FFFFFF"/>'),
    cell('Quarter', '<w:shd w:val="pct25" w:color="auto" w:fill="auto"/>'),
    cell('Tinted', '<w:shd w:val="pct50" w:color="FF0000" w:fill="0000FF"/>'),
    cell('Striped', '<w:shd w:val="horzStripe" w:color="000000" w:fill="FFFFFF"/>'),
    cell('Clear', '<w:shd w:val="clear" w:color="FF0000" w:fill="00FF00"/>'),
    cell('None', '<w:shd w:val="clear" w:color="auto" w:fill="auto"/>'),
  ];
  const body = `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>${'<w:gridCol w:w="1500"/>'.repeat(6)}</w:tblGrid><w:tr>${cells.join('')}</w:tr></w:tbl>${p('')}`;
  const pages = await docxPages(buildDocx({ body }));
  assert.equal(fillUnder(pages, 'Solid'), '86b4cf', 'solid paints the pattern colour, not the fill');
  assert.equal(fillUnder(pages, 'Quarter'), 'bfbfbf', '25 % black over white');
  assert.equal(fillUnder(pages, 'Tinted'), '800080', 'half red over blue');
  assert.equal(fillUnder(pages, 'Striped'), 'aaaaaa', 'a stripe counts as a third of its colour');
  assert.equal(fillUnder(pages, 'Clear'), '00ff00', 'clear shows the fill alone');
  assert.equal(fillUnder(pages, 'None'), null, 'clear over an auto fill is no shading');
});

test('paragraph and run shading patterns blend the same way', async () => {
  const body =
    p('Shaded paragraph', '<w:shd w:val="pct10" w:color="auto" w:fill="auto"/>') +
    '<w:p><w:r><w:rPr><w:shd w:val="solid" w:color="FF0000" w:fill="FFFFFF"/></w:rPr><w:t>Red run</w:t></w:r></w:p>';
  const pages = await docxPages(buildDocx({ body }));
  assert.equal(fillUnder(pages, 'Shaded paragraph'), 'e6e6e6');
  assert.equal(fillUnder(pages, 'Red run'), 'ff0000');
});

test('corpus: pct25 cells are grey (complex_tables), solid header cells blue (Northwind)', { skip: !fs.existsSync(CORPUS) && 'corpus not found' }, async () => {
  const tables = await docxPages(fs.readFileSync(path.join(CORPUS, 'oxsdk__complex_tables.docx')));
  assert.equal(fillUnder(tables, 'WSSG'), 'bfbfbf');
  const northwind = await docxPages(fs.readFileSync(path.join(CORPUS, 'aspose__Northwind_traders.docx')));
  assert.equal(fillUnder(northwind, 'Company'), '86b4cf');
});
