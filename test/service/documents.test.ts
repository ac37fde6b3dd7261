/** POST/GET/DELETE /api/document over real HTTP: the pipeline, field types, output names, test, password, failures. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { pdfInfo, pdfText, qpdfEncryption, squash } from '../helpers/pdf.js';
import { INVOICE_DATA, createDocument, createInvoiceTemplate, json, jsonTemplate, recordsOnDisk, uploadTemplate } from './support.js';
import type { Body } from './support.js';

let s: TestServer;
let invoice: Body;
before(async () => {
  s = await startTestServer();
  invoice = await createInvoiceTemplate(s, { output_filename: 'Invoice {{number}}' });
});
after(async () => {
  await s.close();
});

const DATETIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

async function download(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
  const res = await fetch(url, init);
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

function docFile(id: number, ext = 'pdf'): string {
  return path.join(s.dataDir, 'documents', 'files', String(Math.floor((id - 1) / 1000)).padStart(6, '0'), `${id}.${ext}`);
}

/**
 * Every interface field with its interface type (spec §2.1), and the extras. `cloud_url` is typed per response:
 * nullable in the list, a plain string in the single-document response (create and read).
 */
function assertDocumentTypes(d: Body, shape: 'single' | 'list' = 'single'): void {
  assert.deepEqual(Object.keys(d), [
    'id', 'status', 'output_filename', 'output_type', 'template_id', 'editable', 'password', 'test', 'expires_at',
    'expired', 'cloud_id', 'cloud_url', 'created_at', 'updated_at', 'download_url',
    'template_uuid', 'error', 'pages', 'size', 'editable_url',
  ]);
  assert.ok(Number.isInteger(d.id));
  assert.equal(typeof d.status, 'string');
  assert.ok(d.output_filename === null || typeof d.output_filename === 'string');
  assert.equal(typeof d.output_type, 'string');
  assert.ok(Number.isInteger(d.template_id));
  assert.ok(d.editable === 0 || d.editable === 1);
  assert.ok(d.password === null || typeof d.password === 'string');
  assert.ok(d.test === 0 || d.test === 1);
  assert.match(d.expires_at, DATETIME);
  assert.ok(d.expired === 0 || d.expired === 1);
  assert.equal(d.cloud_id, null);
  assert.equal(d.cloud_url, shape === 'single' ? '' : null);
  assert.match(d.created_at, DATETIME);
  assert.match(d.updated_at, DATETIME);
  assert.match(d.download_url, /^http:\/\/127\.0\.0\.1:\d+\/api\/document\/\d+\/download\?expires=\d+&signature=[0-9a-f]{64}$/);
}

test('multipart create → 201 completed, the record typed as the interface says, the PDF holds the data', async () => {
  const { status, body } = await createDocument(s, { template_id: invoice.uuid, data: JSON.stringify(INVOICE_DATA), output_type: 'pdf', test: '0' });
  assert.equal(status, 201);
  assert.equal(body.success, true);
  const d = body.document;
  assertDocumentTypes(d);
  assert.equal(d.status, 'completed');
  assert.equal(d.template_id, invoice.id);
  assert.equal(d.template_uuid, invoice.uuid);
  assert.equal(d.output_filename, 'Invoice INV-0042.pdf');
  assert.equal(d.output_type, 'pdf');
  assert.equal(d.test, 0);
  assert.equal(d.error, null);
  assert.equal(d.pages, 1);
  assert.equal(d.editable_url, null);
  // expires_at = created_at + the template's 43,200 minutes.
  assert.equal(Date.parse(d.expires_at) - Date.parse(d.created_at), 43_200 * 60_000);

  const file = await download(d.download_url);
  assert.equal(file.status, 200);
  assert.equal(file.headers.get('content-type'), 'application/pdf');
  assert.equal(file.headers.get('content-disposition'), 'attachment; filename="Invoice INV-0042.pdf"');
  assert.equal(file.bytes.byteLength, d.size);
  assert.equal(squash(pdfText(file.bytes)), 'Invoice INV-0042 Customer: Ada Lovelace Analytical engine: 1200.00 Punched cards: 35.50');
  assert.ok(fs.existsSync(docFile(d.id)));

  const single = await json(await s.api(`/api/document/${d.id}`));
  assertDocumentTypes(single.document);
  const list = await json(await s.api('/api/document'));
  assertDocumentTypes(list.documents.data[0], 'list');
});

test('urlencoded and JSON bodies work too (JSON may give data as an object); template id by integer', async () => {
  const form = await s.api('/api/document', { method: 'POST', body: new URLSearchParams({ template_id: invoice.uuid, data: JSON.stringify(INVOICE_DATA) }) });
  assert.equal(form.status, 201);
  const body = await s.api('/api/document', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ template_id: invoice.id, data: { number: 'J-1' }, unknown_field: 'ignored' }),
  });
  assert.equal(body.status, 201);
  const d = (await json(body)).document;
  assert.equal(d.output_filename, 'Invoice J-1.pdf');
  assert.equal(squash(pdfText((await download(d.download_url)).bytes)).startsWith('Invoice J-1 Customer:'), true);
});

test('output_filename: the request\'s (unsafe characters replaced, extension appended), the template name as a fallback', async () => {
  const named = await createDocument(s, { template_id: invoice.uuid, data: '{}', output_filename: 'a/b\\c:d*e?f"g<h>i|j' });
  assert.equal(named.body.document.output_filename, 'a_b_c_d_e_f_g_h_i_j.pdf');
  const dotted = await createDocument(s, { template_id: invoice.uuid, data: '{}', output_filename: 'report.PDF' });
  assert.equal(dotted.body.document.output_filename, 'report.pdf');
  const plain = await uploadTemplate(s, { name: 'letter.json', bytes: jsonTemplate(['Dear {{name}}']) }, { name: 'Cover letter' });
  const fallback = await createDocument(s, { template_id: plain.body.template.uuid, data: '{"name":"Bob"}' });
  assert.equal(fallback.body.document.output_filename, 'Cover letter.pdf');
});

test('a non-ASCII file name is sent with RFC 5987 filename*', async () => {
  const { body } = await createDocument(s, { template_id: invoice.uuid, data: '{}', output_filename: 'Rechnung Müller – 2026' });
  assert.equal(body.document.output_filename, 'Rechnung Müller – 2026.pdf');
  const file = await download(`${s.url}/api/document/${body.document.id}/download`, { headers: { authorization: `Bearer ${s.token}` } });
  assert.equal(file.status, 200);
  const cd = file.headers.get('content-disposition') ?? '';
  assert.match(cd, /^attachment; filename="Rechnung M.ller . 2026\.pdf"; filename\*=UTF-8''Rechnung%20M%C3%BCller%20%E2%80%93%202026\.pdf$/);
});

test('test=1 puts the TEST DOCUMENT watermark on the page', async () => {
  const plain = await createDocument(s, { template_id: invoice.uuid, data: JSON.stringify(INVOICE_DATA) });
  assert.doesNotMatch(squash(pdfText((await download(plain.body.document.download_url)).bytes)).replace(/\s/g, ''), /TESTDOCUMENT/);
  const { body } = await createDocument(s, { template_id: invoice.uuid, data: JSON.stringify(INVOICE_DATA), test: '1' });
  assert.equal(body.document.test, 1);
  const text = squash(pdfText((await download(body.document.download_url)).bytes));
  // The watermark is drawn diagonally, so pdftotext may split its letters.
  assert.match(text.replace(/\s/g, ''), /TESTDOCUMENT/);
  assert.match(text, /Ada Lovelace/);
});

test('password (request, else the template\'s) encrypts the PDF; the record shows it', async () => {
  const { body } = await createDocument(s, { template_id: invoice.uuid, data: JSON.stringify(INVOICE_DATA), password: 's3cret' });
  assert.equal(body.document.password, 's3cret');
  const bytes = (await download(body.document.download_url)).bytes;
  assert.match(qpdfEncryption(bytes, 's3cret'), /R = [46]/);
  assert.match(squash(pdfText(bytes, { password: 's3cret' })), /Ada Lovelace/);
  assert.equal(pdfInfo(bytes, { password: 's3cret' }).Encrypted?.startsWith('yes'), true);

  const locked = await uploadTemplate(s, { name: 'locked.json', bytes: jsonTemplate(['Secret {{x}}']) }, { password: 'tpl-pass', expiration: '60' });
  assert.equal(locked.status, 201);
  const d = (await createDocument(s, { template_id: locked.body.template.uuid, data: '{"x":"42"}' })).body.document;
  assert.equal(d.password, 'tpl-pass');
  assert.equal(Date.parse(d.expires_at) - Date.parse(d.created_at), 60 * 60_000);
  assert.match(squash(pdfText((await download(d.download_url)).bytes, { password: 'tpl-pass' })), /Secret 42/);
  assert.ok(!s.logs.join('\n').includes('s3cret'));
});

test('expiration in the request wins over the template\'s', async () => {
  const { body } = await createDocument(s, { template_id: invoice.uuid, data: '{}', expiration: '5' });
  assert.equal(Date.parse(body.document.expires_at) - Date.parse(body.document.created_at), 5 * 60_000);
});

test('a document the engine cannot make is recorded `failed` with {code, message} and no file', async () => {
  const img = await uploadTemplate(s, { name: 'logo.json', bytes: jsonTemplate(['{{%logo}}']) });
  assert.equal(img.status, 201, JSON.stringify(img.body));
  const { status, body } = await createDocument(s, { template_id: img.body.template.uuid, data: JSON.stringify({ logo: 'data:image/png;base64,AAAA' }) });
  assert.equal(status, 201);
  const d = body.document;
  assertDocumentTypes(d);
  assert.equal(d.status, 'failed');
  assert.equal(typeof d.error.code, 'string');
  assert.match(d.error.message, /logo/);
  assert.equal(d.pages, null);
  assert.equal(d.size, null);
  assert.equal(fs.existsSync(docFile(d.id)), false);
  const dl = await fetch(d.download_url);
  assert.equal(dl.status, 409);
  assert.equal((await json(dl)).success, false);
});

test('output_type other than pdf is refused for a .json template', async () => {
  const { status, body } = await createDocument(s, { template_id: invoice.uuid, data: '{}', output_type: 'docx' });
  assert.equal(status, 422);
  assert.deepEqual(body.errors, { output_type: ['The selected output type is invalid.'] });
});

test('rows per list over the default limit → a failed document (limit_exceeded) naming the limit', async () => {
  const items = Array.from({ length: 10_001 }, () => ({ description: 'x', amount: '1' }));
  const { status, body } = await createDocument(s, { template_id: invoice.uuid, data: JSON.stringify({ items }) });
  assert.equal(status, 201);
  assert.equal(body.document.status, 'failed');
  assert.equal(body.document.error.code, 'limit_exceeded');
  assert.match(body.document.error.message, /more than the limit of 10,000 rows per list/);
  assert.equal(fs.existsSync(docFile(body.document.id)), false);
});

test('DELETE removes the record and its file; reads answer 404 after', async () => {
  const { body } = await createDocument(s, { template_id: invoice.uuid, data: '{}' });
  const id = body.document.id;
  assert.ok(fs.existsSync(docFile(id)));
  const res = await s.api(`/api/document/${id}`, { method: 'DELETE' });
  assert.deepEqual(await res.json(), { success: true, message: 'Document deleted.' });
  assert.equal(fs.existsSync(docFile(id)), false);
  assert.equal((await s.api(`/api/document/${id}`)).status, 404);
  assert.equal((await fetch(body.document.download_url)).status, 404);
  const shard = { documents: recordsOnDisk(s.dataDir, 0) };
  assert.ok(!shard.documents.some((d: { id: number }) => d.id === id));
});

test('the record on disk matches the response', async () => {
  const { body } = await createDocument(s, { template_id: invoice.uuid, data: JSON.stringify(INVOICE_DATA) });
  const shard = { documents: recordsOnDisk(s.dataDir, 0) };
  const onDisk = shard.documents.find((d: { id: number }) => d.id === body.document.id);
  assert.ok(onDisk, 'the record is on disk');
  assert.equal(onDisk.status, 'completed');
  assert.equal(onDisk.size, body.document.size);
  assert.equal(onDisk.output_filename, body.document.output_filename);
});

test('POST /api/preview answers the PDF and stores nothing', async () => {
  const before = (await json(await s.api('/api/document'))).documents.total;
  const res = await s.api('/api/preview', { method: 'POST', body: new URLSearchParams({ template_id: invoice.uuid, data: JSON.stringify(INVOICE_DATA), test: '1' }) });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/pdf');
  const text = squash(pdfText(new Uint8Array(await res.arrayBuffer())));
  assert.match(text, /Ada Lovelace/);
  assert.match(text.replace(/\s/g, ''), /TESTDOCUMENT/);
  assert.equal((await json(await s.api('/api/document'))).documents.total, before);
  const ro = await s.api('/api/preview', { method: 'POST', headers: { authorization: `Bearer ${s.readOnlyToken}` }, body: new URLSearchParams({ template_id: invoice.uuid, data: '{}' }) });
  assert.equal(ro.status, 200);
  const bad = await s.api('/api/preview', { method: 'POST', body: new URLSearchParams({ data: 'nope' }) });
  assert.equal(bad.status, 422);
});

test('locale formats filter output; documents filter by template uuid', async () => {
  const t = await uploadTemplate(s, { name: 'amount.json', bytes: jsonTemplate(['Total {{amount | number:2}}']) });
  assert.equal(t.status, 201, JSON.stringify(t.body));
  const de = await createDocument(s, { template_id: t.body.template.uuid, data: '{"amount":1234.5}', locale: 'de-DE' });
  assert.equal(squash(pdfText((await download(de.body.document.download_url)).bytes)), 'Total 1.234,50');
  const en = await createDocument(s, { template_id: t.body.template.uuid, data: '{"amount":1234.5}', locale: 'en-US' });
  assert.equal(squash(pdfText((await download(en.body.document.download_url)).bytes)), 'Total 1,234.50');
  const byUuid = (await json(await s.api(`/api/document?template_id=${t.body.template.uuid}`))).documents;
  assert.deepEqual(byUuid.data.map((d: { id: number }) => d.id), [en.body.document.id, de.body.document.id]);
  const byId = (await json(await s.api(`/api/document?template_id=${t.body.template.id}`))).documents;
  assert.equal(byId.total, 2);
});
