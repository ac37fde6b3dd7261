/**
 * Vertical text in table cells (w:tcPr/w:textDirection): btLr turns the cell's text 90° counter-clockwise, tbRl
 * (and tbRlV) 90° clockwise; an auto-height row grows to the turned text's length, an exact row wraps it at its
 * height. Read back from the PDF (pdftotext -bbox: a turned word's box is taller than wide).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { buildDocx, p } from './build-docx.js';
import { word, words, type Word } from '../engine/pdf/helpers.js';

async function render(bytes: Uint8Array): Promise<Word[]> {
  const compiled = compileTemplate({ kind: 'docx', bytes });
  assert.ok(compiled.ok);
  return words((await renderPdf(compiled.template, {})).bytes);
}

const BORDERS = '<w:tblBorders><w:top w:val="single" w:sz="4"/><w:bottom w:val="single" w:sz="4"/>'
  + '<w:left w:val="single" w:sz="4"/><w:right w:val="single" w:sz="4"/><w:insideH w:val="single" w:sz="4"/>'
  + '<w:insideV w:val="single" w:sz="4"/></w:tblBorders>';

/** A two-column table: a turned cell (`direction`) beside a plain one, then a paragraph below the table. */
function table(direction: string, text: string, trPr = ''): string {
  const cell = (body: string, tcPr = ''): string => `<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/>${tcPr}</w:tcPr>${body}</w:tc>`;
  return `<w:tbl><w:tblPr><w:tblW w:w="4000" w:type="dxa"/>${BORDERS}</w:tblPr><w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/></w:tblGrid>`
    + `<w:tr>${trPr ? `<w:trPr>${trPr}</w:trPr>` : ''}${cell(p(text), `<w:textDirection w:val="${direction}"/>`)}${cell(p('Beside'))}</w:tr></w:tbl>`
    + p('Below');
}

const tall = (w: Word): boolean => w.yMax - w.yMin > w.xMax - w.xMin;

for (const direction of ['btLr', 'tbRl', 'tbRlV']) {
  test(`${direction}: the cell's words are drawn turned, inside the cell, and the row grows to the text`, async () => {
    const all = await render(buildDocx({ body: table(direction, 'Quarterly revenue') }));
    const beside = word(all, 'Beside');
    const below = word(all, 'Below');
    for (const text of ['Quarterly', 'revenue']) {
      const w = word(all, text);
      assert.ok(tall(w), `${text} is ${w.xMax - w.xMin} wide, ${w.yMax - w.yMin} tall`);
      // Inside the first column (72 pt margin, 100 pt wide) and between the row's top and the text below it.
      assert.ok(w.xMin >= 72 && w.xMax <= 172, `${text} spans x ${w.xMin}–${w.xMax}`);
      assert.ok(w.yMin >= beside.yMin - 3 && w.yMax <= below.yMin, `${text} spans y ${w.yMin}–${w.yMax}`);
    }
    // Upright, the two words would fit on one 14 pt line: turned, the row is as tall as both words together.
    const quarterly = word(all, 'Quarterly');
    const revenue = word(all, 'revenue');
    const length = quarterly.yMax - quarterly.yMin + revenue.yMax - revenue.yMin;
    assert.ok(below.yMin - beside.yMin > length, `row ${below.yMin - beside.yMin} pt for ${length} pt of text`);
    // One line: both words share the same x; btLr reads upwards (the first word lower), tbRl downwards.
    assert.ok(Math.abs(quarterly.xMin - revenue.xMin) < 1, `${quarterly.xMin} vs ${revenue.xMin}`);
    if (direction === 'btLr') assert.ok(quarterly.yMin > revenue.yMax, 'btLr: Quarterly below revenue');
    else assert.ok(quarterly.yMax < revenue.yMin, 'tbRl: Quarterly above revenue');
  });
}

for (const rule of ['exact', 'atLeast']) test(`a row height (${rule}) wraps the turned text at the height: lines side by side, the row as given`, async () => {
  const all = await render(buildDocx({ body: table('btLr', 'Quarterly revenue by region', `<w:trHeight w:val="1000" w:hRule="${rule}"/>`) }));
  const words3 = ['Quarterly', 'revenue', 'region'].map((t) => word(all, t));
  for (const w of words3) assert.ok(tall(w), `${w.text} is not turned`);
  // 50 pt of row holds one word a line: the lines stand side by side, left to right (btLr: first line left).
  assert.ok(words3[0].xMax <= words3[1].xMin + 1 && words3[1].xMax <= words3[2].xMin + 1, words3.map((w) => w.xMin).join(', '));
  const beside = word(all, 'Beside');
  const below = word(all, 'Below');
  assert.ok(below.yMin - beside.yMin < 50 + 20, `row ${below.yMin - beside.yMin} pt`);
});

test('lrTb and tbLrV cells stay horizontal (LibreOffice 7.4 draws tbLrV upright too)', async () => {
  for (const direction of ['lrTb', 'tbLrV']) {
    const all = await render(buildDocx({ body: table(direction, 'Quarterly revenue') }));
    assert.ok(!tall(word(all, 'Quarterly')), direction);
  }
});

test('.json templates: a cell with textDirection is drawn turned; an unknown direction is refused', async () => {
  const doc = (textDirection: string): Uint8Array => new TextEncoder().encode(JSON.stringify({
    docloom: 1,
    body: [{ type: 'table', columns: [100, 100], rows: [[{ text: 'Quarterly', textDirection }, 'Beside']] }],
  }));
  const compiled = compileTemplate({ kind: 'json', bytes: doc('tbRl') });
  assert.ok(compiled.ok);
  assert.ok(tall(word(words((await renderPdf(compiled.template, {})).bytes), 'Quarterly')));
  assert.equal(compileTemplate({ kind: 'json', bytes: doc('sideways') }).ok, false);
});

test('a frame paragraph with w:textDirection tbRl is turned clockwise and wraps at the frame\'s height', async () => {
  // A 144 pt wide frame at least 160 pt tall (w:h without w:hRule) holding more words than one 160 pt line.
  const text = 'Lorem ipsum dolor sit amet, consectetuer adipiscing elit. Maecenas porttitor congue massa.';
  const framed = p(text, '<w:framePr w:w="2880" w:h="3200" w:hAnchor="page" w:vAnchor="page" w:x="2880" w:y="2880"/><w:textDirection w:val="tbRl"/>');
  const all = await render(buildDocx({ body: framed + p('After') }));
  const lorem = word(all, 'Lorem');
  const massa = word(all, 'massa.');
  assert.ok(tall(lorem) && tall(massa), 'the words are turned');
  // tbRl: the first line stands at the frame's right edge (144 + 144 pt), the next lines to its left.
  assert.ok(lorem.xMax <= 288.5 && lorem.xMin > massa.xMax, `Lorem at x ${lorem.xMin}, massa. at ${massa.xMin}`);
  // Lines run down from the frame's top (144 pt) and wrap before its foot (304 pt).
  for (const w of all.filter((x) => x.text !== 'After')) assert.ok(w.yMin >= 143.5 && w.yMax <= 304.5, `${w.text} spans y ${w.yMin}–${w.yMax}`);
});

/** A text box 100 pt wide and 200 pt tall at (200, 200) on the page, its text direction a:bodyPr `vert`. */
function textBox(vert: string, text: string): string {
  const e = (pt: number): number => Math.round(pt * 12700);
  const graphic = '<a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:spPr>'
    + '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></wps:spPr>'
    + `<wps:txbx><w:txbxContent>${p(text)}</w:txbxContent></wps:txbx><wps:bodyPr vert="${vert}" lIns="0" tIns="0" rIns="0" bIns="0"/></wps:wsp></a:graphicData>`;
  return '<w:p><w:r><w:drawing><wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">'
    + `<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="page"><wp:posOffset>${e(200)}</wp:posOffset></wp:positionH>`
    + `<wp:positionV relativeFrom="page"><wp:posOffset>${e(200)}</wp:posOffset></wp:positionV>`
    + `<wp:extent cx="${e(100)}" cy="${e(200)}"/><wp:wrapNone/><wp:docPr id="1" name="Box"/>`
    + `<a:graphic>${graphic}</a:graphic></wp:anchor></w:drawing></w:r><w:r><w:t>Anchor</w:t></w:r></w:p>`;
}

test('a text box with a:bodyPr vert="vert" turns its text clockwise, vert270 counter-clockwise, inside the box', async () => {
  for (const vert of ['vert', 'vert270']) {
    const all = await render(buildDocx({ body: textBox(vert, 'Sideways label') }));
    const sideways = word(all, 'Sideways');
    const label = word(all, 'label');
    assert.ok(tall(sideways) && tall(label), `${vert}: turned`);
    for (const w of [sideways, label]) assert.ok(w.xMin >= 199 && w.xMax <= 301 && w.yMin >= 199 && w.yMax <= 401, `${vert}: ${w.text} at ${w.xMin}, ${w.yMin}`);
    // vert reads downwards from the box's top right; vert270 upwards from its bottom left.
    if (vert === 'vert') assert.ok(sideways.yMax < label.yMin && sideways.xMin > 250, `vert: ${sideways.xMin}, ${sideways.yMin}`);
    else assert.ok(sideways.yMin > label.yMax && sideways.xMax < 250, `vert270: ${sideways.xMin}, ${sideways.yMin}`);
  }
});
