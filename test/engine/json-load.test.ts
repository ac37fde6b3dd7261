/**
 * docloom's .json template format (docs/templates.md): the authoring form and the model form load into the
 * documented model; anything wrong is EngineError('invalid_template') naming the JSON path; nothing else is
 * ever thrown, whatever the bytes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EngineError } from '../../server/engine/errors.js';
import { loadJsonTemplate } from '../../server/engine/json/load.js';
import type { Paragraph, Table, TemplateModel } from '../../server/engine/model/types.js';
import { encodePng } from '../../scripts/lib/png.js';
import { seededRandom } from '../helpers/random.js';

const load = (doc: unknown): TemplateModel => loadJsonTemplate(new TextEncoder().encode(JSON.stringify(doc)));

function refusal(doc: unknown): string {
  try {
    load(doc);
  } catch (err) {
    assert.ok(err instanceof EngineError, `an EngineError, not ${String(err)}`);
    assert.equal(err.code, 'invalid_template');
    return err.message;
  }
  return assert.fail('the template was accepted');
}

/** A 2×1 px RGB PNG (the loader reads its size to place it). */
const PNG_2x1 = `data:image/png;base64,${encodePng(2, 1, Uint8Array.of(1, 2, 3, 4, 5, 6), { channels: 3 }).toString('base64')}`;

test('the smallest template: built-in page (A4, 20 mm margins) and defaults', () => {
  const model = load({ docloom: 1, body: ['Hello'] });
  assert.equal(model.version, 1);
  assert.equal(model.sections.length, 1);
  const { page } = model.sections[0];
  assert.deepEqual([page.width, page.height], [595.28, 841.89]);
  assert.equal(Math.round(page.margins.left * 100) / 100, 56.69);
  assert.deepEqual(model.defaults, { run: { font: 'Helvetica', size: 11, color: '#000000' }, paragraph: { lineHeight: 1.25, spaceAfter: 6 } });
  assert.deepEqual(model.sections[0].body, [{ type: 'paragraph', runs: [{ type: 'text', text: 'Hello' }] }]);
});

test('page sizes, orientation, units and margins', () => {
  const page = (p: unknown) => load({ docloom: 1, page: p, body: [] }).sections[0].page;
  assert.deepEqual([page({ size: 'Letter', orientation: 'landscape' }).width, page({ size: 'Letter', orientation: 'landscape' }).height], [792, 612]);
  assert.deepEqual([page({ size: [400, '100mm'] }).width, page({ size: [400, '100mm'] }).height], [400, 283.465]);
  assert.deepEqual(page({ margins: '1in' }).margins, { top: 72, right: 72, bottom: 72, left: 72 });
  assert.deepEqual(page({ margins: [36, '2cm'] }).margins, { top: 36, right: 56.693, bottom: 36, left: 56.693 });
  assert.deepEqual(page({ margins: [1, 2, 3, 4] }).margins, { top: 1, right: 2, bottom: 3, left: 4 });
  assert.equal(page({ margins: { top: '16px' } }).margins.top, 12);
  assert.equal(page({ footerDistance: 20 }).footerDistance, 20);
});

test('styles: defaults, named styles with extends, built-in headings, inline properties win', () => {
  const model = load({
    docloom: 1,
    defaults: { font: 'Times', size: 12, lineHeight: 1.5 },
    styles: { base: { color: '#abc', size: 9 }, note: { extends: 'base', italic: true, spaceAfter: 2 }, h1: { color: '#112233' } },
    body: [
      { p: 'n', style: 'note', size: 8 },
      { h1: 'Title' },
      { type: 'heading', level: 3, text: 'Sub' },
      { type: 'paragraph', runs: ['a', { text: 'b', bold: true, style: 'base' }, { field: 'pages' }], align: 'justify', firstLine: -10, tabs: [{ pos: 100, align: 'right', leader: 'dot' }] },
    ],
  });
  assert.deepEqual(model.defaults, { run: { font: 'Times', size: 12, color: '#000000' }, paragraph: { lineHeight: 1.5, spaceAfter: 6 } });
  const [note, h1, h3, para] = model.sections[0].body as Paragraph[];
  assert.deepEqual(note, { type: 'paragraph', runs: [{ type: 'text', text: 'n', style: { color: '#aabbcc', size: 8, italic: true } }], style: { spaceAfter: 2 } });
  assert.deepEqual(h1.runs[0], { type: 'text', text: 'Title', style: { size: 20, bold: true, color: '#112233' } });
  assert.equal(h1.style?.heading, 1);
  assert.equal(h3.style?.heading, 3);
  assert.deepEqual(para.runs, [
    { type: 'text', text: 'a' },
    { type: 'text', text: 'b', style: { color: '#aabbcc', size: 9, bold: true } },
    { type: 'field', field: 'pages' },
  ]);
  assert.deepEqual(para.style, { align: 'justify', indentFirstLine: -10, tabs: [{ pos: 100, align: 'right', leader: 'dot' }] });
});

test('lists: one id per list, levels, numbering formats, hanging indents', () => {
  const model = load({
    docloom: 1,
    body: [
      { type: 'list', ordered: true, start: 3, items: ['one', { text: 'two', items: ['two.a', { text: 'two.b', items: ['deep'] }] }, 'three'] },
      { type: 'list', items: ['bullet', { runs: [{ text: 'bold', bold: true }], items: ['sub'], ordered: true }] },
    ],
  });
  const paras = model.sections[0].body as Paragraph[];
  const summary = paras.map((p) => [p.list?.id, p.list?.level, p.list?.format, p.list?.text, p.style?.indentLeft, p.style?.indentFirstLine]);
  assert.deepEqual(summary, [
    ['list-1', 0, 'decimal', '%1.', 18, -18],
    ['list-1', 0, 'decimal', '%1.', 18, -18],
    ['list-1', 1, 'lowerLetter', '%2.', 36, -18],
    ['list-1', 1, 'lowerLetter', '%2.', 36, -18],
    ['list-1', 2, 'lowerRoman', '%3.', 54, -18],
    ['list-1', 0, 'decimal', '%1.', 18, -18],
    ['list-2', 0, 'bullet', '•', 18, -18],
    ['list-2', 0, 'bullet', '•', 18, -18],
    ['list-2', 1, 'lowerLetter', '%2.', 36, -18],
  ]);
  assert.equal(paras[0].list?.start, 3);
});

test('tables: column widths in points, percent and shares; header rows; cells of every form; inheritance', () => {
  const model = load({
    docloom: 1,
    page: { size: [700, 800], margins: 50 },
    body: [
      {
        type: 'table',
        size: 9,
        headerShading: '#ddeeff',
        columns: [100, '25%', '*', { width: '2*', header: 'D', align: 'right' }],
        header: ['A', 'B', 'C', 'D'],
        rows: [
          ['1', { text: '2', colSpan: 2, shading: '#eeeeee', vAlign: 'middle' }, 4],
          { cells: [['p1', { p: 'p2', italic: true }], { runs: ['x', { field: 'page' }] }, { blocks: [{ type: 'list', items: ['li'] }] }, 'z'], shading: '#ffffff', cantSplit: true },
        ],
      },
      { type: 'table', borders: false, position: 'center', cellPadding: 0, rows: [['a', 'b']] },
      { type: 'table', borders: { width: 2, color: '#ff0000', style: 'dashed' }, columns: [{ header: 'Only' }], rows: [], repeatHeader: false },
    ],
  });
  const [t1, t2, t3] = model.sections[0].body as Table[];
  // 600 wide: 100 fixed, 150 (25 %), and the remaining 350 shared 1:2.
  assert.deepEqual(t1.columns, [100, 150, 116.67, 233.33]);
  assert.deepEqual(t1.style, { cellPadding: 4, borders: { width: 0.5, color: '#999999' } });
  assert.equal(t1.rows[0].header, true);
  assert.equal(t1.rows[0].cells[0].shading, '#ddeeff');
  assert.deepEqual((t1.rows[0].cells[3].blocks[0] as Paragraph).runs[0], { type: 'text', text: 'D', style: { size: 9, bold: true } });
  assert.deepEqual(t1.rows[1].cells[1], {
    blocks: [{ type: 'paragraph', runs: [{ type: 'text', text: '2', style: { size: 9 } }], style: { spaceAfter: 0 } }],
    colSpan: 2,
    shading: '#eeeeee',
    vAlign: 'middle',
  });
  assert.deepEqual((t1.rows[1].cells[2].blocks[0] as Paragraph).style, { spaceAfter: 0, align: 'right' }, 'column 4 aligns right after the colspan');
  const row2 = t1.rows[2];
  assert.equal(row2.cantSplit, true);
  assert.equal(row2.cells[0].blocks.length, 2);
  assert.deepEqual((row2.cells[0].blocks[1] as Paragraph).runs[0], { type: 'text', text: 'p2', style: { size: 9, italic: true } });
  assert.deepEqual((row2.cells[1].blocks[0] as Paragraph).runs[1], { type: 'field', field: 'page', style: { size: 9 } });
  assert.equal((row2.cells[2].blocks[0] as Paragraph).list?.format, 'bullet');
  assert.ok(row2.cells.every((c) => c.shading === '#ffffff'));
  assert.deepEqual(t2.style, { cellPadding: 0, align: 'center', borders: null });
  assert.deepEqual(t2.columns, [300, 300]);
  assert.deepEqual(t3.style?.borders, { width: 2, color: '#ff0000', style: 'dashed' });
  assert.equal(t3.rows.length, 1);
  assert.equal(t3.rows[0].header, undefined);
});

test('images, rules and page breaks', () => {
  const model = load({
    docloom: 1,
    body: [
      { type: 'image', src: PNG_2x1, align: 'center' },
      { type: 'image', src: PNG_2x1, width: 100, alt: 'two by one' },
      { type: 'image', src: '{{%logo:120x60}}', align: 'right' },
      { type: 'paragraph', runs: ['before ', { image: PNG_2x1, height: 10 }, ' after'] },
      { type: 'rule', color: '#ff0000', thickness: 2 },
      { type: 'pageBreak' },
    ],
  });
  const body = model.sections[0].body;
  assert.deepEqual(body[0], { type: 'paragraph', runs: [{ type: 'image', src: PNG_2x1, width: 1.5, height: 0.75 }], style: { align: 'center' } });
  assert.deepEqual((body[1] as Paragraph).runs[0], { type: 'image', src: PNG_2x1, width: 100, height: 50, alt: 'two by one' });
  assert.deepEqual(body[2], { type: 'paragraph', runs: [{ type: 'text', text: '{{%logo:120x60}}' }], style: { align: 'right' } });
  assert.deepEqual((body[3] as Paragraph).runs[1], { type: 'image', src: PNG_2x1, width: 20, height: 10 });
  assert.deepEqual((body[4] as Paragraph).style?.borders, { bottom: { width: 2, color: '#ff0000' } });
  assert.deepEqual(body[5], { type: 'pageBreak' });
});

test('headers, footers, title page, sections, metadata and locale', () => {
  const model = load({
    docloom: 1,
    locale: 'de-de',
    metadata: { title: 'T', author: 'A', keywords: ['x', 'y'] },
    header: { first: ['First'], default: ['Default'], even: ['Even'] },
    footer: ['Footer'],
    sections: [
      { body: ['one'] },
      { page: { orientation: 'landscape' }, body: ['two'], header: ['Other'], titlePage: false },
    ],
  });
  assert.equal(model.locale, 'de-DE');
  assert.deepEqual(model.metadata, { title: 'T', author: 'A', keywords: 'x, y' });
  const [s1, s2] = model.sections;
  assert.equal(s1.titlePage, true);
  assert.deepEqual(Object.keys(s1.header ?? {}), ['default', 'first', 'even']);
  assert.equal((s1.footer?.default?.[0] as Paragraph).runs[0].type, 'text');
  // The footer has no "first": with a title page it keeps showing on page one.
  assert.equal(s1.footer?.first, s1.footer?.default);
  assert.equal(s2.page.width > s2.page.height, true);
  assert.equal(s2.titlePage, undefined);
  assert.deepEqual(Object.keys(s2.header ?? {}), ['default']);
  assert.ok(s2.footer, 'the template footer is inherited');
});

test('the model form loads and is checked field by field', () => {
  const source: TemplateModel = {
    version: 1,
    defaults: { run: { font: 'Helvetica', size: 10 }, paragraph: { spaceAfter: 4 } },
    locale: 'en-GB',
    metadata: { title: 'M' },
    sections: [{
      page: { width: 595, height: 842, margins: { top: 72, right: 72, bottom: 72, left: 72 }, headerDistance: 30 },
      titlePage: true,
      header: { first: [{ type: 'paragraph', runs: [{ type: 'field', field: 'page', style: { size: 8 } }] }] },
      body: [
        { type: 'paragraph', runs: [{ type: 'text', text: 'x', style: { bold: true, vertAlign: 'superscript' } }, { type: 'image', src: PNG_2x1, width: 10, height: 5 }], style: { heading: 2, borders: { bottom: { width: 1, color: '#000000' } } }, list: { id: 'a', level: 0, format: 'bullet', text: '•' } },
        { type: 'table', columns: [100, 200], rows: [{ header: true, cells: [{ blocks: [], colSpan: 2, vAlign: 'bottom' }] }], style: { borders: null, cellPadding: 2, run: { size: 8 } } },
        { type: 'pageBreak' },
      ],
    }],
  };
  assert.deepEqual(load(source), source);
  assert.match(refusal({ ...source, sections: [{ ...source.sections[0], body: [{ type: 'paragraph', runs: [{ type: 'text', text: 1 }] }] }] }), /^\$\.sections\[0\]\.body\[0\]\.runs\[0\]\.text: expected text/);
  assert.match(refusal({ ...source, sections: [{ ...source.sections[0], body: [{ type: 'paragraph', runs: [{ type: 'image', src: 'data:image/png;base64,AAAA', width: 1, height: 1 }] }] }] }), /runs\[0\]\.src: The image is not a PNG/);
  assert.match(refusal({ ...source, extra: 1 }), /^\$\.extra: unknown property "extra"/);
  assert.match(refusal({ version: 2, sections: [] }), /^\$\.version: expected a number from 1 to 1/);
});

test('invalid files are refused with the JSON path and a plain reason', () => {
  const cases: Array<[unknown, RegExp]> = [
    [[], /^\$: a docloom template is a JSON object/],
    [{ hello: 1 }, /^\$: not a docloom template/],
    [{ docloom: 2, body: [] }, /^\$\.docloom: expected a number from 1 to 1/],
    [{ docloom: 1 }, /^\$: a template needs a "body"/],
    [{ docloom: 1, body: {} }, /^\$\.body: expected an array, found an object/],
    [{ docloom: 1, body: [42] }, /^\$\.body\[0\]: expected an object, found number 42/],
    [{ docloom: 1, body: [{ text: 'x' }] }, /^\$\.body\[0\]: a block is a text, or an object with "type"/],
    [{ docloom: 1, body: [{ type: 'chart' }] }, /^\$\.body\[0\]\.type: expected one of "paragraph", "heading"/],
    [{ docloom: 1, body: [{ p: 'x', bolt: true }] }, /^\$\.body\[0\]\.bolt: unknown property "bolt"/],
    [{ docloom: 1, body: [{ p: 'x', color: 'red' }] }, /^\$\.body\[0\]\.color: expected a colour like "#1a2b3c", found the text "red"/],
    [{ docloom: 1, body: [{ p: 'x', size: '12 furlongs' }] }, /^\$\.body\[0\]\.size: expected a length/],
    [{ docloom: 1, body: [{ p: 'x', style: 'nope' }] }, /^\$\.body\[0\]\.style: there is no style named "nope"/],
    [{ docloom: 1, styles: { a: { extends: 'b' }, b: { extends: 'a' } }, body: [] }, /extend each other in a circle/],
    [{ docloom: 1, body: [{ type: 'table', rows: [['a', { text: 'b', colSpan: 0 }]] }] }, /^\$\.body\[0\]\.rows\[0\]\[1\]\.colSpan: expected a number from 1 to 1000, found 0/],
    [{ docloom: 1, body: [{ type: 'table', rows: [{ cells: [] }] }] }, /^\$\.body\[0\]\.rows\[0\]\.cells: a row needs at least one cell/],
    [{ docloom: 1, body: [{ type: 'table' }] }, /^\$\.body\[0\]: a table needs "rows" or a "header"/],
    [{ docloom: 1, body: [{ type: 'list', items: [{ bold: true }] }] }, /^\$\.body\[0\]\.items\[0\]: a list item needs "text"/],
    [{ docloom: 1, body: [{ type: 'image', src: 'https://example.com/logo.png' }] }, /^\$\.body\[0\]\.src: a template cannot fetch images/],
    [{ docloom: 1, body: [{ type: 'image', src: '{{%logo}}', width: 10 }] }, /the size of an image tag goes in the tag itself/],
    [{ docloom: 1, body: [{ type: 'image', src: 'data:image/png;base64,AAAA' }] }, /^\$\.body\[0\]\.src: The image is not a PNG/],
    [{ docloom: 1, body: [{ type: 'paragraph', text: 'a', runs: [] }] }, /give either "text" or "runs", not both/],
    [{ docloom: 1, body: [{ p: [{ text: 'x', align: 'right' }] }] }, /^\$\.body\[0\]\.p\[0\]\.align: unknown property "align"/],
    [{ docloom: 1, body: [{ p: [{ field: 'date' }] }] }, /^\$\.body\[0\]\.p\[0\]\.field: expected one of "page", "pages"/],
    [{ docloom: 1, page: { size: 'A9' }, body: [] }, /^\$\.page\.size: expected one of "A3", "A4"/],
    [{ docloom: 1, page: { margins: 400 }, body: [] }, /^\$\.page\.margins: the left and right margins leave less than half an inch/],
    [{ docloom: 1, locale: 'xx_invalid!', body: [] }, /^\$\.locale: "xx_invalid!" is not a valid locale/],
    [{ docloom: 1, body: [], sections: [] }, /^\$\.body: give either "body" or "sections"/],
    [{ docloom: 1, header: { odd: [] }, body: [] }, /^\$\.header\.odd: unknown property "odd"/],
    [{ docloom: 1, body: [{ p: 'x', link: 'javascript:alert(1)' }] }, /^\$\.body\[0\]\.link: a link must start with http/],
    [{ docloom: 1, body: [{ type: 'paragraph', runs: [{ text: 'x', style: 'h1' }] }] }, /a run can only use run properties/],
  ];
  for (const [doc, pattern] of cases) assert.match(refusal(doc), pattern, JSON.stringify(doc));
});

test('bytes that are not a JSON template are refused cleanly', () => {
  const messages = [
    new Uint8Array([0xff, 0xfe, 0x00]),
    new TextEncoder().encode('{"docloom": 1, "body": ['),
    new TextEncoder().encode(''),
    new TextEncoder().encode('null'),
    new TextEncoder().encode('\ufeff{"docloom":1,"body":["BOM is fine"]}'),
  ].map((bytes) => {
    try {
      return loadJsonTemplate(bytes).sections.length === 1 ? 'loaded' : 'odd';
    } catch (err) {
      assert.ok(err instanceof EngineError && err.code === 'invalid_template', String(err));
      return err.message;
    }
  });
  assert.match(messages[0], /not UTF-8/);
  assert.match(messages[1], /not valid JSON/);
  assert.match(messages[2], /not valid JSON/);
  assert.match(messages[3], /JSON object/);
  assert.equal(messages[4], 'loaded');
});

test('very deep nesting is refused, not a crash', () => {
  let blocks: unknown = ['x'];
  for (let i = 0; i < 40; i++) blocks = [{ type: 'table', rows: [[blocks]] }];
  assert.match(refusal({ docloom: 1, body: blocks }), /nested more than 24 levels/);
  const deepJson = `{"docloom":1,"body":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
  assert.throws(() => loadJsonTemplate(new TextEncoder().encode(deepJson)), (err: unknown) => err instanceof EngineError && err.code === 'invalid_template');
});

test('fuzz: thousands of mutated templates only ever give a model or an EngineError', () => {
  const base = {
    docloom: 1,
    page: { size: 'A4', margins: '15mm' },
    styles: { s: { bold: true, extends: 'h2' } },
    header: { first: ['{{x}}'], default: [{ p: 'y', style: 's' }] },
    body: [
      'text',
      { h1: 'T' },
      { type: 'list', ordered: true, items: ['a', { text: 'b', items: ['c'] }] },
      { type: 'table', columns: [100, '*', { width: '20%', header: 'H', align: 'right' }], rows: [['1', { text: '2', colSpan: 2 }], { cells: ['a', ['b'], { blocks: ['c'] }] }] },
      { type: 'image', src: PNG_2x1, width: 10 },
      { type: 'paragraph', runs: ['r', { text: 's', italic: true }, { field: 'page' }] },
      { type: 'rule' },
      { type: 'pageBreak' },
    ],
  };
  const rand = seededRandom(20261122);
  const pick = <T>(list: T[]): T => list[Math.floor(rand() * list.length)];
  const junk = (): unknown => pick<unknown>([null, true, false, 0, -1, 1e308, 3.5, '', 'x', '#fff', '10mm', 'A4', [], {}, [1, 'a'], { type: 'table' }, { p: null }, PNG_2x1.slice(0, 40)]);
  const mutate = (value: unknown, depth: number): unknown => {
    if (rand() < 0.015) return junk();
    if (Array.isArray(value)) {
      const out = value.map((v) => mutate(v, depth + 1));
      if (rand() < 0.02) out.splice(Math.floor(rand() * (out.length + 1)), 0, junk());
      if (rand() < 0.02 && out.length > 0) out.splice(Math.floor(rand() * out.length), 1);
      return out;
    }
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        if (rand() < 0.01) continue;
        out[rand() < 0.005 ? `${k}x` : k] = mutate(v, depth + 1);
      }
      return out;
    }
    return value;
  };
  assert.equal(loadJsonTemplate(new TextEncoder().encode(JSON.stringify(base))).sections.length, 1, 'the base template loads');
  let loaded = 0;
  let refused = 0;
  for (let i = 0; i < 3000; i++) {
    let bytes = new TextEncoder().encode(JSON.stringify(mutate(base, 0)));
    if (i % 10 === 0) bytes = bytes.subarray(0, Math.floor(rand() * bytes.length));
    if (i % 17 === 0) {
      bytes = new Uint8Array(bytes);
      for (let k = 0; k < 5; k++) bytes[Math.floor(rand() * bytes.length)] = Math.floor(rand() * 256);
    }
    try {
      loadJsonTemplate(bytes);
      loaded++;
    } catch (err) {
      if (!(err instanceof EngineError) || err.code !== 'invalid_template') assert.fail(`iteration ${i}: ${String(err)}\n${new TextDecoder().decode(bytes)}`);
      refused++;
    }
  }
  assert.ok(loaded > 100 && refused > 100, `both outcomes are exercised (loaded ${loaded}, refused ${refused})`);
});

test('every JSON example in docs/templates.md loads and compiles', async () => {
  const { compileTemplate } = await import('../../server/engine/index.js');
  const fs = await import('node:fs');
  const doc = fs.readFileSync(new URL('../../docs/templates.md', import.meta.url), 'utf8');
  const blocks = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]);
  let checked = 0;
  for (const text of blocks) {
    const value = JSON.parse(text) as Record<string, unknown>;
    let template: unknown;
    if (value.docloom === 1) template = value;
    else if (typeof value.type === 'string') template = { docloom: 1, body: [value] };
    else continue;
    const result = compileTemplate({ kind: 'json', bytes: new TextEncoder().encode(JSON.stringify(template)) });
    assert.ok(result.ok, `${text}\n${JSON.stringify(!result.ok && result.errors)}`);
    checked++;
  }
  assert.ok(checked >= 3, `examples checked: ${checked}`);
});
