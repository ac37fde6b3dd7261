/**
 * WordArt watermarks (a VML shape with v:textpath in the header: Word's "CONFIDENTIAL", "DRAFT"): the string drawn
 * on every page, centred on the margins, turned by the shape's rotation, in its fill colour mixed with white by its
 * opacity, behind the text, which does not move, and out of the text layer (copy and search find the body's words).
 * Read back with pdftotext (the text layer) and pdftoppm (where its ink is), on a built file and on a corpus file.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { near, raster, words } from '../engine/pdf/helpers.js';
import { pdfPageCount, pdfText, withPdfFile } from '../helpers/pdf.js';
import { buildDocx, p } from './build-docx.js';

const CORPUS = process.env.DOCLOOM_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/docx');
/** A4 with 1-inch margins (DEFAULT_SECT): the margin box's middle. */
const MIDDLE = { x: 595.28 / 2, y: 841.89 / 2 };

function watermark(text: string, rotation: number): string {
  return `<w:p><w:r><w:pict><v:shape id="PowerPlusWaterMarkObject1" type="#_x0000_t136" style="position:absolute;margin-left:0;margin-top:0;width:400pt;height:100pt;rotation:${rotation};z-index:-251658752;mso-position-horizontal:center;mso-position-horizontal-relative:margin;mso-position-vertical:center;mso-position-vertical-relative:margin" fillcolor="red" stroked="f">` +
    `<v:fill opacity=".5"/><v:textpath style="font-family:&quot;Calibri&quot;;font-size:1pt" string="${text}"/></v:shape></w:pict></w:r></w:p>`;
}

const SECT = '<w:sectPr><w:headerReference w:type="default" r:id="rId_header1"/><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>';
const BODY = Array.from({ length: 70 }, (_, i) => p(`Body line ${i + 1} of the contract`)).join('');

async function render(bytes: Uint8Array): Promise<Uint8Array> {
  const compiled = compileTemplate({ kind: 'docx', bytes });
  assert.ok(compiled.ok, JSON.stringify(compiled));
  return (await renderPdf(compiled.template, {})).bytes;
}

/**
 * Where the watermark's ink is: the centroid of the pixels near `rgb` (points) and the correlation of their x and y
 * (−1: a line rising to the right on a page whose y grows downwards).
 */
function inkOf(pdf: Uint8Array, page: number, rgb: [number, number, number], dpi = 40): { n: number; x: number; y: number; corr: number; mid: { x: number; y: number }; width: number } {
  const r = raster(pdf, page, dpi);
  let [n, sx, sy, sxx, syy, sxy] = [0, 0, 0, 0, 0, 0];
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let y = 0; y < r.height; y++) {
    for (let x = 0; x < r.width; x++) {
      if (!near(r.rgb(x, y), rgb, 14)) continue;
      n++;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
      sx += x;
      sy += y;
      sxx += x * x;
      syy += y * y;
      sxy += x * y;
    }
  }
  const k = 72 / dpi;
  const [mx, my] = [sx / n, sy / n];
  const corr = (sxy / n - mx * my) / Math.sqrt((sxx / n - mx * mx) * (syy / n - my * my));
  return { n, x: mx * k, y: my * k, corr, mid: { x: ((x0 + x1 + 1) / 2) * k, y: ((y0 + y1 + 1) / 2) * k }, width: (x1 + 1 - x0) * k };
}

const PINK: [number, number, number] = [255, 128, 128];

/** A page's text in the order it is drawn (pdftotext -raw). */
function rawText(pdf: Uint8Array, page: number): string {
  return withPdfFile(pdf, (file) => execFileSync('pdftotext', ['-raw', '-f', String(page), '-l', String(page), file, '-'], { encoding: 'utf8' }));
}

test('a WordArt watermark in the header: on every page, centred on the margins, turned 45°, half-see-through red, behind text that does not move, not in the text layer', async () => {
  const marked = await render(buildDocx({ body: BODY, sectPr: SECT, headers: { header1: watermark('DRAFT', 315) } }));
  const plain = await render(buildDocx({ body: BODY, sectPr: SECT, headers: { header1: p('') } }));
  const pages = pdfPageCount(marked);
  assert.equal(pages, 2);
  for (let page = 1; page <= pages; page++) {
    // Decoration, kept out of the text layer: the page's text is the body's, as without the watermark.
    assert.equal(rawText(marked, page), rawText(plain, page), `page ${page}: text layer`);
    // Red at 50 % opacity on white paper is (255, 128, 128); its ink is centred on the margin box and rises to the right.
    const ink = inkOf(marked, page, PINK);
    assert.ok(ink.n > 300, `page ${page}: ${ink.n} watermark pixels`);
    // Its extent is centred (the ink's centroid is not: D and R hold more ink than F and T).
    assert.ok(Math.abs(ink.mid.x - MIDDLE.x) < 15 && Math.abs(ink.mid.y - MIDDLE.y) < 15, `page ${page}: centred at ${ink.mid.x.toFixed(0)},${ink.mid.y.toFixed(0)}`);
    assert.ok(ink.corr < -0.8, `page ${page}: turned 45° (x/y correlation ${ink.corr.toFixed(2)})`);
    // Stretched to fill its 400 × 100 pt shape (Word's fitshape): turned 45°, that box spans (400 + 100) / √2 = 354 pt
    // across; letters kept in proportion would span ~230 pt.
    assert.ok(ink.width > 320 && ink.width < 365, `page ${page}: ${ink.width.toFixed(0)} pt across`);
  }
  // The body is where it is without the watermark.
  const at = (bytes: Uint8Array, text: string): string => JSON.stringify(words(bytes).filter((w) => w.text === text).map((w) => [w.page, w.xMin, w.yMin]));
  for (const text of ['1', '35', '70']) assert.equal(at(marked, text), at(plain, text), `"Body line ${text}" moved`);
});

test('corpus: the 保密 watermark of a Word 2007 file is drawn across the middle of the page, turned, in its pink', { skip: !fs.existsSync(CORPUS) && 'corpus not found' }, async () => {
  const pdf = await render(fs.readFileSync(path.join(CORPUS, 'oxsdk__chinese_watermark_with_font_size_color_specified.docx')));
  // The body's own 保密 is text; the watermark's is not (copying the page gives the body's words only).
  const text = pdfText(pdf);
  assert.deepEqual([text.match(/保/g)?.length, text.match(/密/g)?.length], [1, 1]);
  // US Letter, 1.25-inch side margins and 1-inch top and bottom: the margin box's middle is the page's.
  const ink = inkOf(pdf, 1, PINK);
  assert.ok(ink.n > 1000, `${ink.n} watermark pixels`);
  assert.ok(Math.abs(ink.x - 306) < 20 && Math.abs(ink.y - 396) < 20, `centred at ${ink.x.toFixed(0)},${ink.y.toFixed(0)}`);
  assert.ok(ink.corr < -0.5, `rising to the right (x/y correlation ${ink.corr.toFixed(2)})`);
  // Two ideographs as tall as the 4 × 2-inch shape (an ideograph fills its em; 0.85 em left them ~216 pt across,
  // LibreOffice's outlines stretched to the shape span 286 pt).
  assert.ok(ink.width > 230, `the watermark spans ${ink.width.toFixed(0)} pt across`);
});
