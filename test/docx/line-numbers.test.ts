/**
 * Line numbering (w:lnNumType, ECMA-376 §17.6.8) imported from real .docx packages: the numbers beside the body's
 * lines, checked on the layout as data and in the PDF's text (pdftotext), as Word prints them; and the same
 * settings in a model from JSON.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { pdfText } from '../helpers/pdf.js';
import { buildDocx, p } from './build-docx.js';
import { docxPages, findText, modelPages, textBoxes, type LaidPage } from '../engine/pdf/boxes.js';
import { A4, model, para, section } from '../engine/pdf/helpers.js';
import type { LineNumbering } from '../../server/engine/model/types.js';

const MARGINS = '<w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/>';

function sect(lnNumType: string, type = ''): string {
  return `<w:sectPr>${type}${MARGINS}${lnNumType}</w:sectPr>`;
}

/** The numbers drawn left of the text (x below the 72 pt margin), by page, top to bottom. */
function numbers(pages: LaidPage[]): Array<{ page: number; text: string; y: number; right: number }> {
  return textBoxes(pages)
    .filter((b) => b.x + b.width <= 72 && /^\d+$/.test(b.text))
    .map((b) => ({ page: b.page, text: b.text, y: b.y, right: b.x + b.width }))
    .sort((a, b) => a.page - b.page || a.y - b.y);
}

const table = '<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid>' +
  `<w:tr><w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr>${p('In a cell')}</w:tc></w:tr></w:tbl>`;

test('every body line counts and shows its number on its baseline, a quarter inch left of the text', async () => {
  const body = p('Alpha') + p('') + p('Caption', '<w:suppressLineNumbers/>') + table + p('Omega');
  const pages = await docxPages(buildDocx({ body, sectPr: sect('<w:lnNumType w:countBy="1"/>') }));
  const got = numbers(pages);
  // The empty paragraph counts; the suppressed one and the table's lines neither count nor show a number.
  assert.deepEqual(got.map((n) => n.text), ['1', '2', '3']);
  assert.equal(got[0].y, findText(pages, 'Alpha').y);
  assert.equal(got[2].y, findText(pages, 'Omega').y);
  for (const n of got) assert.ok(Math.abs(n.right - (72 - 18)) < 0.01, `number ends at ${n.right}`);
});

test('countBy shows every nth number; w:start is 0-based; w:distance is in twips', async () => {
  const body = ['A', 'B', 'C', 'D', 'E'].map((t) => p(t)).join('');
  const pages = await docxPages(buildDocx({ body, sectPr: sect('<w:lnNumType w:countBy="2" w:start="4" w:distance="720"/>') }));
  const got = numbers(pages);
  // Lines 5..9: only the even ones show.
  assert.deepEqual(got.map((n) => n.text), ['6', '8']);
  assert.equal(got[0].y, findText(pages, 'B').y);
  for (const n of got) assert.ok(Math.abs(n.right - (72 - 36)) < 0.01, `number ends at ${n.right}`);
});

test('numbering restarts on each page by default, goes on with restart continuous, and needs countBy', async () => {
  const body = p('One') + p('Two') + '<w:p><w:r><w:br w:type="page"/></w:r></w:p>' + p('Three');
  const byPage = numbers(await docxPages(buildDocx({ body, sectPr: sect('<w:lnNumType w:countBy="1"/>') })));
  assert.deepEqual(byPage.map((n) => `${n.page}:${n.text}`), ['1:1', '1:2', '2:1']);
  const onward = numbers(await docxPages(buildDocx({ body, sectPr: sect('<w:lnNumType w:countBy="1" w:restart="continuous"/>') })));
  assert.deepEqual(onward.map((n) => `${n.page}:${n.text}`), ['1:1', '1:2', '2:3']);
  assert.deepEqual(numbers(await docxPages(buildDocx({ body, sectPr: sect('<w:lnNumType w:restart="continuous"/>') }))), []);
});

test('a section without numbering neither shows nor counts; newSection restarts where a section begins', async () => {
  const first = `<w:p><w:pPr>${sect('<w:lnNumType w:countBy="1" w:restart="newSection"/>')}</w:pPr><w:r><w:t>End one</w:t></w:r></w:p>`;
  const second = `<w:p><w:pPr>${sect('')}</w:pPr><w:r><w:t>Plain</w:t></w:r></w:p>`;
  const body = p('Start') + first + second + p('Again') + p('More');
  const pages = await docxPages(buildDocx({ body, sectPr: sect('<w:lnNumType w:countBy="1" w:restart="newSection"/>') }));
  const got = numbers(pages);
  assert.deepEqual(got.map((n) => `${n.page}:${n.text}`), ['1:1', '1:2', '3:1', '3:2']);
  assert.equal(got[2].y, findText(pages, 'Again').y);
});

test('the numbers are in the PDF text, beside their lines', async () => {
  const compiled = compileTemplate({ kind: 'docx', bytes: buildDocx({ body: p('First line') + p('Second line'), sectPr: sect('<w:lnNumType w:countBy="1"/>') }) });
  assert.ok(compiled.ok, JSON.stringify(compiled));
  const text = pdfText((await renderPdf(compiled.template, {})).bytes, { layout: true });
  assert.match(text, /^\s*1\s+First line$/m);
  assert.match(text, /^\s*2\s+Second line$/m);
});

test('a model from JSON with line numbers: numbered when countBy is a number, untouched when it is not', () => {
  const body = [para('One'), para('Two')];
  const numbered = modelPages(model([section(body, { page: { ...A4, lineNumbers: { countBy: 1, start: 1, restart: 'newPage', distance: 10 } } })]));
  assert.deepEqual(numbers(numbered).map((n) => n.text), ['1', '2']);
  assert.ok(Math.abs(numbers(numbered)[0].right - 62) < 0.01);
  const junk = { countBy: 'many', start: null, restart: 'sometimes', distance: 'far' } as unknown as LineNumbering;
  const plain = modelPages(model([section(body, { page: { ...A4, lineNumbers: junk } })]));
  assert.deepEqual(numbers(plain), []);
  assert.equal(findText(plain, 'Two').x, 72);
});
