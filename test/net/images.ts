/**
 * Tiny, valid images built in code (no binary fixtures), and header-only "pixel bombs". Each real image decodes
 * in Chromium (checked when this file was written); the bombs are valid headers with absurd dimensions.
 */
import zlib from 'node:zlib';
import { pngFile, solidPng } from '../../scripts/lib/png.js';

/** A real RGB PNG of the given size (a red field). */
export function makePng(width: number, height: number): Buffer {
  return solidPng(width, height, [0xff, 0, 0]);
}

/** A PNG whose header declares width × height but which holds almost no data: refused from its header. */
export function pngBomb(width: number, height: number): Buffer {
  return pngFile(width, height, 3, zlib.deflateSync(Buffer.alloc(16)));
}

/**
 * A real baseline greyscale JPEG (mid grey) of the given size: one quantisation table, and two one-symbol
 * Huffman tables so each 8×8 block is two bits ("DC difference 0", "end of block").
 */
export function makeJpeg(width: number, height: number): Buffer {
  return jpegWith(width, height, Math.ceil(width / 8) * Math.ceil(height / 8));
}

/** A JPEG whose frame header declares width × height but whose scan covers a single block. */
export function jpegBomb(width: number, height: number): Buffer {
  return jpegWith(width, height, 1);
}

function jpegWith(width: number, height: number, blocks: number): Buffer {
  const segment = (marker: number, body: number[]): number[] =>
    [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];
  const oneSymbolTable = (tableClass: number): number[] => [tableClass << 4, 1, ...new Array<number>(15).fill(0), 0x00];
  const bits = blocks * 2;
  const scan = new Array<number>(Math.ceil(bits / 8)).fill(0);
  if (bits % 8 !== 0) scan[scan.length - 1] = (1 << (8 - (bits % 8))) - 1; // pad with 1-bits
  return Buffer.from([
    0xff, 0xd8,
    ...segment(0xdb, [0x00, ...new Array<number>(64).fill(1)]),
    ...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]),
    ...segment(0xc4, oneSymbolTable(0)),
    ...segment(0xc4, oneSymbolTable(1)),
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    ...scan,
    0xff, 0xd9,
  ]);
}

/** A 1×1 GIF (the classic transparent pixel). */
export const GIF_1X1 = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

/** A GIF whose logical screen is 65535 × 65535 (4.3 gigapixels) in 43 bytes. */
export function gifBomb(): Buffer {
  const gif = Buffer.from(GIF_1X1);
  gif.writeUInt16LE(0xffff, 6);
  gif.writeUInt16LE(0xffff, 8);
  return gif;
}

/** A 1×1 lossless WebP. */
export const WEBP_1X1 = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

export function dataUri(mime: string, bytes: Uint8Array): string {
  return `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
}
