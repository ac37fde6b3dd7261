/**
 * Template files the engine refuses as a whole answer by kind: not a Word document → 415, over the .docx zip
 * limits (config.limits) → 413 naming the limit, damaged → 422. And a .json template names itself.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { zipSync, strToU8 } from 'fflate';
import { buildDocx, p } from '../docx/build-docx.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { json, jsonTemplate, uploadTemplate } from './support.js';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

const CENTRAL_ENTRY = 0x02014b50;

/** The zip with the uncompressed size its central directory declares for `entry` replaced by `size`. */
function claimSize(zip: Uint8Array, entry: string, size: number): Uint8Array {
  const out = new Uint8Array(zip);
  const view = new DataView(out.buffer);
  for (let at = 0; at + 46 <= out.length; at++) {
    if (view.getUint32(at, true) !== CENTRAL_ENTRY) continue;
    const nameLength = view.getUint16(at + 28, true);
    const name = new TextDecoder().decode(out.subarray(at + 46, at + 46 + nameLength));
    if (name === entry) {
      view.setUint32(at + 24, size, true);
      return out;
    }
  }
  throw new Error(`no central directory entry ${entry}`);
}

const WORD = (body: string) => buildDocx({ body: p(body) });

async function templateCount(): Promise<number> {
  return (await json(await s.api('/api/template'))).templates.total as number;
}

test('a .docx that is not a zip → 415 with the engine\'s reason', async () => {
  const before = await templateCount();
  const { status, body } = await uploadTemplate(s, { name: 'fake.docx', bytes: Buffer.from('just some text, not a Word file') });
  assert.equal(status, 415, JSON.stringify(body));
  assert.equal(body.success, false);
  assert.match(body.message, /Word|\.docx/);
  assert.equal(body.errors, undefined, 'errors only come with 422');
  assert.equal(await templateCount(), before);
});

test('a zip without word/document.xml → 415', async () => {
  const noMain = zipSync({
    '[Content_Types].xml': strToU8('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>'),
    'notes.txt': strToU8('hello'),
  });
  const { status, body } = await uploadTemplate(s, { name: 'no-main.docx', bytes: noMain });
  assert.equal(status, 415, JSON.stringify(body));
  assert.match(body.message, /word\/document\.xml|main/);
  const notEvenOpc = await uploadTemplate(s, { name: 'plain.docx', bytes: zipSync({ 'a.txt': strToU8('a') }) });
  assert.equal(notEvenOpc.status, 415);
});

test('a file that is neither .docx nor .json → 415', async () => {
  const { status, body } = await uploadTemplate(s, { name: 'letter.odt', bytes: WORD('x') });
  assert.equal(status, 415);
  assert.match(body.message, /\.docx.*\.json/);
});

test('zip bombs → 413 naming the limit: an entry that expands more than 100 times; entries that claim more than 100 MB', async () => {
  // 4 MB of zeros deflate to a few KB: a ratio in the thousands.
  const ratioBomb = buildDocx({ body: p('Hello'), extra: { 'word/media/padding.bin': new Uint8Array(4 * 1024 * 1024) } });
  assert.ok(ratioBomb.length < 100 * 1024, 'the bomb itself is small');
  const ratio = await uploadTemplate(s, { name: 'ratio.docx', bytes: ratioBomb });
  assert.equal(ratio.status, 413, JSON.stringify(ratio.body));
  assert.match(ratio.body.message, /limit is 100 times/);

  const claimed = claimSize(WORD('Hello'), 'word/document.xml', 200 * 1024 * 1024);
  const big = await uploadTemplate(s, { name: 'claims.docx', bytes: claimed });
  assert.equal(big.status, 413, JSON.stringify(big.body));
  assert.match(big.body.message, /104857600 bytes/);

  // A damaged zip is not a limit: 422 on the file field.
  const damaged = WORD('Hello');
  damaged.fill(0, 40, 200);
  const broken = await uploadTemplate(s, { name: 'damaged.docx', bytes: damaged });
  assert.equal(broken.status, 422, JSON.stringify(broken.body));
  assert.equal(broken.body.errors.file.length, 1);
});

test('the .docx limits come from the configuration (a small uncompressed limit refuses an ordinary file)', async () => {
  const doc = WORD('A paragraph that is long enough. '.repeat(200));
  const ok = await uploadTemplate(s, { name: 'ordinary.docx', bytes: doc });
  assert.equal(ok.status, 201, JSON.stringify(ok.body));
  const small = await startTestServer({ limits: { docxUncompressedBytes: 4096 } });
  try {
    const refused = await uploadTemplate(small, { name: 'ordinary.docx', bytes: doc });
    assert.equal(refused.status, 413, JSON.stringify(refused.body));
    assert.match(refused.body.message, /4096 bytes/);
  } finally {
    await small.close();
  }
});

test('a .json template without a name field is named from its own "name", else from the file name', async () => {
  const authored = Buffer.from(JSON.stringify({ docloom: 1, name: '  Quarterly report ', description: 'Numbers by quarter.', body: ['Q{{quarter}}'] }));
  const own = await uploadTemplate(s, { name: 'report-v3.json', bytes: authored });
  assert.equal(own.status, 201, JSON.stringify(own.body));
  assert.equal(own.body.template.name, 'Quarterly report');
  assert.equal(own.body.template.description, 'Numbers by quarter.');

  const given = await uploadTemplate(s, { name: 'report-v3.json', bytes: authored }, { name: 'Given name', description: '' });
  assert.equal(given.body.template.name, 'Given name', 'the form field wins');
  assert.equal(given.body.template.description, '');

  const blank = await uploadTemplate(s, { name: 'report-v3.json', bytes: authored }, { name: '   ' });
  assert.equal(blank.body.template.name, 'Quarterly report', 'a blank form name counts as none');

  const nameless = await uploadTemplate(s, { name: 'plain-model.json', bytes: jsonTemplate(['x']) });
  assert.equal(nameless.body.template.name, 'plain-model');
  const unnamed = await uploadTemplate(s, { name: 'unnamed.json', bytes: Buffer.from(JSON.stringify({ docloom: 1, body: ['x'] })) });
  assert.equal(unnamed.status, 201, JSON.stringify(unnamed.body));
  assert.equal(unnamed.body.template.name, 'unnamed');
  assert.equal(unnamed.body.template.description, '');
});
