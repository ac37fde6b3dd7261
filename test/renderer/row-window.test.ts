/**
 * Which rows of a long list the Generate page renders (renderer/src/components/generate/row-window.ts): short
 * lists whole; long ones the rows near the view, the first and last, and those around the focused row, every
 * other row counted once in a gap, in order.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_BELOW, OVERSCAN, rowSlots, visibleRange, type RowSlot } from '../../renderer/src/components/generate/row-window.js';

const list = (n: number) => Array.from({ length: n }, (_, i) => `row ${i}`);
const keysOf = (n: number) => Array.from({ length: n }, (_, i) => 1000 + i);
const rendered = (slots: RowSlot<string>[]) => slots.filter((s) => s.gap === undefined).map((s) => s.index);

/** Every row is either rendered or in a gap, exactly once and in order. */
function assertCovers(slots: RowSlot<string>[], n: number): void {
  let next = 0;
  for (const slot of slots) {
    assert.equal(slot.index, next);
    next += slot.gap ?? 1;
  }
  assert.equal(next, n);
}

describe('rows near the view', () => {
  it('renders a short list whole, keyed by the rows’ keys', () => {
    const n = ALL_BELOW - 1;
    const slots = rowSlots(list(n), keysOf(n), { view: { first: 0, last: 5 }, focused: -1 });
    assert.deepEqual(rendered(slots), list(n).map((_, i) => i));
    assert.deepEqual(slots.map((s) => s.key), keysOf(n));
  });

  it('renders the view, the ends and the focused row’s neighbours of a long list; gaps stand for the rest', () => {
    const n = 500;
    const slots = rowSlots(list(n), keysOf(n), { view: { first: 100, last: 110 }, focused: 300 });
    assertCovers(slots, n);
    const shown = rendered(slots);
    assert.ok(shown.includes(0) && shown.includes(n - 1));
    for (let i = 100 - OVERSCAN; i <= 110 + OVERSCAN; i++) assert.ok(shown.includes(i), `row ${i} near the view`);
    for (let i = 300 - OVERSCAN; i <= 300 + OVERSCAN; i++) assert.ok(shown.includes(i), `row ${i} near the focus`);
    assert.ok(shown.length < 60, `${shown.length} rows rendered of ${n}`);
    assert.equal(slots.find((s) => s.index === 200)?.key, undefined, 'row 200 is inside a gap');
  });

  it('merges overlapping ranges and clamps them to the list', () => {
    const n = 80;
    const slots = rowSlots(list(n), keysOf(n), { view: { first: 70, last: 120 }, focused: 75 });
    assertCovers(slots, n);
    assert.equal(new Set(slots.map((s) => s.key)).size, slots.length, 'no key twice');
  });

  it('estimates the rows in view from the list’s place on screen', () => {
    assert.deepEqual(visibleRange(100, 800, 40), { first: 0, last: 18 });
    assert.deepEqual(visibleRange(-4000, 800, 40), { first: 100, last: 120 });
  });
});
