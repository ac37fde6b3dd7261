/**
 * The engine's DEFLATE: node:zlib (native zlib; on the corpus about twice fflate's speed deflating and 2.5–3.5×
 * inflating large entries: docs/benchmarks.md, sessions 13, 14 and 16), every call inside the worker's critical
 * section (zlib-gate.ts), so that a render or import worker stopped from outside is never stopped inside zlib.
 */
import zlib from 'node:zlib';
import { insideZlibGate } from './zlib-gate.js';

/** A zlib stream (RFC 1950: PDF FlateDecode, PNG IDAT) of `bytes` at `level` (0–9). */
export function zlibDeflate(bytes: Uint8Array, level: number): Buffer {
  return insideZlibGate(() => zlib.deflateSync(bytes, { level }));
}

/** The data inflated to more than the size it was given (damaged, or a lie about its size). */
export class InflateOverflow extends Error {}

/**
 * Inflates a zlib stream (`format` 'zlib') or raw DEFLATE data ('raw', as in a zip entry) expected to give `size`
 * bytes. Decoding stops as soon as the output passes `size` (InflateOverflow): data that lies about its size costs
 * at most one more output chunk than honest data — node:zlib sets up a second chunk of `size` bytes when the first
 * fills, before it sees the limit, so either costs up to twice `size` while it inflates, never more. Damaged data
 * throws node's zlib error (Z_DATA_ERROR, Z_BUF_ERROR for a truncated stream). May return fewer bytes than `size`:
 * callers check. The result owns its memory (never a view of Node's shared Buffer pool), so it may be handed on as
 * an ArrayBuffer.
 */
export function inflateSized(bytes: Uint8Array, size: number, format: 'zlib' | 'raw'): Uint8Array {
  // One output chunk of the expected size: node:zlib then returns it without joining pieces.
  const options = { chunkSize: Math.max(size, zlib.constants.Z_MIN_CHUNK), maxOutputLength: Math.max(size, 1) };
  let out: Buffer;
  try {
    out = insideZlibGate(() => (format === 'raw' ? zlib.inflateRawSync(bytes, options) : zlib.inflateSync(bytes, options)));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new InflateOverflow(`the data inflates past ${size} bytes`);
    throw err;
  }
  if (out.byteOffset === 0 && out.byteLength === out.buffer.byteLength) return new Uint8Array(out.buffer, 0, out.byteLength);
  return new Uint8Array(out);
}
