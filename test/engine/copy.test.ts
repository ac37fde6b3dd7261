/**
 * server/engine/copy.ts: shallow copies equal to a spread whose hidden classes V8 shares between copies. A spread
 * site that has seen more than one source shape gives copies of a later shape a hidden class of their own, and each
 * property added then makes a new one per copy (Node 20's V8), which sent the layout code's inline caches
 * megamorphic on every render (docs/benchmarks.md, session 17, gc20). These tests fail with copyOf written as a
 * spread.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import { copyOf, copyWith } from '../../server/engine/copy.js';
import { merge, resetStyleCaches } from '../../server/engine/pdf/layout/fmt.js';

v8.setFlagsFromString('--allow-natives-syntax');
// Parsed now, with the flag on: V8's own test helper, true when two objects have the same hidden class.
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
v8.setFlagsFromString('--no-allow-natives-syntax');

/** A template's style as the JSON loader makes it: a fresh object per call, with JSON.parse's hidden class. */
const fromJson = (n: number): Record<string, unknown> => JSON.parse(`{"size": ${n}, "font": "Inter", "color": "#112233"}`) as Record<string, unknown>;

test('copyOf and copyWith give what a spread gives: the same own keys in the same order, undefined values kept', () => {
  const source = { ...fromJson(11), empty: undefined };
  assert.deepEqual(Object.entries(copyOf(source)), Object.entries({ ...source }));
  const extra = { bold: true, size: 14, minWidth: undefined };
  assert.deepEqual(Object.entries(copyWith(source, extra)), Object.entries({ ...source, ...extra }));
  assert.notEqual(copyOf(source), source, 'a new object');
  assert.equal(Object.getPrototypeOf(copyOf(source)), Object.prototype);
});

test('an own "__proto__" key (JSON.parse makes one) stays a plain property, as in a spread', () => {
  const source = JSON.parse('{"__proto__": {"bold": true}, "size": 9}') as Record<string, unknown>;
  const copy = copyOf(source);
  assert.equal(Object.getPrototypeOf(copy), Object.prototype, 'the prototype is not replaced');
  assert.ok(Object.hasOwn(copy, '__proto__'));
  assert.equal((copy as { bold?: unknown }).bold, undefined);
  assert.deepEqual(Object.keys(copy), ['__proto__', 'size']);
});

test('copies that gain properties share one hidden class per shape, whatever other shapes were copied before', () => {
  // A spread site that has seen more than one source shape (as merge's and the layout's do) gives each copy of
  // the later shapes a hidden class of its own; the properties added next then make new ones every time.
  const makers = [(n: number): Record<string, unknown> => ({ size: n, font: 'Inter', color: '#112233' }), fromJson];
  for (const make of makers) {
    const viaCopy = [1, 2, 3, 4].map((n) => {
      const out = copyOf(make(n)) as Record<string, unknown>;
      out.bold = true;
      out.minWidth = n;
      return out;
    });
    assert.ok(sameMap(viaCopy[1], viaCopy[3]), `copyOf, then two properties added: one hidden class (${make === fromJson ? 'JSON' : 'literal'} source)`);
    const viaWith = [1, 2, 3, 4].map((n) => copyWith(make(n), { bold: true, minWidth: n }));
    assert.ok(sameMap(viaWith[1], viaWith[3]), `copyWith: one hidden class (${make === fromJson ? 'JSON' : 'literal'} source)`);
  }
});

test('fmt.merge of fresh JSON styles, render after render, gives results of one hidden class', () => {
  const results = [1, 2, 3].map((n) => {
    resetStyleCaches();
    return merge(fromJson(n), JSON.parse(`{"bold": true, "italic": ${n > 1}}`) as Record<string, unknown>);
  });
  assert.deepEqual(results[2], { size: 3, font: 'Inter', color: '#112233', bold: true, italic: true });
  assert.ok(sameMap(results[0], results[2]));
});
