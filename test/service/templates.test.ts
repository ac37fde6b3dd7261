/** /api/template over real HTTP: upload (.json, .docx), 422 with locations, list vs single types, PUT, DELETE, file. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { pdfText, squash } from '../helpers/pdf.js';
import { INVOICE_DATA, createDocument, createInvoiceTemplate, json, jsonTemplate, uploadTemplate } from './support.js';
import type { Body } from './support.js';
import { DOCX_FIXTURES_DIR } from '../helpers/fixtures.js';

const FIXTURES = DOCX_FIXTURES_DIR;
const fixture = (name: string) => ({ name, bytes: fs.readFileSync(path.join(FIXTURES, name)) });

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

const INTERFACE_KEYS = ['uuid', 'name', 'fields', 'original_filename', 'google_doc_id', 'description', 'output_filename', 'output_filetype', 'editable', 'password', 'expiration'];
const EXTRA_KEYS = ['id', 'delimiters', 'version', 'created_at', 'updated_at', 'sample_data', 'schema', 'import_warnings'];

function assertCommonTypes(t: Body): void {
  assert.deepEqual(Object.keys(t), [...INTERFACE_KEYS, ...EXTRA_KEYS]);
  assert.equal(typeof t.uuid, 'string');
  assert.equal(typeof t.name, 'string');
  assert.equal(typeof t.fields, 'string');
  assert.ok(Array.isArray(JSON.parse(t.fields)));
  assert.equal(typeof t.original_filename, 'string');
  assert.ok(t.google_doc_id === null || typeof t.google_doc_id === 'string');
  assert.equal(typeof t.description, 'string');
  assert.ok(t.output_filename === null || typeof t.output_filename === 'string');
  assert.equal(typeof t.output_filetype, 'string');
  assert.ok(t.password === null || typeof t.password === 'string');
  assert.ok(Number.isInteger(t.expiration));
  assert.ok(Number.isInteger(t.id));
  assert.ok(Number.isInteger(t.version));
  assert.match(t.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  assert.equal(typeof t.sample_data, 'object');
  assert.equal(t.schema.type, 'object');
  assert.ok(Array.isArray(t.import_warnings), 'import_warnings is always an array');
}

test('upload a .json template → 201 with fields, sample data and schema; list and single differ as the interface says', async () => {
  const { status, body } = await uploadTemplate(s, { name: 'invoice.json', bytes: jsonTemplate(['Invoice {{number}}', '{{#items}}', '{{description}}', '{{/items}}']) }, { name: 'Invoice', description: 'Monthly invoice' });
  assert.equal(status, 201);
  const t = body.template;
  assertCommonTypes(t);
  assert.equal(t.editable, 0, 'single response: editable integer');
  assert.equal(t.output_filetype, 'pdf');
  assert.equal(t.expiration, 43200);
  assert.equal(t.delimiters, '{{ }}');
  assert.equal(t.version, 1);
  assert.equal(t.original_filename, 'invoice.json');
  assert.deepEqual(JSON.parse(t.fields), [
    { name: 'number', type: 'text' },
    { name: 'items', type: 'list', fields: [{ name: 'description', type: 'text' }] },
  ]);

  const single = (await json(await s.api(`/api/template/${t.uuid}`))).template;
  assertCommonTypes(single);
  assert.equal(single.editable, 0);
  const listed = (await json(await s.api('/api/template'))).templates.data.find((x: { uuid: string }) => x.uuid === t.uuid);
  assertCommonTypes(listed);
  assert.equal(listed.editable, null, 'list response: editable boolean or null (never set → null)');

  const editable = await uploadTemplate(s, { name: 'e.json', bytes: jsonTemplate(['x']) }, { editable: '1' });
  assert.equal(editable.body.template.editable, 1);
  const listedE = (await json(await s.api('/api/template'))).templates.data.find((x: { uuid: string }) => x.uuid === editable.body.template.uuid);
  assert.equal(listedE.editable, true);
  const notEditable = await uploadTemplate(s, { name: 'n.json', bytes: jsonTemplate(['x']) }, { editable: '0' });
  const listedN = (await json(await s.api('/api/template'))).templates.data.find((x: { uuid: string }) => x.uuid === notEditable.body.template.uuid);
  assert.equal(listedN.editable, false);
});

test('a Word template with {single} delimiters uploads, lists its fields and renders', async () => {
  const { status, body } = await uploadTemplate(s, fixture('tag-loop-example.docx'), { delimiters: '{ }' });
  assert.equal(status, 201, JSON.stringify(body));
  assert.equal(body.template.delimiters, '{ }');
  assert.equal(body.template.name, 'tag-loop-example');
  const fields = JSON.parse(body.template.fields);
  assert.ok(fields.some((f: { name: string; type: string }) => f.name === 'offre' && f.type === 'list'));
  const doc = await createDocument(s, { template_id: body.template.uuid, data: JSON.stringify({ nom: 'Dupont', prenom: 'Jean', offre: [{ titre: 'Offre A', prix: '100' }] }) });
  assert.equal(doc.body.document.status, 'completed');
  const text = squash(pdfText(new Uint8Array(await (await fetch(doc.body.document.download_url)).arrayBuffer())));
  assert.match(text, /Dupont/);
  assert.match(text, /Offre A/);
});

test('a broken template → 422 listing every error with its location', async () => {
  const { status, body } = await uploadTemplate(s, fixture('errors-footer-and-header.docx'), { delimiters: '{ }' });
  assert.equal(status, 422);
  assert.equal(body.success, false);
  assert.equal(body.errors.file.length, 3);
  assert.equal(body.template_errors.length, 3);
  const parts = body.template_errors.map((e: { location: { part: string } }) => e.location.part).sort();
  assert.deepEqual(parts.map((p: string) => p.split(':')[0]), ['body', 'footer', 'header']);
  for (const [i, line] of body.errors.file.entries()) {
    const e = body.template_errors[i];
    assert.ok(line.startsWith(`${e.location.part}, paragraph ${e.location.paragraph}, ${e.location.tag}: `), line);
    assert.ok(line.endsWith(e.message));
  }
  assert.match(body.message, /\(and 2 more errors\)$/);
  const json1 = await uploadTemplate(s, { name: 'bad.json', bytes: Buffer.from('{"docloom": 1, ') });
  assert.equal(json1.status, 422);
  assert.match(json1.body.errors.file[0], /^file: /);
  // Nothing was stored.
  const list = (await json(await s.api('/api/template?name=errors-footer'))).templates;
  assert.equal(list.total, 0);
});

test('settings are validated', async () => {
  const { status, body } = await uploadTemplate(s, { name: 'x.json', bytes: jsonTemplate(['x']) }, { expiration: '0', delimiters: '{{', output_filetype: 'odt', editable: 'perhaps' });
  assert.equal(status, 422);
  assert.deepEqual(Object.keys(body.errors).sort(), ['delimiters', 'editable', 'expiration', 'output_filetype']);
  assert.deepEqual(body.errors.expiration, ['The expiration field must be between 1 and 5256000.']);
  const big = await uploadTemplate(s, { name: 'x.json', bytes: jsonTemplate(['x']) }, { expiration: '5256001' });
  assert.equal(big.status, 422);
  const max = await uploadTemplate(s, { name: 'x.json', bytes: jsonTemplate(['x']) }, { expiration: '5256000' });
  assert.equal(max.status, 201);
});

test('custom delimiters << >>', async () => {
  const { status, body } = await uploadTemplate(s, { name: 'angle.json', bytes: jsonTemplate(['Hello <<name>>, {{not a tag}}']) }, { delimiters: '<< >>' });
  assert.equal(status, 201, JSON.stringify(body));
  assert.deepEqual(JSON.parse(body.template.fields), [{ name: 'name', type: 'text' }]);
  const doc = await createDocument(s, { template_id: body.template.uuid, data: '{"name":"Grace"}' });
  const text = squash(pdfText(new Uint8Array(await (await fetch(doc.body.document.download_url)).arrayBuffer())));
  assert.equal(text, 'Hello Grace, {{not a tag}}');
});

test('PUT: settings keep the version; a new file makes a new version; earlier documents stay as they were', async () => {
  const t = await createInvoiceTemplate(s);
  const first = await createDocument(s, { template_id: t.uuid, data: JSON.stringify(INVOICE_DATA) });
  const settings = await s.api(`/api/template/${t.uuid}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Invoice v1', expiration: 120, editable: true }) });
  assert.equal(settings.status, 200);
  const afterSettings = (await json(settings)).template;
  assert.equal(afterSettings.name, 'Invoice v1');
  assert.equal(afterSettings.expiration, 120);
  assert.equal(afterSettings.editable, 1);
  assert.equal(afterSettings.version, 1);
  assert.equal(afterSettings.created_at, t.created_at);

  const replaced = await uploadTemplate(s, { name: 'invoice-v2.json', bytes: jsonTemplate(['Bill {{number}} for {{customer.name}}']) }, {}, { method: 'PUT', path: `/api/template/${t.uuid}` });
  assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
  assert.equal(replaced.body.template.version, 2);
  assert.equal(replaced.body.template.original_filename, 'invoice-v2.json');
  assert.equal(replaced.body.template.name, 'Invoice v1');
  assert.deepEqual(JSON.parse(replaced.body.template.fields).map((f: { name: string }) => f.name), ['number', 'customer.name']);

  const second = await createDocument(s, { template_id: t.uuid, data: JSON.stringify(INVOICE_DATA) });
  const text2 = squash(pdfText(new Uint8Array(await (await fetch(second.body.document.download_url)).arrayBuffer())));
  assert.equal(text2, 'Bill INV-0042 for Ada Lovelace');
  const text1 = squash(pdfText(new Uint8Array(await (await fetch((await json(await s.api(`/api/document/${first.body.document.id}`))).document.download_url)).arrayBuffer())));
  assert.match(text1, /^Invoice INV-0042/);

  const broken = await uploadTemplate(s, { name: 'broken.json', bytes: jsonTemplate(['{{#open}}']) }, {}, { method: 'PUT', path: `/api/template/${t.uuid}` });
  assert.equal(broken.status, 422);
  assert.equal((await json(await s.api(`/api/template/${t.uuid}`))).template.version, 2);

  const file = await s.api(`/api/template/${t.uuid}/file`);
  assert.equal(file.status, 200);
  assert.equal(file.headers.get('content-type'), 'application/json');
  assert.match(file.headers.get("content-disposition") ?? "", /^attachment; filename="?invoice-v2\.json"?$/);
  assert.deepEqual(Buffer.from(await file.arrayBuffer()), jsonTemplate(['Bill {{number}} for {{customer.name}}']));
  assert.equal((await s.api('/api/template/nope', { method: 'PUT', body: new URLSearchParams({ name: 'x' }) })).status, 404);
});

test('DELETE: "Template deleted."; its documents stay readable and downloadable; its files are gone', async () => {
  const t = await createInvoiceTemplate(s);
  const doc = (await createDocument(s, { template_id: t.uuid, data: JSON.stringify(INVOICE_DATA) })).body.document;
  const res = await s.api(`/api/template/${t.uuid}`, { method: 'DELETE' });
  assert.deepEqual(await res.json(), { success: true, message: 'Template deleted.' });
  assert.equal(fs.existsSync(path.join(s.dataDir, 'templates', t.uuid)), false);
  assert.equal((await s.api(`/api/template/${t.uuid}`)).status, 404);
  assert.equal((await s.api(`/api/template/${t.uuid}/file`)).status, 404);
  const again = await json(await s.api(`/api/document/${doc.id}`));
  assert.equal(again.document.template_uuid, t.uuid);
  assert.equal((await fetch(again.document.download_url)).status, 200);
  const gone = await createDocument(s, { template_id: t.uuid, data: '{}' });
  assert.deepEqual(gone.body.errors, { template_id: ['The selected template id is invalid.'] });
});

test('the name filter (substring, case-insensitive) is carried in the links; newest first', async () => {
  await uploadTemplate(s, { name: 'a.json', bytes: jsonTemplate(['a']) }, { name: 'Quarterly Report A' });
  await uploadTemplate(s, { name: 'b.json', bytes: jsonTemplate(['b']) }, { name: 'quarterly report B' });
  const page = (await json(await s.api('/api/template?name=QUARTERLY&per_page=1'))).templates;
  assert.equal(page.total, 2);
  assert.equal(page.data[0].name, 'quarterly report B');
  assert.equal(page.next_page_url, `${s.url}/api/template?name=QUARTERLY&per_page=1&page=2`);
});

test('templates.json on disk holds the records; files sit under templates/<uuid>/', async () => {
  const t = await createInvoiceTemplate(s);
  const file = JSON.parse(fs.readFileSync(path.join(s.dataDir, 'templates.json'), 'utf8'));
  const rec = file.templates.find((x: { uuid: string }) => x.uuid === t.uuid);
  assert.equal(rec.kind, 'json');
  assert.ok(fs.existsSync(path.join(s.dataDir, 'templates', t.uuid, 'v1.json')));
});
