/**
 * Editable copies: fillDocx fills a .docx template, compiled by compileTemplate, with docloom's tag semantics.
 * Each test unzips the result and reads the filled parts (and re-imports the copy to read its paragraphs in
 * order).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { strFromU8, unzipSync, zipSync } from 'fflate';
import { EngineError } from '../../server/engine/errors.js';
import { fillDocx as fillPlan, type FillDocxOptions } from '../../server/engine/docx/fill.js';
import { importDocx } from '../../server/engine/docx/import.js';
import { compileTemplate } from '../../server/engine/index.js';
import { bindTemplate } from '../../server/engine/bind/bind.js';
import type { Block } from '../../server/engine/model/types.js';
import { buildDocx, makePng, p } from './build-docx.js';
import { paragraphText, texts } from './model-text.js';
import { DOCX_FIXTURES_DIR } from '../helpers/fixtures.js';

const FIXTURES = `${DOCX_FIXTURES_DIR}/`;
const BRACES = ['{', '}'] as const;

function fixture(name: string): Uint8Array {
  return new Uint8Array(fs.readFileSync(FIXTURES + name));
}

function parts(docx: Uint8Array): Record<string, string> {
  const files = unzipSync(docx);
  const out: Record<string, string> = {};
  for (const [name, bytes] of Object.entries(files)) if (name.endsWith('.xml') || name.endsWith('.rels')) out[name] = strFromU8(bytes);
  return out;
}

/** The visible text of a part: w:t contents, one line per paragraph. */
function partText(xml: string): string {
  return xml
    .split('</w:p>')
    .map((para) => [...para.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join(''))
    .filter((line) => line !== '')
    .join('\n');
}

function bodyOf(docx: Uint8Array): string[] {
  return texts(importDocx(docx).sections[0].body).filter((t) => t !== '');
}

/** compileTemplate's .docx half, as the service has it; a refusal is thrown as the EngineError it names. */
function compiled(bytes: Uint8Array, delimiters: readonly [string, string] = ['{{', '}}']) {
  const result = compileTemplate({ kind: 'docx', bytes, delimiters });
  if (!result.ok) throw new EngineError(result.errors[0].code, result.errors.map((e) => e.message).join(' '));
  assert.ok(result.docx, 'a .docx template compiles its filled-.docx half');
  return result.docx;
}

function fillDocx(bytes: Uint8Array, data: Record<string, unknown>, delimiters?: readonly [string, string], options?: FillDocxOptions): Promise<Uint8Array> {
  return fillPlan(compiled(bytes, delimiters), data, options);
}

/** The code of the EngineError `fn` throws or rejects with ('ok' when it does neither). */
async function engineCode(fn: () => Promise<unknown>): Promise<string> {
  try {
    await fn();
  } catch (err) {
    assert.ok(err instanceof EngineError, String(err));
    return err.code;
  }
  return 'ok';
}

test('a real Word template: body, header and footer tags are filled; the result is a valid .docx', async () => {
  const out = await fillDocx(fixture('tag-example.docx'), { first_name: 'Ada', last_name: 'Lovelace', phone: '+44 20 7946 0000', description: 'Analyst' }, BRACES);
  // A zip whose first entry starts with the local header signature, holding the content types and main part.
  assert.deepEqual([...out.subarray(0, 4)], [0x50, 0x4b, 0x03, 0x04]);
  const xml = parts(out);
  assert.ok(xml['[Content_Types].xml'] && xml['word/document.xml']);
  assert.equal(partText(xml['word/document.xml']), 'Lovelace Ada');
  assert.match(partText(xml['word/header1.xml']), /Lovelace Ada[\s\S]*\+44 20 7946 0000[\s\S]*Analyst/);
  assert.equal(partText(xml['word/footer1.xml']).replace(/\s+/g, ' '), 'LovelaceAda+44 20 7946 0000');
  for (const name of ['word/document.xml', 'word/header1.xml', 'word/footer1.xml']) assert.doesNotMatch(partText(xml[name]), /[{}]/);
  // The copy is itself a template docloom can read.
  assert.deepEqual(bodyOf(out), ['Lovelace Ada']);
});

test('paragraph loops, table-row loops and inverted sections of the fixtures', async () => {
  assert.deepEqual(bodyOf(await fillDocx(fixture('users.docx'), { users: ['Ann', 'Bob', 'Cy'] }, BRACES)), ['The users are', 'Ann', 'Bob', 'Cy']);
  const table = await fillDocx(
    fixture('tag-intelligent-loop-table.docx'),
    { clients: [{ first_name: 'A1', last_name: 'B1', phone: 'P1' }, { first_name: 'A2', last_name: 'B2', phone: 'P2' }] },
    BRACES,
  );
  const model = importDocx(table);
  const tbl = model.sections[0].body.find((b) => b.type === 'table');
  assert.ok(tbl && tbl.type === 'table');
  assert.deepEqual(
    tbl.rows.map((r) => r.cells.map((c) => texts(c.blocks).join(''))),
    [
      ['A1', 'B1', 'P1'],
      ['A2', 'B2', 'P2'],
    ],
  );
  assert.deepEqual(bodyOf(await fillDocx(fixture('tag-inverted-loop-example.docx'), { products: [] }, BRACES)), ['No products found']);
  assert.deepEqual(bodyOf(await fillDocx(fixture('tag-inverted-loop-example.docx'), { products: [{ name: 'x' }] }, BRACES)), []);
});

const BULLET = '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>';

test('a paragraph holding only a section repeats as a paragraph; inline sections repeat inline', async () => {
  const template = buildDocx({
    body:
      p('Items:') +
      p('{{#items}}{{name}}{{/items}}', BULLET) +
      p('Inline: {{#items}}[{{name}}]{{/items}} done') +
      '<w:p><w:r><w:t>{{#items}}</w:t></w:r></w:p>' +
      p('Block {{name}}') +
      '<w:p><w:r><w:t>{{/items}}</w:t></w:r></w:p>',
  });
  const out = await fillDocx(template, { items: [{ name: 'one' }, { name: 'two' }] });
  assert.deepEqual(bodyOf(out), ['Items:', 'one', 'two', 'Inline: [one][two] done', 'Block one', 'Block two']);
  // The repeated bullets keep their list formatting.
  assert.equal((parts(out)['word/document.xml'].match(/<w:numId w:val="1"\/>/g) ?? []).length, 2);
});

/** Every body paragraph, empty ones included, marked "• " when it is a list item. */
function bodyParagraphs(blocks: Block[]): string[] {
  return blocks.map((b) => (b.type === 'paragraph' ? `${b.list ? '• ' : ''}${paragraphText(b)}` : b.type));
}

test('a section tag alone in its paragraph takes the paragraph with it, as in the PDF: no empty bullet after the last item', async () => {
  const template = buildDocx({
    numbering:
      '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>',
    body:
      p('Proof:') +
      p('{{#proof}}It works because {{reason}}', BULLET) +
      p('{{/proof}}', BULLET) +
      p('{{#steps}}', BULLET) +
      p('Step {{name}}{{/steps}}', BULLET) +
      p('after'),
  });
  const compiled = compileTemplate({ kind: 'docx', bytes: template });
  assert.ok(compiled.ok);
  for (const data of [
    { proof: [{ reason: 'A' }, { reason: 'B' }], steps: [{ name: '1' }, { name: '2' }] },
    { proof: [], steps: [] },
  ]) {
    const copy = bodyParagraphs(importDocx(await fillDocx(template, data)).sections[0].body);
    const pdf = bodyParagraphs((await bindTemplate(compiled.template, data)).sections[0].body);
    // The editable copy holds exactly the paragraphs the PDF shows.
    assert.deepEqual(copy, pdf);
  }
  const filled = bodyParagraphs(importDocx(await fillDocx(template, { proof: [{ reason: 'A' }, { reason: 'B' }], steps: [{ name: '1' }] })).sections[0].body);
  assert.deepEqual(filled, ['Proof:', '• It works because A', '• It works because B', '• Step 1', 'after']);
  // The fixture written that way in Word: two bullets per list, none empty.
  const fixtureCopy = bodyParagraphs(importDocx(await fillDocx(fixture('tag-product-loop.docx'), {
    products: [{ title: 'T', name: 'N', reference: 'R', avantages: [{ title: 'A', proof: [{ reason: 'r1' }, { reason: 'r2' }] }] }],
  }, BRACES)).sections[0].body);
  assert.deepEqual(fixtureCopy.filter((t) => t.startsWith('•')), ['•  It works because r1', '•  It works because r2']);
});

test('a section filling the only cell of a row repeats the row', async () => {
  const cell = (text: string): string => `<w:tc>${p(text)}</w:tc>`;
  const template = buildDocx({
    body: `<w:tbl><w:tblGrid><w:gridCol w:w="3000"/></w:tblGrid><w:tr>${cell('Header')}</w:tr><w:tr>${cell('{{#rows}}{{.}}{{/rows}}')}</w:tr></w:tbl>`,
  });
  const tbl = importDocx(await fillDocx(template, { rows: ['r1', 'r2', 'r3'] })).sections[0].body[0];
  assert.ok(tbl.type === 'table');
  assert.deepEqual(tbl.rows.map((r) => texts(r.cells[0].blocks).join('')), ['Header', 'r1', 'r2', 'r3']);
});

test('names with dots and spaces, filters, defaults, conditions, missing values, line breaks', async () => {
  const template = buildDocx({
    body:
      p('{{customer.name}} / {{first name}} / {{customer.address.city | upper}}') +
      p('{{amount | number:2}} | {{price | currency:"EUR"}} | {{date | date:"D MMMM YYYY"}}') +
      p('[{{missing}}] [{{missing | default:"n/a"}}] [{{obj}}]') +
      p('{{#vip}}VIP {{customer.name}}{{/vip}}{{^vip}}regular{{/vip}} {{#none}}never{{/none}}') +
      p('{{notes}}'),
  });
  const data = {
    customer: { name: 'ACME', address: { city: 'Köln' } },
    'first name': 'Zoë',
    amount: 1234.5,
    price: 9.99,
    date: '2026-11-22',
    obj: { a: 1 },
    vip: true,
    none: [],
    notes: 'line one\nline two',
  };
  const out = await fillDocx(template, data, ['{{', '}}'], { locale: 'en-US' });
  const lines = bodyOf(out);
  assert.deepEqual(lines.slice(0, 4), ['ACME / Zoë / KÖLN', '1,234.50 | €9.99 | 22 November 2026', '[] [n/a] []', 'VIP ACME ']);
  // A line break in a value is a Word line break.
  assert.equal(lines[4], 'line one\nline two');
  assert.match(parts(out)['word/document.xml'], /line one<\/w:t><\/w:r><w:r><w:br\/>|line one<\/w:t><w:br\/>/);
  // The locale changes number formats, as for the PDF.
  // (Intl puts a no-break space before the euro sign.)
  assert.equal(bodyOf(await fillDocx(template, data, ['{{', '}}'], { locale: 'de-DE' }))[1].replace(/[\u00a0\u202f]/g, ' '), '1.234,50 | 9,99 € | 22 November 2026');
});

test('per-template delimiters', async () => {
  const template = buildDocx({ body: p('<<name>> and [[#xs]]<<.>>[[/xs]]') });
  assert.deepEqual(bodyOf(await fillDocx(template, { name: 'N' }, ['<<', '>>'])), ['N and [[#xs]][[/xs]]']);
  const square = buildDocx({ body: p('[name] [#xs][.],[/xs]') });
  assert.deepEqual(bodyOf(await fillDocx(square, { name: 'N', xs: [1, 2] }, ['[', ']'])), ['N 1,2,']);
});

test('{%image} embeds the picture: media file, relationship, content type, inline drawing sized like the PDF', async () => {
  const png = makePng(200, 100);
  const uri = `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
  const template = buildDocx({
    body: p('Logo: {{%logo:100x80}}') + p('{{#rows}}{{%icon}}{{/rows}}'),
    headers: { header1: p('{{%logo}}') },
    sectPr: '<w:sectPr><w:headerReference w:type="default" r:id="rId_header1"/><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>',
  });
  const out = await fillDocx(template, { logo: uri, rows: [{ icon: uri }, { icon: uri }] });
  const files = unzipSync(out);
  const media = Object.keys(files).filter((n) => n.startsWith('word/media/docloom_'));
  // One media file for one distinct image, however often it is shown.
  assert.deepEqual(media, ['word/media/docloom_image1.png']);
  assert.deepEqual([...files[media[0]]], [...png]);
  const xml = parts(out);
  assert.match(xml['word/_rels/document.xml.rels'], /Id="rIdDocloom\d+"[^>]*Target="media\/docloom_image1\.png"/);
  assert.match(xml['word/_rels/header1.xml.rels'], /Target="media\/docloom_image1\.png"/);
  assert.match(xml['[Content_Types].xml'], /Extension="png"/);
  // 200×100 px = 150×75 pt, fitted into 100×80 pt keeping the aspect ratio: 100×50 pt.
  assert.match(xml['word/document.xml'], /<wp:extent cx="1270000" cy="635000"\/>/);
  assert.equal((xml['word/document.xml'].match(/<w:drawing>/g) ?? []).length, 3);
  // Re-imported, the copy shows the pictures.
  const model = importDocx(out);
  const logo = model.sections[0].body[0];
  assert.ok(logo.type === 'paragraph');
  assert.deepEqual(logo.runs.map((r) => r.type), ['text', 'image']);
  assert.equal(texts(model.sections[0].header?.default).join(''), '<image>');
});

test('image values: empty is nothing, bad data is an error, URLs fetched as for the PDF: only those a tag uses, once each', async () => {
  const template = buildDocx({ body: p('[{{%logo}}]') + p('again {{%logo}}') });
  assert.deepEqual(bodyOf(await fillDocx(template, {})), ['[]', 'again ']);
  assert.equal(await engineCode(() => fillDocx(template, { logo: 'data:image/png;base64,AAAA' })), 'invalid_image');
  assert.equal(await engineCode(() => fillDocx(template, { logo: 'ftp://x/y.png' })), 'invalid_image');
  assert.equal(await engineCode(() => fillDocx(template, { logo: 'https://example.com/logo.png' })), 'image_url_not_allowed');
  const png = makePng(10, 10);
  const requested: string[] = [];
  const resolveImage = async (url: string) => {
    requested.push(url);
    if (url.endsWith('logo.png')) return { data: png, mime: 'image/png' };
    throw new EngineError('image_blocked', `blocked ${url}`, 'logo');
  };
  const out = await fillDocx(template, { logo: 'https://example.com/logo.png', other: 'https://example.com/not-an-image' }, undefined, { resolveImage });
  // The URL no tag uses is never fetched; the logo shown twice is fetched once and stored once.
  assert.deepEqual(requested, ['https://example.com/logo.png']);
  assert.ok(unzipSync(out)['word/media/docloom_image1.png']);
  assert.equal(Object.keys(unzipSync(out)).filter((n) => n.startsWith('word/media/')).length, 1);
  // A fetch the resolver refuses fails the fill with the resolver's own error, as the PDF does.
  assert.equal(await engineCode(() => fillDocx(template, { logo: 'https://example.com/x.gif' }, undefined, { resolveImage })), 'image_blocked');
});

test('{$page} and {$pages} become Word page fields; comments vanish', async () => {
  const out = await fillDocx(buildDocx({ body: p('Page {{$page}} of {{$pages}}{{! internal note }}') }), {});
  const xml = parts(out)['word/document.xml'];
  assert.match(xml, /<w:fldSimple w:instr=" PAGE ">/);
  assert.match(xml, /<w:fldSimple w:instr=" NUMPAGES ">/);
  assert.doesNotMatch(xml, /internal note/);
  assert.deepEqual(bodyOf(out), ['Page <page> of <pages>']);
});

test('what the importer refuses is refused before anything is filled, with the same errors', async () => {
  assert.equal(await engineCode(() => fillDocx(new TextEncoder().encode('not a docx'), {})), 'unsupported_file');
  const bomb = buildDocx({ body: p('x'), extra: { 'word/media/zeros.bin': new Uint8Array(5 * 1024 * 1024) } });
  assert.equal(await engineCode(() => fillDocx(bomb, {})), 'too_large');
});

test('a part stored as UTF-16 is filled and written back as UTF-8 that says so', async () => {
  const files = unzipSync(buildDocx({ body: p('Dear {{name}}, Ünïcödé stays') }));
  const xml = strFromU8(files['word/document.xml']).replace(/encoding="UTF-8"/, 'encoding="UTF-16"');
  assert.match(xml, /^<\?xml[^>]*encoding="UTF-16"/);
  // UTF-16LE with its byte order mark, as Word can save a part.
  files['word/document.xml'] = new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]));
  const out = await fillDocx(zipSync(files), { name: 'Zoë' });
  const written = unzipSync(out)['word/document.xml'];
  assert.notDeepEqual([...written.subarray(0, 2)], [0xff, 0xfe], 'no UTF-16 byte order mark on UTF-8 bytes');
  const text = strFromU8(written);
  assert.match(text, /^<\?xml[^>]*encoding="UTF-8"/);
  assert.deepEqual(bodyOf(out), ['Dear Zoë, Ünïcödé stays']);
});
