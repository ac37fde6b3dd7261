/**
 * Word's paragraph spacing rules between neighbours, read from real .docx files and checked on the layout as data
 * (docxPages): "auto" (HTML-style) spacing collapses, contextual spacing, the height of an empty paragraph, and
 * the larger-of-two rule LibreOffice applies between paragraphs of a file with a settings part (checked on a corpus
 * file through the PDF, pdftotext -bbox).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { buildDocx, p } from './build-docx.js';
import { docxPages, findText } from '../engine/pdf/boxes.js';
import { word, words } from '../engine/pdf/helpers.js';

const CORPUS = process.env.DOCLOOM_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/docx');

const AUTO_BOTH = '<w:spacing w:before="100" w:beforeAutospacing="1" w:after="100" w:afterAutospacing="1"/>';

/** Baseline of `b` minus baseline of `a`, in a body made of `body`. */
async function gap(body: string, a: string, b: string, styles?: string, settings?: string): Promise<number> {
  const pages = await docxPages(buildDocx({ body, ...(styles ? { styles } : {}), ...(settings !== undefined ? { settings } : {}) }));
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

test('with a settings part, two paragraphs are as far apart as the larger of after and before (LibreOffice), not the sum', async () => {
  const single = await line();
  const body = p('Alpha', '<w:spacing w:after="280"/>') + p('Beta', '<w:spacing w:before="400"/>');
  const settings = '<w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat>';
  // 14 pt after, 20 pt before: 20 pt with settings.xml (LibreOffice's ParaSpaceMax), 34 pt without one.
  const collapsed = await gap(body, 'Alpha', 'Beta', undefined, settings);
  assert.ok(Math.abs(collapsed - single - 20) < 0.01, `extra space ${collapsed - single}`);
  const bare = await gap(body, 'Alpha', 'Beta');
  assert.ok(Math.abs(bare - single - 34) < 0.01, `no settings part: extra space ${bare - single}`);
  // w:doNotUseHTMLParagraphAutoSpacing asks for the sum.
  const fixed = await gap(body, 'Alpha', 'Beta', undefined, '<w:compat><w:doNotUseHTMLParagraphAutoSpacing/></w:compat>');
  assert.ok(Math.abs(fixed - single - 34) < 0.01, `doNotUseHTMLParagraphAutoSpacing: extra space ${fixed - single}`);
  // A paragraph border between the two does not stop the collapse: only the border's own room (0.5 pt line, 1 pt
  // space) is added. LibreOffice 7.4 draws "Beta" 1.5 pt lower than without borders whether "Alpha" has a bottom
  // border or "Beta" a top one (3 pt with both), and never 14 pt lower (the sum).
  const bottom = '<w:pBdr><w:bottom w:val="single" w:sz="4" w:space="1" w:color="000000"/></w:pBdr>';
  const top = '<w:pBdr><w:top w:val="single" w:sz="4" w:space="1" w:color="000000"/></w:pBdr>';
  const ruled = await gap(p('Alpha', `${bottom}<w:spacing w:after="280"/>`) + p('Beta', '<w:spacing w:before="400"/>'), 'Alpha', 'Beta', undefined, settings);
  assert.ok(Math.abs(ruled - collapsed - 1.5) < 0.01, `bottom border above: ${ruled} vs ${collapsed}`);
  const topped = await gap(p('Alpha', '<w:spacing w:after="280"/>') + p('Beta', `${top}<w:spacing w:before="400"/>`), 'Alpha', 'Beta', undefined, settings);
  assert.ok(Math.abs(topped - collapsed - 1.5) < 0.01, `top border below: ${topped} vs ${collapsed}`);
});

test('with w:doNotUseHTMLParagraphAutoSpacing, auto-spaced paragraphs keep their written before and after (5 + 5 pt, not 14)', async () => {
  const single = await line();
  const spaced = '<w:spacing w:before="100" w:beforeAutospacing="1" w:after="100" w:afterAutospacing="1"/>';
  const body = p('Alpha', spaced) + p('Beta', spaced);
  // LibreOffice draws tika__017097 (this option, 423 auto-spaced paragraphs) so: 15 pages, not 17.
  const fixed = await gap(body, 'Alpha', 'Beta', undefined, '<w:compat><w:doNotUseHTMLParagraphAutoSpacing/></w:compat>');
  assert.ok(Math.abs(fixed - single - 10) < 0.01, `extra space ${fixed - single}`);
  // Without it, "auto" is 14 pt, once between the two.
  const auto = await gap(body, 'Alpha', 'Beta', undefined, '<w:compat/>');
  assert.ok(Math.abs(auto - single - 14) < 0.01, `auto: extra space ${auto - single}`);
});

test('a length written without its auto flag replaces the style\'s auto spacing; the flag alone keeps it', async () => {
  const single = await line();
  const styles =
    '<w:style w:type="paragraph" w:styleId="NormalWeb"><w:name w:val="Normal (Web)"/><w:pPr>' + AUTO_BOTH + '</w:pPr></w:style>';
  const web = '<w:pStyle w:val="NormalWeb"/>';
  // The style's auto spacing: 14 pt between two of its paragraphs.
  const auto = await gap(p('Alpha', web) + p('Beta', web), 'Alpha', 'Beta', styles);
  assert.ok(Math.abs(auto - single - 14) < 0.01, `style auto: extra ${auto - single}`);
  // Direct w:before="0" w:after="0" (no w:…Autospacing): no space at all, as Word and LibreOffice lay out
  // oxsdk__BackgroundReport's annex (78 pages, docProps/app.xml and LibreOffice alike).
  const zero = '<w:spacing w:before="0" w:after="0"/>';
  const direct = await gap(p('Alpha', web + zero) + p('Beta', web + zero), 'Alpha', 'Beta', styles);
  assert.ok(Math.abs(direct - single) < 0.01, `direct zero lengths: extra ${direct - single}`);
  // Only the side written changes: after="0" alone leaves the next paragraph's auto before (14 pt).
  const half = await gap(p('Alpha', web + '<w:spacing w:after="0"/>') + p('Beta', web), 'Alpha', 'Beta', styles);
  assert.ok(Math.abs(half - single - 14) < 0.01, `one side written: extra ${half - single}`);
});

test('corpus: oxsdk__BackgroundReport has Word\'s 78 pages (its annex\'s direct zero spacing beats Normal (Web) auto spacing)', { skip: !fs.existsSync(path.join(CORPUS, 'oxsdk__BackgroundReport-THE_WORKING_GROUP_ON_INTERNET_GOVERNANCE.docx')) && 'no corpus' }, async () => {
  const bytes = new Uint8Array(fs.readFileSync(path.join(CORPUS, 'oxsdk__BackgroundReport-THE_WORKING_GROUP_ON_INTERNET_GOVERNANCE.docx')));
  const pages = await docxPages(bytes);
  assert.equal(pages.length, 78);
});

test('corpus: markitdown__test headings sit where LibreOffice draws them (space after and before collapse to the larger)', { skip: !fs.existsSync(path.join(CORPUS, 'markitdown__test.docx')) && 'no corpus' }, async () => {
  const compiled = compileTemplate({ kind: 'docx', bytes: new Uint8Array(fs.readFileSync(path.join(CORPUS, 'markitdown__test.docx'))) });
  assert.ok(compiled.ok);
  const all = words((await renderPdf(compiled.template, {})).bytes);
  // Body lines of one font: their yMin distance is their baselines' distance in either PDF. LibreOffice 7.4 (with
  // docloom's fonts) has "Large" (after an empty paragraph and Heading 1 "Introduction") 298.1 pt below "Qingyun",
  // and "In light" (after Heading 2) 431.6 pt below: the Normal style's 8 pt after and the headings' 18 pt / 8 pt
  // before give 18 and 8, not 26 and 16 (which put them 16 and 24 pt lower).
  const top = word(all, 'Qingyun', 1).yMin;
  const large = word(all, 'Large', 1).yMin - top;
  const light = word(all, 'light', 1).yMin - top;
  assert.ok(Math.abs(large - 298.1) < 1, `"Large" ${large} pt below`);
  assert.ok(Math.abs(light - 431.6) < 1, `"In light" ${light} pt below`);
});

test('spacing in hundredths of a line (w:beforeLines/w:afterLines, 12 pt a line) where no w:before/w:after is written; the written length wins', async () => {
  const single = await line();
  // 0.6 line after + 0.6 line before (oxsdk__Outreach_Toolkit's bullets): 7.2 + 7.2 pt.
  const lines = await gap(p('Alpha', '<w:spacing w:afterLines="60"/>') + p('Beta', '<w:spacing w:beforeLines="60"/>'), 'Alpha', 'Beta');
  assert.ok(Math.abs(lines - single - 14.4) < 0.01, `extra space ${lines - single}`);
  // Both forms in one element (Word writes them in agreement): the written length counts, 163 twips = 8.15 pt.
  const both = await gap(p('Alpha') + p('Beta', '<w:spacing w:before="163" w:beforeLines="100"/>'), 'Alpha', 'Beta');
  assert.ok(Math.abs(both - single - 8.15) < 0.01, `extra space ${both - single}`);
});

const OUTREACH = 'oxsdk__Outreach_Toolkit_2007_After_the_Flood_Fact_Sheet_1.docx';

test('corpus: the bullets of oxsdk__Outreach_Toolkit (0.6 line before and after) stand where LibreOffice puts them', { skip: !fs.existsSync(path.join(CORPUS, OUTREACH)) && 'no corpus' }, async () => {
  const compiled = compileTemplate({ kind: 'docx', bytes: fs.readFileSync(path.join(CORPUS, OUTREACH)), delimiters: ['⟦⟦', '⟧⟧'] });
  assert.ok(compiled.ok);
  const all = words((await renderPdf(compiled.template, {})).bytes);
  // LibreOffice 7.4 (docloom's fonts): "throw the item away." ends a bullet at yMax 226.8, the next bullet's
  // "Thoroughly" is at 246.6: 19.8 pt from line to line across the two spacings (12.7 pt within a paragraph).
  const end = word(all, 'throw');
  const next = word(all, 'Thoroughly');
  assert.ok(Math.abs(next.yMax - end.yMax - 19.8) < 0.3, `${next.yMax - end.yMax} pt`);
});
