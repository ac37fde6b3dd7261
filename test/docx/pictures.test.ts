/**
 * Pictures of a .docx that the PDF image path does not take as they are: EMF and WMF (drawn as PNG: embedded
 * bitmaps and vector records), SVG (its PNG fallback), a picture over the pixel limit (a same-size grey box and a
 * warning) and damaged picture or notes parts (the rest renders, a warning names the part). Real packages, rendered
 * to PDF, read back with poppler: pdfimages -list (the picture's pixels and resolution = its drawn size) and the page
 * raster (where its colours are).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import fc from 'fast-check';
import { compileTemplate, renderPdf, type ImportWarning } from '../../server/engine/index.js';
import { drawMetafile } from '../../server/engine/images/metafile.js';
import { raster, word, words } from '../engine/pdf/helpers.js';
import { pdfText, withPdfFile } from '../helpers/pdf.js';
import { buildDocx, makePng, p } from './build-docx.js';
import { docxPages } from '../engine/pdf/boxes.js';
import { dib, dib1bit, emfPicture, wmfPicture } from './metafile-bytes.js';

const RED: [number, number, number] = [255, 0, 0];
const BLUE: [number, number, number] = [0, 0, 255];
const GREEN: [number, number, number] = [0, 160, 0];
const MAGENTA: [number, number, number] = [255, 0, 255];

/** An inline picture `wPt` × `hPt` points. */
const picture = (rel: string, wPt: number, hPt: number, blipExtra = ''): string =>
  `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="${wPt * 12700}" cy="${hPt * 12700}"/><wp:docPr id="1" name="Picture 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:blipFill><a:blip r:embed="${rel}">${blipExtra}</a:blip></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;

async function render(docx: Uint8Array): Promise<{ pdf: Uint8Array; warnings: ImportWarning[] }> {
  const result = compileTemplate({ kind: 'docx', bytes: docx });
  assert.ok(result.ok, JSON.stringify(result));
  return { pdf: (await renderPdf(result.template, {})).bytes, warnings: result.warnings };
}

interface ListedImage {
  width: number;
  height: number;
  /** Drawn size in points, from the pixels and pdfimages' resolution. */
  wPt: number;
  hPt: number;
}

function listImages(pdf: Uint8Array): ListedImage[] {
  const out = withPdfFile(pdf, (file) => execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }));
  return out
    .split('\n')
    .slice(2)
    .map((l) => l.trim().split(/\s+/))
    .filter((c) => c[2] === 'image')
    .map((c) => ({ width: Number(c[3]), height: Number(c[4]), wPt: (Number(c[3]) / Number(c[12])) * 72, hPt: (Number(c[4]) / Number(c[13])) * 72 }));
}

/** Bounding box (points, at 72 dpi) and pixel count of a colour on page 1. */
function inkOf(pdf: Uint8Array, target: [number, number, number], tolerance = 40): { x0: number; y0: number; x1: number; y1: number; n: number } {
  const r = raster(pdf, 1, 72);
  const box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity, n: 0 };
  for (let y = 0; y < r.height; y++) {
    for (let x = 0; x < r.width; x++) {
      const [cr, cg, cb] = r.rgb(x, y);
      if (Math.abs(cr - target[0]) > tolerance || Math.abs(cg - target[1]) > tolerance || Math.abs(cb - target[2]) > tolerance) continue;
      box.n++;
      box.x0 = Math.min(box.x0, x);
      box.y0 = Math.min(box.y0, y);
      box.x1 = Math.max(box.x1, x + 1);
      box.y1 = Math.max(box.y1, y + 1);
    }
  }
  return box;
}

const close = (actual: number, expected: number, what: string, tol = 2): void =>
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual}, expected ${expected} ± ${tol}`);

test('an EMF with a filled rectangle and an embedded bitmap (EMR_STRETCHDIBITS) is drawn at its size, the rectangle as a vector', async () => {
  const docx = buildDocx({ body: picture('img_chart', 144, 72) + p('after the picture'), media: { 'chart.emf': emfPicture(RED, BLUE) } });
  const { pdf, warnings } = await render(docx);
  assert.deepEqual(warnings, []);
  // The only image in the PDF is the embedded bitmap, at its share of the picture (the right half).
  const [image, ...others] = listImages(pdf);
  assert.equal(others.length, 0);
  close(image.wPt, 72, 'bitmap drawn width (pt)', 0.5);
  close(image.hPt, 72, 'bitmap drawn height (pt)', 0.5);
  const red = inkOf(pdf, RED);
  const blue = inkOf(pdf, BLUE);
  // The rectangle is the left half (72 × 72 pt), the bitmap the right half, side by side.
  close(red.x1 - red.x0, 72, 'rectangle width');
  close(red.y1 - red.y0, 72, 'rectangle height');
  close(blue.x1 - blue.x0, 72, 'bitmap width');
  close(blue.y1 - blue.y0, 72, 'bitmap height');
  close(blue.x0, red.x1, 'bitmap starts where the rectangle ends');
  close(blue.y0, red.y0, 'same top');
  assert.ok(red.n > 72 * 72 * 0.9 && blue.n > 72 * 72 * 0.9, `solid: ${red.n}, ${blue.n} pixels`);
});

test('a WMF with an ellipse and an embedded bitmap (META_STRETCHDIB) is drawn at its size', async () => {
  const docx = buildDocx({ body: picture('img_shape', 200, 100), media: { 'shape.wmf': wmfPicture(GREEN, MAGENTA) } });
  const { pdf, warnings } = await render(docx);
  assert.deepEqual(warnings, []);
  // The ellipse is a path; the one image is the bitmap (its size is measured by its ink below).
  assert.equal(listImages(pdf).length, 1);
  const green = inkOf(pdf, GREEN);
  const magenta = inkOf(pdf, MAGENTA);
  close(green.x1 - green.x0, 100, 'ellipse width');
  close(green.y1 - green.y0, 100, 'ellipse height');
  // An ellipse, not its box: π/4 of the square.
  close(green.n / (100 * 100), Math.PI / 4, 'ellipse area share', 0.03);
  close(magenta.x1 - magenta.x0, 100, 'bitmap width');
  close(magenta.x0, green.x1, 'bitmap starts where the ellipse box ends');
});

test('text in an EMF (EMR_EXTTEXTOUTW) is drawn with the bundled font, at its size and place', async () => {
  const utf16 = (text: string): Uint8Array => Uint8Array.from([...text].flatMap((c) => [c.charCodeAt(0), 0]));
  const face = new Uint8Array(64);
  face.set(utf16('Arial'));
  const emf = emfPicture(RED, BLUE, (r) =>
    r
      .emf(82, 2, -100, 0, 0, 0, 400, new Uint8Array(8), face) // EXTCREATEFONTINDIRECTW #2: em = 100 device px = 10 mm
      .emf(37, 2)
      .emf(24, Uint8Array.of(0, 0, 0, 0)) // SETTEXTCOLOR black
      .emf(22, 24) // SETTEXTALIGN TA_BASELINE
      .emf(84, 0, 0, 0, 0, 1, 0, 0, 600, 300, 2, 76, 0, 0, 0, 0, 0, 0, utf16('HH')), // EXTTEXTOUTW at (600, 300)
  );
  const { pdf } = await render(buildDocx({ body: picture('img_text', 144, 72), media: { 'text.emf': emf } }));
  const black = inkOf(pdf, [0, 0, 0], 60);
  const blue = inkOf(pdf, BLUE);
  // 100 mm = 144 pt: the em is 14.4 pt, a capital H (Liberation Sans) 0.716 em tall, its baseline 30 mm down.
  close(black.y1 - black.y0, 14.4 * 0.716, 'capital height (pt)', 1.5);
  close(black.y1, blue.y0 + 300 * 0.144, 'baseline (pt)', 1.5);
  close(black.x0, blue.x0 + 100 * 0.144, 'start (pt)', 2);
  // The glyphs are outlines; the characters are in the text layer too (search, copy, pdftotext), over the glyphs.
  const hh = word(words(pdf), 'HH');
  close(hh.xMin, black.x0, 'text layer start (pt)', 2);
  close(hh.xMax, black.x1, 'text layer end (pt)', 3);
});

test('an EMF path (BEGINPATH, MOVETOEX, LINETO, CLOSEFIGURE, FILLPATH) is filled as one figure', async () => {
  const emf = emfPicture(RED, BLUE, (r) =>
    r
      .emf(39, 3, 0, Uint8Array.of(...GREEN, 0), 0) // CREATEBRUSHINDIRECT #3 green
      .emf(37, 3)
      .emf(59) // BEGINPATH
      .emf(27, 500, 0) // MOVETOEX
      .emf(54, 999, 499) // LINETO
      .emf(54, 500, 499)
      .emf(61) // CLOSEFIGURE
      .emf(60) // ENDPATH
      .emf(62, 0, 0, 0, 0), // FILLPATH
  );
  const { pdf } = await render(buildDocx({ body: picture('img_path', 144, 72), media: { 'path.emf': emf } }));
  const green = inkOf(pdf, GREEN);
  // A right triangle over the right half (72 × 72 pt): half of it.
  close(green.n / (72 * 72), 0.5, 'triangle area share', 0.05);
  close(green.x1 - green.x0, 72, 'triangle width');
});

test('an EMF that draws nothing readable keeps its place as a grey box of the same size, with a warning', async () => {
  // Only an EMR_SMALLTEXTOUT record (not read): nothing to draw.
  const header = emfPicture(RED, BLUE).slice(0, 108);
  const text = Uint8Array.of(108, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  const eof = Uint8Array.of(14, 0, 0, 0, 20, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0, 20, 0, 0, 0);
  const emf = new Uint8Array([...header, ...text, ...eof]);
  const docx = buildDocx({ body: picture('img_text', 144, 72), media: { 'text.emf': emf } });
  const { pdf, warnings } = await render(docx);
  assert.deepEqual(warnings.map((w) => [w.code, w.count]), [['picture_format_unsupported', 1]]);
  assert.match(warnings[0].message, /1 EMF picture not drawn/);
  const [box] = listImages(pdf);
  close(box.wPt, 144, 'placeholder width (pt)', 0.5);
  close(box.hPt, 72, 'placeholder height (pt)', 0.5);
  const grey = inkOf(pdf, [238, 238, 238], 2);
  close(grey.x1 - grey.x0, 144, 'grey box width');
  close(grey.y1 - grey.y0, 72, 'grey box height');
});

test('a truncated EMF draws what it holds, with a warning naming it; garbage after a valid header never throws (bounded loops)', async () => {
  const whole = emfPicture(RED, BLUE);
  // Cut inside the bitmap record: the rectangle before it is still drawn.
  const cut = whole.slice(0, 108 + 24 + 12 + 12 + 24 + 60);
  const { pdf, warnings } = await render(buildDocx({ body: picture('img_cut', 144, 72), media: { 'cut.emf': cut } }));
  assert.deepEqual(warnings.map((w) => [w.code, w.location.part, w.message]), [['part_damaged', 'word/media/cut.emf', 'damaged picture drawn as far as it could be read; the rest is drawn']]);
  close(inkOf(pdf, RED).x1 - inkOf(pdf, RED).x0, 72, 'rectangle width');
  assert.equal(inkOf(pdf, BLUE).n, 0);
  const header = whole.slice(0, 108);
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 600 }), fc.boolean(), (tail, wmf) => {
      const bytes = wmf ? new Uint8Array([...wmfPicture(GREEN, MAGENTA).slice(0, 40), ...tail]) : new Uint8Array([...header, ...tail]);
      const drawn = drawMetafile(bytes, 40_000_000);
      assert.ok(drawn === null || drawn.drawing.length > 0);
    }),
    { numRuns: 300 },
  );
  // A record that claims many points but holds few: read no further than the record.
  const lying = emfPicture(RED, BLUE, (r) => r.emf(86, 0, 0, 10, 10, 0x7fffffff, 0));
  assert.ok(drawMetafile(lying, 40_000_000) !== null);
  // A polygon of 1.1 million points: read (the record limits allow 2 M) but past the vector picture's 1 M points,
  // so not drawn (a grey box) rather than 10 MB of page content.
  const n = 1_100_000;
  const pts = new Uint8Array(n * 4);
  const view = new DataView(pts.buffer);
  for (let i = 0; i < n; i++) {
    view.setInt16(i * 4, i % 1000, true);
    view.setInt16(i * 4 + 2, (i * 7) % 500, true);
  }
  assert.equal(drawMetafile(emfPicture(RED, BLUE, (r) => r.emf(86, 0, 0, 999, 499, n, pts)), 40_000_000), null);
  assert.ok(drawMetafile(emfPicture(RED, BLUE, (r) => r.emf(86, 0, 0, 999, 499, 1000, pts.slice(0, 4000))), 40_000_000) !== null);
  // 6000 one-pixel bitmaps each stretched over the whole picture: past the drawing budget, not drawn (a grey box).
  const [info, bits] = dib(1, 1, GREEN);
  const costly = emfPicture(RED, BLUE, (r) => {
    for (let i = 0; i < 6000; i++) r.emf(81, 0, 0, 999, 499, 0, 0, 0, 0, 1, 1, 80, 40, 120, bits.length, 0, 0x00cc0020, 1000, 500, info, bits);
  });
  assert.equal(drawMetafile(costly, 40_000_000), null);
  // 4 bitmaps of 5000 × 5000 (1 bit: 3 MB each) need 100 MP: the picture's bitmap budget (50 MP) stops at the third.
  const big = dib1bit(5000, 5000);
  const heavy = emfPicture(RED, BLUE, (r) => {
    for (let i = 0; i < 4; i++) r.emf(81, 0, 0, 999, 499, 0, 0, 0, 0, 5000, 5000, 80, big[0].length, 80 + big[0].length, big[1].length, 0, 0x00cc0020, 10, 10, big[0], big[1]);
  });
  assert.ok(drawMetafile(heavy, 40_000_000) !== null);
});

/** A 1-bit grey PNG of width × height (zero rows compress to almost nothing: a tiny file declaring many pixels). */
function hugePng(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Uint8Array): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // grey
  const raw = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  return new Uint8Array(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]));
}

test('a template picture over the pixel limit (a real 7000 × 6000 PNG) becomes a same-size grey box with a warning, never a failed render', async () => {
  const docx = buildDocx({ body: p('before') + picture('img_huge', 300, 150) + p('after'), media: { 'huge.png': hugePng(7000, 6000) } });
  const { pdf, warnings } = await render(docx);
  assert.deepEqual(warnings.map((w) => [w.code, w.location.part, w.count]), [['picture_too_large', 'word/media/huge.png', 1]]);
  assert.match(warnings[0].message, /over the pixel limit/);
  const [box] = listImages(pdf);
  assert.deepEqual([box.width, box.height], [1, 1]);
  close(box.wPt, 300, 'placeholder width (pt)', 0.5);
  close(box.hPt, 150, 'placeholder height (pt)', 0.5);
  const text = withPdfFile(pdf, (file) => execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }));
  assert.match(text, /before[\s\S]*after/);
});

test('an SVG picture (asvg:svgBlip) is drawn from its PNG fallback (a:blip), without a warning', async () => {
  const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="blue"/></svg>');
  const png = hugePng(64, 64); // small here: 64 × 64 black
  const ext = '<a:extLst><a:ext uri="{96DAC541-7B7A-43D3-8B79-37D633B846F1}"><asvg:svgBlip xmlns:asvg="http://schemas.microsoft.com/office/drawing/2016/SVG/main" r:embed="img_vector"/></a:ext></a:extLst>';
  const docx = buildDocx({ body: picture('img_fallback', 90, 90, ext), media: { 'fallback.png': png, 'vector.svg': svg } });
  const { pdf, warnings } = await render(docx);
  assert.deepEqual(warnings, []);
  const [image] = listImages(pdf);
  assert.deepEqual([image.width, image.height], [64, 64]);
  close(image.wPt, 90, 'drawn width (pt)', 0.5);
  const black = inkOf(pdf, [0, 0, 0], 10);
  close(black.x1 - black.x0, 90, 'black square width');
});

test('a damaged picture part and a truncated notes part: the rest renders, warnings name both parts', async () => {
  const docx = buildDocx({
    body: picture('img_broken', 100, 50) + p('still here'),
    media: { 'broken.png': Uint8Array.from({ length: 300 }, (_, i) => (i * 37) & 0xff) },
    rels: { rIdNotes: ['footnotes', 'footnotes.xml'] },
    extra: { 'word/footnotes.xml': '<w:footnotes xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:footnote w:id="2"><w:p>' },
  });
  const { pdf, warnings } = await render(docx);
  assert.deepEqual(
    warnings.map((w) => [w.code, w.location.part]).sort(),
    [['part_damaged', 'word/footnotes.xml'], ['part_damaged', 'word/media/broken.png']],
  );
  const text = withPdfFile(pdf, (file) => execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }));
  assert.match(text, /still here/);
});

/** As test/docx/corpus.test.ts finds the public corpus (not imported: that would run its tests here too). */
const CORPUS = process.env.DOCLOOM_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/docx');
const CORPUS_PICTURES = ['aspose__Various_shapes.docx', 'aspose__WMF_with_text.docx', 'docling__test_emf_docx.docx', 'aspose__Office_math.docx'];
const corpusPresent = CORPUS_PICTURES.every((f) => fs.existsSync(path.join(CORPUS, f)));

/** Filled paths the vector-picture painter wrote (a fill operator closing its own q…Q), in the uncompressed PDF. */
function vectorFills(pdf: Uint8Array): number {
  const qdf = withPdfFile(pdf, (file) => execFileSync('qpdf', ['--qdf', '--object-streams=disable', file, '-'], { maxBuffer: 256 * 1024 * 1024 }).toString('latin1'));
  return (qdf.match(/\nf\*?\nQ\n/g) ?? []).length;
}

test('corpus files with EMF/WMF pictures: the pictures are drawn (no unsupported-picture warning), as vector paths in the PDF', { skip: !corpusPresent && `corpus not at ${CORPUS}` }, async () => {
  for (const file of CORPUS_PICTURES) {
    const result = compileTemplate({ kind: 'docx', bytes: new Uint8Array(fs.readFileSync(path.join(CORPUS, file))), delimiters: ['\u0001<<', '>>\u0001'] });
    assert.ok(result.ok, file);
    assert.deepEqual(result.warnings.filter((w) => w.code === 'picture_format_unsupported'), [], file);
    assert.match(JSON.stringify(result.template), /data:application\/vnd\.docloom\.drawing\+json;base64,/, `${file}: no vector picture in the model`);
    const pdf = (await renderPdf(result.template, {})).bytes;
    assert.ok(vectorFills(pdf) > 0, `${file}: no vector picture painted`);
  }
});

test("a real WMF chart's labels (aspose__WMF_with_text) are in the PDF's text layer", { skip: !corpusPresent && `corpus not at ${CORPUS}` }, async () => {
  const result = compileTemplate({ kind: 'docx', bytes: new Uint8Array(fs.readFileSync(path.join(CORPUS, 'aspose__WMF_with_text.docx'))), delimiters: ['\u0001<<', '>>\u0001'] });
  assert.ok(result.ok);
  const text = pdfText((await renderPdf(result.template, {})).bytes);
  for (const label of ['Confidence interval', 'Regression', 'Legend', '70000000', 'y = 859997926.1987x + 21543.4495']) assert.ok(text.includes(label), `${label} in: ${text}`);
});

test("a picture's border (pic:spPr a:ln) is drawn around it, centred on its edge, in its colour and width; a:noFill draws none", async () => {
  const bordered = (ln: string): string =>
    `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="${120 * 12700}" cy="${80 * 12700}"/><wp:docPr id="1" name="Picture 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:blipFill><a:blip r:embed="img_logo"/></pic:blipFill><pic:spPr><a:prstGeom prst="rect"/>${ln}</pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
  const framesOf = async (ln: string): Promise<Array<{ x: number; y: number; w: number; h: number; width: number; color: readonly number[] }>> => {
    const pages = await docxPages(buildDocx({ body: bordered(ln), media: { 'logo.png': makePng(4, 4, [255, 255, 255]) } }));
    const image = pages[0].boxes.find((b) => b.kind === 'image')!;
    assert.ok(image, 'the picture is drawn');
    return pages[0].boxes.flatMap((b) => (b.kind === 'frame' ? [b] : [])).filter((f) => Math.abs(f.x - (image as { x: number }).x) < 0.01 && Math.abs(f.y - (image as { y: number }).y) < 0.01);
  };
  const [frame] = await framesOf('<a:ln w="25400"><a:solidFill><a:srgbClr val="1F4E79"/></a:solidFill></a:ln>');
  assert.ok(frame, 'a frame on the picture');
  assert.deepEqual([frame.w, frame.h, frame.width], [120, 80, 2]);
  assert.deepEqual(frame.color, [0x1f, 0x4e, 0x79]);
  assert.equal((await framesOf('<a:ln w="25400"><a:noFill/></a:ln>')).length, 0, 'a:noFill: no border');
  assert.equal((await framesOf('')).length, 0, 'no a:ln: no border');
  // In the PDF: the border's blue is painted around the white picture.
  const compiled = compileTemplate({ kind: 'docx', bytes: buildDocx({ body: bordered('<a:ln w="38100"><a:solidFill><a:srgbClr val="0000FF"/></a:solidFill></a:ln>'), media: { 'logo.png': makePng(4, 4, [255, 255, 255]) } }) });
  assert.ok(compiled.ok);
  const r = raster((await renderPdf(compiled.template, {})).bytes, 1, 72);
  // The picture's left edge at the 72 pt margin, its middle row 72 + 40 pt down the page (the line's top at 72 + a little).
  let blue = 0;
  for (let y = 80; y < 150; y++) for (let x = 68; x < 76; x++) if (r.rgb(x, y)[2] > 200 && r.rgb(x, y)[0] < 80) blue++;
  assert.ok(blue > 50, `blue border pixels along the left edge: ${blue}`);
});

test("an inline picture's wp:effectExtent (a shadow's reach) is room kept around it in its line: the picture inside, the text after it pushed that far", async () => {
  const inline = (effect: string): string =>
    `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="${120 * 12700}" cy="${80 * 12700}"/>${effect}<wp:docPr id="1" name="Picture 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:blipFill><a:blip r:embed="img_logo"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r><w:r><w:t>beside</w:t></w:r></w:p>`;
  const laid = async (effect: string): Promise<{ image: { x: number; y: number; w: number; h: number }; beside: { x: number }; after: { y: number } }> => {
    const pages = await docxPages(buildDocx({ body: inline(effect) + p('after the picture'), media: { 'logo.png': makePng(4, 4, [255, 0, 0]) } }));
    const image = pages[0].boxes.find((b) => b.kind === 'image') as { x: number; y: number; w: number; h: number };
    const text = (needle: string): { x: number; y: number } => pages[0].boxes.find((b) => b.kind === 'text' && b.text.includes(needle)) as { x: number; y: number };
    return { image, beside: text('beside'), after: text('after') };
  };
  const plain = await laid('');
  // 4 pt left, 2 pt top, 6 pt right, 10 pt bottom (EMU), as Word writes for a picture with an outer shadow.
  const shadow = await laid('<wp:effectExtent l="50800" t="25400" r="76200" b="127000"/>');
  assert.deepEqual([shadow.image.w, shadow.image.h], [120, 80], 'the picture keeps its own size');
  assert.ok(Math.abs(shadow.image.x - plain.image.x - 4) < 0.01, `picture moved right by the left extent: ${shadow.image.x} vs ${plain.image.x}`);
  assert.ok(Math.abs(shadow.beside.x - plain.beside.x - 10) < 0.01, `text beside it moved by left + right: ${shadow.beside.x} vs ${plain.beside.x}`);
  assert.ok(Math.abs(shadow.after.y - plain.after.y - 12) < 0.01, `next paragraph moved by top + bottom: ${shadow.after.y} vs ${plain.after.y}`);
  // The picture's foot stays above the room kept below it: it sits 10 pt over the line's baseline.
  assert.ok(Math.abs(shadow.image.y - plain.image.y - 2) < 0.01, `picture top moved down by the top extent: ${shadow.image.y} vs ${plain.image.y}`);
  // Negative extents (Word 2007's rotated pictures) keep no room.
  const negative = await laid('<wp:effectExtent l="-50800" t="0" r="0" b="-25400"/>');
  assert.deepEqual([negative.image.x, negative.after.y], [plain.image.x, plain.after.y]);
});
