/**
 * A paragraph whose mark is hidden (w:vanish) and which shows nothing else takes no line (server/engine/docx/
 * hidden-mark.ts), read from the layout data: the empty paragraph HTML converters put between two tables
 * (tika__017097), one in a cell, and the cases that keep their line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDocx, p } from './build-docx.js';
import { docxPages, findText } from '../engine/pdf/boxes.js';

const HIDDEN_MARK = '<w:rPr><w:vanish/></w:rPr>';

function table(text: string): string {
  return '<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid>' +
    `<w:tr><w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr>${p(text)}</w:tc></w:tr></w:tbl>`;
}

/** Baseline of "Second" minus baseline of "First" with `between` between their two tables. */
async function gap(between: string): Promise<number> {
  const pages = await docxPages(buildDocx({ body: table('First') + between + table('Second') + p('End') }));
  return findText(pages, 'Second').y - findText(pages, 'First').y;
}

test('an empty paragraph with a hidden mark between two tables takes no line; a visible one does', async () => {
  const none = await gap('');
  const visible = await gap('<w:p/>');
  const hidden = await gap(`<w:p><w:pPr>${HIDDEN_MARK}</w:pPr></w:p>`);
  assert.ok(visible - none > 10, `a visible empty paragraph is a line: ${visible} vs ${none}`);
  assert.ok(Math.abs(hidden - none) < 0.01, `the hidden one takes no room: ${hidden} vs ${none}`);
  // Hidden runs only, under a hidden mark: nothing shows, no line either.
  const hiddenRuns = await gap(`<w:p><w:pPr>${HIDDEN_MARK}</w:pPr><w:r><w:rPr><w:vanish/></w:rPr><w:t>secret</w:t></w:r></w:p>`);
  assert.ok(Math.abs(hiddenRuns - none) < 0.01, `hidden runs under a hidden mark: ${hiddenRuns} vs ${none}`);
});

test('a hidden mark keeps its line when the paragraph shows text, and a cell keeps its only paragraph', async () => {
  const pages = await docxPages(buildDocx({ body: p('Above') + `<w:p><w:pPr>${HIDDEN_MARK}</w:pPr><w:r><w:t>Shown</w:t></w:r></w:p>` + p('Below') }));
  assert.ok(findText(pages, 'Shown').y > findText(pages, 'Above').y, 'visible text under a hidden mark is drawn');
  assert.ok(findText(pages, 'Below').y > findText(pages, 'Shown').y, 'and the next paragraph comes after it');
  // A cell whose only paragraph is a hidden empty one keeps it: the row is a line tall, as with a visible one.
  const row = (para: string): string =>
    '<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid>' +
    `<w:tr><w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr>${para}</w:tc></w:tr></w:tbl>`;
  const span = async (para: string): Promise<number> => {
    const pages = await docxPages(buildDocx({ body: p('Top') + row(para) + p('After') }));
    return findText(pages, 'After').y - findText(pages, 'Top').y;
  };
  const visibleRow = await span('<w:p/>');
  const hiddenRow = await span(`<w:p><w:pPr>${HIDDEN_MARK}</w:pPr></w:p>`);
  assert.ok(Math.abs(hiddenRow - visibleRow) < 0.01, `a cell's only paragraph stays: ${hiddenRow} vs ${visibleRow}`);
});

test('a paragraph whose mark is deleted or moved away, with all its text deleted or moved too, takes no line', async () => {
  // aspose__Revisions: a paragraph moved elsewhere (w:moveFrom on its runs and its mark); Word's final document has
  // it only where it was moved to. LibreOffice 7.4 draws the file with the changes accepted as docloom draws the
  // original (text 1.00, baselines 0.9997).
  const between = async (para: string): Promise<number> => {
    const pages = await docxPages(buildDocx({ body: p('Before') + para + p('After') }));
    return findText(pages, 'After').y - findText(pages, 'Before').y;
  };
  const rev = 'w:id="1" w:author="A" w:date="2019-04-07T00:03:00Z"';
  const none = await between('');
  const kept = await between(`<w:p><w:pPr><w:rPr><w:ins ${rev}/></w:rPr></w:pPr></w:p>`);
  const moved = await between(`<w:p><w:pPr><w:rPr><w:moveFrom ${rev}/></w:rPr></w:pPr><w:moveFrom ${rev}><w:r><w:t>gone</w:t></w:r></w:moveFrom></w:p>`);
  const deleted = await between(`<w:p><w:pPr><w:rPr><w:del ${rev}/></w:rPr></w:pPr><w:del ${rev}><w:r><w:delText>gone</w:delText></w:r></w:del></w:p>`);
  assert.ok(kept - none > 10, `an empty paragraph with an inserted mark is a line: ${kept} vs ${none}`);
  assert.ok(Math.abs(moved - none) < 0.01, `moved away: ${moved} vs ${none}`);
  assert.ok(Math.abs(deleted - none) < 0.01, `deleted: ${deleted} vs ${none}`);
});
