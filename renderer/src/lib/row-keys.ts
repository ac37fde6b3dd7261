/**
 * Stable keys for the rows of a list, so Vue keeps each row's inputs (focus, caret, typed text) with its row
 * when rows are removed, moved or inserted — an index key would hand row 3's input to row 4's value.
 *
 * Rows may be plain strings (`{{.}}` lists), which cannot key a WeakMap, so the keys live beside each array
 * and the store's row operations keep them in step. An array changed some other way (a new JSON text) gets
 * fresh keys.
 */
import { toRaw } from 'vue';

const keys = new WeakMap<object, number[]>();
let next = 1;

export function rowKeys(list: unknown[]): number[] {
  const raw = toRaw(list);
  let ids = keys.get(raw);
  if (!ids || ids.length !== raw.length) {
    ids = raw.map(() => next++);
    keys.set(raw, ids);
  }
  return ids;
}

export function newKeys(count: number): number[] {
  return Array.from({ length: count }, () => next++);
}

/**
 * Mirrors `list.splice(index, removeCount, …rows)` on the keys, `added` being the rows' keys; returns the
 * removed keys (kept by an undo to give the rows back their own). Call it just before the array's own splice.
 */
export function spliceKeys(list: unknown[], index: number, removeCount: number, added: number[]): number[] {
  return rowKeys(list).splice(index, removeCount, ...added);
}
