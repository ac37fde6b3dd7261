/**
 * PNGs reach the PDF through pdf/image/png-to-pdf.ts instead of jsPDF's processPNG (decode + deflate again).
 * Shown on material nobody here made — every distinct PNG inside the public corpus's .docx files — against jsPDF's
 * own path as the oracle: the same pixels on the page (over a red ground, so a wrong soft mask shows). Then what
 * the fast path promises: an opaque PNG's IDAT bytes are in the PDF unchanged, and a damaged PNG is refused with
 * invalid_image as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import zlib from 'node:zlib';
import { unzipSync } from 'fflate';
import { jsPDF } from 'jspdf';
import { pngToPdfImage, type PdfImageObject } from '../../../server/engine/pdf/image/png-to-pdf.js';
import { EngineError } from '../../../server/engine/errors.js';
import { decodePng } from '../../../scripts/lib/png.js';
import { encodePng } from './png.js';
import { assertValidPdf, model, para, render } from './helpers.js';

const CORPUS = path.resolve(import.meta.dirname, '../../../../shared/corpus/docx');
const PAGE = 96; // points; rasterised at 72 dpi

/** Every distinct PNG (by bytes) inside the corpus's .docx packages. */
function corpusPngs(): Uint8Array[] {
  const seen = new Set<string>();
  const out: Uint8Array[] = [];
  for (const file of fs.readdirSync(CORPUS).filter((f) => f.endsWith('.docx')).sort()) {
    let entries: Record<string, Uint8Array>;
    try {
      entries = unzipSync(new Uint8Array(fs.readFileSync(path.join(CORPUS, file))), { filter: (f) => /\.png$/i.test(f.name) });
    } catch {
      continue; // damaged packages are the importer's tests' business
    }
    for (const bytes of Object.values(entries)) {
      const key = Buffer.from(bytes).toString('base64');
      if (!seen.has(key)) {
        seen.add(key);
        out.push(bytes);
      }
    }
  }
  return out;
}

// Our objects reach jsPDF as a format of this test's own, the way draw/image.ts hands them over.
let handing: PdfImageObject | null = null;
(jsPDF.API as unknown as Record<string, unknown>).processTESTPNGTOPDF = (_data: unknown, index: number, alias: string) => ({ ...handing, index, alias });

/** One page per image, over red; `ours` chooses the path. */
function pdfOf(images: Array<{ png: Uint8Array; mine: PdfImageObject }>, ours: boolean): Buffer {
  const doc = new jsPDF({ unit: 'pt', format: [PAGE, PAGE], compress: true });
  images.forEach(({ png, mine }, i) => {
    if (i > 0) doc.addPage([PAGE, PAGE]);
    doc.setFillColor(255, 0, 0);
    doc.rect(0, 0, PAGE, PAGE, 'F');
    if (ours) {
      handing = mine;
      doc.addImage(new Uint8Array([0]), 'TESTPNGTOPDF', 0, 0, PAGE, PAGE, `img${i}`);
    } else {
      doc.addImage(png, 'PNG', 0, 0, PAGE, PAGE, `img${i}`, 'FAST');
    }
  });
  return Buffer.from(doc.output('arraybuffer'));
}

/** Each page as RGB pixels, through one pdftoppm run. */
function pages(pdf: Buffer, count: number, dir: string, name: string): Uint8Array[] {
  const file = path.join(dir, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-r', '72', '-png', file, path.join(dir, name)]);
  const width = String(count).length;
  return Array.from({ length: count }, (_, i) => decodePng(fs.readFileSync(path.join(dir, `${name}-${String(i + 1).padStart(width, '0')}.png`))).pixels);
}

test('every PNG of the public corpus: the same pixels as jsPDF\'s own PNG path, alpha included', () => {
  const all = corpusPngs();
  assert.ok(all.length >= 100, `only ${all.length} PNGs found in ${CORPUS}`);
  const taken = all.flatMap((png) => {
    const mine = pngToPdfImage(png);
    return mine ? [{ png, mine }] : [];
  });
  // Interlaced files and transparent palette entries stay with jsPDF: few in real files.
  assert.ok(taken.length >= all.length * 0.9, `the fast path took ${taken.length} of ${all.length}`);
  const withAlpha = taken.filter((t) => t.mine.sMask !== undefined).length;
  const passedThrough = taken.filter((t) => t.mine.decodeParameters?.startsWith('/Predictor 15')).length;
  assert.ok(withAlpha >= 10 && passedThrough >= 30, `${withAlpha} with a soft mask, ${passedThrough} passed through`);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'png-to-pdf-'));
  try {
    const expected = pages(pdfOf(taken, false), taken.length, dir, 'jspdf');
    const actual = pages(pdfOf(taken, true), taken.length, dir, 'ours');
    const differing: string[] = [];
    taken.forEach((t, i) => {
      let worst = 0;
      for (let k = 0; k < expected[i].length; k++) worst = Math.max(worst, Math.abs(expected[i][k] - actual[i][k]));
      if (expected[i].length !== actual[i].length || worst > 1) differing.push(`#${i} ${t.mine.colorSpace} ${t.mine.bitsPerComponent}-bit${t.mine.sMask ? ' + alpha' : ''}: off by ${worst}`);
    });
    assert.deepEqual(differing, []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an opaque PNG goes into the PDF as its own IDAT bytes, nothing inflated or compressed again', async () => {
  const png = encodePng(40, 20, (x, y) => [x * 6, y * 12, 200, 255]); // opaque: scripts/lib/png.ts writes RGBA, 8-bit
  const opaque = decodePng(png);
  assert.equal(opaque.channels, 4);
  // The same picture as RGB, as a camera or a screenshot tool writes it.
  const rgb = Buffer.alloc(40 * 20 * 3);
  for (let i = 0; i < 40 * 20; i++) rgb.set(opaque.pixels.subarray(i * 4, i * 4 + 3), i * 3);
  const { encodePng: encodeRaw } = await import('../../../scripts/lib/png.js');
  const rgbPng = encodeRaw(40, 20, rgb, { channels: 3, level: 9 });
  const idat = rgbPng.subarray(8 + 25 + 8, rgbPng.length - 12 - 4); // signature, IHDR chunk, IDAT length + type … CRC, IEND
  const pdf = await render(model([para([{ type: 'image', src: `data:image/png;base64,${rgbPng.toString('base64')}`, width: 80, height: 40 }])]));
  assertValidPdf(pdf);
  assert.ok(Buffer.from(pdf).indexOf(idat) > 0, 'the IDAT stream is in the PDF as it was');
  const object = pngToPdfImage(rgbPng);
  assert.equal(object?.decodeParameters, '/Predictor 15 /Colors 3 /BitsPerComponent 8 /Columns 40');
});

test('a damaged PNG is refused with invalid_image, as jsPDF refused it', async () => {
  const png = Buffer.from(encodePng(30, 30, (x) => [x * 8, 0, 0, 255]));
  const broken = Buffer.from(png);
  broken[8 + 25 + 8 + 4] ^= 0xff; // a byte inside the IDAT data: its CRC no longer matches
  const truncated = png.subarray(0, png.length - 20);
  for (const [what, bytes] of [['a flipped byte', broken], ['a truncated file', truncated]] as const) {
    await assert.rejects(
      render(model([para([{ type: 'image', src: `data:image/png;base64,${bytes.toString('base64')}`, width: 30, height: 30 }])])),
      (err: unknown) => err instanceof EngineError && err.code === 'invalid_image',
      what,
    );
  }
});

test('a PNG with alpha whose image data runs past its pixels: the pixels are read, the rest ignored (as before, as libpng does)', async () => {
  const { pngFile } = await import('../../../scripts/lib/png.js');
  const width = 30;
  const height = 20;
  // 5,000 bytes of 7 after the rows (7 is no filter type: were it read as a row, the image would be refused).
  const raw = Buffer.alloc(height * (width * 4 + 1) + 5000, 7);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 4 + 1);
    raw[row] = 0;
    for (let x = 0; x < width; x++) raw.set([x * 8, y * 12, 100, x < 15 ? 255 : 90], row + 1 + x * 4);
  }
  const object = pngToPdfImage(pngFile(width, height, 4, zlib.deflateSync(raw)));
  assert.ok(object?.sMask, 'colour and soft mask');
  const colour = zlib.inflateSync(Buffer.from(object.data, 'latin1'));
  const alpha = zlib.inflateSync(Buffer.from(object.sMask, 'latin1'));
  assert.equal(colour.length, width * height * 3);
  assert.deepEqual([...colour.subarray(0, 3)], [0, 0, 100]);
  assert.deepEqual([...colour.subarray(-3)], [29 * 8, 19 * 12, 100]);
  assert.deepEqual([alpha[0], alpha[width - 1], alpha.length], [255, 90, width * height]);
});

test('a PNG with alpha whose image data ends in a wrong Adler-32: its pixels are drawn, as before node:zlib (fflate checks no Adler-32)', async () => {
  const { pngFile } = await import('../../../scripts/lib/png.js');
  const width = 24;
  const height = 10;
  const raw = Buffer.alloc(height * (width * 4 + 1));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set([x * 10, y * 20, 60, x < 12 ? 255 : 40], y * (width * 4 + 1) + 1 + x * 4);
  }
  const idat = zlib.deflateSync(raw);
  // The stream's last four bytes are its Adler-32 (RFC 1950): wrong, while every PNG chunk's CRC is right.
  idat[idat.length - 1] ^= 0x5a;
  const object = pngToPdfImage(pngFile(width, height, 4, idat));
  assert.ok(object?.sMask, 'colour and soft mask');
  const colour = zlib.inflateSync(Buffer.from(object.data, 'latin1'));
  const alpha = zlib.inflateSync(Buffer.from(object.sMask, 'latin1'));
  assert.deepEqual([...colour.subarray(-3)], [23 * 10, 9 * 20, 60]);
  assert.deepEqual([alpha[0], alpha[width - 1], alpha.length], [255, 40, width * height]);
});
