/**
 * Word's paragraph spacing rules between neighbours, read from real .docx files and checked on the layout as data
 * (docxPages): "auto" (HTML-style) spacing collapses, contextual spacing, the height of an empty paragraph.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDocx, p } from './build-docx.js';
import { docxPages, findText } from '../engine/pdf/boxes.js';

const AUTO_BOTH = '<w:spacing w:before="100" w:beforeAutospacing="1" w:after="100" w:afterAutospacing="1"/>';

/** Baseline of `b` minus baseline of `a`, in a body made of `body`. */
async function gap(body: string, a: string, b: string, styles?: string): Promise<number> {
  const pages = await docxPages(buildDocx({ body, ...(styles ? { styles } : {}) }));
  return findText(pages, b).y - findText(pages, a).y;
}

/** The baseline distance of two plain single-line paragraphs (no spacing): one line. */
async function line(): Promise<number> {
  return gap(p('Alpha') + p('Beta'), 'Alpha', 'Beta');
}

test('two neighbours with auto spacing are 14 pt apart (the larger once), not 14 + 14', async () => {
  const single = await line();
  const auto = await gap(p('Alpha', AUTO_BOTH) + p('Beta', AUTO_BOTH), 'Alpha', 'Beta');
  assert.ok(Math.abs(auto - single - 14) < 0.01, `extra space ${auto - single}`);
  // Written lengths still add up, as in Word: 14 pt after + 14 pt before = 28 pt.
  const explicit = await gap(p('Alpha', '<w:spacing w:after="280"/>') + p('Beta', '<w:spacing w:before="280"/>'), 'Alpha', 'Beta');
  assert.ok(Math.abs(explicit - single - 28) < 0.01, `extra space ${explicit - single}`);
  // Auto on one side only collapses with the other side's length: 12 pt after, auto before → 14 pt.
  const mixed = await gap(
    p('Alpha', '<w:spacing w:after="240" w:afterAutospacing="0"/>') + p('Beta', '<w:spacing w:beforeAutospacing="1"/>'),
    'Alpha',
    'Beta',
  );
  assert.ok(Math.abs(mixed - single - 14) < 0.01, `extra space ${mixed - single}`);
  // …and a larger written length wins: 20 pt after, auto before → 20 pt.
  const larger = await gap(p('Alpha', '<w:spacing w:after="400"/>') + p('Beta', '<w:spacing w:beforeAutospacing="1"/>'), 'Alpha', 'Beta');
  assert.ok(Math.abs(larger - single - 20) < 0.01, `extra space ${larger - single}`);
});

test('auto spacing is dropped above the first paragraph of the body and at the edges of a cell', async () => {
  const plain = await docxPages(buildDocx({ body: p('Top') }));
  const auto = await docxPages(buildDocx({ body: p('Top', AUTO_BOTH) }));
  assert.ok(Math.abs(findText(auto, 'Top').y - findText(plain, 'Top').y) < 0.01, 'no auto space above the first paragraph');
  // A written space before is kept there.
  const written = await docxPages(buildDocx({ body: p('Top', '<w:spacing w:before="280"/>') }));
  assert.ok(Math.abs(findText(written, 'Top').y - findText(plain, 'Top').y - 14) < 0.01, 'a written space before stays');

  const table = (pPr: string): string =>
    '<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid>' +
    `<w:tr><w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr>${p('Inside', pPr)}</w:tc></w:tr></w:tbl>` +
    p('Below');
  const cellGap = async (pPr: string): Promise<[number, number]> => {
    const pages = await docxPages(buildDocx({ body: p('Above') + table(pPr) }));
    return [findText(pages, 'Inside').y - findText(pages, 'Above').y, findText(pages, 'Below').y - findText(pages, 'Inside').y];
  };
  const [plainTop, plainBottom] = await cellGap('');
  const [autoTop, autoBottom] = await cellGap(AUTO_BOTH);
  assert.ok(Math.abs(autoTop - plainTop) < 0.01, `cell top: ${autoTop} vs ${plainTop}`);
  assert.ok(Math.abs(autoBottom - plainBottom) < 0.01, `cell bottom: ${autoBottom} vs ${plainBottom}`);
});

test('contextual spacing removes the space between paragraphs of one style, not between different styles', async () => {
  const styles =
    '<w:style w:type="paragraph" w:styleId="Tight"><w:name w:val="Tight"/><w:pPr><w:spacing w:before="200" w:after="200"/><w:contextualSpacing/></w:pPr></w:style>' +
    '<w:style w:type="paragraph" w:styleId="Other"><w:name w:val="Other"/><w:pPr><w:spacing w:before="200" w:after="200"/><w:contextualSpacing/></w:pPr></w:style>';
  const single = await line();
  const same = await gap(p('Alpha', '<w:pStyle w:val="Tight"/>') + p('Beta', '<w:pStyle w:val="Tight"/>'), 'Alpha', 'Beta', styles);
  assert.ok(Math.abs(same - single) < 0.01, `same style: extra ${same - single}`);
  const different = await gap(p('Alpha', '<w:pStyle w:val="Tight"/>') + p('Beta', '<w:pStyle w:val="Other"/>'), 'Alpha', 'Beta', styles);
  assert.ok(Math.abs(different - single - 20) < 0.01, `different styles: extra ${different - single}`);
});

test('an empty paragraph is one line of its mark font size', async () => {
  const mark = '<w:rPr><w:sz w:val="48"/></w:rPr>';
  const withText = await gap(p('Alpha') + p('X', '', '<w:sz w:val="48"/>') + p('Gamma'), 'Alpha', 'Gamma');
  const empty = await gap(`${p('Alpha')}<w:p><w:pPr>${mark}</w:pPr></w:p>${p('Gamma')}`, 'Alpha', 'Gamma');
  const small = await gap(`${p('Alpha')}<w:p></w:p>${p('Gamma')}`, 'Alpha', 'Gamma');
  assert.ok(Math.abs(empty - withText) < 0.01, `24 pt empty line ${empty} vs 24 pt text line ${withText}`);
  assert.ok(empty - small > 10, `a 24 pt mark is taller than the default 10 pt one: ${empty} vs ${small}`);
});
