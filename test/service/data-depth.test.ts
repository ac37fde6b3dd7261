/** The data depth checks (limits.dataDepth): on raw JSON text before parsing, and on parsed values; no recursion. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonTextNestsDeeper, requiredDataObject, valueNestsDeeper } from '../../server/services/validate.js';
import { Violations } from '../../server/services/errors.js';

test('jsonTextNestsDeeper counts brackets outside strings, escapes included, on text and on UTF-8 bytes', () => {
  const cases: Array<[string, number, boolean]> = [
    ['{}', 1, false],
    ['{"a":{}}', 1, true],
    ['{"a":{}}', 2, false],
    ['[[[]]]', 2, true],
    ['{"a":"[[[[{{{{"}', 1, false],
    ['{"a":"\\"[[[["}', 1, false],
    ['{"a":"\\\\"}', 1, false],
    ['{"a":"\\\\", "b":[[]]}', 2, true],
    ['{"ä":"€[","b":[1]}', 2, false],
    ['[1, [2, [3]], [4]]', 3, false],
  ];
  for (const [text, max, deeper] of cases) {
    assert.equal(jsonTextNestsDeeper(text, max), deeper, `${text} (max ${max})`);
    assert.equal(jsonTextNestsDeeper(Buffer.from(text), max), deeper, `${text} as bytes (max ${max})`);
  }
  assert.equal(jsonTextNestsDeeper('['.repeat(1_000_000), 64), true);
});

test('valueNestsDeeper: the value itself is level 1; wide values are walked without recursion', () => {
  assert.equal(valueNestsDeeper('text', 1), false);
  assert.equal(valueNestsDeeper({}, 1), false);
  assert.equal(valueNestsDeeper({ a: {} }, 1), true);
  assert.equal(valueNestsDeeper({ a: [1, { b: null }] }, 3), false);
  assert.equal(valueNestsDeeper({ a: [1, { b: [] }] }, 3), true);
  let deep: unknown = 1;
  for (let i = 0; i < 200_000; i++) deep = [deep];
  assert.equal(valueNestsDeeper(deep, 64), true);
  assert.equal(valueNestsDeeper({ rows: Array.from({ length: 100_000 }, (_, i) => ({ i, tags: ['x'] })) }, 4), false);
});

test('requiredDataObject: too deep is a data error, whether a string or an object; at the limit is fine', () => {
  const over = new Violations();
  assert.equal(requiredDataObject(over, '{"a":{"b":{}}}', 2), undefined);
  assert.match(over.errors.data[0], /more than 2 levels deep/);
  const overObject = new Violations();
  assert.equal(requiredDataObject(overObject, { a: { b: {} } }, 2), undefined);
  assert.ok(overObject.has('data'));
  const ok = new Violations();
  assert.deepEqual(requiredDataObject(ok, '{"a":{"b":1}}', 2), { a: { b: 1 } });
  assert.equal(ok.has(), false);
});
