/**
 * Safe import: every hostile or broken file is crafted here and must end in the right EngineError (the service
 * maps unsupported_file → 415, too_large → 413, invalid_template → 422) — never another exception, never a hang.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { EngineError } from '../../server/engine/errors.js';
import { importDocx } from '../../server/engine/docx/import.js';
import { buildDocx, p, W_NS } from './build-docx.js';
import { bodyTexts } from './model-text.js';
import { DOCX_FIXTURES_DIR } from '../helpers/fixtures.js';

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof EngineError, `expected an EngineError, got ${String(err)}`);
    return err.code;
  }
  return 'ok';
}

function importCode(bytes: Uint8Array, limits?: Parameters<typeof importDocx>[1]): string {
  return code(() => importDocx(bytes, limits));
}

/** Offsets of the central directory entries of a zip (signature PK\x01\x02). */
function centralEntries(bytes: Uint8Array): Array<{ at: number; name: string }> {
  const out: Array<{ at: number; name: string }> = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i + 46 < bytes.length; i++) {
    if (view.getUint32(i, true) !== 0x02014b50) continue;
    const nameLen = view.getUint16(i + 28, true);
    out.push({ at: i, name: Buffer.from(bytes.subarray(i + 46, i + 46 + nameLen)).toString('latin1') });
  }
  return out;
}

function patchDeclaredSize(bytes: Uint8Array, entry: string, size: number): Uint8Array {
  const copy = new Uint8Array(bytes);
  const target = centralEntries(copy).find((e) => e.name === entry);
  assert.ok(target, `no entry ${entry}`);
  new DataView(copy.buffer).setUint32(target.at + 24, size, true);
  return copy;
}

const MAIN_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function pkg(files: Record<string, string | Uint8Array>): Uint8Array {
  const z: Zippable = {};
  for (const [name, content] of Object.entries(files)) z[name] = typeof content === 'string' ? strToU8(content) : content;
  return zipSync(z);
}

test('only real .docx files are accepted: anything else is unsupported_file', () => {
  assert.equal(importCode(new Uint8Array(0)), 'unsupported_file');
  assert.equal(importCode(strToU8('%PDF-1.7\n%âãÏÓ\n1 0 obj')), 'unsupported_file');
  assert.equal(importCode(strToU8('{"version":1}')), 'unsupported_file');
  // Password-protected Word files are OLE compound files, not zips.
  assert.equal(importCode(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0])), 'unsupported_file');
  // A zip, but no [Content_Types].xml.
  assert.equal(importCode(pkg({ 'word/document.xml': `<w:document ${W_NS}><w:body/></w:document>` })), 'unsupported_file');
  // Content types and relationships, but the main part is missing.
  const rels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`;
  const types = `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="${MAIN_TYPE}"/></Types>`;
  assert.equal(importCode(pkg({ '[Content_Types].xml': types, '_rels/.rels': rels })), 'unsupported_file');
  // An Excel workbook is a valid OPC package, but not a Word document.
  const xlsxTypes = `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>`;
  const xlsxRels = rels.replace('word/document.xml', 'xl/workbook.xml');
  assert.equal(importCode(pkg({ '[Content_Types].xml': xlsxTypes, '_rels/.rels': xlsxRels, 'xl/workbook.xml': '<workbook/>' })), 'unsupported_file');
  // The same package with a Word main part is fine.
  assert.equal(importCode(pkg({ '[Content_Types].xml': types, '_rels/.rels': rels, 'word/document.xml': `<w:document ${W_NS}><w:body>${p('ok')}</w:body></w:document>` })), 'ok');
});

test('zip bombs are refused from the central directory, before anything is inflated', () => {
  const good = buildDocx({ body: p('hello') });
  // The directory claims 200 MB for one entry that really holds a few bytes: if it were inflated, its size
  // would not match and the error would be invalid_template. too_large proves only the directory was read.
  const claims = patchDeclaredSize(good, 'word/document.xml', 200 * 1024 * 1024);
  assert.equal(importCode(claims), 'too_large');
  // Many entries that each stay under the ratio but add up past the total limit.
  const big = buildDocx({ body: p('x'), extra: Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`word/media/n${i}.bin`, randomBytes(300_000)])) });
  assert.equal(importCode(big), 'ok');
  assert.equal(importCode(big, { limits: { maxUncompressedBytes: 1_000_000 } }), 'too_large');
  // One highly compressible entry: ratio over 100 (the default), or over a lower configured ratio.
  const zeros = buildDocx({ body: p('x'), extra: { 'word/media/zeros.bin': new Uint8Array(5 * 1024 * 1024) } });
  assert.equal(importCode(zeros), 'too_large');
  const text = buildDocx({ body: p('x'), extra: { 'word/notes.txt': 'abcdefgh'.repeat(20_000) } });
  assert.equal(importCode(text, { limits: { maxEntryRatio: 1000 } }), 'ok');
  assert.equal(importCode(text, { limits: { maxEntryRatio: 10 } }), 'too_large');
  // Too many entries.
  const many = buildDocx({ body: p('x'), extra: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`e/${i}.txt`, 'x'])) });
  assert.equal(importCode(many, { limits: { maxEntries: 20 } }), 'too_large');
});

test('an entry that inflates past its declared size is stopped (damaged, not a memory bomb)', () => {
  const words = Array.from(randomBytes(60_000), (b) => String.fromCharCode(97 + (b % 26))).join('');
  const docXml = `<?xml version="1.0"?><w:document ${W_NS}><w:body>${p(words)}</w:body></w:document>`;
  const good = pkg({
    '[Content_Types].xml': `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="${MAIN_TYPE}"/></Types>`,
    '_rels/.rels': `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
    'word/document.xml': docXml,
  });
  assert.equal(importCode(good), 'ok');
  assert.equal(importCode(patchDeclaredSize(good, 'word/document.xml', 5000)), 'invalid_template');
  // A truncated file has lost its directory.
  assert.equal(importCode(good.subarray(0, good.length - 30)), 'invalid_template');
});

test('DOCTYPEs are refused: entities are never declared, expanded or fetched', () => {
  const laughs =
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>' +
    `<w:document ${W_NS}><w:body><w:p><w:r><w:t>&lol3;</w:t></w:r></w:p></w:body></w:document>`;
  const external = `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><w:document ${W_NS}><w:body><w:p><w:r><w:t>&xxe;</w:t></w:r></w:p></w:body></w:document>`;
  for (const xml of [laughs, external]) {
    const bytes = buildDocx({ body: p('placeholder') });
    const files = replaceEntry(bytes, 'word/document.xml', xml);
    let message = '';
    try {
      importDocx(files);
    } catch (err) {
      assert.ok(err instanceof EngineError);
      assert.equal(err.code, 'invalid_template');
      message = err.message;
    }
    assert.match(message, /DOCTYPE/);
    assert.doesNotMatch(message, /root:/);
  }
  // An undeclared entity reference is an error, not an empty string.
  const undeclared = replaceEntry(buildDocx({ body: p('x') }), 'word/document.xml', `<w:document ${W_NS}><w:body><w:p><w:r><w:t>&nbsp;</w:t></w:r></w:p></w:body></w:document>`);
  assert.equal(importCode(undeclared), 'invalid_template');
  // The predefined entities and character references are read.
  const fine = replaceEntry(buildDocx({ body: p('x') }), 'word/document.xml', `<w:document ${W_NS}><w:body><w:p><w:r><w:t>&lt;a&gt; &amp; &#8364;&#x263A;</w:t></w:r></w:p></w:body></w:document>`);
  assert.deepEqual(bodyTexts(importDocx(fine)), ['<a> & €☺']);
});

test('corrupt XML is invalid_template, in the main part and in the parts it needs', () => {
  const cases = [
    `<w:document ${W_NS}><w:body><w:p><w:r><w:t>unclosed</w:r></w:p></w:body></w:document>`,
    `<w:document ${W_NS}><w:body><w:p>`,
    `<w:document ${W_NS}><w:body/></w:document><second/>`,
    `<w:document ${W_NS} w:a="1" w:a="2"><w:body/></w:document>`,
    `<w:document ${W_NS}><w:body><w:p w:x=unquoted/></w:body></w:document>`,
    'not xml at all',
    `<w:document ${W_NS}>${'<w:sdt><w:sdtContent>'.repeat(2000)}</w:document>`,
  ];
  // (The ratio limit is lifted: the deeply nested case compresses very well.)
  const lifted = { limits: { maxEntryRatio: 1_000_000 } };
  for (const xml of cases) assert.equal(importCode(replaceEntry(buildDocx({ body: p('x') }), 'word/document.xml', xml), lifted), 'invalid_template', xml.slice(0, 60));
  const badStyles = replaceEntry(buildDocx({ body: p('x'), styles: '' }), 'word/styles.xml', '<w:styles><w:style></w:styles>');
  assert.equal(importCode(badStyles), 'invalid_template');
  // A document without a body is not a template.
  assert.equal(importCode(replaceEntry(buildDocx({ body: p('x') }), 'word/document.xml', `<w:document ${W_NS}/>`)), 'invalid_template');
});

test('macros, ActiveX controls and external links are ignored, never read or followed', () => {
  const damaged = new Uint8Array([1, 2, 3]);
  const body =
    p('with macros') +
    // An ActiveX control (w:object/w:control) and a picture linked (not embedded) from the web.
    `<w:p><w:r><w:object><w:control r:id="rIdAx" w:name="CheckBox1"/></w:object></w:r><w:r><w:drawing><wp:inline><wp:extent cx="12700" cy="12700"/><wp:docPr id="2" name="linked"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:blipFill><a:blip r:link="rIdRemote"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>` +
    `<w:altChunk r:id="rIdChunk"/>`;
  const bytes = buildDocx({
    body,
    rels: {
      rIdVba: ['vbaProject', 'vbaProject.bin'],
      rIdAx: ['control', 'activeX/activeX1.xml'],
      rIdRemote: ['image', 'http://127.0.0.1:9/tracker.png', true],
      rIdChunk: ['aFChunk', 'http://127.0.0.1:9/chunk.html', true],
      rIdTpl: ['attachedTemplate', 'file:///C:/templates/evil.dotm', true],
    },
    extra: { 'word/vbaProject.bin': damaged, 'word/activeX/activeX1.xml': '<broken' },
  });
  const model = importDocx(bytes);
  assert.deepEqual(bodyTexts(model), ['with macros']);
  const json = JSON.stringify(model);
  assert.doesNotMatch(json, /127\.0\.0\.1|vbaProject|activeX|evil/);
});

test('a macro-enabled document (.docm content type) imports without its macros', () => {
  const bytes = buildDocx({ body: p('docm body'), extra: { 'word/vbaProject.bin': new Uint8Array([0xd0, 0xcf, 0x11, 0xe0]) } });
  const docm = replaceEntry(
    bytes,
    '[Content_Types].xml',
    `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.ms-word.document.macroEnabled.main+xml"/></Types>`,
  );
  assert.deepEqual(bodyTexts(importDocx(docm)), ['docm body']);
});

test('random damage to real templates only ever yields a model or an EngineError', () => {
  const dir = `${DOCX_FIXTURES_DIR}/`;
  const fixtures = ['tag-example.docx', 'sdt-content.docx', 'loop-image-footer.docx', 'table-complex-example.docx'];
  let seed = 42;
  const rand = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const outcomes = new Map<string, number>();
  for (const name of fixtures) {
    const original = new Uint8Array(fs.readFileSync(dir + name));
    for (let round = 0; round < 60; round++) {
      const bytes = new Uint8Array(original);
      const hits = 1 + Math.floor(rand() * 8);
      for (let h = 0; h < hits; h++) bytes[Math.floor(rand() * bytes.length)] = Math.floor(rand() * 256);
      const result = importCode(round % 10 === 9 ? bytes.subarray(0, Math.floor(rand() * bytes.length)) : bytes);
      outcomes.set(result, (outcomes.get(result) ?? 0) + 1);
    }
  }
  // Damage is detected (checksums, structure) rather than imported as garbage most of the time.
  assert.ok((outcomes.get('invalid_template') ?? 0) > 100, JSON.stringify([...outcomes]));
  for (const key of outcomes.keys()) assert.ok(['ok', 'invalid_template', 'unsupported_file', 'too_large'].includes(key), key);
});

function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = 123456789;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

function replaceEntry(bytes: Uint8Array, name: string, content: string): Uint8Array {
  const files = unzipSync(bytes) as Zippable;
  files[name] = strToU8(content);
  return zipSync(files);
}
