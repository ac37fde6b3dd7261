/**
 * One credential per browser window (issue 13, item 7): the sign-in link's code becomes a window sign-in, listed
 * apart from the API tokens; the same window signing in again revokes its old one; "Sign out" revokes it; an API
 * token can be neither replaced nor signed out that way.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../helpers/process.js';
import { json, type Body } from './support.js';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

/** What the browser GUI does: POST the code, with the window's current credential (if any) as its bearer. */
async function exchange(previous?: string): Promise<string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (previous) headers.authorization = `Bearer ${previous}`;
  const res = await fetch(`${s.url}/api/gui/exchange`, { method: 'POST', headers, body: JSON.stringify({ code: s.createSignInCode() }) });
  assert.equal(res.status, 200);
  return (await json(res)).token as string;
}

const as = (token: string, path: string, init: RequestInit = {}) =>
  fetch(`${s.url}${path}`, { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } });
const signOut = (token: string) => as(token, '/api/gui/sign-out', { method: 'POST' });
const idOf = (token: string) => Number(token.split('|')[0]);

async function listing(): Promise<{ tokens: Body[]; window_sign_ins: Body[] }> {
  return (await json(await s.api('/api/tokens'))) as { tokens: Body[]; window_sign_ins: Body[] };
}

test('three sign-ins and two sign-outs leave one window sign-in; the API tokens are unchanged', async () => {
  const before = await listing();
  assert.deepEqual(before.window_sign_ins, []);

  // Window A signs in, then signs in again with a fresh link (its old credential goes), window B signs in.
  const a1 = await exchange();
  const a2 = await exchange(a1);
  assert.equal((await as(a1, '/api/info')).status, 401, 'signing in again revoked the window\'s old sign-in');
  const b = await exchange();
  assert.deepEqual((await listing()).window_sign_ins.map((w) => w.id).sort(), [idOf(a2), idOf(b)].sort());

  // Window B signs out; then A signs out.
  const out = await signOut(b);
  assert.equal(out.status, 200);
  assert.deepEqual(await json(out), { success: true, message: 'Signed out.' });
  const after = await as(b, '/api/info');
  assert.equal(after.status, 401);
  assert.equal((await json(after)).message, 'Unauthenticated.');
  // A third sign-in (window C), then A signs out: C is the one left.
  const c = await exchange();
  assert.equal((await signOut(a2)).status, 200);
  assert.equal((await as(a2, '/api/template')).status, 401);

  const end = await listing();
  assert.deepEqual(end.window_sign_ins.map((w) => w.id), [idOf(c)]);
  assert.deepEqual(end.tokens, before.tokens, 'API tokens untouched (same ids, names, rights, dates)');
  assert.equal((await as(c, '/api/info')).status, 200);
});

test('a window sign-in is marked on its own listing, with its expiry 12 h after last use; /api/info says its kind', async () => {
  const w = await exchange();
  const seen = (await json(await as(w, '/api/tokens'))) as { tokens: Body[]; window_sign_ins: Body[] };
  const mine = seen.window_sign_ins.find((x) => x.id === idOf(w))!;
  assert.equal(mine.current, true);
  assert.equal(mine.name, 'GUI (browser)');
  const lastUse = Date.parse(mine.last_used_at ?? mine.created_at);
  assert.equal(Date.parse(mine.expires_at) - lastUse, 12 * 3600 * 1000);
  assert.ok(!seen.tokens.some((t) => t.id === idOf(w)), 'not among the API tokens');
  assert.ok(seen.window_sign_ins.filter((x) => x.id !== idOf(w)).every((x) => x.current === false));
  assert.equal((await json(await as(w, '/api/info'))).token.kind, 'window');
  assert.equal((await json(await s.api('/api/info'))).token.kind, 'api');
  // Revocable by id like any credential.
  assert.equal((await s.api(`/api/tokens/${idOf(w)}`, { method: 'DELETE' })).status, 200);
  assert.equal((await as(w, '/api/info')).status, 401);
});

test('an API token is never revoked by a sign-in or a sign-out', async () => {
  const out = await s.api('/api/gui/sign-out', { method: 'POST' });
  assert.equal(out.status, 403);
  assert.equal((await json(out)).message, 'Only a window sign-in signs out; revoke an API token on the Tokens page.');
  const w = await exchange(s.token);
  assert.equal((await s.api('/api/info')).status, 200, 'an API token given as the previous credential stays');
  assert.equal((await signOut(w)).status, 200);
  assert.equal((await signOut(w)).status, 401, 'a second sign-out with the same credential is unauthenticated');
});

test('a reload reuses the window sign-in: requests do not rotate it', async () => {
  const w = await exchange();
  for (let i = 0; i < 3; i++) assert.equal((await as(w, '/api/info')).status, 200);
  const list = await listing();
  assert.equal(list.window_sign_ins.filter((x) => x.id === idOf(w)).length, 1);
  await signOut(w);
});

test('docloom token list marks window sign-ins apart from API tokens', async () => {
  const w = await exchange();
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const r = await runProcess(process.execPath, ['--import', 'tsx', path.join(root, 'server', 'cli.ts'), 'token', 'list'], {
    cwd: root,
    env: { ...process.env, DOCLOOM_LOG_LEVEL: 'error', DOCLOOM_DATA_DIR: s.dataDir },
    timeout: 60_000,
  });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n').slice(1);
  const marked = lines.filter((l) => l.includes('(window sign-in')).map((l) => Number(l.split('\t')[0]));
  const windows = (await listing()).window_sign_ins.map((x) => x.id);
  assert.ok(windows.includes(idOf(w)));
  assert.deepEqual(marked, windows);
  assert.ok(lines.some((l) => l.endsWith('\ttest')), r.stdout);
  await signOut(w);
});
