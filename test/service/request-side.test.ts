/**
 * The request side of the service as a client sees it, kept while its hot path was made leaner (docs/benchmarks.md,
 * session 16, branch svc17): each body kind reaches the create through the one body middleware, other types are left
 * unread, the 413 from Content-Length comes before any parsing, JSON answers carry the same headers as Express's
 * res.json (and none of the body for HEAD), and the request log writes its line at debug level only.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { DEFAULT_LIMITS } from '../../server/config.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createInvoiceTemplate, INVOICE_DATA, json } from './support.js';

let s: TestServer;
let quiet: TestServer;
let uuid: string;
before(async () => {
  s = await startTestServer({ logLevel: 'debug', limits: { ...DEFAULT_LIMITS, requestBodyBytes: 64 * 1024 } });
  quiet = await startTestServer({ logLevel: 'info' });
  uuid = (await createInvoiceTemplate(s)).uuid as string;
});
after(async () => {
  await s.close();
  await quiet.close();
});

function post(body: RequestInit['body'], contentType?: string): Promise<Response> {
  return s.api('/api/document', { method: 'POST', body, headers: contentType ? { 'content-type': contentType } : {} });
}

test('a create reads its fields from JSON, urlencoded and multipart bodies alike', async () => {
  const fields = { template_id: uuid, data: JSON.stringify(INVOICE_DATA), output_filename: 'kinds.pdf' };
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const answers = [
    await post(JSON.stringify({ ...fields, data: INVOICE_DATA }), 'application/json'),
    await post(JSON.stringify({ ...fields, data: INVOICE_DATA }), 'application/vnd.docloom+json'),
    await post(new URLSearchParams(fields)),
    await post(form),
  ];
  for (const res of answers) {
    assert.equal(res.status, 201);
    const body = await json(res);
    assert.equal(body.document.status, 'completed');
    assert.equal(body.document.output_filename, 'kinds.pdf');
    assert.equal(body.document.pages, 1);
  }
});

test('a body of another type is not read: the create says which fields are missing', async () => {
  const res = await post(JSON.stringify({ template_id: uuid, data: INVOICE_DATA }), 'text/plain');
  assert.equal(res.status, 422);
  assert.deepEqual((await json(res)).errors, { template_id: ['The template id field is required.'], data: ['The data field is required.'] });
});

test('a body over the limit is refused from its Content-Length before it is read, whatever its type', async () => {
  for (const type of ['application/json', 'multipart/form-data; boundary=x', 'text/plain']) {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${s.url}/api/document`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.token}`, 'content-type': type, 'content-length': String(200 * 1024) },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      // The service answers without reading the body; the socket may close under the rest of it.
      req.on('error', (err) => (err.message.includes('EPIPE') || err.message.includes('ECONNRESET') ? undefined : reject(err)));
      req.write(Buffer.alloc(1024, 0x20));
    });
    assert.equal(status, 413, type);
  }
  // Malformed JSON still reaches body-parser and its error answer.
  const broken = await post('{"template_id":', 'application/json');
  assert.equal(broken.status, 400);
  assert.equal((await json(broken)).message, 'The request body is not valid JSON.');
});

test('JSON answers: the type, the length and the Laravel shape as before; HEAD has the headers and no body', async () => {
  const created = await post(new URLSearchParams({ template_id: uuid, data: JSON.stringify(INVOICE_DATA) }));
  assert.equal(created.headers.get('content-type'), 'application/json; charset=utf-8');
  const text = await created.text();
  assert.equal(Number(created.headers.get('content-length')), Buffer.byteLength(text));
  const id = (JSON.parse(text) as { document: { id: number } }).document.id;

  const get = await s.api(`/api/document/${id}`);
  const getText = await get.text();
  assert.equal(get.status, 200);
  assert.equal(get.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal(get.headers.get('cache-control'), 'no-store');
  assert.equal(get.headers.get('x-content-type-options'), 'nosniff');
  assert.equal((JSON.parse(getText) as { document: { id: number } }).document.id, id);

  const head = await s.api(`/api/document/${id}`, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get('content-type'), 'application/json; charset=utf-8');
  // The signed link in the body carries a fresh expiry, so the length is compared, not the bytes.
  assert.equal(Number(head.headers.get('content-length')), Buffer.byteLength(getText));
  assert.equal((await head.arrayBuffer()).byteLength, 0);

  const missing = await s.api('/api/document/999999');
  assert.equal(missing.status, 404);
  assert.equal(missing.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.deepEqual(await json(missing), { success: false, message: 'Document not found.' });
});

/** Waits (briefly) for a log line: the request log writes it when the response has finished. */
async function logLine(logs: string[], pattern: RegExp): Promise<string | undefined> {
  for (let i = 0; i < 50; i++) {
    const line = logs.find((l) => pattern.test(l));
    if (line) return line;
    await new Promise((r) => setTimeout(r, 20));
  }
  return undefined;
}

test('the request log: at debug level one line per request (its id, method, path without the query, status, time); none at info', async () => {
  const res = await s.api('/api/info?signature=secret-looking');
  assert.equal(res.status, 200);
  const id = res.headers.get('x-request-id');
  assert.match(id ?? '', /^[0-9a-f]{12}$/);
  const line = await logLine(s.logs, new RegExp(`^\\[${id}\\] `));
  assert.ok(line, `no request log line for ${id} in ${JSON.stringify(s.logs.slice(-5))}`);
  assert.match(line, new RegExp(`^\\[${id}\\] GET /api/info 200 \\d+\\.\\d ms$`));

  const other = await quiet.api('/api/info?x=1');
  assert.equal(other.status, 200);
  const otherId = other.headers.get('x-request-id');
  assert.match(otherId ?? '', /^[0-9a-f]{12}$/);
  assert.equal(other.headers.get('x-content-type-options'), 'nosniff');
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(quiet.logs.filter((l) => l.includes(otherId!)).length, 0);
  assert.equal(quiet.logs.filter((l) => /^\[[0-9a-f]{12}\] /.test(l)).length, 0);
});
