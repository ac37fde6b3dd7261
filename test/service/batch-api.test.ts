/**
 * /api/batch against a real service (render worker threads) and real files: the 300-row certificate CSV
 * reaches `completed` with done = 300, shows progress while it runs, lists 300 documents by batch_id, and
 * downloads as a zip of 300 PDFs (unzip) or one merged PDF (pdfinfo); bad files are refused with row and column
 * before any document; a failing row; read-only tokens; cancel and delete.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { uploadTemplate, type Body } from './support.js';
import { certificateCsv, certificateId } from '../batch/fixtures.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CERTIFICATE = fs.readFileSync(path.join(ROOT, 'resources', 'templates', 'certificate.json'));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-batch-api-'));

let s: TestServer;
let templateId: string;

test.before(async () => {
  s = await startTestServer({ renderWorkers: 2 });
  const made = await uploadTemplate(s, { name: 'certificate.json', bytes: CERTIFICATE }, { name: 'Certificate' });
  assert.equal(made.status, 201);
  templateId = made.body.template.uuid;
});
test.after(async () => {
  await s.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function postBatch(fields: Record<string, string>, file?: { name: string; text: string | Buffer }, token?: string): Promise<{ status: number; body: Body }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([file.text]), file.name);
  const res = await s.api('/api/batch', { method: 'POST', body: form, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, body: (await res.json()) as Body };
}

async function get(pathname: string): Promise<Body> {
  const res = await s.api(pathname);
  assert.equal(res.status, 200, pathname);
  return (await res.json()) as Body;
}

/** Polls until the batch leaves queued/processing; answers the final record and every `done` seen on the way. */
async function settle(id: number): Promise<{ batch: Body; seen: number[] }> {
  const seen: number[] = [];
  for (;;) {
    const { batch } = await get(`/api/batch/${id}`);
    seen.push(batch.done);
    if (batch.status !== 'queued' && batch.status !== 'processing') return { batch, seen };
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('300 rows: 202 queued → progress → completed, 300 documents by batch_id, a zip of 300 PDFs holding the rows', async () => {
  const { status, body } = await postBatch({ template_id: templateId, output_filename: '{{certificate_id}}' }, { name: 'rows.csv', text: certificateCsv(300) });
  assert.equal(status, 202, JSON.stringify(body));
  assert.equal(body.success, true);
  assert.equal(body.batch.status, 'queued');
  assert.equal(body.batch.total, 300);
  for (const key of ['id', 'status', 'total', 'done', 'failed', 'template_id', 'created_at', 'updated_at']) assert.ok(key in body.batch, key);
  const { batch, seen } = await settle(body.batch.id);
  assert.equal(batch.status, 'completed');
  assert.equal(batch.done, 300);
  assert.equal(batch.failed, 0);
  assert.ok(seen.some((d) => d > 0 && d < 300), `intermediate progress was seen: ${seen.join(',')}`);

  const list = await get(`/api/document?batch_id=${batch.id}&per_page=100`);
  assert.equal(list.documents.total, 300);
  assert.ok(list.documents.data.every((d: Body) => d.batch_id === batch.id && d.status === 'completed'));
  assert.match(list.documents.next_page_url, new RegExp(`batch_id=${batch.id}`));
  assert.equal((await get('/api/document?batch_id=999999')).documents.total, 0);

  const zipRes = await s.api(`/api/batch/${batch.id}/download`);
  assert.equal(zipRes.status, 200);
  assert.equal(zipRes.headers.get('content-type'), 'application/zip');
  const zip = path.join(dir, 'all.zip');
  fs.writeFileSync(zip, Buffer.from(await zipRes.arrayBuffer()));
  assert.match(execFileSync('unzip', ['-l', zip], { encoding: 'utf8' }), /\s300 files\n/);
  execFileSync('unzip', ['-q', zip, '-d', path.join(dir, 'unzipped')]);
  for (const i of [1, 150, 300]) {
    const text = execFileSync('pdftotext', [path.join(dir, 'unzipped', `${certificateId(i)}.pdf`), '-'], { encoding: 'utf8' });
    assert.ok(text.includes(`Person ${i}, Jr.`) && text.includes(`Dr. Teacher ${i}`), `row ${i}`);
    assert.equal(text.includes('with honors'), i % 2 === 1);
  }

  const page = await get('/api/batch');
  assert.equal(page.batches.data[0].id, batch.id);
  assert.ok(page.batches.total >= 1);
});

test('a failing row fails alone: completed_with_errors, its row, field and message in /errors (JSON and CSV); merge=1 is one PDF', async () => {
  const { status, body } = await postBatch({ template_id: templateId }, { name: 'rows.csv', text: 'recipient,logo\nAda,\nBob,not-an-image\nCy,\n' });
  assert.equal(status, 202);
  const { batch } = await settle(body.batch.id);
  assert.equal(batch.status, 'completed_with_errors');
  assert.equal(batch.done, 2);
  assert.equal(batch.failed, 1);
  const errors = await get(`/api/batch/${batch.id}/errors`);
  assert.equal(errors.errors.total, 1);
  assert.equal(errors.errors.data[0].row, 2);
  assert.equal(errors.errors.data[0].field, 'logo');
  assert.equal(errors.errors.data[0].code, 'invalid_image');
  const csv = await (await s.api(`/api/batch/${batch.id}/errors?format=csv`)).text();
  assert.match(csv, /^row,field,code,message\r\n2,logo,invalid_image,/);
  const merged = await s.api(`/api/batch/${batch.id}/download?merge=1`);
  assert.equal(merged.status, 200);
  const pdf = path.join(dir, 'merged.pdf');
  fs.writeFileSync(pdf, Buffer.from(await merged.arrayBuffer()));
  assert.match(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }), /^Pages:\s+2$/m);
  const text = execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' });
  assert.ok(text.indexOf('Ada') < text.indexOf('Cy'), 'rows in order');
});

test('bad rows files are refused with code, row and column before any document; a JSON array in `data` works', async () => {
  const before = (await get('/api/document')).documents.total;
  const batches = (await get('/api/batch')).batches.total;
  const ragged = await postBatch({ template_id: templateId }, { name: 'r.csv', text: 'recipient,course\nA,B\nC,D,E\n' });
  assert.equal(ragged.status, 422);
  assert.equal(ragged.body.success, false);
  assert.equal(ragged.body.code, 'rows_ragged');
  assert.equal(ragged.body.row, 2);
  assert.deepEqual(ragged.body.column, { index: 3, name: null });
  assert.match(ragged.body.errors.file[0], /^Row 2, column C: /);
  const short = await postBatch({ template_id: templateId }, { name: 'r.csv', text: 'recipient,course,date\nA,B,C\nD,E,F\nG\n' });
  assert.equal(short.status, 422);
  assert.deepEqual([short.body.code, short.body.row, short.body.column], ['rows_ragged', 3, { index: 2, name: 'course' }]);
  const header = await postBatch({ template_id: templateId }, { name: 'h.csv', text: 'recipient,a..b\nx,y\n' });
  assert.equal(header.status, 422);
  assert.deepEqual([header.body.code, header.body.row, header.body.column], ['rows_header', 0, { index: 2, name: 'a..b' }]);
  const binary = await postBatch({ template_id: templateId }, { name: 'x.pdf', text: Buffer.from('%PDF-1.7\u0000\u0001') });
  assert.equal(binary.body.code, 'rows_format');
  const noTemplate = await postBatch({}, { name: 'r.csv', text: 'a\n1\n' });
  assert.equal(noTemplate.status, 422);
  assert.deepEqual(Object.keys(noTemplate.body.errors), ['template_id']);
  assert.equal((await get('/api/document')).documents.total, before);
  assert.equal((await get('/api/batch')).batches.total, batches);
  assert.deepEqual(fs.readdirSync(path.join(s.dataDir, 'batches', 'incoming')), [], 'refused uploads are not kept');

  const res = await s.api('/api/batch', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ template_id: templateId, data: [{ recipient: 'J1' }, { recipient: 'J2' }] }) });
  assert.equal(res.status, 202);
  const { batch } = await settle(((await res.json()) as Body).batch.id);
  assert.equal(batch.done, 2);
});

test('too many rows is 422 rows_too_many; a file over batch_bytes is 413 rows_too_large', async () => {
  const small = await startTestServer({ limits: { batchRows: 3, batchBytes: 200 } });
  try {
    const t = await uploadTemplate(small, { name: 'certificate.json', bytes: CERTIFICATE });
    const form = (text: string) => {
      const f = new FormData();
      f.append('template_id', t.body.template.uuid);
      f.append('file', new Blob([text]), 'r.csv');
      return f;
    };
    const many = await small.api('/api/batch', { method: 'POST', body: form('a\n1\n2\n3\n4\n') });
    assert.equal(many.status, 422);
    assert.equal(((await many.json()) as Body).code, 'rows_too_many');
    const big = await small.api('/api/batch', { method: 'POST', body: form('a\n' + 'x\n'.repeat(200)) });
    assert.equal(big.status, 413);
    assert.equal(((await big.json()) as Body).code, 'rows_too_large');
  } finally {
    await small.close();
  }
});

test('read-only tokens read batches but cannot create, cancel or delete them; DELETE removes the batch and its documents', async () => {
  const made = await postBatch({ template_id: templateId }, { name: 'r.csv', text: 'recipient\nA\nB\n' });
  const { batch } = await settle(made.body.batch.id);
  const ro = { authorization: `Bearer ${s.readOnlyToken}` };
  assert.equal((await postBatch({ template_id: templateId }, { name: 'r.csv', text: 'recipient\nA\n' }, s.readOnlyToken)).status, 403);
  assert.equal((await s.api(`/api/batch/${batch.id}`, { headers: ro })).status, 200);
  assert.equal((await s.api('/api/batch', { headers: ro })).status, 200);
  assert.equal((await s.api(`/api/batch/${batch.id}`, { method: 'DELETE', headers: ro })).status, 403);
  assert.equal((await s.api(`/api/batch/${batch.id}/cancel`, { method: 'POST', headers: ro })).status, 403);
  const docs = (await get(`/api/document?batch_id=${batch.id}`)).documents.data as Body[];
  assert.equal(docs.length, 2);
  const del = await s.api(`/api/batch/${batch.id}`, { method: 'DELETE' });
  assert.equal(del.status, 200);
  assert.deepEqual(await del.json(), { success: true, message: 'Batch deleted.' });
  assert.equal((await s.api(`/api/batch/${batch.id}`)).status, 404);
  for (const d of docs) assert.equal((await s.api(`/api/document/${d.id}`)).status, 404);
  assert.equal((await s.api('/api/batch/abc')).status, 404);
  assert.equal((await s.api('/api/batch/1', { method: 'PUT' })).status, 405);
});

test('cancel stops what is left: status cancelled, no row starts after it, the documents made stay', async () => {
  const made = await postBatch({ template_id: templateId }, { name: 'rows.csv', text: certificateCsv(300) });
  assert.equal(made.status, 202);
  const id = made.body.batch.id as number;
  const cancelled = await s.api(`/api/batch/${id}/cancel`, { method: 'POST' });
  assert.equal(cancelled.status, 200);
  assert.equal(((await cancelled.json()) as Body).batch.status, 'cancelled');
  // Rows in flight when it was cancelled end without a document; give them time, then nothing more may appear.
  await new Promise((r) => setTimeout(r, 1000));
  const { batch } = await get(`/api/batch/${id}`);
  assert.equal(batch.status, 'cancelled');
  assert.ok(batch.done < 300, `stopped early (${batch.done} done)`);
  const docs = (await get(`/api/document?batch_id=${id}`)).documents.total as number;
  assert.equal(docs, batch.done + batch.failed, 'a document per counted row, and only those');
  await new Promise((r) => setTimeout(r, 500));
  assert.equal((await get(`/api/document?batch_id=${id}`)).documents.total, docs, 'no row started after the cancel');
});

test('POST /api/batch/row: one row\'s data as the batch reads it (the GUI previews it), also for read-only tokens; nothing kept', async () => {
  const form = (row: string) => {
    const f = new FormData();
    f.append('row', row);
    f.append('file', new Blob([certificateCsv(5)]), 'rows.csv');
    return f;
  };
  const res = await s.api('/api/batch/row', { method: 'POST', body: form('3'), headers: { authorization: `Bearer ${s.readOnlyToken}` } });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), {
    success: true,
    row: 3,
    data: { certificate_id: certificateId(3), recipient: 'Person 3, Jr.', course: 'Course "3"', date: '2026-11-02', instructor: { name: 'Dr. Teacher 3' }, with_honors: true },
  });
  const past = await s.api('/api/batch/row', { method: 'POST', body: form('9') });
  assert.equal(past.status, 422);
  assert.deepEqual(((await past.json()) as Body).errors, { row: ['The file has 5 rows.'] });
  assert.deepEqual(fs.readdirSync(path.join(s.dataDir, 'batches', 'incoming')), []);
});

test('DELETE of a running batch cancels what is left and deletes every document it made, also rows in flight at that moment', async () => {
  const made = await postBatch({ template_id: templateId }, { name: 'rows.csv', text: certificateCsv(300) });
  assert.equal(made.status, 202);
  const id = made.body.batch.id as number;
  for (;;) {
    const { batch } = await get(`/api/batch/${id}`);
    if (batch.done > 0) break;
    assert.equal(batch.status === 'queued' || batch.status === 'processing', true, batch.status);
    await new Promise((r) => setTimeout(r, 5));
  }
  const del = await s.api(`/api/batch/${id}`, { method: 'DELETE' });
  assert.equal(del.status, 200);
  assert.equal((await s.api(`/api/batch/${id}`)).status, 404);
  // Rows that were rendering when it was deleted end without a document; none appear later.
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal((await get(`/api/document?batch_id=${id}`)).documents.total, 0);
  const all = (await get('/api/document?per_page=100')).documents;
  for (let page = 1; page <= all.last_page; page++) {
    const docs = (await get(`/api/document?per_page=100&page=${page}`)).documents.data as Body[];
    assert.ok(!docs.some((d) => d.batch_id === id), `no document of batch ${id} left (page ${page})`);
  }
});
