/**
 * Disk full → 507 (issue #10 part 6). The data dir is a small tmpfs filled by a filler file: every write that
 * needs space fails with ENOSPC. Each write answers 507 with one message and stores nothing half-way; reads work;
 * an accepted async document becomes `failed` with `insufficient_storage`; the service restarts on the full disk
 * and agrees with what was acknowledged; once space is freed everything works and nothing acknowledged is lost.
 * The tmpfs needs root (mount); without it (or with DOCLOOM_TEST_INJECT_ENOSPC=1) the same scenario runs with
 * ENOSPC injected into the store's writes under the data dir.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import express from 'express';
import { startServer, type RunningServer } from '../../server/index.js';
import { validateResponsesFrom } from '../helpers/openapi.js';
import { errorHandler } from '../../server/http/errors.js';
import { DEFAULT_LIMITS } from '../../server/config.js';
import { isNoSpace, NO_SPACE_MESSAGE } from '../../server/errors/storage.js';
import { INVOICE_DATA, INVOICE_LINES, jsonTemplate, tempDir, type Body } from './support.js';
import { fill, tryMount } from '../helpers/tmpfs.js';

const NO_SPACE = { success: false, message: NO_SPACE_MESSAGE };

test('ENOSPC and EDQUOT, also as a cause, answer 507 with the one message (never 500)', async () => {
  const app = express();
  const errors: unknown[] = [
    Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }),
    Object.assign(new Error('EDQUOT: disk quota exceeded'), { code: 'EDQUOT' }),
    new Error('saving failed', { cause: Object.assign(new Error('no space'), { code: 'ENOSPC' }) }),
  ];
  errors.forEach((err, i) => app.get(`/${i}`, () => { throw err; }));
  app.get('/other', () => { throw Object.assign(new Error('EIO'), { code: 'EIO' }); });
  app.use(errorHandler(DEFAULT_LIMITS, () => undefined));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    for (let i = 0; i < errors.length; i++) {
      const res = await fetch(`${base}/${i}`);
      assert.equal(res.status, 507);
      assert.deepEqual(await res.json(), NO_SPACE);
    }
    assert.equal((await fetch(`${base}/other`)).status, 500);
  } finally {
    server.close();
  }
  assert.ok(isNoSpace(new AggregateError([new Error('x'), Object.assign(new Error('y'), { code: 'ENOSPC' })])));
  assert.ok(!isNoSpace(null) && !isNoSpace('ENOSPC') && !isNoSpace(new Error('ENOSPC')));
});

interface Client {
  server: RunningServer;
  call(method: string, pathname: string, body?: Record<string, unknown> | FormData, headers?: Record<string, string>, token?: string): Promise<{ status: number; body: Body }>;
}

function client(server: RunningServer, token: string): Client {
  return {
    server,
    async call(method, pathname, body, headers = {}, as = token) {
      const init: RequestInit = { method, headers: { authorization: `Bearer ${as}`, ...headers } };
      if (body instanceof FormData) init.body = body;
      else if (body) {
        init.body = JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] = 'application/json';
      }
      const res = await fetch(`${server.url}${pathname}`, init);
      const type = res.headers.get('content-type') ?? '';
      return { status: res.status, body: type.includes('json') ? ((await res.json()) as Body) : { bytes: (await res.arrayBuffer()).byteLength } };
    },
  };
}

async function boot(dataDir: string, logs: string[]): Promise<RunningServer> {
  const server = await startServer({ env: {}, config: { port: 0, seedSamples: false, renderWorkers: 0, logLevel: 'error', dataDir }, log: (line) => logs.push(line) });
  // Its 507s are checked against the OpenAPI description like every startTestServer response.
  validateResponsesFrom(server.url);
  return server;
}

function templateForm(name: string, bytes: Buffer = jsonTemplate(INVOICE_LINES)): FormData {
  const form = new FormData();
  form.append('name', name);
  form.append('file', new Blob([bytes]), 'invoice.json');
  return form;
}

/** A document with many rows: its PDF needs several pages of space, its record much less. */
const BIG_DATA = { ...INVOICE_DATA, items: Array.from({ length: 1500 }, (_, i) => ({ description: `Item ${i} ${crypto.randomBytes(30).toString('hex')}`, amount: i })) };

async function snapshot(c: Client): Promise<{ documents: string[]; templates: string[]; tokens: string[]; settings: unknown }> {
  const docs = await c.call('GET', '/api/document?per_page=100');
  const templates = await c.call('GET', '/api/template?per_page=100');
  const tokens = await c.call('GET', '/api/tokens');
  const settings = await c.call('GET', '/api/settings');
  assert.equal(docs.status, 200);
  assert.equal(templates.status, 200);
  assert.equal(tokens.status, 200);
  assert.equal(settings.status, 200);
  return {
    documents: (docs.body.documents.data as Body[]).map((d) => `${d.id}:${d.status}:${d.error?.code ?? ''}`).sort(),
    templates: (templates.body.templates.data as Body[]).map((t) => `${t.uuid}:${t.version}`).sort(),
    tokens: (tokens.body.tokens as Body[]).map((t) => `${t.id}:${t.name}`).sort(),
    settings: settings.body.settings,
  };
}

/** How a test fills and frees the disk under the data dir. */
interface Disk {
  dataDir: string;
  /** Full, but for room enough for a few small records (not for a generated document). */
  fillButRecords(): void;
  fill(): void;
  free(): void;
  /** Asserts that a new file does not fit. */
  assertFull(): void;
}

/** A real full file system: a small tmpfs and a filler file. */
function tmpfsDisk(mountDir: string): Disk {
  const filler = path.join(mountDir, 'filler');
  const reserve = path.join(mountDir, 'reserve');
  return {
    dataDir: path.join(mountDir, 'data'),
    fillButRecords() {
      fs.writeFileSync(reserve, Buffer.alloc(2 * 4096));
      fill(filler);
      fs.rmSync(reserve);
    },
    fill: () => fill(filler),
    free: () => fs.rmSync(filler),
    assertFull: () => assert.throws(() => fs.writeFileSync(path.join(mountDir, 'probe'), 'x'), { code: 'ENOSPC' }, 'the disk is still full'),
  };
}

/**
 * Without root: ENOSPC injected where the store opens files for writing under the data dir (fs.openSync, fs.open,
 * fs.promises.open with a w/a flag; fs.writeFileSync, fs.promises.writeFile/appendFile by path). service.lock and
 * its temp file are spared: on a real disk it reuses the space its removal at close freed.
 */
function injectedDisk(dataDir: string, t: { after(fn: () => void): void }): Disk {
  const original = {
    openSync: fs.openSync,
    openCallback: fs.open,
    open: fs.promises.open,
    writeFileSync: fs.writeFileSync,
    writeFile: fs.promises.writeFile,
    appendFile: fs.promises.appendFile,
  };
  let full: ((file: string) => boolean) | null = null;
  const check = (file: unknown, flags: unknown = 'w'): void => {
    const name = typeof file === 'string' || file instanceof URL ? String(file) : '';
    const writing = typeof flags === 'string' && /[wa+]/.test(flags);
    if (full && writing && name.startsWith(dataDir + path.sep) && !/service\.lock/.test(path.basename(name)) && full(name)) {
      throw Object.assign(new Error(`ENOSPC: no space left on device, write '${name}'`), { code: 'ENOSPC', path: name });
    }
  };
  const patched = fs as { -readonly [K in keyof typeof fs]: (typeof fs)[K] };
  patched.openSync = ((file: unknown, flags?: unknown, ...rest: unknown[]) => {
    check(file, flags ?? 'r');
    return (original.openSync as (...args: unknown[]) => number)(file, flags, ...rest);
  }) as typeof fs.openSync;
  patched.open = ((file: unknown, flags: unknown, ...rest: unknown[]) => {
    // fs.open(path, flags, [mode], callback): the failure goes to the callback, as a real one would.
    const callback = rest.at(-1) as (err: NodeJS.ErrnoException | null, fd?: number) => void;
    try {
      check(file, typeof flags === 'function' ? 'r' : flags);
    } catch (err) {
      process.nextTick(() => callback(err as NodeJS.ErrnoException));
      return;
    }
    (original.openCallback as (...args: unknown[]) => void)(file, flags, ...rest);
  }) as typeof fs.open;
  fs.promises.open = (async (file: unknown, flags?: unknown, ...rest: unknown[]) => {
    check(file, flags ?? 'r');
    return (original.open as (...args: unknown[]) => Promise<fs.promises.FileHandle>)(file, flags, ...rest);
  }) as typeof fs.promises.open;
  patched.writeFileSync = ((file: unknown, ...rest: unknown[]) => {
    check(file);
    return (original.writeFileSync as (...args: unknown[]) => void)(file, ...rest);
  }) as typeof fs.writeFileSync;
  fs.promises.writeFile = (async (file: unknown, ...rest: unknown[]) => {
    check(file);
    return (original.writeFile as (...args: unknown[]) => Promise<void>)(file, ...rest);
  }) as typeof fs.promises.writeFile;
  fs.promises.appendFile = (async (file: unknown, ...rest: unknown[]) => {
    check(file);
    return (original.appendFile as (...args: unknown[]) => Promise<void>)(file, ...rest);
  }) as typeof fs.promises.appendFile;
  t.after(() => {
    patched.openSync = original.openSync;
    patched.open = original.openCallback;
    fs.promises.open = original.open;
    patched.writeFileSync = original.writeFileSync;
    fs.promises.writeFile = original.writeFile;
    fs.promises.appendFile = original.appendFile;
  });
  return {
    dataDir,
    // Generated documents go through <data>/tmp/; records are written beside their files.
    // Every write goes through <data>/tmp/ (docs/store.md); a generated document's temp is named after its id (opened
    // by fs.open in the thread pool as its render starts, DocumentFiles.prepare, and again by fs.openSync when the
    // file is placed after that open failed: the failure is reported when the file is placed).
    fillButRecords: () => { full = (file) => file.startsWith(path.join(dataDir, 'tmp') + path.sep) && /^\d/.test(path.basename(file)); },
    fill: () => { full = () => true; },
    free: () => { full = null; },
    assertFull: () => assert.throws(() => fs.writeFileSync(path.join(dataDir, 'probe'), 'x'), { code: 'ENOSPC' }, 'the disk is still full'),
  };
}

test('a full disk (tmpfs, or injected ENOSPC without root): 507 and nothing half-stored, reads work, restart agrees, freeing space restores everything', async (t) => {
  const logs: string[] = [];
  const servers: RunningServer[] = [];
  t.after(async () => {
    for (const s of servers) await s.close().catch(() => undefined);
  });
  const mountDir = tempDir('docloom-diskfull-');
  let disk: Disk;
  if (process.env.DOCLOOM_TEST_INJECT_ENOSPC !== '1' && tryMount(mountDir, '3m')) {
    disk = tmpfsDisk(mountDir);
    t.after(() => {
      execFileSync('umount', ['-l', mountDir], { stdio: 'ignore' });
      fs.rmSync(mountDir, { recursive: true, force: true });
    });
  } else {
    disk = injectedDisk(path.join(mountDir, 'data'), t);
    t.after(() => fs.rmSync(mountDir, { recursive: true, force: true }));
  }
  const { dataDir } = disk;

  // With space: what will be acknowledged before the disk fills.
  let server = await boot(dataDir, logs);
  servers.push(server);
  const { token } = await server.createToken('test');
  const { token: readOnly } = await server.createToken('read-only', { readOnly: true });
  let c = client(server, token);
  const tpl = await c.call('POST', '/api/template', templateForm('Invoice'));
  assert.equal(tpl.status, 201, JSON.stringify(tpl.body));
  const uuid = tpl.body.template.uuid as string;
  const d1 = await c.call('POST', '/api/document', { template_id: uuid, data: INVOICE_DATA });
  const d2 = await c.call('POST', '/api/document', { template_id: uuid, data: INVOICE_DATA });
  assert.equal(d1.status, 201);
  assert.equal(d1.body.document.status, 'completed');
  assert.equal(d2.body.document.status, 'completed');
  const keyedBefore = await c.call('POST', '/api/document', { template_id: uuid, data: INVOICE_DATA }, { 'idempotency-key': 'before-1' });
  assert.equal(keyedBefore.status, 201);
  const doomed = await c.call('POST', '/api/tokens', { name: 'to revoke' });
  assert.equal(doomed.status, 201);

  // An accepted async document whose file does not fit: `failed` with insufficient_storage (its record fits).
  disk.fillButRecords();
  const big = await c.call('POST', '/api/document', { template_id: uuid, data: BIG_DATA, async: 1 });
  assert.equal(big.status, 202, JSON.stringify(big.body));
  await server.close();
  servers.pop();
  // (close() waits for the render: the record is written by then.)
  server = await boot(dataDir, logs);
  servers.push(server);
  c = client(server, token);
  const failed = await c.call('GET', `/api/document/${big.body.document.id}`);
  assert.equal(failed.body.document.status, 'failed', `size ${failed.body.document.size}`);
  assert.equal(failed.body.document.error.code, 'insufficient_storage', JSON.stringify(failed.body.document.error));

  // Full.
  disk.fill();
  const before = await snapshot(c);
  const templateFolders = fs.readdirSync(path.join(dataDir, 'templates')).sort();
  const templateFiles = fs.readdirSync(path.join(dataDir, 'templates', uuid)).sort();
  const documentFiles = fs.readdirSync(path.join(dataDir, 'documents'), { recursive: true }).map(String).sort();

  const sync = await c.call('POST', '/api/document', { template_id: uuid, data: INVOICE_DATA });
  assert.equal(sync.status, 507);
  assert.deepEqual(sync.body, NO_SPACE);
  const async = await c.call('POST', '/api/document', { template_id: uuid, data: INVOICE_DATA, async: 1 });
  assert.equal(async.status, 507);
  assert.deepEqual(async.body, NO_SPACE);
  const keyed = await c.call('POST', '/api/document', { template_id: uuid, data: INVOICE_DATA }, { 'idempotency-key': 'full-1' });
  assert.equal(keyed.status, 507);
  const upload = await c.call('POST', '/api/template', templateForm('Another'));
  assert.equal(upload.status, 507);
  assert.deepEqual(upload.body, NO_SPACE);
  const put = await c.call('PUT', `/api/template/${uuid}`, templateForm('Renamed', jsonTemplate(['Changed {{x}}'])));
  assert.equal(put.status, 507);
  const rename = await c.call('PUT', `/api/template/${uuid}`, { name: 'Renamed' });
  assert.equal(rename.status, 507);
  const newToken = await c.call('POST', '/api/tokens', { name: 'new' });
  assert.equal(newToken.status, 507);
  assert.deepEqual(newToken.body, NO_SPACE);
  const settings = await c.call('PUT', '/api/settings', { allow_private_network: true });
  assert.equal(settings.status, 507);
  // The read-only token's first use records last_used_at: best effort, the request is served.
  assert.equal((await c.call('GET', '/api/template', undefined, {}, readOnly)).status, 200);
  // Deletes: 507 and intact.
  assert.equal((await c.call('DELETE', `/api/document/${d2.body.document.id}`)).status, 507);
  assert.equal((await c.call('DELETE', `/api/template/${uuid}`)).status, 507);
  assert.equal((await c.call('DELETE', `/api/tokens/${doomed.body.id}`)).status, 507);
  assert.equal((await c.call('GET', '/api/template', undefined, {}, doomed.body.token)).status, 200, 'the token still works');
  // Reads.
  assert.equal((await c.call('GET', `/api/document/${d2.body.document.id}`)).status, 200);
  const download = await c.call('GET', `/api/document/${d1.body.document.id}/download`);
  assert.equal(download.status, 200);
  assert.ok(download.body.bytes > 0);
  assert.equal((await c.call('GET', `/api/template/${uuid}/file`)).status, 200);
  const preview = await c.call('POST', '/api/preview', { template_id: uuid, data: INVOICE_DATA });
  assert.equal(preview.status, 200, 'a preview stores nothing, so it works');

  assert.deepEqual(await snapshot(c), before, 'nothing changed');
  assert.deepEqual(fs.readdirSync(path.join(dataDir, 'templates')).sort(), templateFolders, 'no template folder left behind');
  assert.deepEqual(fs.readdirSync(path.join(dataDir, 'templates', uuid)).sort(), templateFiles, 'no template version left behind');
  assert.deepEqual(fs.readdirSync(path.join(dataDir, 'documents'), { recursive: true }).map(String).sort(), documentFiles, 'no document file left behind');
  assert.ok(!logs.some((l) => /Server error/.test(l)));

  // Restart on the full disk: it starts, and the store holds what was acknowledged.
  await server.close();
  servers.pop();
  server = await boot(dataDir, logs);
  servers.push(server);
  c = client(server, token);
  disk.assertFull();
  assert.deepEqual(await snapshot(c), before, 'the store after a restart agrees');
  const replay = await c.call('POST', '/api/document', { template_id: uuid, data: INVOICE_DATA }, { 'idempotency-key': 'before-1' });
  assert.equal(replay.status, 201);
  assert.equal(replay.body.document.id, keyedBefore.body.document.id, 'a key acknowledged before is replayed');

  // Free the space: everything works, nothing acknowledged was lost.
  disk.free();
  const again = await c.call('POST', '/api/document', { template_id: uuid, data: INVOICE_DATA }, { 'idempotency-key': 'full-1' });
  assert.equal(again.status, 201, 'the key of the refused request was not kept');
  assert.equal(again.body.document.status, 'completed');
  const later = await c.call('POST', '/api/document', { template_id: uuid, data: BIG_DATA, async: 1 });
  assert.equal(later.status, 202);
  assert.equal((await c.call('POST', '/api/template', templateForm('Another'))).status, 201);
  assert.equal((await c.call('PUT', `/api/template/${uuid}`, { name: 'Renamed' })).status, 200);
  assert.equal((await c.call('POST', '/api/tokens', { name: 'new' })).status, 201);
  assert.equal((await c.call('PUT', '/api/settings', { allow_private_network: true })).status, 200);
  assert.equal((await c.call('DELETE', `/api/document/${d2.body.document.id}`)).status, 200);
  assert.equal((await c.call('DELETE', `/api/tokens/${doomed.body.id}`)).status, 200);
  // The document is made but its Idempotency-Key cannot be kept (the disk fills in between: injected here, as
  // no size of tmpfs makes that happen reliably): 507, and neither the document nor the key stays.
  // The log appends through a FileHandle (server/store/idempotency.ts): only it uses FileHandle.appendFile.
  const probe = await fs.promises.open(path.join(dataDir, 'meta.json'), 'r');
  const handleProto = Object.getPrototypeOf(probe) as { appendFile: (...args: unknown[]) => Promise<void> };
  await probe.close();
  const appendFile = handleProto.appendFile;
  const listed = (await c.call('GET', '/api/document?per_page=100')).body.documents.total as number;
  handleProto.appendFile = async () => {
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  };
  let lateFull;
  try {
    lateFull = await c.call('POST', '/api/document', { template_id: uuid, data: INVOICE_DATA }, { 'idempotency-key': 'late-full' });
  } finally {
    handleProto.appendFile = appendFile;
  }
  assert.equal(lateFull.status, 507);
  assert.equal((await c.call('GET', '/api/document?per_page=100')).body.documents.total, listed, 'the document was not kept');
  const lateAgain = await c.call('POST', '/api/document', { template_id: uuid, data: { ...INVOICE_DATA, number: 'other' } }, { 'idempotency-key': 'late-full' });
  assert.equal(lateAgain.status, 201, 'nor was the key');
  await server.close();
  servers.pop();
  server = await boot(dataDir, logs);
  servers.push(server);
  c = client(server, token);
  const after = await snapshot(c);
  assert.equal(after.documents.length, before.documents.length + 2, 'd2 gone; the two keyed and the async one added');
  assert.ok(after.documents.includes(`${d1.body.document.id}:completed:`));
  assert.ok(after.documents.includes(`${again.body.document.id}:completed:`));
  assert.ok(after.documents.includes(`${later.body.document.id}:completed:`), JSON.stringify(after.documents));
  assert.ok(!after.documents.some((d) => d.startsWith(`${d2.body.document.id}:`)));
  assert.equal(after.templates.length, 2);
  assert.equal(after.tokens.length, before.tokens.length, 'one token added, one revoked');
  assert.deepEqual(after.settings, { allow_private_network: true });
  assert.equal((await c.call('GET', `/api/document/${again.body.document.id}/download`)).status, 200);
});
