/**
 * CORS for a configured origin — the desktop window's docloom://app, as the Electron shell configures the service —
 * on everything the GUI fetches across origins: the API, the signed download_url and the template file download,
 * with preflights carrying Authorization and Idempotency-Key.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createDocument, createInvoiceTemplate, INVOICE_DATA, json, type Body } from './support.js';

const APP = 'docloom://app';
let s: TestServer;
let invoice: Body;

before(async () => {
  // As the desktop shell starts it: the origin comes in through DOCLOOM_CORS_ORIGINS (electron/service/environment.ts).
  s = await startTestServer({}, { env: { DOCLOOM_CORS_ORIGINS: APP } });
  invoice = await createInvoiceTemplate(s);
});
after(async () => {
  await s.close();
});

function assertAllowed(res: Response, what: string): void {
  assert.equal(res.headers.get('access-control-allow-origin'), APP, what);
  assert.match(res.headers.get('vary') ?? '', /Origin/, what);
}

async function preflight(url: string, method: string, headers: string): Promise<Response> {
  return fetch(url, { method: 'OPTIONS', headers: { origin: APP, 'access-control-request-method': method, 'access-control-request-headers': headers } });
}

function assertPreflight(res: Response, method: string, what: string): void {
  assert.equal(res.status, 204, what);
  assertAllowed(res, what);
  assert.ok((res.headers.get('access-control-allow-methods') ?? '').split(/,\s*/).includes(method), what);
  const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
  for (const h of ['authorization', 'idempotency-key', 'content-type']) assert.ok(allowed.includes(h), `${what}: ${h}`);
}

test('the configured origin is read from DOCLOOM_CORS_ORIGINS', () => {
  assert.deepEqual(s.config.corsOrigins, [APP]);
});

test('API: answers and errors carry the origin; the POST preflight allows Authorization and Idempotency-Key', async () => {
  assertPreflight(await preflight(`${s.url}/api/document`, 'POST', 'authorization,idempotency-key,content-type'), 'POST', 'POST /api/document');
  assertPreflight(await preflight(`${s.url}/api/template/${invoice.uuid}`, 'DELETE', 'authorization'), 'DELETE', 'DELETE /api/template');

  const created = await createDocument(s, { template_id: invoice.uuid, data: JSON.stringify(INVOICE_DATA) }, { origin: APP, 'idempotency-key': 'cors-1' });
  assert.equal(created.status, 201);
  const list = await s.api('/api/document', { headers: { origin: APP } });
  assert.equal(list.status, 200);
  assertAllowed(list, 'GET /api/document');
  // The window must be able to read an error too (say, after its token was revoked).
  const denied = await fetch(`${s.url}/api/info`, { headers: { origin: APP, authorization: 'Bearer 1|nope' } });
  assert.equal(denied.status, 401);
  assertAllowed(denied, '401');
  const other = await s.api('/api/info', { headers: { origin: 'http://evil.example' } });
  assert.equal(other.headers.get('access-control-allow-origin'), null);
});

test('the signed download_url: preflight and the file, with Content-Disposition readable', async () => {
  const { body } = await createDocument(s, { template_id: invoice.uuid, data: JSON.stringify(INVOICE_DATA) });
  const url = body.document.download_url as string;
  assertPreflight(await preflight(url, 'GET', 'authorization'), 'GET', 'download_url');
  const res = await fetch(url, { headers: { origin: APP } });
  assert.equal(res.status, 200);
  assertAllowed(res, 'download_url');
  assert.equal(res.headers.get('content-type'), 'application/pdf');
  assert.match(res.headers.get('access-control-expose-headers') ?? '', /Content-Disposition/);
  assert.equal(new TextDecoder().decode(new Uint8Array(await res.arrayBuffer()).subarray(0, 5)), '%PDF-');
  // The bearer download too.
  const bearer = await s.api(`/api/document/${body.document.id}/download`, { headers: { origin: APP } });
  assert.equal(bearer.status, 200);
  assertAllowed(bearer, 'bearer download');
  await bearer.arrayBuffer();
});

test('the template file download: preflight and the file', async () => {
  const url = `${s.url}/api/template/${invoice.uuid}/file`;
  assertPreflight(await preflight(url, 'GET', 'authorization'), 'GET', 'template file');
  const res = await s.api(`/api/template/${invoice.uuid}/file`, { headers: { origin: APP } });
  assert.equal(res.status, 200);
  assertAllowed(res, 'template file');
  assert.match(res.headers.get('access-control-expose-headers') ?? '', /Content-Disposition/);
  assert.equal(typeof (await json(res)).sections, 'object');
});
