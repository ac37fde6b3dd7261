/**
 * Sections whose tags sit in different paragraphs next to other text (the general form of rule (b), as
 * docxtemplater's paragraph loops): what lies between the tags repeats, paragraph boundaries included; the text
 * before the opening tag and after the closing tag stays once. Also `{{/}}` and tags broken over paragraphs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, type CompiledTemplate } from '../../server/engine/index.js';
import { bindTemplate } from '../../server/engine/bind/bind.js';
import type { Block, Paragraph } from '../../server/engine/model/types.js';

function compile(doc: Record<string, unknown>): CompiledTemplate {
  const result = compileTemplate({ kind: 'json', bytes: new TextEncoder().encode(JSON.stringify({ docloom: 1, ...doc })) });
  if (!result.ok) assert.fail(JSON.stringify(result.errors));
  return result.template;
}

async function texts(doc: Record<string, unknown>, data: Record<string, unknown>): Promise<string[]> {
  return (await blocks(compile(doc), data)).map(text);
}

async function blocks(template: CompiledTemplate, data: Record<string, unknown>): Promise<Block[]> {
  return (await bindTemplate(template, data, {})).sections[0].body;
}

function text(block: Block): string {
  if (block.type === 'paragraph') return block.runs.map((r) => (r.type === 'text' ? r.text : '[?]')).join('');
  if (block.type === 'table') return `TABLE(${block.rows.map((row) => row.cells.map((c) => c.blocks.map(text).join('/')).join('|')).join('; ')})`;
  return '[break]';
}

const items = { items: [{ name: 'A' }, { name: 'B' }] };

test('open tag after text, close tag before text: the text around stays once, the boundary repeats', async () => {
  const doc = { body: ['Before', 'Intro {{#items}}{{name}}', '{{/items}} outro', 'After'] };
  assert.deepEqual(await texts(doc, items), ['Before', 'Intro A', 'B', ' outro', 'After']);
  // No items: the text before the open tag and after the close tag meet in one paragraph.
  assert.deepEqual(await texts(doc, { items: [] }), ['Before', 'Intro  outro', 'After']);
});

test('a close tag alone in its paragraph: one paragraph per item, nothing left for an empty list (bullets)', async () => {
  const doc = {
    body: [{ type: 'list', items: ['{{#proof}} It works because {{reason}}', '{{/proof}}', 'Next'] }],
  };
  const template = compile(doc);
  const out = await blocks(template, { proof: [{ reason: 'one' }, { reason: 'two' }] });
  assert.deepEqual(out.map(text), [' It works because one', ' It works because two', 'Next']);
  assert.ok(out.every((b) => (b as Paragraph).list?.format === 'bullet'), 'each item is a bullet');
  assert.deepEqual((await blocks(template, { proof: [] })).map(text), ['Next']);
  // The mirror image: the open tag alone, the close tag after the item's text.
  assert.deepEqual(await texts({ body: ['{{#items}}', 'Name: {{name}}{{/items}}', 'End'] }, items), ['Name: A', 'Name: B', 'End']);
});

test('a condition over a paragraph boundary keeps the break only when shown', async () => {
  const doc = { body: ['Dear client{{#vip}},', 'as a VIP{{/vip}}: welcome.'] };
  assert.deepEqual(await texts(doc, { vip: true }), ['Dear client,', 'as a VIP: welcome.']);
  assert.deepEqual(await texts(doc, { vip: false }), ['Dear client: welcome.']);
});

test('blocks between the tags repeat whole, tables and nested sections included', async () => {
  const doc = {
    body: [
      'People: {{#people}}{{name}}',
      { type: 'table', rows: [['Age', '{{age}}']] },
      '{{#pets}}',
      'pet {{.}}',
      '{{/pets}}',
      'end of {{name}}{{/people}}.',
    ],
  };
  const data = { people: [{ name: 'Ann', age: 31, pets: ['cat'] }, { name: 'Bob', age: 42, pets: [] }] };
  assert.deepEqual(await texts(doc, data), ['People: Ann', 'TABLE(Age|31)', 'pet cat', 'end of AnnBob', 'TABLE(Age|42)', 'end of Bob.']);
});

test('spanning sections inside a table cell stay in that cell; inline sections inside a piece work', async () => {
  const doc = {
    body: [{ type: 'table', rows: [['Items: {{#items}}{{name}}{{#star}}*{{/star}}', '{{/items}}(end)']] }],
  };
  // Both tags in one cell (one paragraph each): the cell's content repeats, the row does not.
  const cell = { body: [{ type: 'table', rows: [[{ blocks: ['Items: {{#items}}{{name}}{{#star}}*{{/star}}', '{{/items}}(end)'] }, 'x']] }] };
  assert.deepEqual(await texts(cell, { items: [{ name: 'A', star: true }, { name: 'B' }] }), ['TABLE(Items: A*/B/(end)|x)']);
  // In two cells it is a table loop (rule c) as before.
  assert.deepEqual(await texts(doc, { items: [{ name: 'A' }, { name: 'B' }] }), ['TABLE(Items: A|(end); Items: B|(end))']);
});

test('{{/}} closes the innermost section, in every structure rule', async () => {
  const doc = { body: ['{{#a}}', '{{#items}}{{name}}{{/}}', '{{/}}', 'Tags: {{#items}}{{name}} {{/}}'] };
  assert.deepEqual(await texts(doc, { a: true, ...items }), ['A', 'B', 'Tags: A B ']);
  assert.deepEqual(await texts(doc, { ...items }), ['Tags: A B ']);
});

test('a tag broken over paragraphs renders as one tag, the paragraphs joined', async () => {
  const doc = { body: ['Dear {{first', '_name}}, welcome', '{{', 'last_name', '}}!'] };
  assert.deepEqual(await texts(doc, { first_name: 'Ann', last_name: 'Lee' }), ['Dear Ann, welcome', 'Lee!']);
});

test('spanning sections repeat once per item over many items (5,000); bench/engine-bind.ts times it', async () => {
  const template = compile({ body: ['Intro {{#items}}{{name}}: {{#flag}}yes{{/flag}}', 'more {{name}}{{/items}} end'] });
  const data = { items: Array.from({ length: 5000 }, (_, i) => ({ name: `n${i}`, flag: i % 2 === 0 })) };
  const out = await blocks(template, data);
  assert.equal(out.length, 5001);
  assert.equal(text(out[0]), 'Intro n0: yes');
  assert.equal(text(out[5000]), 'more n4999 end');
});
