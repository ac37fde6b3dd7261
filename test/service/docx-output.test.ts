/**
 * Filled .docx output: output_type=docx for DOCX templates, and the editable copy (editable=1) beside the PDF.
 * Both need the engine's DOCX filler on the facade (`fillDocx`); until it is exported there, the first test checks
 * that .docx output is refused cleanly and the others are skipped with that reason.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { pdfText, squash } from '../helpers/pdf.js';
import { createDocument, json, uploadTemplate } from './support.js';
import { docxFixture } from '../helpers/fixtures.js';

const FIXTURE = docxFixture('tag-example');

let s: TestServer;
let uuid: string;
before(async () => {
  s = await startTestServer();
  const up = await uploadTemplate(s, { name: 'tag-example.docx', bytes: fs.readFileSync(FIXTURE) }, { delimiters: '{ }' });
  assert.equal(up.status, 201, JSON.stringify(up.body));
  uuid = up.body.template.uuid;
});
after(async () => {
  await s.close();
});

/** The text of word/document.xml inside a .docx, tags stripped. */
function docxText(bytes: Uint8Array): string {
  const entry = unzipSync(bytes, { filter: (file) => file.name === 'word/document.xml' })['word/document.xml'];
  if (!entry) throw new Error('no word/document.xml');
  return strFromU8(entry).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
}

test('output_type=docx on a DOCX template gives the filled .docx; /api/info lists docx', async () => {
  const { status, body } = await createDocument(s, { template_id: uuid, data: JSON.stringify({ first_name: 'Hipp', last_name: 'Edgar' }), output_type: 'docx' });
  const info = await json(await s.api('/api/info'));
  assert.deepEqual(info.output_types, ['pdf', 'docx']);
  assert.equal(status, 201);
  assert.equal(body.document.status, 'completed', JSON.stringify(body.document.error));
  assert.equal(body.document.output_type, 'docx');
  assert.equal(body.document.output_filename, 'tag-example.docx');
  assert.equal(body.document.pages, null);
  const res = await fetch(body.document.download_url);
  assert.equal(res.headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  assert.match(docxText(new Uint8Array(await res.arrayBuffer())), /Hipp/);
});

test('editable=1 on a DOCX template keeps the filled .docx beside the PDF (editable_url)', async () => {
  const { body } = await createDocument(s, { template_id: uuid, data: JSON.stringify({ first_name: 'Hipp', last_name: 'Edgar' }), editable: '1' });
  const d = body.document;
  assert.equal(d.status, 'completed', JSON.stringify(d.error));
  assert.equal(d.editable, 1);
  assert.match(d.editable_url, /\/api\/document\/\d+\/editable\?expires=\d+&signature=[0-9a-f]{64}$/);
  assert.match(squash(pdfText(new Uint8Array(await (await fetch(d.download_url)).arrayBuffer()))), /Hipp/);
  const copy = await fetch(d.editable_url);
  assert.equal(copy.status, 200);
  assert.match(copy.headers.get('content-disposition') ?? '', /tag-example\.docx/);
  assert.match(docxText(new Uint8Array(await copy.arrayBuffer())), /Hipp/);
  const file = path.join(s.dataDir, 'documents/files/000000', `${d.id}.editable.docx`);
  assert.ok(fs.existsSync(file));
  await s.api(`/api/document/${d.id}`, { method: 'DELETE' });
  assert.equal(fs.existsSync(file), false);
});

test('a document without an editable copy has editable_url null and /editable answers 404', async () => {
  const { body } = await createDocument(s, { template_id: uuid, data: JSON.stringify({ first_name: 'A' }) });
  assert.equal(body.document.editable_url, null);
  assert.equal((await s.api(`/api/document/${body.document.id}/editable`)).status, 404);
});
