/**
 * A WebP image as RGBA pixels, with its alpha, decoded by libwebp (@cwasm/webp: libwebp compiled to WebAssembly).
 *
 * The pixel limit is checked from the chunk headers first: the VP8X canvas and every bitstream's own size (a
 * frame's bitstream may declare a bigger picture than the canvas, and the decoder allocates what it declares).
 *
 * libwebp's simple decoder, the one @cwasm/webp exposes, refuses animated files. An animation is shown by its first
 * frame, as a browser shows it before playing: that frame's chunks (ALPH + VP8, or VP8L) are put in a still WebP
 * of their own, decoded, and placed at the frame's offset on a transparent canvas.
 */
import { createRequire } from 'node:module';
import { EngineError } from '../errors.js';
import { checkPixelLimit } from './pixel-limit.js';
import type { RgbaImage } from './rgba.js';

type WebpModule = typeof import('@cwasm/webp');

let webp: WebpModule | null = null;

/** Loaded on the first WebP image: compiling the WebAssembly takes a few milliseconds most renders never need. */
function decoder(): WebpModule {
  webp ??= createRequire(import.meta.url)('@cwasm/webp') as WebpModule;
  return webp;
}

function invalid(reason: string): EngineError {
  return new EngineError('invalid_image', `The WebP image is damaged: ${reason}.`);
}

interface Chunk {
  tag: string;
  /** Where the chunk header starts, where its data starts, and where its data ends (clipped to the file). */
  start: number;
  body: number;
  end: number;
}

/** The RIFF chunks between `from` and `to`, in order; a chunk whose size runs past `to` is clipped to it. */
function* chunks(bytes: Uint8Array, from: number, to: number): Generator<Chunk> {
  let p = from;
  while (p + 8 <= to) {
    const size = (bytes[p + 4] | (bytes[p + 5] << 8) | (bytes[p + 6] << 16) | (bytes[p + 7] << 24)) >>> 0;
    const body = p + 8;
    yield { tag: String.fromCharCode(bytes[p], bytes[p + 1], bytes[p + 2], bytes[p + 3]), start: p, body, end: Math.min(to, body + size) };
    p = body + size + (size & 1);
  }
}

const u24 = (bytes: Uint8Array, at: number): number => bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);

/** The size a VP8 or VP8L bitstream declares, or null for another chunk (or one too short to say). */
function bitstreamSize(bytes: Uint8Array, chunk: Chunk): { width: number; height: number } | null {
  const { tag, body, end } = chunk;
  if (tag === 'VP8 ' && body + 10 <= end) {
    return { width: (bytes[body + 6] | (bytes[body + 7] << 8)) & 0x3fff, height: (bytes[body + 8] | (bytes[body + 9] << 8)) & 0x3fff };
  }
  if (tag === 'VP8L' && body + 5 <= end) {
    const bits = (bytes[body + 1] | (bytes[body + 2] << 8) | (bytes[body + 3] << 16) | (bytes[body + 4] << 24)) >>> 0;
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  return null;
}

/**
 * The largest picture a WebP file declares (VP8 and VP8L bitstreams, animation frames, also the bitstreams inside
 * ANMF), read from the chunk headers only.
 */
export function largestWebpFrame(bytes: Uint8Array): { width: number; height: number } {
  let best = { width: 0, height: 0 };
  const consider = (size: { width: number; height: number } | null): void => {
    if (size && size.width * size.height > best.width * best.height) best = size;
  };
  for (const chunk of chunks(bytes, 12, bytes.length)) {
    consider(bitstreamSize(bytes, chunk));
    // ANMF frames sit at the top level only: one level of nesting is followed, never more.
    if (chunk.tag === 'ANMF' && chunk.body + 16 <= chunk.end) {
      consider({ width: u24(bytes, chunk.body + 6) + 1, height: u24(bytes, chunk.body + 9) + 1 });
      for (const inner of chunks(bytes, chunk.body + 16, chunk.end)) consider(bitstreamSize(bytes, inner));
    }
  }
  return best;
}

/** Decodes a WebP to RGBA (the first frame of an animation), after checking its sizes against `maxPixels`. */
export function decodeWebp(bytes: Uint8Array, maxPixels: number): RgbaImage {
  let vp8x: Chunk | undefined;
  let first: Chunk | undefined;
  let frames = 0;
  for (const chunk of chunks(bytes, 12, bytes.length)) {
    if (chunk.tag === 'VP8X' && chunk.body + 10 <= chunk.end) vp8x ??= chunk;
    if (chunk.tag === 'ANMF') {
      frames++;
      if (chunk.body + 16 <= chunk.end) first ??= chunk;
    }
  }
  const canvas = vp8x ? { width: u24(bytes, vp8x.body + 4) + 1, height: u24(bytes, vp8x.body + 7) + 1 } : null;
  if (canvas) checkPixelLimit('WebP', canvas.width, canvas.height, maxPixels);
  const largest = largestWebpFrame(bytes);
  checkPixelLimit('WebP', largest.width, largest.height, maxPixels);

  const animated = (vp8x !== undefined && (bytes[vp8x.body] & 0x02) !== 0) || frames > 0;
  if (!animated) return decodeStill(bytes);
  if (!first || !canvas) throw invalid('it is animated but holds no frame');
  const frame = decodeStill(stillOfFrame(bytes, first));
  const x = u24(bytes, first.body) * 2;
  const y = u24(bytes, first.body + 3) * 2;
  if (x === 0 && y === 0 && frame.width === canvas.width && frame.height === canvas.height) return frame;
  return placeOnCanvas(frame, x, y, canvas.width, canvas.height);
}

function decodeStill(bytes: Uint8Array): RgbaImage {
  let image: { width: number; height: number; data: Uint8ClampedArray };
  try {
    image = decoder().decode(bytes);
  } catch {
    throw invalid('libwebp could not decode it (truncated, or not a WebP bitstream)');
  }
  // A view of libwebp's output, not a copy.
  return { width: image.width, height: image.height, data: new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength) };
}

/** A still WebP file holding one animation frame's image chunks: VP8L, VP8, or ALPH + VP8 (under a VP8X header). */
function stillOfFrame(bytes: Uint8Array, anmf: Chunk): Uint8Array {
  const inner = [...chunks(bytes, anmf.body + 16, anmf.end)];
  const image = inner.find((c) => c.tag === 'VP8 ' || c.tag === 'VP8L');
  if (!image) throw invalid('its first frame holds no image');
  const alpha = image.tag === 'VP8 ' ? inner.find((c) => c.tag === 'ALPH') : undefined;
  const parts: Uint8Array[] = [];
  if (alpha) {
    const header = new Uint8Array(18);
    header.set([0x56, 0x50, 0x38, 0x58, 10, 0, 0, 0, 0x10]); // "VP8X", size 10, flags: alpha
    const w = u24(bytes, anmf.body + 6);
    const h = u24(bytes, anmf.body + 9);
    header.set([w & 0xff, (w >> 8) & 0xff, w >> 16, h & 0xff, (h >> 8) & 0xff, h >> 16], 12);
    parts.push(header, chunkBytes(bytes, alpha));
  }
  parts.push(chunkBytes(bytes, image));
  const size = parts.reduce((n, part) => n + part.length, 4);
  const file = new Uint8Array(8 + size);
  file.set([0x52, 0x49, 0x46, 0x46, size & 0xff, (size >> 8) & 0xff, (size >> 16) & 0xff, size >>> 24, 0x57, 0x45, 0x42, 0x50]);
  let p = 12;
  for (const part of parts) {
    file.set(part, p);
    p += part.length;
  }
  return file;
}

/** A chunk as it must sit in a file: its header with the size of the data kept, the data, and an even padding. */
function chunkBytes(bytes: Uint8Array, chunk: Chunk): Uint8Array {
  const length = chunk.end - chunk.body;
  const out = new Uint8Array(8 + length + (length & 1));
  out.set(bytes.subarray(chunk.start, chunk.start + 4));
  out.set([length & 0xff, (length >> 8) & 0xff, (length >> 16) & 0xff, length >>> 24], 4);
  out.set(bytes.subarray(chunk.body, chunk.end), 8);
  return out;
}

/** `frame` drawn at (x, y) on a transparent canvas, clipped to it. */
function placeOnCanvas(frame: RgbaImage, x: number, y: number, width: number, height: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  const visible = Math.max(0, Math.min(frame.width, width - x));
  for (let row = 0; row < frame.height && y + row < height && visible > 0; row++) {
    const from = row * frame.width * 4;
    data.set(frame.data.subarray(from, from + visible * 4), ((y + row) * width + x) * 4);
  }
  return { width, height, data };
}
