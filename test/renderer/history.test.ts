/**
 * The Generate page's undo history (renderer/src/lib/history.ts) on plain data: every step undoes and redoes
 * exactly, keystrokes in one field within a pause are one step, a transaction is one step, and at least 200
 * steps are kept.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { History, type Change } from '../../renderer/src/lib/history.js';

function setter(data: Record<string, string>, key: string, value: string): Change {
  const before = data[key];
  return { redo: () => (data[key] = value), undo: () => (data[key] = before) };
}

describe('editor history', () => {
  it('undoes and redoes 250 separate steps exactly, last first', () => {
    const data: Record<string, string> = { text: '' };
    const history = new History();
    for (let i = 1; i <= 250; i++) history.apply(setter(data, 'text', `v${i}`));
    let undone = 0;
    while (history.undo()) undone++;
    assert.equal(undone, 250);
    assert.equal(data.text, '');
    while (history.redo());
    assert.equal(data.text, 'v250');
  });

  it('joins typing in one field into one step until a pause, another field or an undo', () => {
    let now = 0;
    const data: Record<string, string> = { a: '', b: '' };
    const history = new History({ pauseMs: 1000, now: () => now });
    for (const text of ['H', 'He', 'Hel']) {
      now += 100;
      history.apply(setter(data, 'a', text), 'field-a');
    }
    now += 100;
    history.apply(setter(data, 'b', 'x'), 'field-b');
    now += 100;
    history.apply(setter(data, 'a', 'Hell'), 'field-a');
    now += 5000; // a pause: a new step even in the same field
    history.apply(setter(data, 'a', 'Hello'), 'field-a');

    assert.ok(history.undo());
    assert.deepEqual(data, { a: 'Hell', b: 'x' });
    assert.ok(history.undo());
    assert.deepEqual(data, { a: 'Hel', b: 'x' });
    assert.ok(history.undo());
    assert.deepEqual(data, { a: 'Hel', b: '' });
    assert.ok(history.undo());
    assert.deepEqual(data, { a: '', b: '' });
    assert.equal(history.undo(), false);
  });

  it('lets a change absorb the next keystrokes in its field: one change per burst, undone and redone exactly', () => {
    const data: Record<string, string> = { a: '' };
    const history = new History({ pauseMs: 1000, now: () => 0 });
    let kept = 0;
    /** A setter that takes in later setters of the same key, as the store's field changes do. */
    function absorbing(value: string): Change & { key: string; value: string } {
      const before = data.a;
      let after = value;
      kept++;
      return {
        key: 'a',
        value,
        redo: () => (data.a = after),
        undo: () => (data.a = before),
        absorb(next) {
          if (!('key' in next) || next.key !== 'a') return false;
          after = (next as unknown as { value: string }).value;
          kept--; // the absorbed change is not kept
          return true;
        },
      };
    }
    for (let i = 1; i <= 1000; i++) history.apply(absorbing('x'.repeat(i)), 'field-a');
    assert.equal(kept, 1, 'one change kept for 1,000 keystrokes');
    assert.equal(data.a.length, 1000);
    assert.ok(history.undo());
    assert.equal(data.a, '');
    assert.equal(history.undo(), false, 'the burst was one step');
    assert.ok(history.redo());
    assert.equal(data.a.length, 1000);
  });

  it('makes a transaction one step, and a new change forgets what was undone', () => {
    const data: Record<string, string> = { a: '1', b: '1' };
    const history = new History();
    const step = history.transaction(() => {
      history.apply(setter(data, 'a', '2'));
      history.apply(setter(data, 'b', '2'));
    });
    assert.equal(history.lastId, step);
    history.undo();
    assert.deepEqual(data, { a: '1', b: '1' });
    assert.ok(history.canRedo);
    history.apply(setter(data, 'a', '3'));
    assert.equal(history.canRedo, false);
  });
});
