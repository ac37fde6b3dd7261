/** Authentication, abilities, tokens API, the GUI sign-in exchange, Host check, CORS, CSP, 404/405. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openTokenStore } from '../../server/store/index.js';
import { TokenService } from '../../server/services/tokens.js';
import { json } from './support.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ corsOrigins: ['http://tool.example:3000'] });
});
after(async () => {
  await s.close();
});

/** A raw request with a chosen Host header (fetch does not let us forge it). */
function rawGet(port: number, pathname: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: pathname, method: 'GET', headers, setHost: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('no, malformed or unknown token → 401 Unauthenticated.', async () => {
  for (const authorization of [undefined, 'Bearer', 'Basic abc', 'Bearer nonsense', 'Bearer 1|wrongwrongwrongwrongwrongwrongwrongwrong', 'Bearer 999|x', `Bearer ${s.token}x`]) {
    const headers: Record<string, string> = authorization ? { authorization } : {};
    const res = await fetch(`${s.url}/api/document`, { headers });
    assert.equal(res.status, 401, String(authorization));
    assert.deepEqual(await res.json(), { success: false, message: 'Unauthenticated.' });
  }
  // Every /api route needs the token, including unknown ids.
  for (const p of ['/api/template', '/api/document/1', '/api/info', '/api/tokens']) {
    assert.equal((await fetch(`${s.url}${p}`)).status, 401, p);
  }
});

test('a read-only token reads but cannot write (403 This action is unauthorized.)', async () => {
  const ro = { authorization: `Bearer ${s.readOnlyToken}` };
  assert.equal((await s.api('/api/document', { headers: ro })).status, 200);
  assert.equal((await s.api('/api/template', { headers: ro })).status, 200);
  const info = await json(await s.api('/api/info', { headers: ro }));
  assert.equal(info.token.read_only, true);
  const writes: Array<[string, string]> = [
    ['POST', '/api/document'],
    ['DELETE', '/api/document/1'],
    ['POST', '/api/template'],
    ['PUT', '/api/template/x'],
    ['DELETE', '/api/template/x'],
    ['POST', '/api/tokens'],
    ['DELETE', '/api/tokens/1'],
  ];
  for (const [method, p] of writes) {
    const res = await s.api(p, { method, headers: ro });
    assert.equal(res.status, 403, `${method} ${p}`);
    assert.deepEqual(await res.json(), { success: false, message: 'This action is unauthorized.' });
  }
});

test('tokens API: create (shown once), list (no secrets), revoke stops it at once', async () => {
  const created = await s.api('/api/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'script', read_only: true }) });
  assert.equal(created.status, 201);
  const body = await json(created);
  assert.match(body.token, /^\d+\|[A-Za-z0-9]{40}$/);
  assert.equal(body.name, 'script');
  assert.equal(body.read_only, true);
  assert.match(body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  const mine = { authorization: `Bearer ${body.token}` };
  assert.equal((await fetch(`${s.url}/api/document`, { headers: mine })).status, 200);

  const list = await json(await s.api('/api/tokens'));
  const entry = list.tokens.find((t: { id: number }) => t.id === body.id);
  assert.deepEqual(Object.keys(entry).sort(), ['created_at', 'id', 'last_used_at', 'name', 'read_only']);
  assert.match(entry.last_used_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/, 'used once above');
  assert.ok(!JSON.stringify(list).includes(body.token.split('|')[1]));

  const missing = await s.api('/api/tokens', { method: 'POST', body: new URLSearchParams({}) });
  assert.equal(missing.status, 422);
  assert.deepEqual((await json(missing)).errors, { name: ['The name field is required.'] });

  const revoked = await s.api(`/api/tokens/${body.id}`, { method: 'DELETE' });
  assert.deepEqual(await revoked.json(), { success: true, message: 'Token revoked.' });
  assert.equal((await fetch(`${s.url}/api/document`, { headers: mine })).status, 401);
  assert.equal((await s.api(`/api/tokens/${body.id}`, { method: 'DELETE' })).status, 404);
  assert.equal((await s.api('/api/tokens/abc', { method: 'DELETE' })).status, 404);
});

test('tokens made and revoked by another process (the CLI) work and stop at once', async () => {
  // The CLI writes tokens.json directly while the service runs.
  const cli = new TokenService(openTokenStore(s.dataDir));
  const { record, token } = cli.create('from-cli');
  const headers = { authorization: `Bearer ${token}` };
  assert.equal((await fetch(`${s.url}/api/template`, { headers })).status, 200);
  cli.revoke(record.id);
  assert.equal((await fetch(`${s.url}/api/template`, { headers })).status, 401);
});

test('the token never appears in the data dir or the logs', async () => {
  const { readdirSync, readFileSync, statSync } = await import('node:fs');
  const { join } = await import('node:path');
  const secret = s.token.split('|')[1];
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
  for (const file of walk(s.dataDir)) assert.ok(!readFileSync(file, 'latin1').includes(secret), file);
  assert.ok(!s.logs.join('\n').includes(secret));
});

test('GUI sign-in: a one-time code becomes a "GUI (browser)" token, once', async () => {
  const code = s.createSignInCode();
  const res = await fetch(`${s.url}/api/gui/exchange`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
  assert.equal(res.status, 200);
  const body = await json(res);
  assert.equal(body.success, true);
  assert.match(body.token, /^\d+\|[A-Za-z0-9]{40}$/);
  const info = await json(await fetch(`${s.url}/api/info`, { headers: { authorization: `Bearer ${body.token}` } }));
  assert.equal(info.token.name, 'GUI (browser)');
  assert.equal(info.token.read_only, false);

  const again = await fetch(`${s.url}/api/gui/exchange`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
  assert.equal(again.status, 422);
  assert.deepEqual((await json(again)).errors, { code: ['The sign-in code is invalid or has expired.'] });
  const empty = await fetch(`${s.url}/api/gui/exchange`, { method: 'POST' });
  assert.equal(empty.status, 422);
});

test('Host header must be the service\'s own (DNS rebinding) → 403', async () => {
  for (const host of [`127.0.0.1:${s.port}`, `localhost:${s.port}`, `LOCALHOST:${s.port}`, `[::1]:${s.port}`]) {
    const res = await rawGet(s.port, '/api/info', { host, authorization: `Bearer ${s.token}` });
    assert.equal(res.status, 200, host);
  }
  for (const host of ['evil.example', `evil.example:${s.port}`, '127.0.0.1', `127.0.0.1:${s.port + 1}`, `localhost.evil.example:${s.port}`]) {
    const res = await rawGet(s.port, '/api/info', { host, authorization: `Bearer ${s.token}` });
    assert.equal(res.status, 403, host);
    assert.equal(JSON.parse(res.body).success, false);
    const gui = await rawGet(s.port, '/', { host });
    assert.equal(gui.status, 403, `GUI ${host}`);
  }
  // Without any Host header Node's HTTP server already refuses the request (400) before the app sees it.
  const noHost = await rawGet(s.port, '/api/info', { authorization: `Bearer ${s.token}` });
  assert.ok(noHost.status === 400 || noHost.status === 403, String(noHost.status));
});

test('the public URL\'s host is accepted too', async () => {
  const p = await startTestServer({ publicUrl: 'https://docs.example.test' });
  try {
    const res = await rawGet(p.port, '/api/document', { host: 'docs.example.test', authorization: `Bearer ${p.token}` });
    assert.equal(res.status, 200);
    assert.equal(JSON.parse(res.body).documents.path, 'https://docs.example.test/api/document');
  } finally {
    await p.close();
  }
});

test('CORS: headers only for configured origins; preflight answered for them', async () => {
  const other = await s.api('/api/info', { headers: { origin: 'http://evil.example' } });
  assert.equal(other.headers.get('access-control-allow-origin'), null);
  const ok = await s.api('/api/info', { headers: { origin: 'http://tool.example:3000' } });
  assert.equal(ok.headers.get('access-control-allow-origin'), 'http://tool.example:3000');
  assert.equal(ok.headers.get('vary'), 'Origin');
  const pre = await fetch(`${s.url}/api/document`, { method: 'OPTIONS', headers: { origin: 'http://tool.example:3000', 'access-control-request-method': 'POST' } });
  assert.equal(pre.status, 204);
  assert.match(pre.headers.get('access-control-allow-headers') ?? '', /Authorization/);
  const preOther = await fetch(`${s.url}/api/document`, { method: 'OPTIONS', headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' } });
  assert.equal(preOther.headers.get('access-control-allow-origin'), null);

  const plain = await startTestServer();
  try {
    const res = await plain.api('/api/info', { headers: { origin: 'http://tool.example:3000' } });
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  } finally {
    await plain.close();
  }
});

test('GUI at / with the strict CSP; SPA fallback; API 404/405 shapes', async () => {
  const csp = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; worker-src 'self' blob:; object-src 'none'; frame-ancestors 'none'; base-uri 'none'";
  for (const p of ['/', '/templates/abc', '/index.html']) {
    const res = await fetch(`${s.url}${p}`);
    assert.equal(res.status, 200, p);
    assert.equal(res.headers.get('content-security-policy'), csp);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await res.text(), /<html/i);
  }
  assert.equal((await fetch(`${s.url}/missing-asset.js`)).status, 404);

  const unknown = await s.api('/api/nothing-here');
  assert.equal(unknown.status, 404);
  assert.equal((await json(unknown)).success, false);
  const wrongMethod = await s.api('/api/document', { method: 'PATCH' });
  assert.equal(wrongMethod.status, 405);
  assert.equal(wrongMethod.headers.get('allow'), 'GET, HEAD, POST');
  assert.equal((await json(wrongMethod)).success, false);
});

test('without a GUI build, / says to run npm run build', async () => {
  const { startServer } = await import('../../server/index.js');
  const { tempDir } = await import('./support.js');
  const { rmSync } = await import('node:fs');
  const dir = tempDir();
  const server = await startServer({ env: {}, config: { port: 0, dataDir: dir, seedSamples: false, renderWorkers: 0, logLevel: 'silent' }, guiDir: `${dir}/no-gui` });
  try {
    const res = await fetch(`${server.url}/`);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /npm run build/);
    assert.ok(res.headers.get('content-security-policy'));
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
