/**
 * Binding: the four structure rules of CONTRACT.md §5 (whole paragraph, paragraphs between tag paragraphs,
 * table rows, inline), nesting, Mustache scope lookup, conditions, headers/footers, split runs and delimiters.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, type CompiledTemplate } from '../../server/engine/index.js';
import { bindTemplate } from '../../server/engine/bind/bind.js';
import { compileTags } from '../../server/engine/tags/compile.js';
import type { Block, Delimiters, Paragraph, Table, TemplateModel } from '../../server/engine/model/types.js';

function compile(doc: Record<string, unknown>, delimiters?: Delimiters): CompiledTemplate {
  const result = compileTemplate({ kind: 'json', bytes: new TextEncoder().encode(JSON.stringify({ docloom: 1, ...doc })), delimiters });
  if (!result.ok) assert.fail(JSON.stringify(result.errors));
  return result.template;
}

async function body(doc: Record<string, unknown>, data: Record<string, unknown>, delimiters?: Delimiters): Promise<Block[]> {
  const bound = await bindTemplate(compile(doc, delimiters), data, {});
  return bound.sections[0].body;
}

function text(block: Block): string {
  if (block.type === 'paragraph') return block.runs.map((r) => (r.type === 'text' ? r.text : r.type === 'field' ? `[${r.field}]` : '[image]')).join('');
  if (block.type === 'table') return `TABLE(${block.rows.map((row) => row.cells.map((c) => c.blocks.map(text).join('/')).join('|')).join('; ')})`;
  return '[break]';
}

const texts = (blocks: Block[]): string[] => blocks.map(text);

test('variables: names with spaces and dots, missing ones, numbers, booleans, objects', async () => {
  const blocks = await body(
    { body: ['{{variable 1}}|{{customer.name}}|{{missing}}|{{n}}|{{yes}}|{{obj}}|{{arr}}|{{zero}}|{{nul}}'] },
    { 'variable 1': 'V1', customer: { name: 'Ann' }, n: 12.5, yes: true, obj: { a: 1 }, arr: [1], zero: 0, nul: null },
  );
  assert.deepEqual(texts(blocks), ['V1|Ann||12.5|true|||0|']);
});

test('rule (a): a paragraph holding only a section repeats as a paragraph, keeping its list numbering', async () => {
  const blocks = await body(
    { body: ['Before', { type: 'list', ordered: true, items: ['{{#items}}{{name}}{{/items}}', 'After'] }] },
    { items: [{ name: 'one' }, { name: 'two' }, { name: 'three' }] },
  );
  assert.deepEqual(texts(blocks), ['Before', 'one', 'two', 'three', 'After']);
  const list = blocks.slice(1).map((b) => (b as Paragraph).list);
  assert.ok(list.every((l) => l && l.id === list[0]?.id && l.level === 0 && l.format === 'decimal'), 'one list continues');
  // Empty list, falsy condition: the paragraph disappears instead of leaving an empty line.
  assert.deepEqual(texts(await body({ body: ['A', '{{#items}}{{name}}{{/items}}', 'B'] }, { items: [] })), ['A', 'B']);
  assert.deepEqual(texts(await body({ body: ['A', ' {{#flag}}shown{{/flag}} ', 'B'] }, {})), ['A', 'B']);
});

test('rule (b): blocks between tag paragraphs repeat, tables included; the tag paragraphs vanish', async () => {
  const doc = {
    body: [
      'Start',
      '{{#people}}',
      { h2: '{{name}}' },
      { type: 'table', rows: [['Age', '{{age}}']] },
      '{{/people}}',
      'End',
    ],
  };
  const blocks = await body(doc, { people: [{ name: 'Ann', age: 31 }, { name: 'Bob', age: 42 }] });
  assert.deepEqual(texts(blocks), ['Start', 'Ann', 'TABLE(Age|31)', 'Bob', 'TABLE(Age|42)', 'End']);
  assert.equal((blocks[1] as Paragraph).style?.heading, 2, 'styles come along');
  assert.deepEqual(texts(await body(doc, { people: [] })), ['Start', 'End']);
});

test('rule (c): tags in table cells repeat rows; the header stays; rows of several lines repeat together', async () => {
  const doc = {
    body: [
      {
        type: 'table',
        columns: [{ header: 'A' }, { header: 'B' }],
        rows: [
          ['{{#rows}}{{a}}', '{{b}}'],
          ['note: {{note}}', '{{/rows}}'],
          ['Total', '{{total}}'],
        ],
      },
    ],
  };
  const blocks = await body(doc, { rows: [{ a: 1, b: 2, note: 'x' }, { a: 3, b: 4, note: 'y' }], total: 10 });
  assert.deepEqual(texts(blocks), ['TABLE(A|B; 1|2; note: x|; 3|4; note: y|; Total|10)']);
  const table = blocks[0] as Table;
  assert.equal(table.rows[0].header, true);
  assert.equal(table.rows.length, 6);
  // No rows: the loop rows go, the rest of the table stays.
  assert.deepEqual(texts(await body(doc, { rows: [], total: 0 })), ['TABLE(A|B; Total|0)']);
});

test('rule (c) in a one-column table: a section that fills the cell repeats the row', async () => {
  const blocks = await body({ body: [{ type: 'table', rows: [['{{#items}}{{.}}{{/items}}']] }] }, { items: ['a', 'b', 'c'] });
  assert.deepEqual(texts(blocks), ['TABLE(a; b; c)']);
  // A table left with no rows at all is dropped.
  assert.deepEqual(texts(await body({ body: ['x', { type: 'table', rows: [['{{#items}}{{.}}{{/items}}']] }] }, {})), ['x']);
});

test('a section inside one cell repeats inside that cell, not the row', async () => {
  const blocks = await body(
    { body: [{ type: 'table', rows: [['Tags: {{#tags}}{{.}} {{/tags}}', '{{#lines}}{{.}}{{/lines}}']] }] },
    { tags: ['a', 'b'], lines: ['l1', 'l2'] },
  );
  // Inline in the first cell; a whole-paragraph section (rule a) in the second: one paragraph per line.
  assert.deepEqual(texts(blocks), ['TABLE(Tags: a b |l1/l2)']);
});

test('rule (d): inline sections repeat the text between their tags', async () => {
  const blocks = await body({ body: ['Tags: {{#tags}}[{{.}}]{{/tags}} — {{^tags}}none{{/tags}}end'] }, { tags: ['x', 'y'] });
  assert.deepEqual(texts(blocks), ['Tags: [x][y] — end']);
  assert.deepEqual(texts(await body({ body: ['Tags: {{#tags}}[{{.}}]{{/tags}}{{^tags}}none{{/tags}}'] }, { tags: [] })), ['Tags: none']);
});

test('sections nest: lists in lists, inline sections in table loops, block sections around table loops', async () => {
  const doc = {
    body: [
      '{{#groups}}',
      { h3: '{{title}}' },
      { type: 'list', items: ['{{#members}}{{name}}{{#lead}} (lead){{/lead}}{{/members}}'] },
      { type: 'table', rows: [['{{#members}}{{name}}', 'Skills: {{#skills}}{{.}}, {{/skills}}{{/members}}']] },
      '{{/groups}}',
    ],
  };
  const data = {
    groups: [
      { title: 'G1', members: [{ name: 'Ann', lead: true, skills: ['go', 'ts'] }, { name: 'Bob', skills: [] }] },
      { title: 'G2', members: [{ name: 'Cy', skills: ['sql'] }] },
    ],
  };
  assert.deepEqual(texts(await body(doc, data)), [
    'G1', 'Ann (lead)', 'Bob', 'TABLE(Ann|Skills: go, ts, ; Bob|Skills: )',
    'G2', 'Cy', 'TABLE(Cy|Skills: sql, )',
  ]);
});

test('scope lookup walks outwards like Mustache; dotted keys; the current item; no prototype access', async () => {
  const blocks = await body(
    {
      body: [
        '> {{#items}}{{name}}/{{company}}/{{customer.name}}/{{.}}; {{/items}}',
        '{{#customer}}{{name}} of {{company}}{{/customer}}',
        '{{customer.name}} {{constructor}}{{toString}}{{__proto__}}{{hasOwnProperty}}|{{items.length}}',
      ],
    },
    { company: 'ACME', customer: { name: 'Zed' }, 'customer.name': 'Literal', items: [{ name: 'a', company: 'Inner' }, 'plain'] },
  );
  assert.deepEqual(texts(blocks), [
    // An item's own key wins; missing keys come from outer scopes; a key written with a dot wins over the path.
    '> a/Inner/Literal/; /ACME/Literal/plain; ',
    'Zed of ACME',
    'Literal |2',
  ]);
});

test('conditions follow Mustache truthiness, inverted sections the opposite', async () => {
  const doc = { body: ['{{#v}}T{{/v}}{{^v}}F{{/v}}'] };
  const cases: Array<[unknown, string]> = [
    [true, 'T'], [false, 'F'], [1, 'T'], [0, 'F'], ['x', 'T'], ['', 'F'], [null, 'F'], [undefined, 'F'],
    [[], 'F'], [[1], 'T'], [{}, 'T'],
  ];
  const template = compile(doc);
  for (const [v, expected] of cases) {
    const bound = await bindTemplate(template, v === undefined ? {} : { v }, {});
    assert.equal(text(bound.sections[0].body[0]), expected, `value ${JSON.stringify(v)}`);
  }
});

test('tags work in every header and footer variant; $page and $pages become page fields', async () => {
  const template = compile({
    header: { default: ['H {{title}}'], first: ['First {{title}}'], even: ['Even {{title}}'] },
    footer: {
      default: [{ type: 'paragraph', runs: ['Page {{$page}} of {{$pages}}'] }],
      first: ['{{#show}}F1{{/show}}'],
      even: [{ type: 'table', rows: [['{{#rows}}{{.}}', '{{/rows}}']] }],
    },
    body: ['Body'],
  });
  const bound = await bindTemplate(template, { title: 'T', show: true, rows: ['r1', 'r2'] }, {});
  const s = bound.sections[0];
  assert.equal(s.titlePage, true);
  assert.deepEqual(texts(s.header?.default ?? []), ['H T']);
  assert.deepEqual(texts(s.header?.first ?? []), ['First T']);
  assert.deepEqual(texts(s.header?.even ?? []), ['Even T']);
  assert.deepEqual(texts(s.footer?.default ?? []), ['Page [page] of [pages]']);
  assert.deepEqual(texts(s.footer?.first ?? []), ['F1']);
  assert.deepEqual(texts(s.footer?.even ?? []), ['TABLE(r1|; r2|)']);
  const fields = (s.footer?.default?.[0] as Paragraph).runs.filter((r) => r.type === 'field');
  assert.deepEqual(fields.map((f) => f.type === 'field' && f.field), ['page', 'pages']);
});

test('tags split across runs are found; literal text keeps its run style; a tag takes the style where its name starts', async () => {
  const blocks = await body(
    {
      body: [
        {
          type: 'paragraph',
          runs: [
            { text: 'Dear {', italic: true },
            { text: '{na', bold: true },
            { text: 'me}} and {{#li', color: '#ff0000' },
            { text: 'st}}<{{.}}>{{/list}}!' },
          ],
        },
      ],
    },
    { name: 'Ann', list: ['a', 'b'] },
  );
  const para = blocks[0] as Paragraph;
  assert.equal(text(para), 'Dear Ann and <a><b>!');
  const runs = para.runs.map((r) => (r.type === 'text' ? [r.text, r.style] : null));
  assert.deepEqual(runs, [
    ['Dear ', { italic: true }],
    ['Ann', { bold: true }],
    [' and ', { color: '#ff0000' }],
    ['<a><b>!', undefined],
  ]);
});

test('neighbouring runs with equal styles are merged in the bound model', async () => {
  const blocks = await body({ body: ['<{{#l}}{{.}}-{{/l}}>'] }, { l: ['a', 'b', 'c'] });
  assert.deepEqual((blocks[0] as Paragraph).runs, [{ type: 'text', text: '<a-b-c->' }]);
});

test('any delimiters: { }, [ ], << >>', async () => {
  const data = { name: 'Ann', l: ['x', 'y'] };
  assert.deepEqual(texts(await body({ body: ['{name} {#l}{.}{/l}'] }, data, ['{', '}'])), ['Ann xy']);
  assert.deepEqual(texts(await body({ body: ['[name] [#l][.][/l] {{name}}'] }, data, ['[', ']'])), ['Ann xy {{name}}']);
  assert.deepEqual(texts(await body({ body: ['<<name>> <<#l>><<.>><</l>>'] }, data, ['<<', '>>'])), ['Ann xy']);
});

test('comments render nothing', async () => {
  assert.deepEqual(texts(await body({ body: ['a{{! a note for authors }}b'] }, {})), ['ab']);
});

test('a compiled template survives structured clone, is never changed by binding and serves many renders', async () => {
  const template = structuredClone(compile({ body: ['{{#items}}{{name}}{{/items}}', { type: 'table', rows: [['{{#rows}}{{a}}', '{{/rows}}']] }] }));
  const snapshot = JSON.stringify(template);
  const first = await bindTemplate(template, { items: [{ name: 'a' }], rows: [{ a: 1 }] }, {});
  const second = await bindTemplate(template, { items: [{ name: 'b' }, { name: 'c' }], rows: [] }, {});
  assert.deepEqual(texts(first.sections[0].body), ['a', 'TABLE(1|)']);
  assert.deepEqual(texts(second.sections[0].body), ['b', 'c']);
  assert.equal(JSON.stringify(template), snapshot);
});

test('a bound model keeps page setup, defaults, metadata and the locale used', async () => {
  const template = compile({ locale: 'de-DE', metadata: { title: 'T' }, page: { size: 'Letter' }, body: ['x'] });
  const bound: TemplateModel = await bindTemplate(template, {}, {});
  assert.equal(bound.version, 1);
  assert.equal(bound.sections[0].page.width, 612);
  assert.equal(bound.metadata?.title, 'T');
  assert.equal(bound.locale, 'de-DE');
  assert.equal((await bindTemplate(template, {}, { locale: 'fr' })).locale, 'fr');
});

test('compileTags works on any source model, such as one from the DOCX importer', async () => {
  const model: TemplateModel = {
    version: 1,
    defaults: { run: {}, paragraph: {} },
    sections: [{
      page: { width: 595, height: 842, margins: { top: 72, right: 72, bottom: 72, left: 72 } },
      body: [
        { type: 'paragraph', runs: [{ type: 'text', text: '{{#L}}' }] },
        { type: 'paragraph', runs: [{ type: 'text', text: '{{x}}' }], list: { id: '7', level: 0, format: 'bullet', text: '•' } },
        { type: 'paragraph', runs: [{ type: 'text', text: '{{/L}}' }] },
        { type: 'pageBreak' },
      ],
    }],
  };
  const { template, errors } = compileTags(model, ['{{', '}}']);
  assert.deepEqual(errors, []);
  assert.deepEqual(template.fields, [{ name: 'L', type: 'list', fields: [{ name: 'x', type: 'text' }] }]);
  const bound = await bindTemplate(template, { L: [{ x: 1 }, { x: 2 }] }, {});
  assert.deepEqual(texts(bound.sections[0].body), ['1', '2', '[break]']);
});
