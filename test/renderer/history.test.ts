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
