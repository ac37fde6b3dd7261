/**
 * The local service as the desktop app runs it: electron/service-entry.ts in a process of its own, started and
 * stopped by electron/service/supervisor.ts, running the real server on real ports with a real data folder.
 * (Electron's utilityProcess is replaced by Node's child_process.fork: the only part that cannot run here.)
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serviceEnvironment } from '../../electron/service/environment.js';
import { startService, ServiceStartError, type RunningService } from '../../electron/service/supervisor.js';
import { freePort, isAlive, isListening, nodeFork, occupyPort, ROOT, SERVICE_ENTRY } from './helpers/node-fork.js';

const APP_ORIGIN = 'docloom://app';

function envFor(dataDir: string, port: number): NodeJS.ProcessEnv {
  return serviceEnvironment(
    { ...process.env, DOCLOOM_PORT: String(port), DOCLOOM_LOG_LEVEL: 'error', DOCLOOM_SEED_SAMPLES: 'false', DOCLOOM_RENDER_WORKERS: '0' },
    { dataDir, resourcesDir: path.join(ROOT, 'resources'), appOrigin: APP_ORIGIN },
  );
}

async function waitUntil(condition: () => boolean, ms = 5_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return condition();
}

describe('the desktop service process (real server)', () => {
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-electron-service-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('starts on the preferred port, hands over a working token, allows the GUI origin, and stops cleanly', async () => {
    const launcher = nodeFork();
    const port = await freePort();
    const dataDir = path.join(tmp, 'a');
    let service: RunningService | undefined;
    try {
      service = await startService({ fork: launcher.fork, entryPath: SERVICE_ENTRY, env: envFor(dataDir, port) });
      assert.equal(service.port, port);
      assert.equal(service.fellBack, false);
      assert.equal(service.url, `http://127.0.0.1:${port}`);
      assert.match(service.token, /^\d+\|\S{40}$/, 'a Sanctum-style token');

      const authorised = await fetch(`${service.url}/api/template`, {
        headers: { Authorization: `Bearer ${service.token}`, Origin: APP_ORIGIN },
      });
      assert.equal(authorised.status, 200);
      assert.equal(((await authorised.json()) as { success: boolean }).success, true);
      assert.equal(authorised.headers.get('access-control-allow-origin'), APP_ORIGIN, 'CORS lets the window call the API');

      const anonymous = await fetch(`${service.url}/api/template`);
      assert.equal(anonymous.status, 401);

      assert.ok(fs.existsSync(dataDir), 'the data folder is the one the shell chose');
    } finally {
      await service?.stop();
    }
    const child = launcher.children[0]!;
    assert.equal(child.exitCode, 0, `clean exit; output:\n${launcher.output()}`);
    assert.equal(isAlive(child.pid!), false);
    assert.equal(await isListening(port), false, 'the port is free again');
  });

  it('falls back to a free port when the preferred one is held by another listener', async () => {
    const launcher = nodeFork();
    const holder = await occupyPort();
    let service: RunningService | undefined;
    try {
      service = await startService({ fork: launcher.fork, entryPath: SERVICE_ENTRY, env: envFor(path.join(tmp, 'b'), holder.port) });
      assert.equal(service.fellBack, true);
      assert.notEqual(service.port, holder.port);
      assert.equal(service.url, `http://127.0.0.1:${service.port}`);
      const response = await fetch(`${service.url}/api/document`, { headers: { Authorization: `Bearer ${service.token}` } });
      assert.equal(response.status, 200);
    } finally {
      await service?.stop();
      await holder.release();
    }
    assert.equal(launcher.children[0]!.exitCode, 0);
  });

  it('ends by itself when the app disappears without asking it to stop', async () => {
    const launcher = nodeFork();
    const service = await startService({ fork: launcher.fork, entryPath: SERVICE_ENTRY, env: envFor(path.join(tmp, 'c'), 0) });
    const child = launcher.children[0]!;
    child.disconnect(); // what the child sees when its parent dies
    assert.ok(await waitUntil(() => child.exitCode !== null), `the service exited; output:\n${launcher.output()}`);
    assert.equal(await isListening(service.port), false);
  });

  it('reports why it could not start, and leaves no process behind', async () => {
    const launcher = nodeFork();
    const notAFolder = path.join(tmp, 'plain-file');
    fs.writeFileSync(notAFolder, 'not a folder');
    await assert.rejects(
      startService({ fork: launcher.fork, entryPath: SERVICE_ENTRY, env: envFor(path.join(notAFolder, 'data'), 0) }),
      (error: unknown) => error instanceof ServiceStartError && /could not start: .+/.test(error.message),
    );
    const child = launcher.children[0]!;
    assert.ok(await waitUntil(() => child.exitCode !== null || child.signalCode !== null));
    assert.equal(isAlive(child.pid!), false);
  });
});

describe('the supervisor with processes that misbehave', () => {
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-electron-supervisor-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  function script(name: string, source: string): string {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, source);
    return file;
  }

  it('kills a service that ignores the request to stop', async () => {
    const stubborn = script(
      'stubborn.mjs',
      `process.send({ type: 'ready', url: 'http://127.0.0.1:1', port: 1, token: '1|x', fellBack: false });
       process.on('message', () => {}); process.on('disconnect', () => {}); setInterval(() => {}, 1000);`,
    );
    const launcher = nodeFork();
    const service = await startService({ fork: launcher.fork, entryPath: stubborn, env: process.env });
    const started = Date.now();
    await service.stop(300);
    const child = launcher.children[0]!;
    assert.equal(child.signalCode, 'SIGKILL');
    assert.ok(Date.now() - started < 3_000);
    assert.equal(isAlive(child.pid!), false);
  });

  it('gives up on a service that never reports, and kills it', async () => {
    const silent = script('silent.mjs', `process.on('message', () => {}); setInterval(() => {}, 1000);`);
    const launcher = nodeFork();
    await assert.rejects(
      startService({ fork: launcher.fork, entryPath: silent, env: process.env, startTimeoutMs: 500 }),
      /did not start within/,
    );
    const child = launcher.children[0]!;
    assert.ok(await waitUntil(() => child.signalCode !== null || child.exitCode !== null));
    assert.equal(isAlive(child.pid!), false);
  });

  it('tells the app when the service dies on its own, and only then', async () => {
    const fragile = script(
      'fragile.mjs',
      `process.send({ type: 'ready', url: 'http://127.0.0.1:1', port: 1, token: '1|x', fellBack: false });
       process.on('message', (m) => { if (m.type === 'crash') process.exit(3); if (m.type === 'stop') process.exit(0); });`,
    );
    const launcher = nodeFork();
    const service = await startService({ fork: launcher.fork, entryPath: fragile, env: process.env });
    const codes: Array<number | null> = [];
    service.onUnexpectedExit((code) => codes.push(code));
    launcher.children[0]!.send({ type: 'crash' });
    assert.ok(await waitUntil(() => codes.length === 1));
    assert.deepEqual(codes, [3]);

    const calm = nodeFork();
    const second = await startService({ fork: calm.fork, entryPath: fragile, env: process.env });
    const secondCodes: Array<number | null> = [];
    second.onUnexpectedExit((code) => secondCodes.push(code));
    await second.stop();
    assert.equal(calm.children[0]!.exitCode, 0);
    assert.deepEqual(secondCodes, [], 'a requested stop is not reported as a crash');
  });

  it('ignores malformed messages instead of trusting them', async () => {
    const confused = script(
      'confused.mjs',
      `process.send({ type: 'ready', url: 'javascript:alert(1)', port: 1, token: 'x', fellBack: false });
       process.send('hello'); process.send({ type: 'ready', url: 'http://127.0.0.1:9', port: 9, token: '2|y', fellBack: true });
       process.on('message', (m) => { if (m.type === 'stop') process.exit(0); });`,
    );
    const launcher = nodeFork();
    const service = await startService({ fork: launcher.fork, entryPath: confused, env: process.env });
    assert.equal(service.url, 'http://127.0.0.1:9');
    assert.equal(service.token, '2|y');
    await service.stop();
  });
});
