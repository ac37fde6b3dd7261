/**
 * Import warnings in the API: `import_warnings` is always an array — `[]` when nothing — in every template response
 * (POST, GET single, GET list, PUT), each entry `{code, message, location: {part, element?}, count}`; records
 * stored before warnings existed read as [].
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { json, jsonTemplate, uploadTemplate } from './support.js';
import { buildDocx, docxWithWarnings, p } from '../docx/build-docx.js';
import { templateListJson, templateSingleJson } from '../../server/http/serialize.js';
import type { TemplateRecord } from '../../server/store/index.js';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

const EXPECTED = [
  { code: 'picture_format_unsupported', message: '1 EMF picture not drawn (the format cannot be drawn)', location: { part: 'word/document.xml' }, count: 1 },
  { code: 'chart_not_drawn', message: '1 chart not drawn', location: { part: 'word/document.xml', element: 'c:chart' }, count: 1 },
];

test('a .docx with an EMF picture and a chart: import_warnings in POST, GET, the list and PUT', async () => {
  const up = await uploadTemplate(s, { name: 'pictures.docx', bytes: docxWithWarnings() });
  assert.equal(up.status, 201, JSON.stringify(up.body));
  const t = up.body.template;
  assert.deepEqual(t.import_warnings, EXPECTED);
  assert.deepEqual((await json(await s.api(`/api/template/${t.uuid}`))).template.import_warnings, EXPECTED);
  const list = (await json(await s.api('/api/template?name=pictures'))).templates;
  assert.deepEqual(list.data[0].import_warnings, EXPECTED);
  // A settings change keeps them; a new file brings its own (none).
  const renamed = await s.api(`/api/template/${t.uuid}`, { method: 'PUT', body: new URLSearchParams({ name: 'Renamed' }) });
  assert.deepEqual((await json(renamed)).template.import_warnings, EXPECTED);
  const put = await uploadTemplate(s, { name: 'plain.docx', bytes: buildDocx({ body: p('Hi {{name}}') }) }, {}, { method: 'PUT', path: `/api/template/${t.uuid}` });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  assert.deepEqual(put.body.template.import_warnings, []);
});

test('templates without warnings say [] (a .json template, a plain .docx)', async () => {
  const j = await uploadTemplate(s, { name: 'letter.json', bytes: jsonTemplate(['Dear {{name}}']) });
  assert.equal(j.status, 201);
  assert.deepEqual(j.body.template.import_warnings, []);
  const d = await uploadTemplate(s, { name: 'plain.docx', bytes: buildDocx({ body: p('Dear {{name}}') }) });
  assert.deepEqual(d.body.template.import_warnings, []);
});

test('a record stored before warnings existed reads as []', () => {
  const old = {
    uuid: 'u', name: 'n', kind: 'docx', original_filename: 'a.docx', google_doc_id: null, description: '', output_filename: null,
    output_filetype: 'pdf', editable: null, password: null, expiration: 1, delimiters: ['{{', '}}'], version: 1, id: 1,
    fields: [], sample_data: {}, schema: { type: 'object' }, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z',
  } as unknown as TemplateRecord;
  assert.deepEqual(templateListJson(old).import_warnings, []);
  assert.deepEqual(templateSingleJson(old).import_warnings, []);
});
