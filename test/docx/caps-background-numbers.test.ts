/**
 * Run capitals (w:caps, w:smallCaps), the page colour (w:background) and list number formats, imported from real
 * .docx packages, rendered, and read back from the PDF with poppler (pdftotext, pdftotext -bbox, pdftoppm).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, renderPdf, type ImportWarning } from '../../server/engine/index.js';
import { pdfText } from '../helpers/pdf.js';
import { countPixels, near, raster, words } from '../engine/pdf/helpers.js';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
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

function withBackground(parts: DocxParts, attrs: string, extra = ''): Uint8Array {
  const files = unzipSync(buildDocx(parts));
  files['word/document.xml'] = strToU8(strFromU8(files['word/document.xml']).replace('<w:body>', `<w:background ${attrs}>${extra}</w:background><w:body>`));
  return zipSync(files);
}

async function renderBytes(bytes: Uint8Array): Promise<{ pdf: Uint8Array; warnings: ImportWarning[] }> {
  const result = compileTemplate({ kind: 'docx', bytes });
  assert.ok(result.ok, JSON.stringify(result));
  return { pdf: (await renderPdf(result.template, {})).bytes, warnings: result.warnings };
}

const DISPLAY = '<w:displayBackgroundShape/>';
const BODY = `${p('first page')}<w:p><w:r><w:br w:type="page"/></w:r></w:p>${p('second page')}`;

test('page colour: every page is filled with w:background when settings.xml displays it, as LibreOffice prints it', async () => {
  const { pdf, warnings } = await renderBytes(withBackground({ body: BODY, settings: DISPLAY }, 'w:color="FFF2CC"'));
  assert.deepEqual(warnings, []);
  assert.match(pdfText(pdf), /second page/);
  for (const page of [1, 2]) {
    const r = raster(pdf, page, 10);
    for (const [x, y] of [[0, 0], [r.width - 1, r.height - 1], [Math.floor(r.width / 2), Math.floor(r.height / 2)]]) {
      assert.ok(near(r.rgb(x, y), [0xff, 0xf2, 0xcc], 6), `page ${page} (${x},${y}) is ${r.rgb(x, y).join(',')}`);
    }
  }
  // The text is drawn over the colour, not hidden by it.
  assert.match(pdfText(pdf, { page: 1 }), /first page/);
  const dark = countPixels(raster(pdf, 1, 72), 72, { x: 60, y: 60, w: 200, h: 40 }, (rgb) => rgb[0] < 100);
  assert.ok(dark > 20, `text pixels ${dark}`);
});

test('page colour: a theme colour is resolved; white, automatic or not displayed is no colour; a fill effect is reported', async () => {
  const theme = await renderBytes(withBackground({ body: BODY, settings: DISPLAY }, 'w:color="4472C4" w:themeColor="accent1" w:themeTint="33"'));
  const themed = raster(theme.pdf, 1, 10).rgb(0, 0);
  assert.ok(themed[2] > themed[0] && themed[0] < 250, `theme background ${themed.join(',')}`);
  for (const [attrs, settings] of [['w:color="FFFFFF"', DISPLAY], ['w:color="auto"', DISPLAY], ['w:color="FF0000"', '<w:zoom w:percent="100"/>']] as const) {
    const { pdf, warnings } = await renderBytes(withBackground({ body: BODY, settings }, attrs));
    assert.deepEqual(warnings, []);
    assert.ok(near(raster(pdf, 1, 10).rgb(0, 0), [255, 255, 255], 2), `${attrs} ${settings}`);
  }
  const fill = '<v:background id="_x0000_s1025" o:bwmode="white" fillcolor="#fff2cc" xmlns:o="urn:schemas-microsoft-com:office:office"><v:fill r:id="rId9" o:title="Paper" type="tile"/></v:background>';
  const { pdf, warnings } = await renderBytes(withBackground({ body: BODY, settings: DISPLAY }, 'w:color="FFF2CC"', fill));
  assert.deepEqual(warnings.map((w) => [w.code, w.location.element]), [['background_not_drawn', 'w:background']]);
  assert.ok(near(raster(pdf, 2, 10).rgb(0, 0), [0xff, 0xf2, 0xcc], 6));
});
