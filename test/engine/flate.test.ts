/**
 * The engine's DEFLATE over node:zlib (server/engine/flate.ts) and its critical section (zlib-gate.ts): an inflate
 * stops as soon as the data passes the size it was given, its result owns its memory, and a gated thread marks
 * itself inside a zlib call for exactly as long as the call lasts (test/service/zlib-stop.test.ts stops workers).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { InflateOverflow, inflateSized, zlibDeflate } from '../../server/engine/flate.js';
import { seededRandom } from '../helpers/random.js';
import { closeZlibGate, insideZlibGate, newZlibGate, useZlibGate, ZLIB_INSIDE, ZLIB_OPEN, ZLIB_STOPPING } from '../../server/engine/zlib-gate.js';

/** Bytes that do not compress. */
function noise(n: number, seed = 7): Uint8Array {
  const random = seededRandom(seed);
  return Uint8Array.from({ length: n }, () => (random() * 256) | 0);
}

test('zlibDeflate writes a zlib stream at the level asked; inflateSized reads it and raw DEFLATE back', () => {
  const text = Buffer.from('The quick brown fox jumps over the lazy dog. '.repeat(200), 'latin1');
  const deflated = zlibDeflate(text, 6);
  assert.equal(deflated[0], 0x78, 'a zlib header');
  assert.deepEqual(zlib.inflateSync(deflated), text);
  assert.ok(zlibDeflate(text, 1).length >= deflated.length, 'level 1 compresses no better than 6');
  assert.deepEqual(Buffer.from(inflateSized(deflated, text.length, 'zlib')), text);
  const raw = zlib.deflateRawSync(text);
  assert.deepEqual(Buffer.from(inflateSized(raw, text.length, 'raw')), text);
});

test('inflateSized stops at the size it was given (InflateOverflow) and gives back short data as it is', () => {
  const data = noise(200_000);
  const raw = zlib.deflateRawSync(data);
  assert.throws(() => inflateSized(raw, 150_000, 'raw'), InflateOverflow);
  assert.throws(() => inflateSized(raw, data.length - 1, 'raw'), InflateOverflow);
  assert.equal(inflateSized(raw, data.length + 10, 'raw').length, data.length, 'shorter than said: the caller checks');
  // 20 MB of zeros said to be 1,000 bytes: refused (node:zlib stops at the first output chunk past maxOutputLength).
  assert.throws(() => inflateSized(zlib.deflateRawSync(new Uint8Array(20 * 1024 * 1024)), 1000, 'raw'), InflateOverflow);
  assert.throws(() => inflateSized(raw.subarray(0, raw.length >> 1), data.length, 'raw'), (err: NodeJS.ErrnoException) => err.code === 'Z_BUF_ERROR');
  assert.throws(() => inflateSized(noise(1000, 3), 5000, 'zlib'), (err: NodeJS.ErrnoException) => err.code === 'Z_DATA_ERROR');
});

test('inflateSized results own their memory (never a view of Node\'s shared Buffer pool), small and large', () => {
  for (const size of [0, 1, 100, 4095, 4096, 70_000, 3_000_000]) {
    const data = noise(size, size + 1);
    const out = inflateSized(zlib.deflateRawSync(data), size, 'raw');
    assert.equal(out.byteOffset, 0, `${size}`);
    assert.equal(out.buffer.byteLength, size, `${size}`);
    assert.ok(!Buffer.isBuffer(out), 'a plain Uint8Array (Buffer#slice would not copy)');
    assert.deepEqual(out, data);
  }
});

test('a gated thread is inside for exactly the call; a closing thread is told to wait meanwhile, then closes the gate', () => {
  const gate = newZlibGate();
  useZlibGate(gate);
  try {
    const seen = insideZlibGate(() => {
      const inside = Atomics.load(gate, 0);
      // Nested calls are covered by the outer one.
      insideZlibGate(() => zlibDeflate(new Uint8Array(10), 1));
      return [inside, Atomics.load(gate, 0), closeZlibGate(gate)];
    });
    assert.deepEqual(seen, [ZLIB_INSIDE, ZLIB_INSIDE, false]);
    assert.equal(Atomics.load(gate, 0), ZLIB_OPEN, 'left');
    assert.throws(() => insideZlibGate(() => {
      throw new Error('zlib failed');
    }), /zlib failed/);
    assert.equal(Atomics.load(gate, 0), ZLIB_OPEN, 'left when the call throws too');
    assert.equal(closeZlibGate(gate), true);
    assert.equal(Atomics.load(gate, 0), ZLIB_STOPPING);
    assert.equal(closeZlibGate(gate), true, 'closed stays closed');
  } finally {
    useZlibGate(null);
  }
});
