/**
 * The project's one small PNG codec for its tools and tests (8-bit, non-interlaced, no dependency beyond
 * node:zlib): electron/tools draws the app icons with it, test/ and e2e/ build test images with it, and the tests
 * and scripts/fidelity.ts read the pages pdftoppm renders with it. It lives in scripts/lib/ because product tooling
 * (electron/tools) must not import from test/, and tests may import tooling.
 * Not the service's encoder: server/engine/images/png-encode.ts is the product's own, tuned for render speed.
 */
import zlib from 'node:zlib';
import { unfilterRows } from '../../server/engine/images/png-unfilter.js';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Bytes per pixel: 1 grey, 2 grey + alpha, 3 RGB, 4 RGBA. */
export type Channels = 1 | 2 | 3 | 4;

/** PNG colour type for each channel count (and back). */
const COLOUR_TYPE: Record<Channels, number> = { 1: 0, 2: 4, 3: 2, 4: 6 };
const CHANNELS_OF: Record<number, Channels> = { 0: 1, 4: 2, 2: 3, 6: 4 };

/** The CRC-32 that PNG chunks carry (over the chunk type and data). */
export function crc32(bytes: Uint8Array): number {
  return zlib.crc32(bytes) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A PNG file around an IDAT payload as given (already deflated): what encodePng uses, and what tests use
 * directly for files whose header and data disagree on purpose (pixel bombs).
 */
export function pngFile(width: number, height: number, channels: Channels, idat: Uint8Array): Buffer {
  const ihdr = Buffer.alloc(13); // compression, filter method and interlace stay 0
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = COLOUR_TYPE[channels];
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))]);
}

/**
 * Encodes `pixels` (width × height × channels bytes, row by row; RGBA unless told) as a PNG, filter 0 on
 * every row. `level` is zlib's (its default unless given: the icon tool asks for 9).
 */
export function encodePng(width: number, height: number, pixels: Uint8Array, opts: { channels?: Channels; level?: number } = {}): Buffer {
  const channels = opts.channels ?? 4;
  const stride = width * channels;
  if (pixels.length !== stride * height) throw new Error(`expected ${stride * height} bytes (${channels} per pixel), got ${pixels.length}`);
  const raw = Buffer.alloc(height * (1 + stride)); // each row: filter byte 0, then the row
  for (let y = 0; y < height; y++) raw.set(pixels.subarray(y * stride, (y + 1) * stride), y * (1 + stride) + 1);
  return pngFile(width, height, channels, zlib.deflateSync(raw, opts.level === undefined ? {} : { level: opts.level }));
}

/** A solid-colour RGB PNG, so tests need no picture files. */
export function solidPng(width: number, height: number, rgb: readonly [number, number, number]): Buffer {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 3) pixels.set(rgb, i);
  return encodePng(width, height, pixels, { channels: 3 });
}

export interface DecodedPng {
  width: number;
  height: number;
  channels: Channels;
  /** width × height × channels bytes, row by row, filters undone. */
  pixels: Uint8Array;
}

/** Decodes an 8-bit, non-interlaced grey, grey + alpha, RGB or RGBA PNG (what pdftoppm and encodePng write). */
export function decodePng(bytes: Buffer): DecodedPng {
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('not a PNG');
  let pos = 8;
  let width = 0;
  let height = 0;
  let colourType = -1;
  const idat: Buffer[] = [];
  while (pos < bytes.length) {
    const length = bytes.readUInt32BE(pos);
    const type = bytes.toString('latin1', pos + 4, pos + 8);
    const data = bytes.subarray(pos + 8, pos + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[12] !== 0) throw new Error('only 8-bit, non-interlaced PNGs are handled');
      colourType = data[9];
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    pos += 12 + length;
  }
  const channels = CHANNELS_OF[colourType];
  if (!channels) throw new Error(`PNG colour type ${colourType} not handled`);
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const pixels = unfilterRows(raw, width, height, channels);
  return { width, height, channels, pixels };
}
