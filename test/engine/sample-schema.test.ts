/**
 * `fields`, sample data and the JSON Schema agree: fields come in order of first appearance, merged and nested;
 * sampleData(fields) validates against dataSchema(fields) (checked by a small validator for the keywords the
 * schema uses) and renders without errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, dataSchema, sampleData } from '../../server/engine/index.js';
import { bindTemplate } from '../../server/engine/bind/bind.js';
import type { Field } from '../../server/engine/model/types.js';

type Schema = Record<string, unknown>;

/** Validates `value` against the subset of JSON Schema 2020-12 that dataSchema emits; returns the problems. */
function validate(value: unknown, schema: Schema, path = '$'): string[] {
  const problems: string[] = [];
  const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const actual = typeOf(value);
    const ok = types.includes(actual) || (actual === 'integer' && types.includes('number'));
    if (!ok) return [`${path}: ${actual} is not ${types.join('|')}`];
  }
  if (typeof schema.pattern === 'string' && typeof value === 'string' && !new RegExp(schema.pattern, 'u').test(value)) {
    problems.push(`${path}: does not match ${schema.pattern}`);
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [key, v] of Object.entries(value)) {
      if (props[key]) problems.push(...validate(v, props[key], `${path}.${key}`));
      else if (schema.additionalProperties === false) problems.push(`${path}.${key}: not allowed`);
    }
    for (const key of (schema.required ?? []) as string[]) if (!(key in value)) problems.push(`${path}.${key}: required`);
  }
  if (Array.isArray(value) && schema.items) value.forEach((item, i) => problems.push(...validate(item, schema.items as Schema, `${path}[${i}]`)));
  return problems;
}

function fieldsOf(body: unknown[], extra: Record<string, unknown> = {}): { fields: Field[]; template: Parameters<typeof bindTemplate>[0] } {
  const result = compileTemplate({ kind: 'json', bytes: new TextEncoder().encode(JSON.stringify({ docloom: 1, ...extra, body })) });
  if (!result.ok) assert.fail(JSON.stringify(result.errors));
  return { fields: result.fields, template: result.template };
}

test('fields: order of first appearance, types, nesting, merging, no system tags', () => {
  const { fields } = fieldsOf(
    [
      '{{title}} {{$page}} {{customer.name}} {{variable 1}}',
      { type: 'list', items: ['{{#EXAMPLE_LIST}}{{LIST_ITEM}}{{/EXAMPLE_LIST}}'] },
      { type: 'table', rows: [['{{#TABLE}}{{COL_1}}', '{{COL_2}}{{#flag}}!{{/flag}}{{/TABLE}}']] },
      '{{%logo:20x20}} {{#show}}shown{{/show}} {{^hidden}}no {{reason}}{{/hidden}}',
      '{{#tags}}{{.}}{{/tags}}',
      '{{#notes}}Notes: {{notes}}{{/notes}}',
      '{{#EXAMPLE_LIST}}{{extra}}{{/EXAMPLE_LIST}} {{title | upper}} {{#show}}{{/show}}',
      '{{#logo}}{{/logo}}',
    ],
    { header: ['{{header_text}}'] },
  );
  assert.deepEqual(fields, [
    { name: 'header_text', type: 'text' },
    { name: 'title', type: 'text' },
    { name: 'customer.name', type: 'text' },
    { name: 'variable 1', type: 'text' },
    { name: 'EXAMPLE_LIST', type: 'list', fields: [{ name: 'LIST_ITEM', type: 'text' }, { name: 'extra', type: 'text' }] },
    { name: 'TABLE', type: 'table', fields: [{ name: 'COL_1', type: 'text' }, { name: 'COL_2', type: 'text' }, { name: 'flag', type: 'condition' }] },
    { name: 'logo', type: 'image' },
    { name: 'show', type: 'condition' },
    { name: 'hidden', type: 'condition' },
    { name: 'reason', type: 'text' },
    { name: 'tags', type: 'list', fields: [{ name: '.', type: 'text' }] },
    { name: 'notes', type: 'text' },
  ]);
});

test('sampleData: words for text, two items per list, a real PNG, true for conditions, nested objects for dots', () => {
  const { fields } = fieldsOf([
    '{{invoice_number}} {{customer.first_name}} {{customer.city}} {{%logo}} {{#paid}}paid{{/paid}}',
    { type: 'table', rows: [['{{#items}}{{description}}', '{{unitPrice}}{{/items}}']] },
    '{{#tags}}{{.}}{{/tags}}',
  ]);
  const sample = sampleData(fields);
  assert.equal(sample.invoice_number, 'Invoice number');
  assert.deepEqual(sample.customer, { first_name: 'Customer first name', city: 'Customer city' });
  assert.match(String(sample.logo), /^data:image\/png;base64,/);
  assert.equal(sample.paid, true);
  assert.deepEqual(sample.items, [
    { description: 'Description 1', unitPrice: 'Unit price 1' },
    { description: 'Description 2', unitPrice: 'Unit price 2' },
  ]);
  assert.deepEqual(sample.tags, ['Tags 1', 'Tags 2']);
});

test('dataSchema: draft 2020-12, every property optional, dotted names both nested and as written', () => {
  const { fields } = fieldsOf(['{{a}} {{customer.name}} {{%img}} {{#c}}x{{/c}}', '{{#l}}{{v}}{{/l}}']);
  const schema = dataSchema(fields);
  assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.equal(schema.type, 'object');
  const props = schema.properties as Record<string, Schema>;
  assert.deepEqual(Object.keys(props), ['a', 'customer.name', 'customer', 'img', 'c', 'l']);
  assert.deepEqual(validate({ 'customer.name': 'flat' }, schema), []);
  assert.deepEqual(validate({ customer: { name: 'nested' } }, schema), []);
  assert.deepEqual(validate({ a: 'x', img: 'https://example.com/a.png', l: [{ v: 1 }], c: false, unrelated: [1] }, schema), []);
  assert.notDeepEqual(validate({ a: { no: 1 } }, schema), []);
  assert.notDeepEqual(validate({ img: 'file:///etc/passwd' }, schema), []);
  assert.notDeepEqual(validate({ l: 'not a list' }, schema), []);
  assert.notDeepEqual(validate({ l: [{ v: [] }] }, schema), []);
});

test('sample data validates against the schema and renders, for awkward field mixes too', async () => {
  const bodies: unknown[][] = [
    ['{{customer.name}} {{customer}}'],
    ['{{customer}} {{customer.name}}'],
    ['{{#customer}}{{name}}{{/customer}} {{customer.name}}'],
    ['{{#a}}{{#b}}{{#c}}{{d}}{{/c}}{{/b}}{{/a}}', '{{#a}}{{e}}{{/a}}'],
    [{ type: 'table', rows: [['{{#rows}}{{%pic:10x10}}', '{{#sub}}{{.}}{{/sub}}{{/rows}}']] }],
    ['{{^x}}{{y}}{{/x}} {{x}}'],
  ];
  for (const body of bodies) {
    const { fields, template } = fieldsOf(body);
    const sample = sampleData(fields);
    assert.deepEqual(validate(sample, dataSchema(fields)), [], JSON.stringify({ body, fields, sample }));
    await bindTemplate(template, sample, {});
  }
});
