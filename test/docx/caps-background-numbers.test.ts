/**
 * Run capitals (w:caps, w:smallCaps), the page colour (w:background) and list number formats, imported from real
 * .docx packages, rendered, and read back from the PDF with poppler (pdftotext, pdftotext -bbox, pdftoppm).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, renderPdf, type ImportWarning } from '../../server/engine/index.js';
import { pdfText } from '../helpers/pdf.js';
import { words } from '../engine/pdf/helpers.js';
import { buildDocx, p, type DocxParts } from './build-docx.js';

async function renderDocx(parts: DocxParts): Promise<{ pdf: Uint8Array; warnings: ImportWarning[] }> {
  const result = compileTemplate({ kind: 'docx', bytes: buildDocx(parts) });
  assert.ok(result.ok, JSON.stringify(result));
  const rendered = await renderPdf(result.template, {});
  return { pdf: rendered.bytes, warnings: result.warnings };
}

test('all capitals: the text is drawn upper-cased, from direct formatting and from a style; the model keeps it as typed', async () => {
  const styles =
    '<w:style w:type="character" w:styleId="Shout"><w:name w:val="Shout"/><w:rPr><w:caps/></w:rPr></w:style>';
  const body =
    p('Hello world', '', '<w:caps/>') +
    '<w:p><w:r><w:rPr><w:rStyle w:val="Shout"/></w:rPr><w:t>styled words</w:t></w:r></w:p>' +
    '<w:p><w:r><w:rPr><w:rStyle w:val="Shout"/><w:caps w:val="0"/></w:rPr><w:t>switched off</w:t></w:r></w:p>';
  const result = compileTemplate({ kind: 'docx', bytes: buildDocx({ body, styles }) });
  assert.ok(result.ok);
  assert.match(JSON.stringify(result.template), /Hello world/);
  const { pdf, warnings } = await renderDocx({ body, styles });
  const text = pdfText(pdf);
  assert.match(text, /HELLO WORLD/);
  assert.match(text, /STYLED WORDS/);
  assert.match(text, /switched off/);
  assert.deepEqual(warnings, []);
});

test('small capitals: lower-case letters drawn as capitals at 80 % size, capitals at full size', async () => {
  const body = p('ABC def Ghi', '', '<w:smallCaps/><w:sz w:val="40"/>');
  const { pdf, warnings } = await renderDocx({ body });
  assert.match(pdfText(pdf), /ABC DEF GHI/);
  const all = words(pdf);
  const big = all.find((w) => w.text === 'ABC');
  const small = all.find((w) => w.text === 'DEF');
  assert.ok(big && small, JSON.stringify(all));
  const ratio = (small.yMax - small.yMin) / (big.yMax - big.yMin);
  assert.ok(ratio > 0.75 && ratio < 0.85, `small/full height ${ratio}`);
  // The small letters also advance less: "DEF" at 80 % is narrower than it would be at full size.
  const wideAll = words((await renderDocx({ body: p('ABC DEF GHI', '', '<w:sz w:val="40"/>') })).pdf);
  const fullDef = wideAll.find((w) => w.text === 'DEF');
  assert.ok(fullDef);
  const widthRatio = (small.xMax - small.xMin) / (fullDef.xMax - fullDef.xMin);
  assert.ok(widthRatio > 0.75 && widthRatio < 0.85, `small/full width ${widthRatio}`);
  assert.deepEqual(warnings, []);
});
