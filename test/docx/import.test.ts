/**
 * The .docx importer on crafted documents: each feature of issue #3 is written the way Word writes it and the
 * model is checked field by field.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { importDocx } from '../../server/engine/docx/import.js';
import type { ImageRun, Paragraph, TextRun } from '../../server/engine/model/types.js';
import { buildDocx, makePng, p } from './build-docx.js';
import { bodyTexts, findParagraph, paragraphText, tables, texts } from './model-text.js';

const THEME = `<?xml version="1.0" encoding="UTF-8"?><a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="T"><a:themeElements>
<a:clrScheme name="c"><a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1><a:lt1><a:sysClr val="window" lastClr="FFFFFF"/></a:lt1><a:dk2><a:srgbClr val="44546A"/></a:dk2><a:lt2><a:srgbClr val="E7E6E6"/></a:lt2><a:accent1><a:srgbClr val="4472C4"/></a:accent1></a:clrScheme>
<a:fontScheme name="f"><a:majorFont><a:latin typeface="Calibri Light"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont><a:minorFont><a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface="Arial"/></a:minorFont></a:fontScheme>
</a:themeElements></a:theme>`;

const STYLES = `
<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:asciiTheme="minorHAnsi" w:hAnsiTheme="minorHAnsi" w:cstheme="minorBidi"/><w:sz w:val="22"/><w:szCs w:val="22"/><w:lang w:val="de-DE"/></w:rPr></w:rPrDefault>
<w:pPrDefault><w:pPr><w:spacing w:after="160" w:line="259" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:keepNext/><w:spacing w:before="240" w:after="0"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:rFonts w:asciiTheme="majorHAnsi" w:hAnsiTheme="majorHAnsi"/><w:color w:val="2F5496" w:themeColor="accent1" w:themeShade="BF"/><w:sz w:val="32"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="Ueberschrift2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:rPr><w:b/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="Quote"><w:name w:val="Quote"/><w:basedOn w:val="Normal"/><w:pPr><w:jc w:val="center"/><w:ind w:left="864" w:right="864"/></w:pPr><w:rPr><w:i/><w:color w:val="404040"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="QuoteChild"><w:name w:val="Quote Child"/><w:basedOn w:val="Quote"/><w:rPr><w:sz w:val="28"/></w:rPr></w:style>
<w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont"><w:name w:val="Default Paragraph Font"/></w:style>
<w:style w:type="character" w:styleId="Strong"><w:name w:val="Strong"/><w:rPr><w:b/></w:rPr></w:style>
<w:style w:type="character" w:styleId="Emphasis"><w:name w:val="Emphasis"/><w:rPr><w:i/></w:rPr></w:style>
<w:style w:type="character" w:styleId="Hyperlink"><w:name w:val="Hyperlink"/><w:rPr><w:color w:val="0563C1"/><w:u w:val="single"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="ListBullet"><w:name w:val="List Bullet"/><w:basedOn w:val="Normal"/><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr><w:contextualSpacing/></w:pPr></w:style>
<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/><w:tblPr><w:tblCellMar><w:top w:w="0" w:type="dxa"/><w:left w:w="108" w:type="dxa"/><w:bottom w:w="0" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style>
<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:basedOn w:val="TableNormal"/><w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:left w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:bottom w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:right w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:insideH w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:insideV w:val="single" w:sz="4" w:space="0" w:color="auto"/></w:tblBorders></w:tblPr></w:style>
<w:style w:type="table" w:styleId="Fancy"><w:name w:val="Fancy"/><w:basedOn w:val="TableGrid"/>
  <w:tblStylePr w:type="firstRow"><w:rPr><w:b/><w:color w:val="FFFFFF"/></w:rPr><w:tcPr><w:shd w:val="clear" w:color="auto" w:fill="4472C4"/></w:tcPr></w:tblStylePr>
  <w:tblStylePr w:type="band1Horz"><w:tcPr><w:shd w:val="clear" w:color="auto" w:fill="D9E2F3"/></w:tcPr></w:tblStylePr></w:style>`;

const NUMBERING = `
<w:abstractNum w:abstractNumId="10"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="\uF0B7"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr><w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol"/></w:rPr></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="o"/><w:pPr><w:ind w:left="1440" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum>
<w:abstractNum w:abstractNumId="20"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%2)"/><w:pPr><w:ind w:left="1440" w:hanging="360"/></w:pPr></w:lvl>
  <w:lvl w:ilvl="2"><w:start w:val="3"/><w:numFmt w:val="upperRoman"/><w:lvlText w:val="%3."/></w:lvl></w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="10"/></w:num>
<w:num w:numId="2"><w:abstractNumId w:val="20"/></w:num>
<w:num w:numId="3"><w:abstractNumId w:val="20"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="5"/></w:lvlOverride></w:num>`;

function doc(body: string, extra: Parameters<typeof buildDocx>[0] = { body: '' }): ReturnType<typeof importDocx> {
  return importDocx(buildDocx({ styles: STYLES, theme: THEME, numbering: NUMBERING, ...extra, body }));
}

function runs(para: Paragraph): TextRun[] {
  return para.runs.filter((r): r is TextRun => r.type === 'text');
}

test('run formatting: font, size, bold, italic, underline, strike, colour, highlight, super/subscript', () => {
  const body =
    '<w:p>' +
    '<w:r><w:rPr><w:rFonts w:ascii="Georgia" w:hAnsi="Georgia"/><w:sz w:val="28"/></w:rPr><w:t>A</w:t></w:r>' +
    '<w:r><w:rPr><w:b/><w:i/></w:rPr><w:t>B</w:t></w:r>' +
    '<w:r><w:rPr><w:u w:val="single"/><w:strike/></w:rPr><w:t>C</w:t></w:r>' +
    '<w:r><w:rPr><w:color w:val="FF0000"/><w:highlight w:val="yellow"/></w:rPr><w:t>D</w:t></w:r>' +
    '<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:t>E</w:t></w:r>' +
    '<w:r><w:rPr><w:vertAlign w:val="subscript"/><w:dstrike/></w:rPr><w:t>F</w:t></w:r>' +
    '<w:r><w:rPr><w:b w:val="0"/><w:u w:val="none"/></w:rPr><w:t>G</w:t></w:r>' +
    '</w:p>';
  const [a, b, c, d, e, f, g] = runs(doc(body).sections[0].body[0] as Paragraph);
  assert.deepEqual(a.style, { font: 'Georgia', size: 14 });
  assert.deepEqual(b.style, { font: 'Calibri', size: 11, bold: true, italic: true });
  assert.deepEqual(c.style, { font: 'Calibri', size: 11, underline: true, strike: true });
  assert.deepEqual(d.style, { font: 'Calibri', size: 11, color: '#ff0000', highlight: '#ffff00' });
  assert.equal(e.style?.vertAlign, 'superscript');
  assert.equal(f.style?.vertAlign, 'subscript');
  assert.equal(f.style?.strike, true);
  assert.deepEqual(g.style, { font: 'Calibri', size: 11 });
});

test('style inheritance: docDefaults → paragraph style chain → character style → direct formatting', () => {
  const body =
    '<w:p><w:pPr><w:pStyle w:val="QuoteChild"/></w:pPr>' +
    '<w:r><w:t>plain</w:t></w:r>' +
    '<w:r><w:rPr><w:rStyle w:val="Strong"/></w:rPr><w:t>strong</w:t></w:r>' +
    '<w:r><w:rPr><w:rStyle w:val="Emphasis"/></w:rPr><w:t>emphasis</w:t></w:r>' +
    '<w:r><w:rPr><w:rStyle w:val="Strong"/><w:b w:val="0"/><w:sz w:val="20"/></w:rPr><w:t>direct</w:t></w:r>' +
    '</w:p>';
  const para = doc(body).sections[0].body[0] as Paragraph;
  const [plain, strong, emphasis, direct] = runs(para);
  // QuoteChild (size 14) ← Quote (italic, grey, centred, indented) ← Normal ← docDefaults (Calibri via theme).
  assert.deepEqual(plain.style, { font: 'Calibri', size: 14, italic: true, color: '#404040' });
  assert.deepEqual(strong.style, { font: 'Calibri', size: 14, bold: true, italic: true, color: '#404040' });
  // A toggle property set by both the paragraph and the character style switches off, as in Word.
  assert.equal(emphasis.style?.italic, undefined);
  assert.deepEqual(direct.style, { font: 'Calibri', size: 10, italic: true, color: '#404040' });
  assert.equal(para.style?.align, 'center');
  assert.equal(para.style?.indentLeft, 43.2);
  assert.equal(para.style?.indentRight, 43.2);
  assert.equal(para.style?.spaceAfter, 8);
  assert.equal(para.style?.lineHeight, 1.08);
});

test('theme fonts and colours resolve through theme1.xml', () => {
  const model = doc(p('Title', '<w:pStyle w:val="Heading1"/>') + '<w:p><w:r><w:rPr><w:color w:themeColor="accent1"/></w:rPr><w:t>themed</w:t></w:r></w:p>');
  const heading = findParagraph(model, 'Title');
  assert.deepEqual(runs(heading)[0].style, { font: 'Calibri Light', size: 16, color: '#2f5496' });
  assert.equal(runs(findParagraph(model, 'themed'))[0].style?.color, '#4472c4');
  assert.deepEqual(model.defaults.run, { font: 'Calibri', size: 11 });
  assert.equal(model.locale, 'de-DE');
});

test('alignment, indents, spacing and line height (auto, exact, atLeast)', () => {
  const body =
    p('right', '<w:jc w:val="right"/>') +
    p('justified', '<w:jc w:val="both"/><w:ind w:left="720" w:firstLine="360"/>') +
    p('hanging', '<w:ind w:left="1440" w:hanging="720"/><w:spacing w:before="120" w:after="240" w:line="360" w:lineRule="auto"/>') +
    p('exact', '<w:spacing w:line="480" w:lineRule="exact"/>', '<w:sz w:val="24"/>') +
    p('atleast', '<w:spacing w:line="200" w:lineRule="atLeast"/>') +
    p('auto-spacing', '<w:spacing w:beforeAutospacing="1" w:afterAutospacing="1"/>');
  const model = doc(body);
  assert.equal(findParagraph(model, 'right').style?.align, 'right');
  const j = findParagraph(model, 'justified').style;
  assert.deepEqual([j?.align, j?.indentLeft, j?.indentFirstLine], ['justify', 36, 18]);
  const h = findParagraph(model, 'hanging').style;
  assert.deepEqual([h?.indentLeft, h?.indentFirstLine, h?.spaceBefore, h?.spaceAfter, h?.lineHeight], [72, -36, 6, 12, 1.5]);
  // Exact and at-least spacing are lengths (24 pt exactly, 10 pt at least), not multiples of the font size.
  const exact = findParagraph(model, 'exact').style;
  assert.deepEqual([exact?.lineExact, exact?.lineAtLeast, exact?.lineHeight], [24, undefined, 1]);
  const atLeast = findParagraph(model, 'atleast').style;
  assert.deepEqual([atLeast?.lineAtLeast, atLeast?.lineExact, atLeast?.lineHeight], [10, undefined, 1]);
  const auto = findParagraph(model, 'auto-spacing').style;
  assert.deepEqual([auto?.spaceBefore, auto?.spaceAfter], [14, 14]);
});

test('headings from outline levels and from "heading N" style names (any style id)', () => {
  const model = doc(
    p('One', '<w:pStyle w:val="Heading1"/>') +
      p('Two', '<w:pStyle w:val="Ueberschrift2"/>') +
      p('Three', '<w:outlineLvl w:val="2"/>') +
      p('Body'),
  );
  assert.equal(findParagraph(model, 'One').style?.heading, 1);
  assert.equal(findParagraph(model, 'One').style?.keepWithNext, true);
  assert.equal(findParagraph(model, 'Two').style?.heading, 2);
  assert.equal(findParagraph(model, 'Three').style?.heading, 3);
  assert.equal(findParagraph(model, 'Body').style?.heading, undefined);
});

test('bulleted and numbered lists: levels, formats, level text, start values, overrides, indents', () => {
  const item = (text: string, numId: number, ilvl = 0): string =>
    p(text, `<w:numPr><w:ilvl w:val="${ilvl}"/><w:numId w:val="${numId}"/></w:numPr>`);
  const model = doc(
    item('bullet', 1) +
      item('sub bullet', 1, 1) +
      p('style bullet', '<w:pStyle w:val="ListBullet"/>') +
      item('first', 2) +
      item('nested', 2, 1) +
      item('roman', 2, 2) +
      item('restarted', 3) +
      p('not a list', '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="0"/></w:numPr>'),
  );
  const bullet = findParagraph(model, 'bullet');
  // The Symbol font's private-use bullet becomes a real bullet character.
  assert.deepEqual(bullet.list, { id: 'abs10', level: 0, format: 'bullet', text: '•' });
  assert.deepEqual([bullet.style?.indentLeft, bullet.style?.indentFirstLine], [36, -18]);
  assert.deepEqual(findParagraph(model, 'sub bullet').list, { id: 'abs10', level: 1, format: 'bullet', text: 'o' });
  assert.equal(findParagraph(model, 'style bullet').list?.format, 'bullet');
  assert.deepEqual(findParagraph(model, 'first').list, { id: 'abs20', level: 0, format: 'decimal', text: '%1.', start: 1 });
  assert.deepEqual(findParagraph(model, 'nested').list, { id: 'abs20', level: 1, format: 'lowerLetter', text: '%2)', start: 1 });
  assert.deepEqual(findParagraph(model, 'roman').list, { id: 'abs20', level: 2, format: 'upperRoman', text: '%3.', start: 3 });
  // An instance with a start override is its own numbering.
  assert.deepEqual(findParagraph(model, 'restarted').list, { id: 'num3', level: 0, format: 'decimal', text: '%1.', start: 5 });
  assert.equal(findParagraph(model, 'not a list').list, undefined);
});

const CELL = (text: string, tcPr = ''): string => `<w:tc>${tcPr ? `<w:tcPr>${tcPr}</w:tcPr>` : ''}${p(text)}</w:tc>`;

test('tables: grid widths, header rows, gridSpan and vMerge, shading, uniform borders', () => {
  const body =
    '<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/><w:jc w:val="center"/></w:tblPr>' +
    '<w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="3000"/><w:gridCol w:w="4000"/></w:tblGrid>' +
    `<w:tr><w:trPr><w:tblHeader/></w:trPr>${CELL('H1')}${CELL('H2-3', '<w:gridSpan w:val="2"/>')}</w:tr>` +
    `<w:tr><w:trPr><w:trHeight w:val="600"/><w:cantSplit/></w:trPr>${CELL('tall', '<w:vMerge w:val="restart"/><w:vAlign w:val="center"/>')}${CELL('b1', '<w:shd w:val="clear" w:color="auto" w:fill="FFFF00"/>')}${CELL('c1')}</w:tr>` +
    `<w:tr>${CELL('', '<w:vMerge/>')}${CELL('b2')}${CELL('c2')}</w:tr>` +
    '</w:tbl>' +
    p('after');
  const model = doc(body);
  const [table] = tables(model.sections[0].body);
  assert.deepEqual(table.columns, [100, 150, 200]);
  assert.deepEqual(table.style?.borders, { width: 0.5, color: '#000000', style: 'single' });
  assert.equal(table.style?.align, 'center');
  assert.equal(table.style?.cellPadding, 5.4);
  assert.equal(table.rows[0].header, true);
  assert.equal(table.rows[1].header, undefined);
  assert.equal(table.rows[0].cells[1].colSpan, 2);
  assert.equal(table.rows[1].cells[0].rowSpan, 2);
  assert.equal(table.rows[1].cells[0].vAlign, 'middle');
  assert.equal(table.rows[1].height, 30);
  assert.equal(table.rows[1].cantSplit, true);
  assert.equal(table.rows[1].cells[1].shading, '#ffff00');
  // The cell covered by the merge is left out, as in HTML.
  assert.deepEqual(table.rows[2].cells.map((c) => texts(c.blocks).join('')), ['b2', 'c2']);
  assert.deepEqual(bodyTexts(model).slice(-1), ['after']);
});

/**
 * The grid slots each cell occupies when the rows are read by HTML's table rules: a cell takes the first free
 * slot of its row, and a rowSpan reserves its columns in the rows below (so those rows must leave them out).
 */
function htmlSlots(rows: Array<{ cells: Array<{ colSpan?: number; rowSpan?: number }> }>): number[][][] {
  const taken: boolean[][] = rows.map(() => []);
  return rows.map((row, r) =>
    row.cells.map((cell) => {
      let col = 0;
      while (taken[r][col]) col++;
      const slots: number[] = [];
      for (let dr = 0; dr < (cell.rowSpan ?? 1); dr++) {
        for (let dc = 0; dc < (cell.colSpan ?? 1); dc++) {
          assert.ok(r + dr < rows.length, `row ${r} cell reaches below the table`);
          assert.ok(!taken[r + dr][col + dc], `row ${r + dr} column ${col + dc} taken twice`);
          taken[r + dr][col + dc] = true;
        }
      }
      for (let dc = 0; dc < (cell.colSpan ?? 1); dc++) slots.push(col + dc);
      return [slots[0], slots.length];
    }),
  );
}

test('tables: vMerge becomes rowSpan by HTML rules: later rows leave out the covered cells, whatever the column', () => {
  // Four grid columns. Column 1–2 (a gridSpan of 2) is merged over three rows, column 3 over two, column 0 not at all;
  // a new restart in column 3 begins a second merge right after the first one.
  const body =
    '<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/></w:tblPr><w:tblGrid><w:gridCol w:w="1000"/><w:gridCol w:w="1000"/><w:gridCol w:w="1000"/><w:gridCol w:w="1000"/></w:tblGrid>' +
    `<w:tr>${CELL('a1')}${CELL('wide', '<w:gridSpan w:val="2"/><w:vMerge w:val="restart"/>')}${CELL('d1', '<w:vMerge w:val="restart"/>')}</w:tr>` +
    `<w:tr>${CELL('a2')}${CELL('', '<w:gridSpan w:val="2"/><w:vMerge/>')}${CELL('', '<w:vMerge w:val="continue"/>')}</w:tr>` +
    `<w:tr>${CELL('a3')}${CELL('', '<w:gridSpan w:val="2"/><w:vMerge/>')}${CELL('d3', '<w:vMerge w:val="restart"/>')}</w:tr>` +
    `<w:tr>${CELL('a4')}${CELL('b4')}${CELL('c4')}${CELL('', '<w:vMerge/>')}</w:tr>` +
    '</w:tbl>';
  const [table] = tables(doc(body).sections[0].body);
  const cellTexts = table.rows.map((r) => r.cells.map((c) => texts(c.blocks).join('')));
  assert.deepEqual(cellTexts, [['a1', 'wide', 'd1'], ['a2'], ['a3', 'd3'], ['a4', 'b4', 'c4']]);
  assert.deepEqual(
    table.rows.map((r) => r.cells.map((c) => [c.colSpan ?? 1, c.rowSpan ?? 1])),
    [[[1, 1], [2, 3], [1, 2]], [[1, 1]], [[1, 1], [1, 2]], [[1, 1], [1, 1], [1, 1]]],
  );
  // Read by HTML's rules, every cell lands in its own Word grid column and every slot is filled exactly once.
  assert.deepEqual(htmlSlots(table.rows), [[[0, 1], [1, 2], [3, 1]], [[0, 1]], [[0, 1], [3, 1]], [[0, 1], [1, 1], [2, 1]]]);
});

test('tables: style conditional formatting and per-cell borders', () => {
  const body =
    '<w:tbl><w:tblPr><w:tblStyle w:val="Fancy"/><w:tblLook w:val="04A0" w:firstRow="1" w:lastRow="0" w:firstColumn="1" w:lastColumn="0" w:noHBand="0" w:noVBand="1"/></w:tblPr>' +
    '<w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/></w:tblGrid>' +
    `<w:tr>${CELL('Head A')}${CELL('Head B')}</w:tr>` +
    `<w:tr>${CELL('r1')}${CELL('r1b', '<w:tcBorders><w:bottom w:val="double" w:sz="12" w:color="FF0000"/></w:tcBorders>')}</w:tr>` +
    `<w:tr>${CELL('r2')}${CELL('r2b')}</w:tr>` +
    '</w:tbl>';
  const [table] = tables(doc(body).sections[0].body);
  assert.equal(table.rows[0].cells[0].shading, '#4472c4');
  const head = table.rows[0].cells[0].blocks[0] as Paragraph;
  assert.deepEqual(runs(head)[0].style, { font: 'Calibri', size: 11, bold: true, color: '#ffffff' });
  // Banded rows: the first body row is band 1.
  assert.equal(table.rows[1].cells[0].shading, '#d9e2f3');
  assert.equal(table.rows[2].cells[0].shading, undefined);
  // One cell differs, so every cell lists its own edges.
  assert.equal(table.style?.borders, null);
  assert.deepEqual(table.rows[1].cells[1].borders?.bottom, { width: 1.5, color: '#ff0000', style: 'double' });
  assert.deepEqual(table.rows[1].cells[0].borders?.bottom, { width: 0.5, color: '#000000', style: 'single' });
});

test('images: inline drawings sized from their extent, embedded as data: URIs; unsupported formats degrade', () => {
  const png = makePng(4, 2);
  const drawing = (rel: string, cx: number, cy: number): string =>
    `<w:r><w:drawing><wp:inline><wp:extent cx="${cx}" cy="${cy}"/><wp:docPr id="1" name="Picture 1" descr="Company logo"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:blipFill><a:blip r:embed="${rel}"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
  const body = `<w:p><w:r><w:t>Logo: </w:t></w:r>${drawing('img_logo', 1270000, 635000)}</w:p><w:p>${drawing('img_vector', 127000, 127000)}<w:r><w:t>vector</w:t></w:r></w:p>`;
  const model = doc(body, { body: '', media: { 'logo.png': png, 'vector.emf': new Uint8Array([1, 0, 0, 0, 0x20, 0x45, 0x4d, 0x46]) } });
  const para = findParagraph(model, 'Logo');
  const image = para.runs[1] as ImageRun;
  assert.equal(image.type, 'image');
  assert.equal(image.width, 100);
  assert.equal(image.height, 50);
  assert.equal(image.alt, 'Company logo');
  assert.equal(image.src, `data:image/png;base64,${Buffer.from(png).toString('base64')}`);
  // An EMF picture cannot be drawn: it is left out, the text stays.
  assert.deepEqual(findParagraph(model, 'vector').runs.map((r) => r.type), ['text']);
});

test('headers and footers: default, first and even pages, titlePg, evenAndOddHeaders, PAGE/NUMPAGES fields', () => {
  const complexPage =
    '<w:p><w:r><w:t xml:space="preserve">Page </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE \\* MERGEFORMAT </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>3</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>' +
    '<w:r><w:t xml:space="preserve"> of </w:t></w:r><w:fldSimple w:instr=" NUMPAGES "><w:r><w:t>9</w:t></w:r></w:fldSimple></w:p>';
  const sect =
    '<w:sectPr><w:headerReference w:type="default" r:id="rId_header1"/><w:headerReference w:type="first" r:id="rId_header2"/><w:headerReference w:type="even" r:id="rId_header3"/>' +
    '<w:footerReference w:type="default" r:id="rId_footer1"/><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1080" w:bottom="1440" w:left="1080" w:header="720" w:footer="360" w:gutter="0"/><w:titlePg/></w:sectPr>';
  const model = doc(p('Body {name}'), {
    body: '',
    sectPr: sect,
    settings: '<w:evenAndOddHeaders/>',
    headers: { header1: p('Default header {title}'), header2: p('First page header'), header3: p('Even header') },
    footers: { footer1: complexPage },
  });
  const section = model.sections[0];
  assert.deepEqual(texts(section.header?.default), ['Default header {title}']);
  assert.deepEqual(texts(section.header?.first), ['First page header']);
  assert.deepEqual(texts(section.header?.even), ['Even header']);
  assert.equal(section.titlePage, true);
  // Cached field results are not kept: the renderer fills page numbers in.
  assert.deepEqual(texts(section.footer?.default), ['Page <page> of <pages>']);
  // A title page without its own footer shows an empty one.
  assert.deepEqual(section.footer?.first, []);
  assert.deepEqual(section.page, { width: 612, height: 792, margins: { top: 72, right: 54, bottom: 72, left: 54 }, headerDistance: 36, footerDistance: 18 });

  const noEven = doc(p('x'), { body: '', sectPr: sect, headers: { header1: p('d'), header2: p('f'), header3: p('e') }, footers: { footer1: p('f') } });
  assert.equal(noEven.sections[0].header?.even, undefined, 'even headers only with w:evenAndOddHeaders');
});

test('the gutter widens the left margin, the right one in a right-to-left section (w:rtlGutter), the top one with w:gutterAtTop (the header moving down with it)', () => {
  const sect = (extra = ''): string =>
    `<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="720"/>${extra}</w:sectPr>`;
  const page = (sectPr: string, settings?: string): unknown => doc(p('x'), { body: '', sectPr, ...(settings === undefined ? {} : { settings }) }).sections[0].page;
  const base = { width: 612, height: 792, footerDistance: 36 };
  assert.deepEqual(page(sect()), { ...base, margins: { top: 72, right: 72, bottom: 72, left: 108 }, headerDistance: 36 });
  assert.deepEqual(page(sect('<w:rtlGutter/>')), { ...base, margins: { top: 72, right: 108, bottom: 72, left: 72 }, headerDistance: 36 });
  assert.deepEqual(page(sect(), '<w:gutterAtTop/>'), { ...base, margins: { top: 108, right: 72, bottom: 72, left: 72 }, headerDistance: 72 });
  assert.deepEqual(page(sect(), '<w:gutterAtTop w:val="0"/>'), { ...base, margins: { top: 72, right: 72, bottom: 72, left: 108 }, headerDistance: 36 });
});

test('sections: page size, orientation and margins per section; continuous breaks stay on the page; page breaks', () => {
  const landscape = '<w:sectPr><w:type w:val="nextPage"/><w:pgSz w:w="16838" w:h="11906" w:orient="landscape"/><w:pgMar w:top="720" w:right="720" w:bottom="720" w:left="720" w:header="0" w:footer="0" w:gutter="0"/></w:sectPr>';
  const continuous = '<w:sectPr><w:type w:val="continuous"/><w:pgSz w:w="11906" w:h="16838"/></w:sectPr>';
  const body =
    p('portrait A4') +
    `<w:p><w:pPr>${'<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="360"/></w:sectPr>'}</w:pPr></w:p>` +
    p('landscape') +
    `<w:p><w:pPr>${landscape}</w:pPr><w:r><w:t>end of landscape</w:t></w:r></w:p>` +
    p('before break') +
    '<w:p><w:r><w:t>same paragraph before</w:t><w:br w:type="page"/><w:t>after the break</w:t></w:r></w:p>' +
    '<w:p><w:r><w:br w:type="page"/></w:r><w:r><w:t>starts on a new page</w:t></w:r></w:p>' +
    p('break before', '<w:pageBreakBefore/>') +
    p('last');
  const model = doc(body, { body: '', sectPr: continuous });
  assert.equal(model.sections.length, 2);
  assert.deepEqual(model.sections[0].page.margins, { top: 72, right: 72, bottom: 72, left: 90 });
  assert.deepEqual([model.sections[1].page.width, model.sections[1].page.height], [841.9, 595.3]);
  assert.deepEqual(bodyTexts(model, 1).slice(0, 2), ['landscape', 'end of landscape']);
  // The continuous section after the landscape one flows on: its content joins section 2.
  const blocks = model.sections[1].body;
  const kinds = blocks.map((b) => (b.type === 'paragraph' ? paragraphText(b) : b.type));
  assert.deepEqual(kinds.slice(2), [
    'before break',
    'same paragraph before',
    'pageBreak',
    'after the break',
    'pageBreak',
    'starts on a new page',
    'break before',
    'last',
  ]);
  assert.equal(findParagraph(model, 'break before').style?.pageBreakBefore, true);
});

test('a page break that ends its paragraph keeps the paragraph mark on its page (Word 2013+), unless the compatibility option splits them', () => {
  const body =
    p('first page') +
    '<w:p><w:r><w:t>ends with a break</w:t><w:br w:type="page"/></w:r></w:p>' +
    p('second page') +
    '<w:p><w:r><w:br w:type="page"/></w:r></w:p>' +
    p('third page');
  const kinds = (model: ReturnType<typeof doc>): string[] => model.sections[0].body.map((b) => (b.type === 'paragraph' ? paragraphText(b) : b.type));
  // No empty line at the top of the next page: it starts with the next paragraph.
  assert.deepEqual(kinds(doc(body)), ['first page', 'ends with a break', 'pageBreak', 'second page', 'pageBreak', 'third page']);
  // Word 2010 and older (w:splitPgBreakAndParaMark): the mark starts the next page as an empty line.
  const split = doc(body, { body: '', settings: '<w:compat><w:splitPgBreakAndParaMark/></w:compat>' });
  assert.deepEqual(kinds(split), ['first page', 'ends with a break', 'pageBreak', '', 'second page', 'pageBreak', '', 'third page']);
  const off = doc(body, { body: '', settings: '<w:compat><w:splitPgBreakAndParaMark w:val="0"/></w:compat>' });
  assert.deepEqual(kinds(off), kinds(doc(body)));
});

test('hyperlinks, tabs, line breaks and symbols', () => {
  const body =
    '<w:p><w:hyperlink r:id="rIdLink"><w:r><w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr><w:t>docloom</w:t></w:r></w:hyperlink>' +
    '<w:hyperlink w:anchor="_Toc1"><w:r><w:t> inside</w:t></w:r></w:hyperlink>' +
    '<w:hyperlink r:id="rIdJs"><w:r><w:t> script</w:t></w:r></w:hyperlink></w:p>' +
    '<w:p><w:pPr><w:tabs><w:tab w:val="right" w:leader="dot" w:pos="9000"/><w:tab w:val="center" w:pos="4500"/></w:tabs></w:pPr><w:r><w:t>Name</w:t><w:tab/><w:t>Total</w:t><w:br/><w:t>next line</w:t><w:sym w:font="Wingdings" w:char="F0FC"/></w:r></w:p>';
  const model = doc(body, { body: '', rels: { rIdLink: ['hyperlink', 'https://example.com/docloom', true], rIdJs: ['hyperlink', 'javascript:alert(1)', true] } });
  const link = findParagraph(model, 'docloom');
  assert.deepEqual(runs(link)[0].style, { font: 'Calibri', size: 11, underline: true, color: '#0563c1', link: 'https://example.com/docloom' });
  // Internal anchors and unsafe schemes are not links.
  assert.equal(runs(link).slice(1).every((r) => r.style?.link === undefined), true);
  assert.equal(paragraphText(link), 'docloom inside script');
  const tabs = findParagraph(model, 'Name');
  assert.equal(paragraphText(tabs), 'Name\tTotal\nnext line✓');
  assert.deepEqual(tabs.style?.tabs, [
    { pos: 225, align: 'center' },
    { pos: 450, align: 'right', leader: 'dot' },
  ]);
});

test('tags split across runs keep their text; content controls, comments, tracked changes, hidden text', () => {
  const body =
    '<w:p><w:r><w:t>Dear {</w:t></w:r><w:proofErr w:type="spellStart"/><w:r><w:rPr><w:b/></w:rPr><w:t>first</w:t></w:r><w:r><w:t>_name}</w:t></w:r><w:commentRangeStart w:id="1"/><w:r><w:t>,</w:t></w:r><w:commentRangeEnd w:id="1"/><w:r><w:commentReference w:id="1"/></w:r></w:p>' +
    '<w:sdt><w:sdtPr><w:alias w:val="Block"/></w:sdtPr><w:sdtContent>' + p('in a block control') + '</w:sdtContent></w:sdt>' +
    '<w:p><w:r><w:t xml:space="preserve">inline </w:t></w:r><w:sdt><w:sdtPr/><w:sdtContent><w:r><w:t>{control}</w:t></w:r></w:sdtContent></w:sdt></w:p>' +
    '<w:p><w:ins w:id="2" w:author="a"><w:r><w:t>inserted </w:t></w:r></w:ins><w:del w:id="3" w:author="a"><w:r><w:delText>deleted </w:delText></w:r></w:del><w:r><w:t>kept</w:t></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:t>hidden</w:t></w:r></w:p>';
  const model = doc(body);
  assert.deepEqual(bodyTexts(model), ['Dear {first_name},', 'in a block control', 'inline {control}', 'inserted kept']);
  // The bold part of the tag stays a run of its own: the compiler joins runs, formatting is kept.
  assert.equal(runs(findParagraph(model, 'Dear')).length, 3);
});

test('text boxes, SmartArt and other floating content degrade to readable text', () => {
  const textBox =
    '<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor behindDoc="0"><wp:positionH relativeFrom="column"><wp:align>right</wp:align></wp:positionH><wp:extent cx="1000" cy="1000"/><wp:docPr id="3" name="Text Box 3"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:txbx><w:txbxContent>' +
    p('In the box {tag}') +
    '</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent>' +
    p('In the box {tag}') +
    '</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r><w:r><w:t>anchor text</w:t></w:r></w:p>';
  const smartArt =
    '<w:p><w:r><w:drawing><wp:inline><wp:extent cx="5080000" cy="3810000"/><wp:docPr id="1" name="Diagram 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram"><dgm:relIds xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" r:dm="rIdDm" r:lo="rIdLo" r:qs="rIdQs" r:cs="rIdCs"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>';
  const data =
    '<?xml version="1.0"?><dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dgm:ptLst>' +
    '<dgm:pt modelId="0" type="doc"><dgm:t><a:p><a:r><a:t>not shown</a:t></a:r></a:p></dgm:t></dgm:pt>' +
    '<dgm:pt modelId="1"><dgm:t><a:bodyPr/><a:p><a:r><a:t>Step {one}</a:t></a:r></a:p></dgm:t></dgm:pt>' +
    '<dgm:pt modelId="2" type="node"><dgm:t><a:p><a:r><a:t>Step two</a:t></a:r></a:p></dgm:t></dgm:pt>' +
    '</dgm:ptLst></dgm:dataModel>';
  const chart = '<w:p><w:r><w:drawing><wp:inline><wp:extent cx="100" cy="100"/><wp:docPr id="9" name="Chart"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rIdChart"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r><w:r><w:t>chart caption</w:t></w:r></w:p>';
  const math = '<w:p><m:oMath xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"><m:r><m:t>a²+b²</m:t></m:r></m:oMath></w:p>';
  const model = doc(textBox + smartArt + chart + math, {
    body: '',
    rels: { rIdDm: ['diagramData', 'diagrams/data1.xml'], rIdChart: ['chart', 'charts/chart1.xml'] },
    extra: { 'word/diagrams/data1.xml': data },
  });
  // The text box's content appears once (the Choice, not also its Fallback), after its anchor paragraph.
  assert.deepEqual(bodyTexts(model), ['anchor text', 'In the box {tag}', 'Step {one}', 'Step two', 'chart caption', 'a²+b²']);
});

test('SmartArt with its drawing part: each shape is a float where Word drew it, with its fill and its label, in a borderless table that holds the diagram\'s place', () => {
  // A 2×2 grid as Word saves it (drawing1.xml): the top-right and bottom-left shapes rotated, their text turned
  // back upright; each label centred in its coloured square; listed in an order that is not the reading order.
  const square = (x: number, y: number, text: string, rot = 0): string =>
    `<dsp:sp><dsp:spPr><a:xfrm rot="${rot}"><a:off x="${x}" y="${y}"/><a:ext cx="1270000" cy="1270000"/></a:xfrm><a:prstGeom prst="pieWedge"/></dsp:spPr>` +
    '<dsp:style><a:fillRef idx="1"><a:schemeClr val="accent1"/></a:fillRef><a:fontRef idx="minor"><a:schemeClr val="lt1"/></a:fontRef></dsp:style>' +
    `<dsp:txBody><a:bodyPr rot="${-rot}" anchor="ctr" lIns="91440" rIns="91440"/><a:lstStyle><a:lvl1pPr algn="ctr"><a:defRPr sz="2100"/></a:lvl1pPr></a:lstStyle><a:p><a:r><a:rPr lang="en-US"/><a:t>${text}</a:t></a:r></a:p></dsp:txBody>` +
    `<dsp:txXfrm><a:off x="${x}" y="${y}"/><a:ext cx="1270000" cy="1270000"/></dsp:txXfrm></dsp:sp>`;
  const arrow = '<dsp:sp><dsp:spPr><a:xfrm><a:off x="1200000" y="1200000"/><a:ext cx="200000" cy="200000"/></a:xfrm></dsp:spPr><dsp:txBody><a:p/></dsp:txBody></dsp:sp>';
  const drawing =
    '<?xml version="1.0"?><dsp:drawing xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dsp:spTree>' +
    square(0, 127000, '{user}') + square(1320800, 1447800, 'Name', 10800000) + square(1320800, 127000, 'I', 5400000) + square(0, 1447800, 'J', 16200000) + arrow +
    '</dsp:spTree></dsp:drawing>';
  const data =
    '<?xml version="1.0"?><dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram">' +
    '<dgm:ptLst><dgm:pt modelId="1"><dgm:t><a:p><a:r><a:t>data order</a:t></a:r></a:p></dgm:t></dgm:pt></dgm:ptLst>' +
    '<dgm:extLst><a:ext uri="http://schemas.microsoft.com/office/drawing/2008/diagram"><dsp:dataModelExt relId="rIdDrawing" minVer="http://schemas.openxmlformats.org/drawingml/2006/diagram"/></a:ext></dgm:extLst></dgm:dataModel>';
  const smartArt =
    '<w:p><w:r><w:drawing><wp:inline><wp:extent cx="2794000" cy="3048000"/><wp:docPr id="1" name="Diagram 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram"><dgm:relIds xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" r:dm="rIdDm" r:lo="rIdLo" r:qs="rIdQs" r:cs="rIdCs"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>';
  const model = doc(p('before') + smartArt + p('after'), {
    body: '',
    rels: { rIdDm: ['diagramData', 'diagrams/data1.xml'], rIdDrawing: ['diagramDrawing', 'diagrams/drawing1.xml'] },
    extra: { 'word/diagrams/data1.xml': data, 'word/diagrams/drawing1.xml': drawing },
  });
  const body = model.sections[0].body;
  // The paragraph that only held the diagram is replaced by it; the labels read row by row, left to right.
  assert.deepEqual(bodyTexts(model), ['before', '{user}', 'I', 'J', 'Name', 'after']);
  const [canvas] = tables(body);
  assert.ok(body[1] === canvas);
  // The frame's size: 220 × 240 pt, borderless, one cell.
  assert.deepEqual(canvas.columns, [220]);
  assert.deepEqual(canvas.rows.map((r) => r.height), [240]);
  assert.equal(canvas.style?.borders, null);
  const floats = canvas.rows[0].cells[0].blocks.filter((b) => b.type === 'table');
  // One float per coloured square (the arrow has neither fill nor text: nothing to draw), in reading order, each at
  // its offset from the diagram's top left: 100 pt squares, a 4 pt gap, 10 pt down.
  assert.deepEqual(floats.map((t) => [t.style?.float?.x.offset, t.style?.float?.y.offset, t.style?.float?.width, t.style?.float?.height]), [[0, 10, 100, 100], [104, 10, 100, 100], [0, 114, 100, 100], [104, 114, 100, 100]]);
  // Painted in the drawing's order, later over earlier ({user}, Name, I, J): each float's stacking order is its
  // place in the drawing, whatever the reading order the model lists them in.
  assert.deepEqual(floats.map((t) => t.style?.float?.z), [0, 2, 3, 1]);
  for (const t of floats) {
    assert.deepEqual([t.style?.float?.x.from, t.style?.float?.y.from, t.style?.float?.wrap], ['column', 'paragraph', 'none']);
    // A pie wedge is not a drawn outline: its filled box stands in for it.
    assert.deepEqual(t.style?.float?.shape, { geometry: 'rect', fill: '#4472c4' });
    const cell = t.rows[0].cells[0];
    assert.equal(cell.vAlign, 'middle');
    const para = cell.blocks[0] as Paragraph;
    assert.equal(para.style?.align, 'center');
    assert.equal(para.style?.indentLeft, 7.2);
    // White text in the theme's minor font at the list style's size, on the shape's fill.
    assert.deepEqual(runs(para)[0].style, { font: 'Calibri', size: 21, color: '#ffffff' });
  }
});

test('the main part is found through the package relationships (Office 365 writes word/document2.xml)', () => {
  const model = importDocx(buildDocx({ body: p('from document2'), mainPath: 'word/document2.xml' }));
  assert.deepEqual(bodyTexts(model), ['from document2']);
});

test('a document without styles, numbering, theme or section properties gets Word defaults', () => {
  const model = importDocx(buildDocx({ body: p('bare'), sectPr: '' }));
  assert.deepEqual(model.sections[0].page, { width: 612, height: 792, margins: { top: 72, right: 72, bottom: 72, left: 72 }, headerDistance: 36, footerDistance: 36 });
  assert.deepEqual(model.defaults.run, { font: 'Times New Roman', size: 10 });
  const para = findParagraph(model, 'bare');
  assert.deepEqual(para.style, { align: 'left', indentLeft: 0, indentRight: 0, indentFirstLine: 0, spaceBefore: 0, spaceAfter: 0, lineHeight: 1, autoSpaceLatin: true, autoSpaceDigits: true });
});

test('empty paragraphs keep the size of their paragraph mark (their line height)', () => {
  const model = doc('<w:p><w:pPr><w:rPr><w:sz w:val="48"/></w:rPr></w:pPr></w:p>' + p('x'));
  const empty = model.sections[0].body[0] as Paragraph;
  assert.deepEqual(empty.runs, [{ type: 'text', text: '', style: { font: 'Calibri', size: 24 } }]);
});

test('document properties become metadata', () => {
  const core =
    '<?xml version="1.0"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Invoice</dc:title><dc:creator>ACME</dc:creator><cp:keywords>billing</cp:keywords></cp:coreProperties>';
  const bytes = buildDocx({
    body: p('x'),
    extra: { 'docProps/core.xml': core },
  });
  // Add the package relationship to the core properties part.
  const model = importDocx(withPackageRel(bytes, 'http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties', 'docProps/core.xml'));
  assert.deepEqual(model.metadata, { title: 'Invoice', author: 'ACME', keywords: 'billing' });
});


function withPackageRel(bytes: Uint8Array, type: string, target: string): Uint8Array {
  const files = unzipSync(bytes);
  const rels = strFromU8(files['_rels/.rels']).replace('</Relationships>', `<Relationship Id="rIdX" Type="${type}" Target="${target}"/></Relationships>`);
  files['_rels/.rels'] = strToU8(rels);
  return zipSync(files);
}

test('neighbouring paragraphs: contextual spacing between same-style paragraphs, one border box per group', () => {
  const styles =
    STYLES +
    '<w:style w:type="paragraph" w:styleId="Boxed"><w:name w:val="Boxed"/><w:pPr><w:pBdr><w:top w:val="single" w:sz="8" w:color="4F81BD"/><w:bottom w:val="single" w:sz="8" w:color="4F81BD"/></w:pBdr></w:pPr></w:style>';
  const item = (text: string): string => p(text, '<w:pStyle w:val="ListBullet"/>');
  const model = importDocx(
    buildDocx({ styles, theme: THEME, numbering: NUMBERING, body: p('intro') + item('one') + item('two') + item('three') + p('outro') + p('b1', '<w:pStyle w:val="Boxed"/>') + p('b2', '<w:pStyle w:val="Boxed"/>') + p('b3', '<w:pStyle w:val="Boxed"/>') }),
  );
  const style = (t: string): Paragraph['style'] => findParagraph(model, t).style;
  // List Bullet asks for contextual spacing: no space between the items, Normal's 8 pt after the last one.
  assert.deepEqual([style('one')?.spaceAfter, style('two')?.spaceBefore, style('two')?.spaceAfter, style('three')?.spaceAfter], [0, 0, 0, 8]);
  assert.equal(style('one')?.contextualSpacing, 'ListBullet');
  assert.equal(style('intro')?.spaceAfter, 8);
  const line = { width: 1, color: '#4f81bd', style: 'single' };
  assert.deepEqual(style('b1')?.borders, { top: line });
  assert.deepEqual(style('b2')?.borders, {});
  assert.deepEqual(style('b3')?.borders, { bottom: line });
});

test('absolutely placed VML text boxes become floats at their offsets; a decorated box keeps its colours', () => {
  const vmlBox = (style: string, text: string, attrs = 'filled="f" stroked="f"'): string =>
    `<w:r><w:pict><v:shape type="#_x0000_t202" style="position:absolute;${style}" ${attrs}><v:textbox><w:txbxContent>${p(text)}${p('')}${p('')}</w:txbxContent></v:textbox></v:shape></w:pict></w:r>`;
  const header =
    `<w:p>${vmlBox('margin-left:-20pt;margin-top:-6pt;width:200pt;height:75pt', 'Left box')}${vmlBox('margin-left:340pt;margin-top:-2pt;width:140pt;height:45pt;mso-position-horizontal-relative:page', 'Right box')}</w:p>` +
    `<w:p><w:r><w:t>visible anchor</w:t></w:r>${vmlBox('margin-left:0;margin-top:0;width:36pt;height:20pt;z-index:-1', 'Dark', 'fillcolor="#1F3864 [3204]" stroked="f"')}</w:p>`;
  const model = doc(p('body'), {
    body: '',
    headers: { header1: header },
    sectPr: '<w:sectPr><w:headerReference w:type="default" r:id="rId_header1"/></w:sectPr>',
  });
  const blocks = model.sections[0].header?.default ?? [];
  // The anchor paragraphs stay (the floats take no room in the flow); each box follows its anchor.
  const [emptyAnchor, left, right, anchor, dark] = blocks;
  assert.deepEqual(texts([emptyAnchor]), ['']);
  assert.ok(left.type === 'table' && right.type === 'table' && dark.type === 'table');
  assert.deepEqual(left.style?.float, { x: { from: 'column', offset: -20 }, y: { from: 'paragraph', offset: -6 }, width: 200, height: 75, wrap: 'none' });
  assert.deepEqual([right.style?.float?.x, right.style?.float?.y], [{ from: 'page', offset: 340 }, { from: 'paragraph', offset: -2 }]);
  // The empty paragraphs that only filled the boxes are gone.
  assert.deepEqual(left.rows[0].cells.map((c) => texts(c.blocks)), [['Left box']]);
  assert.deepEqual(right.rows[0].cells.map((c) => texts(c.blocks)), [['Right box']]);
  assert.deepEqual(texts([anchor]), ['visible anchor']);
  assert.deepEqual(dark.style?.float?.shape, { geometry: 'rect', fill: '#1f3864' });
  assert.equal(dark.style?.float?.behind, true, 'a negative z-index is behind the text');
  assert.deepEqual(texts(dark.rows[0].cells[0].blocks), ['Dark']);
});

test('runs of one formatting split by proofing marks are one run, and equal run styles are one object in the document', () => {
  const rPr = '<w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial"/><w:sz w:val="20"/><w:szCs w:val="20"/></w:rPr>';
  const bold = '<w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial"/><w:b/><w:sz w:val="20"/></w:rPr>';
  const body =
    `<w:p><w:r>${rPr}<w:t xml:space="preserve">Alpha </w:t></w:r><w:proofErr w:type="spellStart"/><w:r>${rPr}<w:t>Betta</w:t></w:r>` +
    `<w:proofErr w:type="spellEnd"/><w:r>${rPr}<w:t xml:space="preserve"> gamma </w:t></w:r><w:r>${bold}<w:t>bold</w:t></w:r><w:r>${rPr}<w:t xml:space="preserve"> tail</w:t></w:r></w:p>` +
    `<w:p><w:r>${rPr}<w:t>Second</w:t></w:r><w:r>${bold}<w:t xml:space="preserve"> also bold</w:t></w:r></w:p>`;
  const model = doc(body);
  const first = runs(findParagraph(model, 'Alpha'));
  const second = runs(findParagraph(model, 'Second'));
  // Joined exactly where the formatting is the same, as before the styles were shared.
  assert.deepEqual(first.map((r) => r.text), ['Alpha Betta gamma ', 'bold', ' tail']);
  assert.deepEqual(second.map((r) => r.text), ['Second', ' also bold']);
  assert.deepEqual(first[0].style, { font: 'Arial', size: 10 });
  assert.deepEqual(first[1].style, { font: 'Arial', size: 10, bold: true });
  // One object per distinct style, across runs and paragraphs (the renderer resolves each object once).
  assert.equal(first[2].style, first[0].style);
  assert.equal(second[0].style, first[0].style);
  assert.equal(second[1].style, first[1].style);
  assert.notEqual(first[1].style, first[0].style);
});
