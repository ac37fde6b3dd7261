/**
 * Quitting (electron/shutdown.ts): the quit is held until the service has stopped and the discovery file is
 * gone. The last test wires it like main.ts does, with the real service process and a real discovery file.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { discoveryFilePath, readDiscoveryFile, removeDiscoveryFile, writeDiscoveryFile } from '../../electron/discovery.js';
import { serviceEnvironment } from '../../electron/service/environment.js';
import { startService } from '../../electron/service/supervisor.js';
import { createShutdown } from '../../electron/shutdown.js';
import { isAlive, isListening, nodeFork, ROOT, SERVICE_ENTRY } from './helpers/node-fork.js';

function quitEvent(): { prevented: number; preventDefault(): void } {
  return {
    prevented: 0,
    preventDefault() {
      this.prevented += 1;
    },
  };
}

describe('shutdown', () => {
  it('holds the first quit, cleans up in order, then quits for real exactly once', async () => {
    const steps: string[] = [];
    let releaseStop!: () => void;
    const shutdown = createShutdown({
      stopService: () => new Promise<void>((resolve) => (releaseStop = () => (steps.push('service stopped'), resolve()))),
      removeDiscoveryFile: () => void steps.push('discovery removed'),
      quit: () => void steps.push('quit'),
    });
    const first = quitEvent();
    shutdown.onBeforeQuit(first);
    assert.equal(first.prevented, 1, 'the app waits');
    const again = quitEvent();
    shutdown.onBeforeQuit(again); // the user presses Cmd+Q again while stopping
    assert.equal(again.prevented, 1);
    assert.deepEqual(steps, []);
    releaseStop();
    await shutdown.done();
    assert.deepEqual(steps, ['service stopped', 'discovery removed', 'quit']);
    const final = quitEvent();
    shutdown.onBeforeQuit(final); // the quit() it issued
    assert.equal(final.prevented, 0, 'now the app may quit');
  });

  it('still removes the discovery file and quits when the service fails to stop', async () => {
    const steps: string[] = [];
    const logged: string[] = [];
    const shutdown = createShutdown({
      stopService: async () => {
        throw new Error('stuck');
      },
      removeDiscoveryFile: () => void steps.push('discovery removed'),
      quit: () => void steps.push('quit'),
      log: (message) => void logged.push(message),
    });
    shutdown.onBeforeQuit(quitEvent());
    await shutdown.done();
    assert.deepEqual(steps, ['discovery removed', 'quit']);
    assert.equal(logged.length, 1);
  });

  describe('with the real service', () => {
    let tmp: string;
    before(() => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-electron-shutdown-'));
    });
    after(() => fs.rmSync(tmp, { recursive: true, force: true }));

    it('leaves nothing running and no discovery file', async () => {
      const launcher = nodeFork();
      const appData = path.join(tmp, 'userData');
      const env = serviceEnvironment(
        { ...process.env, DOCLOOM_PORT: '0', DOCLOOM_LOG_LEVEL: 'error', DOCLOOM_SEED_SAMPLES: 'false', DOCLOOM_RENDER_WORKERS: '0' },
        { dataDir: path.join(appData, 'data'), resourcesDir: path.join(ROOT, 'resources'), appOrigin: 'docloom://app' },
      );
      const service = await startService({ fork: launcher.fork, entryPath: SERVICE_ENTRY, env });
      const file = discoveryFilePath(appData);
      writeDiscoveryFile(file, { baseUrl: service.url, pid: process.pid, version: '0.1.0', startedAt: new Date().toISOString() });
      assert.equal(readDiscoveryFile(file)?.baseUrl, service.url);
      assert.equal(await isListening(service.port), true);

      let quitCalled = false;
      const shutdown = createShutdown({
        stopService: () => service.stop(),
        removeDiscoveryFile: () => void removeDiscoveryFile(file, process.pid),
        quit: () => void (quitCalled = true),
      });
      shutdown.onBeforeQuit(quitEvent());
      await shutdown.done();

      assert.equal(quitCalled, true);
      assert.equal(fs.existsSync(file), false, 'discovery file removed');
      assert.equal(await isListening(service.port), false, 'port released');
      const child = launcher.children[0]!;
      assert.equal(child.exitCode, 0);
      assert.equal(isAlive(child.pid!), false, 'service process gone');
    });
  });
});
