/**
 * The style sheet and the numbering part read a style's or a list level's formatting when it is first used
 * (docx/styles.ts, docx/numbering.ts), not for every style and level of the part: what a used style resolves to
 * must not change (basedOn chains, table styles' conditional layers, numbering-style links, level formats and
 * starts), and an unused one must not be read at all — the corpus has 0.8 MB style sheets beside 12 KB documents.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseXml, child, type XElement } from '../../server/engine/docx/xml.js';
import { StyleSheet } from '../../server/engine/docx/styles.js';
import { Numbering } from '../../server/engine/docx/numbering.js';
import { readTheme } from '../../server/engine/docx/theme.js';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const theme = readTheme(undefined);

/** Counts reads of an element's children (where every reader starts), without changing them. */
function watch(el: XElement): { reads: number } {
  const counter = { reads: 0 };
  const nodes = el.children;
  Object.defineProperty(el, 'children', {
    get() {
      counter.reads++;
      return nodes;
    },
  });
  return counter;
}

function styleEl(root: XElement, id: string): XElement {
  const el = root.children.find((c) => typeof c !== 'string' && c.attrs['w:styleId'] === id);
  assert.ok(el && typeof el !== 'string');
  return el;
}

const unused = Array.from({ length: 300 }, (_, i) => `<w:style w:type="paragraph" w:styleId="U${i}"><w:name w:val="unused ${i}"/><w:rPr><w:b/></w:rPr></w:style>`).join('');

const STYLES = `<w:styles xmlns:w="${W}">
  <w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="22"/></w:rPr></w:rPrDefault></w:docDefaults>
  <w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:pPr><w:spacing w:after="160"/></w:pPr></w:style>
  <w:style w:type="paragraph" w:styleId="Base"><w:name w:val="heading 2"/><w:pPr><w:jc w:val="center"/></w:pPr><w:rPr><w:b/></w:rPr></w:style>
  <w:style w:type="paragraph" w:styleId="Child"><w:name w:val="Child"/><w:basedOn w:val="Base"/><w:rPr><w:i/></w:rPr></w:style>
  <w:style w:type="character" w:styleId="Strong"><w:name w:val="Strong"/><w:rPr><w:b/></w:rPr></w:style>
  <w:style w:type="table" w:styleId="Grid"><w:name w:val="Grid"/>
    <w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4" w:color="FF0000"/></w:tblBorders></w:tblPr>
    <w:tblStylePr w:type="firstRow"><w:rPr><w:b/></w:rPr><w:tcPr><w:shd w:val="clear" w:fill="00FF00"/></w:tcPr></w:tblStylePr>
  </w:style>
  <w:style w:type="numbering" w:styleId="ListStyle"><w:name w:val="List style"/><w:pPr><w:numPr><w:numId w:val="7"/></w:numPr></w:pPr></w:style>
  ${unused}
</w:styles>`;

test('a used style resolves through its basedOn chain; an unused style of the sheet is never read', () => {
  const root = parseXml(STYLES);
  const watched = ['U0', 'U150', 'U299'].map((id) => watch(child(styleEl(root, id), 'w:rPr') as XElement));
  const sheet = new StyleSheet(root, theme);
  const child_ = sheet.paragraphStyle('Child');
  assert.equal(child_.r.bold, true);
  assert.equal(child_.r.italic, true);
  assert.equal(child_.p.align, 'center');
  assert.equal(child_.headingFromName, 2);
  // An unknown style falls back to the default paragraph style, as before.
  assert.equal(sheet.paragraphStyle('Nope').p.spaceAfter, sheet.paragraphStyle('Normal').p.spaceAfter);
  assert.ok((sheet.paragraphStyle('Normal').p.spaceAfter ?? 0) > 0);
  assert.equal(sheet.characterStyle('Strong').bold, true);
  assert.equal(sheet.numberingStyleNumId('ListStyle'), '7');
  const grid = sheet.tableStyle('Grid');
  assert.equal(grid.base.tableBorders?.top?.color, '#ff0000');
  assert.equal(grid.conditional.get('firstRow')?.r.bold, true);
  assert.equal(grid.conditional.get('firstRow')?.shading, '#00ff00');
  assert.deepEqual(watched.map((w) => w.reads), [0, 0, 0]);
  // Used once, read once (memoised).
  assert.equal(sheet.paragraphStyle('U150').r.bold, true);
  assert.equal(sheet.paragraphStyle('U150').r.bold, true);
  assert.deepEqual(watched.map((w) => w.reads > 0), [false, true, false]);
});

const NUMBERING = `<w:numbering xmlns:w="${W}">
  <w:abstractNum w:abstractNumId="1">
    <w:lvl w:ilvl="0"><w:start w:val="3"/><w:numFmt w:val="upperRoman"/><w:lvlText w:val="%1."/><w:pPr><w:ind w:left="720"/></w:pPr></w:lvl>
    <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%1.%2"/></w:lvl>
  </w:abstractNum>
  <w:abstractNum w:abstractNumId="2"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="o"/></w:lvl></w:abstractNum>
  <w:abstractNum w:abstractNumId="3"><w:numStyleLink w:val="ListStyle"/></w:abstractNum>
  <w:num w:numId="5"><w:abstractNumId w:val="1"/></w:num>
  <w:num w:numId="6"><w:abstractNumId w:val="1"/><w:lvlOverride w:ilvl="1"><w:lvl w:ilvl="1"><w:start w:val="4"/><w:numFmt w:val="decimal"/><w:lvlText w:val="(%2)"/></w:lvl></w:lvlOverride></w:num>
  <w:num w:numId="7"><w:abstractNumId w:val="2"/></w:num>
  <w:num w:numId="8"><w:abstractNumId w:val="3"/></w:num>
</w:numbering>`;

test('a list level is read when a paragraph first uses it, with the same format, text, start and indents', () => {
  const root = parseXml(NUMBERING);
  const abstracts = root.children.filter((c): c is XElement => typeof c !== 'string' && c.name === 'w:abstractNum');
  const bullet = watch(child(abstracts[1], 'w:lvl') as XElement);
  const numbering = new Numbering(root, theme, new StyleSheet(parseXml(STYLES), theme));
  const roman = numbering.level('5', 0);
  assert.equal(roman?.list.format, 'upperRoman');
  assert.equal(roman?.list.start, 3);
  assert.equal(roman?.list.text, '%1.');
  assert.ok((roman?.p.indentLeft ?? 0) > 0);
  // The second level shows the first level's start in its text: the first level is read for it too.
  assert.deepEqual(numbering.level('5', 1)?.list.parentStarts, [3]);
  // A level override replaces the abstract level for that instance only.
  assert.equal(numbering.level('6', 1)?.list.format, 'decimal');
  assert.equal(numbering.level('6', 1)?.list.start, 4);
  assert.equal(numbering.level('5', 1)?.list.format, 'lowerLetter');
  assert.equal(bullet.reads, 0, 'no paragraph used the bullet list yet');
  // A list linked to a numbering style (numStyleLink → the style's numId 7 → abstract 2): the bullet level.
  assert.equal(numbering.level('8', 0)?.list.format, 'bullet');
  assert.ok(bullet.reads > 0);
  assert.equal(numbering.level('9', 0), undefined);
});
