/**
 * Issue #12: a text box (an anchored shape with text, a float in the model) inside a loop reads the loop item, in
 * the PDF and in the filled .docx alike. Through the real path: compileTemplate + renderPdf (pdftotext) and fillDocx.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strFromU8, unzipSync } from 'fflate';
import { compileTemplate, fillDocx, renderPdf } from '../../../server/engine/index.js';
import { buildDocx, p } from '../../docx/build-docx.js';
import { pdfText, squash } from '../../helpers/pdf.js';
import { runCase } from '../../../scripts/diff-docxtemplater.js';

const EMU = 12700;
const D = ['{{', '}}'] as const;
const DATA = { title: 'Order', items: [{ desc: 'Design', n: 1 }, { desc: 'Build', n: 2 }, { desc: 'Test', n: 3 }] };

/** A paragraph-anchored rectangle holding `text` (a text box, as Word writes one). */
function textBox(text: string): string {
  const e = (pt: number): number => Math.round(pt * EMU);
  return `<w:r><w:drawing><wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">` +
    `<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>${e(250)}</wp:posOffset></wp:positionH>` +
    `<wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV>` +
    `<wp:extent cx="${e(200)}" cy="${e(30)}"/><wp:wrapNone/><wp:docPr id="1" name="Text Box 1"/>` +
    `<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:spPr><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></wps:spPr>` +
    `<wps:txbx><w:txbxContent>${p(text)}</w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>`;
}

/** As Word writes it: the DrawingML text box and its VML fallback, each with its own copy of the text. */
function alternate(text: string): string {
  const drawing = textBox(text).replace(/^<w:r>|<\/w:r>$/g, '');
  return `<w:r><mc:AlternateContent><mc:Choice Requires="wps">${drawing}</mc:Choice><mc:Fallback><w:pict><v:rect style="position:absolute;width:200pt;height:30pt"><v:textbox><w:txbxContent>${p(text)}</w:txbxContent></v:textbox></v:rect></w:pict></mc:Fallback></mc:AlternateContent></w:r>`;
}

function template(box: (text: string) => string = textBox): Uint8Array {
  const anchored = `<w:p><w:r><w:t xml:space="preserve">Line {{n}}</w:t></w:r>${box('Box {{$index}} {{desc}} of {{title}}')}</w:p>`;
  return buildDocx({ body: p('{{#items}}') + anchored + p('{{/items}}') + p('End'), sectPr: undefined });
}

function compiledDocx(bytes: Uint8Array) {
  const compiled = compileTemplate({ kind: 'docx', bytes, delimiters: D });
  assert.ok(compiled.ok, JSON.stringify(!compiled.ok && compiled.errors));
  return compiled;
}

test('a text box inside a loop reads the loop item in the PDF', async () => {
  const compiled = compileTemplate({ kind: 'docx', bytes: template(), delimiters: D });
  assert.ok(compiled.ok, JSON.stringify(!compiled.ok && compiled.errors));
  const text = squash(pdfText((await renderPdf(compiled.template, structuredClone(DATA))).bytes));
  for (const [i, item] of DATA.items.entries()) {
    assert.ok(text.includes(`Box ${i} ${item.desc} of Order`), text);
    assert.ok(text.includes(`Line ${item.n}`), text);
  }
});

test('a text box inside a loop reads the loop item in the filled .docx', async () => {
  const filled = await fillDocx(compiledDocx(template()), structuredClone(DATA));
  const xml = strFromU8(unzipSync(filled)['word/document.xml']);
  const boxes = [...xml.matchAll(/<w:txbxContent>([\s\S]*?)<\/w:txbxContent>/g)].map((m) => [...m[1].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((t) => t[1]).join(''));
  assert.deepEqual(boxes, ['Box 0 Design of Order', 'Box 1 Build of Order', 'Box 2 Test of Order']);
});

test('Word\'s form (DrawingML text box with its VML fallback): both copies read the loop item', async () => {
  const filled = await fillDocx(compiledDocx(template(alternate)), structuredClone(DATA));
  const xml = strFromU8(unzipSync(filled)['word/document.xml']);
  const boxes = [...xml.matchAll(/<w:txbxContent>([\s\S]*?)<\/w:txbxContent>/g)].map((m) => [...m[1].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((t) => t[1]).join(''));
  assert.deepEqual(boxes, ['Box 0 Design of Order', 'Box 0 Design of Order', 'Box 1 Build of Order', 'Box 1 Build of Order', 'Box 2 Test of Order', 'Box 2 Test of Order']);
  const compiled = compileTemplate({ kind: 'docx', bytes: template(alternate), delimiters: D });
  assert.ok(compiled.ok);
  const text = squash(pdfText((await renderPdf(compiled.template, structuredClone(DATA))).bytes));
  for (const [i, item] of DATA.items.entries()) assert.ok(text.includes(`Box ${i} ${item.desc} of Order`), text);
});

test('the differential: docxtemplater, the filled .docx (well-formed) and the PDF give the same text', async () => {
  const result = await runCase({ id: 'text box in a loop', set: 'generated', kind: 'docx', delimiters: D, data: DATA, bytes: template() });
  assert.equal(result.verdict, 'same', `${result.verdict}: ${result.detail ?? ''}`);
  assert.ok(result.docloom.ok && result.docloom.wellFormed);
});

test('a value written into a text box is text, never a tag of the part around the box (PDF and .docx)', async () => {
  // The box holds a section, so it is filled on its own; the part around it is compiled without the box's tags.
  const bytes = buildDocx({ body: `<w:p><w:r><w:t>Before</w:t></w:r>${textBox('{{#show}}Note: {{v}}{{/show}}')}</w:p>` + p('After {{v}}'), sectPr: undefined });
  const data = { show: true, v: '{{secret}}', secret: 'LEAK' };
  const compiled = compiledDocx(bytes);
  const xml = strFromU8(unzipSync(await fillDocx(compiled, structuredClone(data)))['word/document.xml']);
  const words = [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((t) => t[1]).join(' ');
  assert.equal(words, 'Before Note: {{secret}} After {{secret}}');
  const pdf = squash(pdfText((await renderPdf(compiled.template, structuredClone(data))).bytes));
  assert.ok(pdf.includes('Note: {{secret}}') && !pdf.includes('LEAK'), pdf);
});
