/** Bad requests of every kind get the error table's answer, and the process keeps serving. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { json } from './support.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ limits: { ...(await import('../../server/config.js')).DEFAULT_LIMITS, requestBodyBytes: 64 * 1024, templateUploadBytes: 128 * 1024 } });
});
after(async () => {
  await s.close();
});

function post(pathname: string, body: RequestInit['body'], contentType?: string): Promise<Response> {
  const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
  return s.api(pathname, { method: 'POST', body, headers });
}

test('validation messages are Laravel\'s, with every failing field', async () => {
  const res = await post('/api/document', JSON.stringify({ test: 'maybe', expiration: 0, locale: '!!' }), 'application/json');
  assert.equal(res.status, 422);
  const body = await json(res);
  assert.equal(body.success, false);
  assert.deepEqual(body.errors, {
    template_id: ['The template id field is required.'],
    data: ['The data field is required.'],
    test: ['The test field must be true or false.'],
    expiration: ['The expiration field must be between 1 and 5256000.'],
    locale: ['The locale field format is invalid.'],
  });
  assert.equal(body.message, 'The template id field is required. (and 4 more errors)');

  const unknown = await post('/api/document', new URLSearchParams({ template_id: 'no-such-uuid', data: '[1,2]' }));
  assert.deepEqual((await json(unknown)).errors, {
    template_id: ['The selected template id is invalid.'],
    data: ['The data field must be a valid JSON object.'],
  });
  const badJson = await post('/api/document', new URLSearchParams({ template_id: 'x', data: '{"a":' }));
  assert.deepEqual((await json(badJson)).errors.data, ['The data field must be a valid JSON object.']);
});

test('malformed bodies → 400; unknown content types are treated as no body', async () => {
  const bad = await post('/api/document', '{"template_id":', 'application/json');
  assert.equal(bad.status, 400);
  assert.deepEqual(await bad.json(), { success: false, message: 'The request body is not valid JSON.' });
  const arr = await post('/api/document', '[1,2,3]', 'application/json');
  assert.equal(arr.status, 400);
  const weird = await post('/api/document', 'template_id=x', 'application/x-weird; charset=klingon');
  assert.equal(weird.status, 422);
  const badCharset = await post('/api/document', '{}', 'application/json; charset=klingon');
  assert.equal(badCharset.status, 415);
  const brokenMultipart = await post('/api/document', '--xyz\r\nContent-Disposition: form-data; name="data"\r\n\r\n{}', 'multipart/form-data; boundary=xyz');
  assert.equal(brokenMultipart.status, 400);
  const noBoundary = await post('/api/document', 'abc', 'multipart/form-data');
  assert.equal(noBoundary.status, 400);
});

test('bodies over the limit → 413 naming the limit', async () => {
  const big = 'x'.repeat(200 * 1024);
  const res = await post('/api/document', JSON.stringify({ data: big }), 'application/json');
  assert.equal(res.status, 413);
  assert.match((await json(res)).message, /64 KB|0\.1 MB|limit/);
  const form = new FormData();
  form.append('data', big);
  const multi = await s.api('/api/document', { method: 'POST', body: form });
  assert.equal(multi.status, 413);
  assert.match((await json(multi)).message, /limit/);

  const upload = new FormData();
  upload.append('file', new Blob([new Uint8Array(300 * 1024)]), 'big.docx');
  const up = await s.api('/api/template', { method: 'POST', body: upload });
  assert.equal(up.status, 413);
  assert.match((await json(up)).message, /limit/);
});

test('a chunked body over the limit (no Content-Length) is cut off with 413', async () => {
  const chunks = new ReadableStream({
    start(controller) {
      for (let i = 0; i < 40; i++) controller.enqueue(new TextEncoder().encode(`"${'y'.repeat(8 * 1024)}",`));
      controller.close();
    },
  });
  const res = await s.api('/api/document', { method: 'POST', body: chunks, headers: { 'content-type': 'application/json' }, duplex: 'half' } as RequestInit);
  assert.equal(res.status, 413);
});

test('template uploads: wrong type → 415, missing file → 422', async () => {
  const form = new FormData();
  form.append('file', new Blob(['hello']), 'notes.txt');
  const res = await s.api('/api/template', { method: 'POST', body: form });
  assert.equal(res.status, 415);
  assert.equal((await json(res)).success, false);
  const none = await s.api('/api/template', { method: 'POST', body: new URLSearchParams({ name: 'x' }) });
  assert.equal(none.status, 422);
  assert.deepEqual((await json(none)).errors, { file: ['The file field is required.'] });
});

test('odd paths and ids → 404, never a crash', async () => {
  for (const p of ['/api/document/abc', '/api/document/0', '/api/document/-1', '/api/document/1.5', '/api/document/99999999999999999999', '/api/document/%00', '/api/template/does-not-exist', '/api/template/..%2F..%2Fetc', '/api/document/7/download']) {
    const res = await s.api(p);
    assert.equal(res.status, 404, p);
    const body = await json(res);
    assert.equal(body.success, false);
  }
  assert.deepEqual(await (await s.api('/api/document/12345')).json(), { success: false, message: 'Document not found.' });
  assert.deepEqual(await (await s.api('/api/template/nope')).json(), { success: false, message: 'Template not found.' });
  assert.deepEqual(await (await s.api('/api/document/12345', { method: 'DELETE' })).json(), { success: false, message: 'Document not found.' });
  assert.deepEqual(await (await s.api('/api/template/nope', { method: 'DELETE' })).json(), { success: false, message: 'Template not found.' });
});

test('garbage on the socket does not take the service down', async () => {
  await new Promise<void>((resolve) => {
    const sock = net.connect(s.port, '127.0.0.1', () => {
      sock.write('THIS IS NOT HTTP\r\n\r\n\u0000\u0001');
      sock.end();
    });
    sock.resume(); // read (and drop) the 400 the server answers, so 'close' can come
    sock.on('close', () => resolve());
    sock.on('error', () => resolve());
  });
  assert.equal((await s.api('/api/info')).status, 200);
});

test('an unexpected failure → 500 "Server error." with the request id, logged; the service keeps going', async () => {
  const { uploadTemplate, jsonTemplate } = await import('./support.js');
  const { rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const up = await uploadTemplate(s, { name: 'x.json', bytes: jsonTemplate(['x']) });
  // Somebody removed the template's file behind the service's back.
  rmSync(join(s.dataDir, 'templates', up.body.template.uuid), { recursive: true, force: true });
  const res = await s.api(`/api/template/${up.body.template.uuid}/file`);
  assert.equal(res.status, 500);
  const body = await json(res);
  assert.equal(body.success, false);
  assert.equal(body.message, 'Server error.');
  assert.match(body.request_id, /^[0-9a-f]{12}$/);
  assert.equal(res.headers.get('x-request-id'), body.request_id);
  assert.ok(s.logs.some((l) => l.includes(body.request_id) && l.includes('ENOENT')), s.logs.join('\n'));
  assert.equal((await s.api('/api/info')).status, 200);
});
