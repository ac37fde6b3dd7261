/**
 * RGBA pixels → PNG bytes, so that decoded GIF and WebP images reach the PDF through jsPDF's PNG path, which keeps
 * alpha as a soft mask (its GIF and WebP paths re-encode to JPEG and drop it). A fully opaque image is written
 * as RGB (no soft mask needed). Level 4, as pdf/image/png-to-pdf.ts deflates its planes: an opaque image's IDAT goes
 * into the PDF unchanged there, so this is the PDF's compression of it (node:zlib's level 1 wrote 16 % more than
 * fflate's level 1 did; level 4 writes less and still takes a third of fflate's time: docs/benchmarks.md, session 16).
 */
import { crc32 } from 'node:zlib';
import { zlibDeflate } from '../flate.js';
import type { RgbaImage } from './rgba.js';

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

function isOpaque(data: Uint8Array): boolean {
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return false;
  return true;
}

export function encodePng(image: RgbaImage): Uint8Array {
  const { width, height, data } = image;
  const opaque = isOpaque(data);
  const channels = opaque ? 3 : 4;
  const stride = width * channels + 1;
  // Filter type 0 (none) on every row: the first byte of each row stays 0.
  const raw = new Uint8Array(stride * height);
  if (opaque) {
    for (let y = 0, src = 0; y < height; y++) {
      let o = y * stride + 1;
      for (let x = 0; x < width; x++, src += 4) {
        raw[o++] = data[src];
        raw[o++] = data[src + 1];
        raw[o++] = data[src + 2];
      }
    }
  } else {
    for (let y = 0; y < height; y++) raw.set(data.subarray(y * width * 4, (y + 1) * width * 4), y * stride + 1);
  }
  const idat = zlibDeflate(raw, 4);

  const ihdr = new Uint8Array(13);
  const ihdrView = new DataView(ihdr.buffer);
  ihdrView.setUint32(0, width);
  ihdrView.setUint32(4, height);
  ihdr[8] = 8; // bits per channel
  ihdr[9] = opaque ? 2 : 6; // RGB or RGBA
  const chunks: Array<[string, Uint8Array]> = [['IHDR', ihdr], ['IDAT', idat], ['IEND', new Uint8Array(0)]];
  const total = SIGNATURE.length + chunks.reduce((n, [, body]) => n + 12 + body.length, 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  out.set(SIGNATURE, 0);
  let p = SIGNATURE.length;
  for (const [type, body] of chunks) {
    view.setUint32(p, body.length);
    for (let i = 0; i < 4; i++) out[p + 4 + i] = type.charCodeAt(i);
    out.set(body, p + 8);
    view.setUint32(p + 8 + body.length, crc32(out.subarray(p + 4, p + 8 + body.length)));
    p += 12 + body.length;
  }
  return out;
}
