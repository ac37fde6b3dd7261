/**
 * What startServer() promises its callers (the CLI, the Electron service process): a port in use fails with the
 * EADDRINUSE code kept, and tokens can be revoked by id. Also the lifetime of the tokens the browser sign-in makes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { startServer } from '../../server/index.js';
import { WINDOW_SIGN_IN_IDLE_HOURS, WINDOW_SIGN_INS_KEPT } from '../../server/services/tokens.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { json, tempDir } from './support.js';

function listenOn(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

test('a port in use: the error keeps code EADDRINUSE and names the port and DOCLOOM_PORT; the data dir is released', async () => {
  const holder = await listenOn(0);
  const port = (holder.address() as net.AddressInfo).port;
  const dataDir = tempDir();
  try {
    const config = { port, dataDir, seedSamples: false, renderWorkers: 0, logLevel: 'silent' as const };
    const err = await startServer({ env: {}, config }).then(
      () => assert.fail('started on a port another listener holds'),
      (e: unknown) => e as NodeJS.ErrnoException,
    );
    assert.equal(err.code, 'EADDRINUSE');
    assert.ok(err.message.includes(`port ${port}`), err.message);
    assert.match(err.message, /DOCLOOM_PORT/);
    assert.equal((err.cause as NodeJS.ErrnoException).code, 'EADDRINUSE');
    // The failed start let go of the data dir: the next start on a free port uses it.
    const next = await startServer({ env: {}, config: { ...config, port: 0 } });
    assert.notEqual(next.port, port);
    await next.close();
  } finally {
    await new Promise((resolve) => holder.close(resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('revokeTokensNamed(name): revokes exactly the tokens with that name (a crashed run\'s window tokens)', async () => {
  const dataDir = tempDir();
  const server = await startServer({ env: {}, config: { port: 0, dataDir, seedSamples: false, renderWorkers: 0, logLevel: 'silent' } });
  try {
    const stale1 = await server.createToken('docloom desktop window');
    const stale2 = await server.createToken('docloom desktop window');
    const other = await server.createToken('my script');
    const status = (token: string) =>
      fetch(`${server.url}/api/info`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    assert.equal(await server.revokeTokensNamed('docloom desktop window'), 2);
    assert.equal(await status(stale1.token), 401);
    assert.equal(await status(stale2.token), 401);
    assert.equal(await status(other.token), 200);
    assert.equal(await server.revokeTokensNamed('docloom desktop window'), 0);
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('revokeToken(id): the token stops working at once; an unknown id answers false', async () => {
  const dataDir = tempDir();
  const server = await startServer({ env: {}, config: { port: 0, dataDir, seedSamples: false, renderWorkers: 0, logLevel: 'silent' } });
  try {
    const { id, token } = await server.createToken('docloom desktop window');
    const info = () => fetch(`${server.url}/api/info`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal((await info()).status, 200);
    assert.equal(await server.revokeToken(id), true);
    assert.equal((await info()).status, 401);
    assert.equal(await server.revokeToken(id), false);
    const onDisk = JSON.parse(fs.readFileSync(path.join(dataDir, 'tokens.json'), 'utf8'));
    assert.deepEqual(onDisk.tokens, []);
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

async function signIn(s: TestServer): Promise<string> {
  const res = await fetch(`${s.url}/api/gui/exchange`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: s.createSignInCode() }),
  });
  assert.equal(res.status, 200);
  return (await json(res)).token as string;
}

const status = (s: TestServer, token: string) => fetch(`${s.url}/api/info`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);

test(`window sign-ins: only the ${WINDOW_SIGN_INS_KEPT} most recently used are kept; tokens made on purpose are never touched`, async () => {
  const s = await startTestServer();
  try {
    const sameName = await json(await s.api('/api/tokens', { method: 'POST', body: new URLSearchParams({ name: 'GUI (browser)' }) }));
    const tokens: string[] = [];
    for (let i = 0; i < WINDOW_SIGN_INS_KEPT + 2; i++) tokens.push(await signIn(s));
    assert.equal(await status(s, tokens[0]), 401, 'the oldest sign-in token was dropped');
    assert.equal(await status(s, tokens[1]), 401);
    for (const token of tokens.slice(2)) assert.equal(await status(s, token), 200);
    const body = await json(await s.api('/api/tokens'));
    const listed = body.tokens as Array<{ id: number; name: string }>;
    assert.equal(body.window_sign_ins.length, WINDOW_SIGN_INS_KEPT);
    assert.equal(listed.filter((t) => t.name === 'GUI (browser)').length, 1, 'the API list holds only the one made on purpose');
    assert.ok(listed.some((t) => t.id === sameName.id), 'a token made through the API keeps working whatever its name');
    assert.equal(await status(s, sameName.token), 200);
    assert.equal(await status(s, s.token), 200);
  } finally {
    await s.close();
  }
});

test(`window sign-ins idle for ${WINDOW_SIGN_IN_IDLE_HOURS} hours stop working and are removed; last use is recorded`, async () => {
  const s = await startTestServer({ sweepIntervalSeconds: 1 });
  try {
    const idle = await signIn(s);
    const forgotten = await signIn(s);
    const fresh = await signIn(s);
    assert.equal(await status(s, idle), 200);
    const listed = (await json(await s.api('/api/tokens'))).window_sign_ins as Array<{ id: number; last_used_at: string | null }>;
    const idleId = Number(idle.split('|')[0]);
    assert.match(listed.find((t) => t.id === idleId)!.last_used_at ?? '', /^\d{4}-\d\d-\d\dT/, 'its use was recorded');

    // Age it on disk, as the file would look after 13 hours without use (the service re-reads a changed file).
    const file = path.join(s.dataDir, 'tokens.json');
    const data = JSON.parse(fs.readFileSync(file, 'utf8'));
    const longAgo = new Date(Date.now() - (WINDOW_SIGN_IN_IDLE_HOURS + 1) * 3600 * 1000).toISOString();
    const forgottenId = Number(forgotten.split('|')[0]);
    for (const t of data.tokens) if (t.id === idleId || t.id === forgottenId) Object.assign(t, { created_at: longAgo, last_used_at: longAgo });
    // A token made on purpose, as old, is not subject to the rule.
    const ownId = Number(s.token.split('|')[0]);
    for (const t of data.tokens) if (t.id === ownId) Object.assign(t, { created_at: longAgo, last_used_at: longAgo });
    fs.writeFileSync(file, JSON.stringify(data));

    assert.equal(await status(s, idle), 401);
    assert.equal(await status(s, fresh), 200);
    assert.equal(await status(s, s.token), 200);
    const all = async () => {
      const b = await json(await s.api('/api/tokens'));
      return [...b.tokens, ...b.window_sign_ins] as Array<{ id: number }>;
    };
    const after = await all();
    assert.ok(!after.some((t) => t.id === idleId), 'the idle token is gone from the list');
    // One never presented again is removed by the sweeper (every second here).
    let listed2: Array<{ id: number }> = after;
    for (let i = 0; i < 40 && listed2.some((t) => t.id === forgottenId); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      listed2 = await all();
    }
    assert.ok(!listed2.some((t) => t.id === forgottenId), 'the sweeper removed the forgotten one');
    assert.ok(listed2.some((t) => t.id === ownId));
  } finally {
    await s.close();
  }
});
