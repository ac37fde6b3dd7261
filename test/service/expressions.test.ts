/**
 * The template language over real HTTP (issue #12): expressions, conditions, `$index`, `.length`, ternaries in
 * straight and curly quotes and aggregates, in .json and .docx templates (body, table rows, header, split runs),
 * to PDF (read back with pdftotext) and to the filled .docx; malformed tags refused at upload with every mistake
 * located; hostile tags refused or empty, the service unharmed.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { pdfText, squash } from '../helpers/pdf.js';
import { createDocument, uploadTemplate, type Body } from './support.js';
import { buildDocx, escapeXml, p } from '../docx/build-docx.js';
import { docxFixture } from '../helpers/fixtures.js';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

const DATA = {
  a: 2,
  b: 3,
  flag: false,
  name: 'Ada',
  last: 'Lovelace',
  'first-name': 'Augusta',
  balance: 12.5,
  items: [
    { desc: 'Design', hours: 2, rate: 40.5, net: 81 },
    { desc: 'Build', hours: 1, rate: 30, net: 30.25 },
  ],
};

function para(text: string): Body {
  return { type: 'paragraph', runs: [{ type: 'text', text }] };
}

function cell(text: string): Body {
  return { blocks: [para(text)] };
}

/** A .json template: paragraphs, then a table whose middle row loops over `items`. */
function jsonModel(lines: string[], table = true): Buffer {
  const body: Body[] = lines.map(para);
  if (table) {
    body.push({
      type: 'table',
      columns: [120, 120],
      rows: [
        { cells: [cell('No.'), cell('Amount')] },
        { cells: [cell('{{#items}}{{$index + 1}}'), cell('{{hours * rate | number:2}}{{/items}}')] },
      ],
    });
  }
  return Buffer.from(
    JSON.stringify({
      version: 1,
      defaults: { run: { font: 'Helvetica', size: 10 }, paragraph: {} },
      sections: [{ page: { width: 595, height: 842, margins: { top: 40, right: 40, bottom: 40, left: 40 } }, body, header: { default: [para('{{#a > 1}}Head {{name}}{{/}}')] } }],
    }),
  );
}

async function upload(name: string, bytes: Uint8Array, delimiters = '{{ }}'): Promise<{ status: number; body: Body }> {
  return uploadTemplate(s, { name, bytes }, { delimiters });
}

async function render(uuid: string, data: unknown, outputType: 'pdf' | 'docx' = 'pdf'): Promise<{ document: Body; bytes: Uint8Array }> {
  const { status, body } = await createDocument(s, { template_id: uuid, data: JSON.stringify(data), output_type: outputType });
  assert.equal(status, 201, JSON.stringify(body));
  assert.equal(body.document.status, 'completed', JSON.stringify(body.document.error));
  const res = await fetch(body.document.download_url);
  return { document: body.document, bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function pdfOf(uuid: string, data: unknown): Promise<string> {
  return squash(pdfText((await render(uuid, data)).bytes));
}

/** Text of the filled .docx's main part and header parts, tags stripped (entities decoded). */
function docxText(bytes: Uint8Array): string {
  const files = unzipSync(bytes, { filter: (f) => /^word\/(document|header\d*)\.xml$/.test(f.name) });
  const text = Object.keys(files)
    .sort()
    .map((name) => strFromU8(files[name]))
    .join(' ')
    .replace(/<w:p[ >]/g, ' $&')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
  return squash(text);
}

const LINES = [
  'Paren: {{(a + b) * 2}} Plain: {{a + b * 2}}',
  'Div: {{a / b | number:2}} Zero: [{{a / 0}}] Float: {{0.1 + 0.2}} Mod: {{b % a}} Neg: {{-a}}',
  'Cmp: {{a < b ? "lt" : "ge"}} Curly: {{a > b ? “big” : ‘small’}} Not: {{(!flag) ? "off" : "on"}}',
  'Eq: {{name == "Ada" && a != b}} Or: {{flag || "fallback"}} Strict: {{a === 2}}',
  'Len: {{items.length}} {{name.length}} Join: {{name + " " + last}} Key: {{first-name}}',
  'Inline: {{#items}}[{{$index}} {{desc}} {{hours * rate}}]{{/items}}',
  '{{#items}}',
  'Item {{$index + 1}}: {{desc}}{{#hours > 1}} (long){{/hours>1}}',
  '{{/items}}',
  'Total: {{items | sum:"net" | currency:"EUR"}} Count: {{items | count}} Max: {{items | max:"net"}} Avg: {{items | avg:"hours"}}',
  '{{#balance > 0}}Owed {{balance | number:2}}{{/balance > 0}}{{^balance > 0}}Settled{{/}}',
  'Missing: [{{nothing * 2}}][{{nothing.x}}][{{constructor}}][{{items[5].desc}}][{{name[“length”]}}]',
];

function checkText(text: string): void {
  for (const want of [
    'Paren: 10 Plain: 8',
    'Div: 0.67 Zero: [] Float: 0.3 Mod: 1 Neg: -2',
    'Cmp: lt Curly: small Not: off',
    'Eq: true Or: fallback Strict: true',
    'Len: 2 3 Join: Ada Lovelace Key: Augusta',
    'Inline: [0 Design 81][1 Build 30]',
    'Item 1: Design (long)',
    'Item 2: Build',
    'Total: €111.25 Count: 2 Max: 81 Avg: 1.5',
    'Owed 12.50',
    'Missing: [][][][][3]',
  ]) {
    assert.ok(text.includes(want), `expected "${want}" in: ${text}`);
  }
  assert.doesNotMatch(text, /Item 2: Build \(long\)|Settled|NaN|undefined|Infinity|object Object/);
}

test('.json template: every operator, conditions in loops and the header, $index in inline, block and row loops, aggregates, to PDF', async () => {
  const up = await upload('expressions.json', jsonModel(LINES));
  assert.equal(up.status, 201, JSON.stringify(up.body));
  const text = await pdfOf(up.body.template.uuid, DATA);
  checkText(text);
  // Table rows: one per item, numbered from $index + 1, arithmetic per row with number:2.
  assert.match(text, /No\. Amount 1 81\.00 2 30\.00/);
  assert.match(text, /Head Ada/);
  // The else branch of the condition, and an empty list summed.
  const settled = await pdfOf(up.body.template.uuid, { ...DATA, balance: 0, items: [] });
  assert.match(settled, /Settled/);
  assert.match(settled, /Total: €0\.00 Count: 0 Max: {2}Avg:|Total: €0\.00 Count: 0 Max: Avg:/);
  // Names read by expressions are fields.
  const fields = JSON.parse(up.body.template.fields as string) as Array<{ name: string; type: string }>;
  const names = fields.map((f) => f.name);
  for (const name of ['a', 'b', 'flag', 'name', 'last', 'items', 'balance', 'nothing']) assert.ok(names.includes(name), `${name} in ${names.join()}`);
  assert.equal(fields.find((f) => f.name === 'items')?.type, 'table');
});

function run(text: string): string {
  return `<w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;
}

/** A .docx with the same lines (the first split over three runs), a row loop and a conditional header. */
function docxTemplate(): Uint8Array {
  const [first, ...rest] = LINES;
  const split = `<w:p>${run(first.slice(0, 12))}${run(first.slice(12, 20))}<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">${escapeXml(first.slice(20))}</w:t></w:r></w:p>`;
  const tc = (text: string): string => `<w:tc><w:tcPr><w:tcW w:w="2400" w:type="dxa"/></w:tcPr>${p(text)}</w:tc>`;
  const table =
    '<w:tbl><w:tblPr><w:tblW w:w="4800" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="2400"/><w:gridCol w:w="2400"/></w:tblGrid>' +
    `<w:tr>${tc('No.')}${tc('Amount')}</w:tr><w:tr>${tc('{{#items}}{{$index + 1}}')}${tc('{{hours * rate | number:2}}{{/items}}')}</w:tr></w:tbl>`;
  const sectPr =
    '<w:sectPr><w:headerReference w:type="default" r:id="rId_header1"/><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>';
  return buildDocx({
    // The same lines as the .json template: closing tags that respace their expression (`{{/hours>1}}`) included.
    body:
      split +
      rest.map((line) => p(line)).join('') +
      // A condition split over runs, the way Word stores a tag typed in pieces.
      `<w:p>${run('Split cond: {{#a ')}${run('> 1}}yes{{/a')}${run(' > 1}}{{^a > 1}}no{{/}}')}</w:p>` +
      table +
      p('end'),
    headers: { header1: p('{{#a > 1}}Head {{name}}{{/}}') },
    sectPr,
  });
}

test('.docx template: the same expressions in split runs, table rows and the header, to PDF and to .docx alike', async () => {
  const up = await upload('expressions.docx', docxTemplate());
  assert.equal(up.status, 201, JSON.stringify(up.body));
  const uuid = up.body.template.uuid as string;
  const pdf = await pdfOf(uuid, DATA);
  checkText(pdf);
  assert.match(pdf, /Split cond: yes end|Split cond: yes/);
  assert.doesNotMatch(pdf, /Split cond: yes ?no/);
  assert.match(pdf, /No\. Amount 1 81\.00 2 30\.00/);
  assert.match(pdf, /Head Ada/);
  const docx = docxText((await render(uuid, DATA, 'docx')).bytes);
  checkText(docx);
  assert.match(docx, /Split cond: yes/);
  assert.doesNotMatch(docx, /Split cond: yes ?no/);
  // The other branch, in both outputs.
  assert.match(await pdfOf(uuid, { ...DATA, a: 0 }), /Split cond: no/);
  assert.match(docxText((await render(uuid, { ...DATA, a: 0 }, 'docx')).bytes), /Split cond: no/);
  assert.match(docx, /No\. Amount 1 81\.00 2 30\.00/);
  assert.match(docx, /Head Ada/);
});

test('data of the wrong kinds: the document completes, PDF and .docx alike, and no expression shows NaN, undefined, Infinity or [object Object]', async () => {
  const up = await upload('hostile-kinds.docx', docxTemplate());
  assert.equal(up.status, 201, JSON.stringify(up.body));
  const uuid = up.body.template.uuid as string;
  const kinds: unknown[] = [{ x: 1 }, [1, 2], 'text', null, 1e308, -1e308, true, '', []];
  for (const [i, odd] of kinds.entries()) {
    // Every value the template reads takes the odd kind, but the keys aggregates add up (which fail the document
    // on anything but a number or null, tested apart).
    const num = typeof odd === 'number' || odd === null ? odd : 1;
    const data = { a: odd, b: odd, flag: odd, name: odd, last: odd, 'first-name': odd, balance: odd, items: [{ desc: odd, hours: num, rate: odd, net: num }] };
    const pdf = await pdfOf(uuid, data);
    const docx = docxText((await render(uuid, data, 'docx')).bytes);
    for (const [output, text] of [['PDF', pdf], ['.docx', docx]]) {
      assert.doesNotMatch(text, /NaN|undefined|Infinity|object Object/, `${output} with ${JSON.stringify(odd)} (${i}): ${text}`);
    }
  }
});

test('one 422 lists every malformed tag of a .json file, each located (part, paragraph, tag, offset, column)', async () => {
  const lines = ['ok {{a}}', 'x {{a >}}', '{{(a}} and {{x ? 1}}', '{{@raw}}', '{{=<< >>=}}', 'Call {{f(1)}}', '{{a = 1}}', '{{-w:p items}}', '{{#a >}}y{{/a >}}'];
  const up = await upload('bad.json', jsonModel(lines, false));
  assert.equal(up.status, 422, JSON.stringify(up.body));
  const errors = up.body.template_errors as Array<{ code: string; message: string; location: Record<string, unknown> }>;
  const got = errors.map((e) => [e.code, e.location.part, e.location.paragraph, e.location.tag, e.location.offset, e.location.column]);
  assert.deepEqual(got, [
    ['invalid_expression', 'body', 2, '{{a >}}', 2, 6],
    ['invalid_expression', 'body', 3, '{{(a}}', 0, 5],
    ['invalid_expression', 'body', 3, '{{x ? 1}}', 11, 8],
    ['unsupported_tag', 'body', 4, '{{@raw}}', 0, 3],
    ['unsupported_tag', 'body', 5, '{{=<< >>=}}', 0, 3],
    ['unsupported_tag', 'body', 6, '{{f(1)}}', 5, 4],
    ['unsupported_tag', 'body', 7, '{{a = 1}}', 0, 5],
    ['unsupported_tag', 'body', 8, '{{-w:p items}}', 0, 3],
    ['invalid_expression', 'body', 9, '{{#a >}}', 0, 7],
    ['invalid_expression', 'body', 9, '{{/a >}}', 9, 7],
  ]);
  for (const e of errors) assert.match(e.message, /write|use|put|add|complete|compare|delimiters|filter/i, e.message);
  assert.equal(up.body.errors.file.length, errors.length);
  // Nothing was stored.
  const list = await (await s.api('/api/template?name=bad')).json();
  assert.equal((list as Body).templates.total, 0);
});

test('one 422 lists the malformed expressions of a .docx body, table cell and header, each located', async () => {
  const tc = (text: string): string => `<w:tc>${p(text)}</w:tc>`;
  const bytes = buildDocx({
    body: `${p('Body {{a >}}')}<w:tbl><w:tblGrid><w:gridCol w:w="2400"/></w:tblGrid><w:tr>${tc('Cell {{(a}}')}</w:tr></w:tbl>${p('{{x ? 1}}')}`,
    headers: { header1: p('Head {{@raw}}') },
    sectPr: '<w:sectPr><w:headerReference w:type="default" r:id="rId_header1"/><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>',
  });
  const up = await upload('bad.docx', bytes);
  assert.equal(up.status, 422, JSON.stringify(up.body));
  const got = (up.body.template_errors as Array<{ code: string; location: Record<string, unknown> }>).map((e) => [e.code, e.location.part, e.location.paragraph, e.location.tag, e.location.offset, e.location.column]);
  assert.deepEqual(got, [
    ['unsupported_tag', 'header', 1, '{{@raw}}', 5, 3],
    ['invalid_expression', 'body', 1, '{{a >}}', 5, 6],
    ['invalid_expression', 'body', 2, '{{(a}}', 5, 5],
    ['invalid_expression', 'body', 3, '{{x ? 1}}', 0, 8],
  ]);
});

const CANARY = 'docloom-canary-5f1e';

test('published expression-sandbox escapes: refused at upload or empty, in .json and .docx, to PDF and .docx; nothing leaks or changes', async () => {
  process.env.DOCLOOM_LANG_CANARY = CANARY;
  const refused = [
    '{{constructor.constructor("return process.env")()}}',
    '{{toString.constructor.prototype.toString=toString.constructor.prototype.call}}',
    '{{["a"]["constructor"]["constructor"]("return this")()}}',
    '{{__proto__.polluted = "yes"}}',
    '{{x = constructor}}',
    '{{(1).constructor.constructor("return process")().exit()}}',
  ];
  const empty = [
    '[{{constructor}}]',
    '[{{constructor.constructor}}]',
    '[{{__proto__}}]',
    '[{{this.constructor}}]',
    '[{{this["constructor"]["prototype"]}}]',
    '[{{"a".constructor.name}}]',
    '[{{name["__proto__"]["toString"]}}]',
    '[{{items.map}}]',
    '[{{items | sum:"__proto__"}}]',
    '[{{items | sum:"constructor"}}]',
    '[{{prototype}}]',
    '[{{process.env.DOCLOOM_LANG_CANARY}}]',
  ];
  for (const line of refused) {
    const json = await upload('escape.json', jsonModel([line], false));
    assert.equal(json.status, 422, line);
    const docx = await upload('escape.docx', buildDocx({ body: p(line) }));
    assert.equal(docx.status, 422, line);
  }
  const before = fs.readdirSync(s.dataDir, { recursive: true }).length;
  const data = JSON.parse('{"name": "Ada", "items": [{"net": 1}], "__proto__": {"polluted": "no"}}') as unknown;
  for (const [kind, bytes] of [
    ['json', jsonModel(empty, false)],
    ['docx', buildDocx({ body: empty.map((line) => p(line)).join('') })],
  ] as const) {
    const up = await upload(`escape-empty.${kind}`, bytes);
    assert.equal(up.status, 201, JSON.stringify(up.body));
    const pdf = await pdfOf(up.body.template.uuid, data);
    const outputs = [pdf];
    if (kind === 'docx') outputs.push(docxText((await render(up.body.template.uuid, data, 'docx')).bytes));
    for (const text of outputs) {
      assert.equal((text.match(/\[\]/g) ?? []).length, empty.length - 2, text);
      // The two aggregates over keys no item has: 0.
      assert.equal((text.match(/\[0\]/g) ?? []).length, 2, text);
      assert.doesNotMatch(text, new RegExp(`${CANARY}|function|native code|object Object|undefined|polluted`));
    }
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
  // Only the templates and documents made here were written: no file outside the data folder's own layout.
  const after = fs.readdirSync(s.dataDir, { recursive: true }).map(String);
  assert.ok(after.length >= before);
  assert.ok(after.every((f) => !path.basename(f).includes('polluted')));
  // The service lives on and later renders are clean.
  const later = await upload('later.json', jsonModel(['Later {{name}} {{a + 1}}'], false));
  assert.equal(later.status, 201);
  assert.match(await pdfOf(later.body.template.uuid, { name: 'ok', a: 1 }), /Later ok 2/);
});

test('a data value breaking an aggregate fails the document with a data code naming list, item and key (PDF and .docx alike)', async () => {
  const lines = ['Total: {{items | sum:"net"}}'];
  for (const [name, bytes] of [
    ['agg.json', jsonModel(lines, false)],
    ['agg.docx', buildDocx({ body: p(lines[0]) })],
  ] as const) {
    const up = await upload(name, bytes);
    assert.equal(up.status, 201);
    const outputs: Array<'pdf' | 'docx'> = name.endsWith('.docx') ? ['pdf', 'docx'] : ['pdf'];
    for (const outputType of outputs) {
      const { body } = await createDocument(s, { template_id: up.body.template.uuid, data: JSON.stringify({ items: [{ net: 1 }, { net: 'ten' }] }), output_type: outputType });
      assert.equal(body.document.status, 'failed', `${name} ${outputType}`);
      assert.equal(body.document.error.code, "aggregate_not_number", JSON.stringify(body.document.error));
      assert.match(body.document.error.message, /"items".*"ten".*"net".*item 2/);
    }
  }
});




test('a stored template the language now refuses is kept; its document requests answer 422 with the located errors', async () => {
  const up = await upload('stored.json', jsonModel(['Fine {{name}}'], false));
  assert.equal(up.status, 201);
  const uuid = up.body.template.uuid as string;
  // As if stored before the language existed: the same file, now holding tags the upload would refuse.
  const files = fs.readdirSync(s.dataDir, { recursive: true }).map(String).filter((f) => f.includes(uuid) && !f.endsWith('.meta.json'));
  const file = files.map((f) => path.join(s.dataDir, f)).find((f) => fs.statSync(f).isFile() && fs.readFileSync(f, 'utf8').includes('Fine {{name}}'));
  assert.ok(file, `template file among ${files.join()}`);
  fs.writeFileSync(file, jsonModel(['Fine {{name}}', 'Bad {{a >}} and {{@raw}}'], false));
  for (const outputType of ['pdf', undefined]) {
    const { status, body } = await createDocument(s, { template_id: uuid, data: '{"name":"x"}', ...(outputType ? { output_type: outputType } : {}) });
    assert.equal(status, 422, JSON.stringify(body));
    assert.deepEqual(
      (body.template_errors as Array<{ code: string; location: Record<string, unknown> }>).map((e) => [e.code, e.location.paragraph, e.location.tag, e.location.column]),
      [
        ['invalid_expression', 2, '{{a >}}', 6],
        ['unsupported_tag', 2, '{{@raw}}', 3],
      ],
    );
    assert.equal(body.errors.template_id.length, 2);
  }
  const preview = await s.api('/api/preview', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ template_id: uuid, data: { name: 'x' } }) });
  assert.equal(preview.status, 422);
  // The template is kept.
  assert.equal((await s.api(`/api/template/${uuid}`)).status, 200);
});

test('the shared fixture quotes-in-tag renders its expressions in straight and curly quotes, to PDF and .docx', async () => {
  const up = await upload('quotes-in-tag.docx', fs.readFileSync(docxFixture('quotes-in-tag')), '{ }');
  assert.equal(up.status, 201, JSON.stringify(up.body));
  const data = { user: 'John', hobbies: ['chess', 'golf'] };
  const pdf = await pdfOf(up.body.template.uuid, data);
  const docx = docxText((await render(up.body.template.uuid, data, 'docx')).bytes);
  for (const text of [pdf, docx]) {
    assert.match(text, /Hello John/);
    assert.match(text, /Bye John/);
    assert.match(text, /chess/);
  }
});

test('output file names evaluate with the same language (expressions, ternaries, aggregates)', async () => {
  const { status, body } = await uploadTemplate(
    s,
    { name: 'named.json', bytes: jsonModel(['x'], false) },
    { output_filename: 'Invoice {{a + b}} {{a > 1 ? "big" : "small"}} {{items | sum:"net" | number:2}} {{$index}}{{nothing * 2}}' },
  );
  assert.equal(status, 201, JSON.stringify(body));
  const doc = await render(body.template.uuid as string, DATA);
  assert.equal(doc.document.output_filename, 'Invoice 5 big 111.25.pdf');
});
