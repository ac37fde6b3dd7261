/** The cross-document image cache: bounded by entries, by bytes and by age; least recently used goes first. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ImageCache } from '../../server/net/image-cache.js';

const image = (bytes: number): { data: Uint8Array; mime: string } => ({ data: new Uint8Array(bytes), mime: 'image/png' });

test('evicts the least recently used entry when there are too many', () => {
  const cache = new ImageCache({ maxEntries: 2, maxBytes: 1000 });
  cache.set('a', image(1));
  cache.set('b', image(1));
  assert.ok(cache.get('a')); // a is now the most recently used
  cache.set('c', image(1));
  assert.equal(cache.get('b'), undefined);
  assert.ok(cache.get('a'));
  assert.ok(cache.get('c'));
  assert.equal(cache.size, 2);
});

test('evicts until the total bytes fit; an image larger than the whole cache is not kept', () => {
  const cache = new ImageCache({ maxEntries: 100, maxBytes: 100 });
  cache.set('a', image(40));
  cache.set('b', image(40));
  cache.set('c', image(40));
  assert.equal(cache.get('a'), undefined);
  assert.equal(cache.bytes, 80);
  cache.set('huge', image(101));
  assert.equal(cache.get('huge'), undefined);
  assert.equal(cache.bytes, 80);
  assert.equal(cache.size, 2);
});

test('replacing an entry keeps the byte count right', () => {
  const cache = new ImageCache({ maxEntries: 10, maxBytes: 100 });
  cache.set('a', image(60));
  cache.set('a', image(10));
  assert.equal(cache.bytes, 10);
  assert.equal(cache.get('a')?.data.byteLength, 10);
  cache.delete('a');
  assert.equal(cache.bytes, 0);
  assert.equal(cache.size, 0);
});

test('entries expire after the TTL', () => {
  let now = 1_000;
  const cache = new ImageCache({ ttlMs: 500, now: () => now });
  cache.set('a', image(5));
  now += 499;
  assert.ok(cache.get('a'));
  now += 1;
  assert.equal(cache.get('a'), undefined);
  assert.equal(cache.bytes, 0);
  assert.equal(cache.size, 0);
});

test('defaults are bounded', () => {
  const cache = new ImageCache();
  assert.equal(cache.maxEntries, 200);
  assert.equal(cache.maxBytes, 64 * 1024 * 1024);
  assert.equal(cache.ttlMs, 10 * 60 * 1000);
  cache.set('x', image(3));
  cache.clear();
  assert.deepEqual([cache.size, cache.bytes], [0, 0]);
});
