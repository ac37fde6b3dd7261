/** The discovery file (electron/discovery.ts) on a real disk. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { discoveryFilePath, readDiscoveryFile, removeDiscoveryFile, writeDiscoveryFile, type DiscoveryInfo } from '../../electron/discovery.js';

describe('discovery file', () => {
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-electron-discovery-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const info: DiscoveryInfo = { baseUrl: 'http://127.0.0.1:7463', pid: 4242, version: '0.1.0', startedAt: '2026-11-22T08:11:00.000Z' };

  it('is written as docloom.json in the app data folder with exactly baseUrl, pid, version, startedAt', () => {
    const appData = path.join(tmp, 'fresh', 'docloom'); // does not exist yet
    const file = discoveryFilePath(appData);
    assert.equal(file, path.join(appData, 'docloom.json'));
    writeDiscoveryFile(file, info);
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(raw, { ...info });
    assert.deepEqual(Object.keys(raw), ['baseUrl', 'pid', 'version', 'startedAt']);
    assert.deepEqual(fs.readdirSync(appData), ['docloom.json'], 'no temporary file left behind');
  });

  it('replaces a stale file left by a crashed run', () => {
    const file = discoveryFilePath(path.join(tmp, 'stale'));
    writeDiscoveryFile(file, { ...info, pid: 1, baseUrl: 'http://127.0.0.1:9999' });
    writeDiscoveryFile(file, info);
    assert.deepEqual(readDiscoveryFile(file), info);
  });

  it('is removed on quit by the process it names, and only by it', () => {
    const file = discoveryFilePath(path.join(tmp, 'quit'));
    writeDiscoveryFile(file, info);
    assert.equal(removeDiscoveryFile(file, 1234), false, 'another process\'s file stays');
    assert.ok(fs.existsSync(file));
    assert.equal(removeDiscoveryFile(file, info.pid), true);
    assert.equal(fs.existsSync(file), false);
    assert.equal(removeDiscoveryFile(file, info.pid), false, 'already gone: nothing to do, no error');
  });

  it('reads a malformed file as absent', () => {
    const file = discoveryFilePath(path.join(tmp, 'bad'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"baseUrl": 5}');
    assert.equal(readDiscoveryFile(file), null);
    fs.writeFileSync(file, 'not json');
    assert.equal(readDiscoveryFile(file), null);
  });
});
