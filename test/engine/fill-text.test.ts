/** fillText / fillOutputText: output file name patterns filled with the template language. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fillOutputText } from '../../server/engine/index.js';
import { checkText, fillText } from '../../server/engine/tags/fill-text.js';

const data = { number: 'INV-42', date: '2026-11-22', customer: { name: 'Ann' }, total: 1234.5, tags: ['a', 'b'], paid: false };

test('variables and filters', () => {
  assert.equal(fillOutputText('Invoice {{number}} {{date | date:"YYYY-MM-DD"}}', data), 'Invoice INV-42 2026-11-22');
  assert.equal(fillOutputText('{{customer.name | upper}} {{total | number:2}}', data), 'ANN 1,234.50');
  assert.equal(fillText('{{total | number:2}}', data, ['{{', '}}'], 'de-DE'), '1.234,50');
});

test('missing values are empty, sections and conditions work', () => {
  assert.equal(fillOutputText('Invoice {{missing}}-{{number}}', data), 'Invoice -INV-42');
  assert.equal(fillOutputText('{{#tags}}{{.}}+{{/tags}}{{^paid}} (unpaid){{/paid}}', data), 'a+b+ (unpaid)');
});

test('other delimiters, and text without tags', () => {
  assert.equal(fillOutputText('Invoice [number]', data, ['[', ']']), 'Invoice INV-42');
  assert.equal(fillOutputText('Plain name', data), 'Plain name');
  assert.equal(fillOutputText('', data), '');
});

test('a pattern with tag errors comes back as written, and checkText names the errors', () => {
  assert.equal(fillOutputText('Invoice {{number', data), 'Invoice {{number');
  assert.equal(fillOutputText('Invoice {{number | bogus}}', data), 'Invoice {{number | bogus}}');
  assert.deepEqual(checkText('Invoice {{number | bogus}}', ['{{', '}}']).map((e) => [e.code, e.location.part, e.location.tag]), [
    ['unknown_filter', 'text', '{{number | bogus}}'],
  ]);
  assert.deepEqual(checkText('Invoice {{number}}', ['{{', '}}']), []);
});

test('image and page tags give nothing in a text', () => {
  assert.equal(fillOutputText('A{{%logo}}B{{$page}}C', { logo: 'data:image/png;base64,xx' }), 'ABC');
});
