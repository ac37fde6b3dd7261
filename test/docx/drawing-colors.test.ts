/**
 * DrawingML colour transforms (tint, shade, lumMod, hueOff…) and gradient fills on shapes and SmartArt, read back
 * from the rendered page's pixels (pdftoppm): on built shapes with values worked out by hand from the definitions,
 * and on a corpus SmartArt file against the colours LibreOffice paints for it.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { countPixels, near, raster, words } from '../engine/pdf/helpers.js';
import { buildDocx } from './build-docx.js';

const CORPUS = process.env.DOCLOOM_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/docx');
const EMU = 12700;
const DPI = 50;

async function render(bytes: Uint8Array): Promise<Uint8Array> {
  const compiled = compileTemplate({ kind: 'docx', bytes });
  assert.ok(compiled.ok, JSON.stringify(compiled));
  return (await renderPdf(compiled.template, {})).bytes;
}

/** A 100 × 60 pt rectangle anchored to the page at (x, 100) whose spPr fill is `fill`. */
function box(x: number, fill: string): string {
  const e = (pt: number): number => Math.round(pt * EMU);
  return `<w:r><w:drawing><wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">` +
    `<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="page"><wp:posOffset>${e(x)}</wp:posOffset></wp:positionH>` +
    `<wp:positionV relativeFrom="page"><wp:posOffset>${e(100)}</wp:posOffset></wp:positionV><wp:extent cx="${e(100)}" cy="${e(60)}"/><wp:wrapNone/><wp:docPr id="1" name="Box"/>` +
    `<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:spPr><a:prstGeom prst="rect"><a:avLst/></a:prstGeom>${fill}<a:ln><a:noFill/></a:ln></wps:spPr>` +
    `<wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>`;
}

/** The colour at the middle of the box at page x (points). */
function middle(pdf: Uint8Array, x: number): [number, number, number] {
  const r = raster(pdf, 1, DPI);
  return r.rgb(Math.round(((x + 50) * DPI) / 72), Math.round((130 * DPI) / 72));
}

test('shape fills: transforms of a DrawingML colour are applied in order, and a gradient is drawn in its mean colour', async () => {
  const solid = (inner: string): string => `<a:solidFill>${inner}</a:solidFill>`;
  const fills: Array<[string, [number, number, number], string]> = [
    // Luminance 50 % × 0.75 of pure blue: HSL (240°, 100 %, 37.5 %) = rgb(0, 0, 191).
    [solid('<a:srgbClr val="0000FF"><a:lumMod val="75000"/></a:srgbClr>'), [0, 0, 191], 'lumMod'],
    // Red turned 120° round the hue circle is green.
    [solid('<a:srgbClr val="FF0000"><a:hueOff val="7200000"/></a:srgbClr>'), [0, 255, 0], 'hueOff'],
    // Tint 50 % of black, in linear RGB (gamma 2.3) as Office and LibreOffice mix it: 0.5^(1/2.3) = 0.74 → 189.
    [solid('<a:srgbClr val="000000"><a:tint val="50000"/></a:srgbClr>'), [189, 189, 189], 'tint'],
    // Black to white, evenly: mid grey.
    ['<a:gradFill><a:gsLst><a:gs pos="0"><a:srgbClr val="000000"/></a:gs><a:gs pos="100000"><a:srgbClr val="FFFFFF"/></a:gs></a:gsLst><a:lin ang="5400000"/></a:gradFill>', [128, 128, 128], 'gradient'],
  ];
  const body = `<w:p>${fills.map(([fill], i) => box(40 + i * 130, fill)).join('')}<w:r><w:t>Shapes</w:t></w:r></w:p>`;
  const pdf = await render(buildDocx({ body }));
  fills.forEach(([, expected, what], i) => {
    const rgb = middle(pdf, 40 + i * 130);
    assert.ok(near(rgb, expected, 3), `${what}: ${rgb.join(',')} is not ${expected.join(',')}`);
  });
});

test('corpus: SmartArt boxes take the colours LibreOffice paints (accent with tint and hue offsets, gradient fills), aspose SmartArt', { skip: !fs.existsSync(CORPUS) && 'corpus not found' }, async () => {
  const pdf = await render(fs.readFileSync(path.join(CORPUS, 'aspose__SmartArt.docx')));
  const page = raster(pdf, 1, DPI);
  const whole = { x: 0, y: 0, w: 595, h: 842 };
  // Sampled from LibreOffice 7.4's PDF of the same file: the six gradient boxes (light blue) and the three
  // columns of the second diagram (accent 1 tinted, hue-shifted to pink and to green, and plain light blue).
  const colours: Array<[string, [number, number, number]]> = [
    ['light blue boxes', [170, 198, 231]],
    ['pink column', [251, 236, 232]],
    ['green column', [215, 245, 212]],
    ['blue column', [196, 212, 235]],
  ];
  for (const [what, rgb] of colours) {
    const n = countPixels(page, DPI, whole, (px) => near(px, rgb, 10));
    // Each is a filled area of several square centimetres: hundreds of pixels at 50 dpi.
    assert.ok(n > 400, `${what} (${rgb.join(',')}): ${n} pixels`);
  }
});

test('corpus: a SmartArt process diagram is drawn as Word saved it — rounded boxes at their offsets with their labels centred, the arrows between them, the text after it below its frame (testWORD_diagramData)', { skip: !fs.existsSync(CORPUS) && 'corpus not found' }, async () => {
  const pdf = await render(fs.readFileSync(path.join(CORPUS, 'tika__testWORD_diagramData.docx')));
  const all = words(pdf);
  // drawing1.xml: the first box at (0.38, 91.95) pt from the diagram's top left, 113.48 × 68.09; the diagram
  // (252 pt tall) sits at the 1-inch margins.
  const from = all.find((w) => w.text === 'From')!;
  const here = all.find((w) => w.text === 'here' && w.xMin > from.xMin && w.xMin < 190)!;
  const box = { x: 72.38, y: 72 + 91.95, w: 113.48, h: 68.09 };
  const mid = { x: (from.xMin + here.xMax) / 2, y: (from.yMin + from.yMax) / 2 };
  assert.ok(Math.abs(mid.x - (box.x + box.w / 2)) < 3 && Math.abs(mid.y - (box.y + box.h / 2)) < 6, `label centred at ${mid.x},${mid.y}`);
  // The box's fill (accent 1) around its label, and the arrow (a lighter accent) in the gap after it.
  const page = raster(pdf, 1, 72);
  assert.ok(countPixels(page, 72, { x: box.x + 2, y: box.y + 2, w: 8, h: box.h - 4 }, (px) => near(px, [68, 114, 196], 30)) > 100, 'the box is filled');
  const arrow = countPixels(page, 72, { x: 72 + 125.2, y: 72 + 111.9, w: 24, h: 28 }, (px) => px[0] + px[1] + px[2] < 700);
  assert.ok(arrow > 150, `arrow pixels: ${arrow}`);
  const regular = all.find((w) => w.text === 'regular')!;
  assert.ok(regular.yMin > 72 + 252, `the paragraph after the diagram starts at ${regular.yMin}`);
});
