/**
 * The preload (electron/preload.cts), compiled the way tsc compiles it (CommonJS) and run the way a sandboxed
 * Electron renderer runs it: as a function of (require, process, exports, module, …) whose `require` knows only
 * 'electron'. contextBridge and ipcRenderer are fakes that record what the preload does.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import ts from 'typescript';
import { IPC, type DocloomBridge } from '../../electron/bridge-api.js';
import { ROOT } from './helpers/node-fork.js';

const compiled = ts.transpileModule(fs.readFileSync(path.join(ROOT, 'electron', 'preload.cts'), 'utf8'), {
  fileName: 'preload.cts',
  compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
}).outputText;

type Listener = (event: unknown, ...args: unknown[]) => void;

interface Run {
  bridge: DocloomBridge;
  exposedAs: string[];
  invoked: Array<{ channel: string; args: unknown[] }>;
  sentSync: string[];
  required: string[];
  emit(channel: string, ...args: unknown[]): void;
  listenerCount(channel: string): number;
}

function runPreload(argv: string[], sendSyncAnswer = 'http://127.0.0.1:5555'): Run {
  const exposedAs: string[] = [];
  const invoked: Run['invoked'] = [];
  const sentSync: string[] = [];
  const required: string[] = [];
  const listeners = new Map<string, Listener[]>();
  let bridge: DocloomBridge | undefined;
  const electron = {
    contextBridge: {
      exposeInMainWorld(name: string, api: DocloomBridge) {
        exposedAs.push(name);
        bridge = api;
      },
    },
    ipcRenderer: {
      invoke: async (channel: string, ...args: unknown[]) => {
        invoked.push({ channel, args });
        return `answer from ${channel}`;
      },
      sendSync: (channel: string) => {
        sentSync.push(channel);
        return sendSyncAnswer;
      },
      on: (channel: string, listener: Listener) => void listeners.set(channel, [...(listeners.get(channel) ?? []), listener]),
      removeListener: (channel: string, listener: Listener) =>
        void listeners.set(channel, (listeners.get(channel) ?? []).filter((l) => l !== listener)),
    },
  };
  // The sandbox's require: Electron's preload polyfill throws for anything it does not provide.
  const sandboxRequire = (name: string): unknown => {
    required.push(name);
    if (name === 'electron') return electron;
    throw new Error(`module not found: ${name}`);
  };
  const exports = {};
  const wrapper = vm.runInNewContext(`(function (require, process, exports, module) {\n${compiled}\n})`, {}, { filename: 'preload.cjs' }) as (
    ...args: unknown[]
  ) => void;
  wrapper(sandboxRequire, { argv }, exports, { exports });
  assert.ok(bridge, 'the preload exposed a bridge');
  return {
    bridge,
    exposedAs,
    invoked,
    sentSync,
    required,
    emit: (channel, ...args) => (listeners.get(channel) ?? []).forEach((listener) => listener({ sender: 'ipc internals' }, ...args)),
    listenerCount: (channel) => (listeners.get(channel) ?? []).length,
  };
}

const ARGV = ['/opt/docloom/docloom', '--type=renderer', '--docloom-api-base-url=http://127.0.0.1:7463', '--docloom-app-version=0.1.0'];

describe('preload', () => {
  it('runs in a sandbox that offers nothing but "electron"', () => {
    const run = runPreload(ARGV);
    assert.deepEqual(run.required, ['electron']);
  });

  it('exposes exactly the documented bridge as window.docloom, frozen', () => {
    const { bridge, exposedAs } = runPreload(ARGV);
    assert.deepEqual(exposedAs, ['docloom']);
    assert.deepEqual(Object.keys(bridge).sort(), [
      'apiBaseUrl',
      'appVersion',
      'getToken',
      'importTemplate',
      'onTemplateImported',
      'saveDocument',
      'showInFolder',
    ]);
    assert.ok(Object.isFrozen(bridge));
    assert.equal(bridge.apiBaseUrl, 'http://127.0.0.1:7463');
    assert.equal(bridge.appVersion, '0.1.0');
    assert.ok(!('ipcRenderer' in bridge) && !('invoke' in bridge) && !('send' in bridge));
  });

  it('reads the API address from its switch, and asks for it only when the switch is missing', () => {
    assert.deepEqual(runPreload(ARGV).sentSync, []);
    const fallback = runPreload(['/opt/docloom/docloom', '--type=renderer']);
    assert.deepEqual(fallback.sentSync, [IPC.getApiBaseUrl]);
    assert.equal(fallback.bridge.apiBaseUrl, 'http://127.0.0.1:5555');
  });

  it('each function invokes its own channel with its own arguments only', async () => {
    const run = runPreload(ARGV);
    assert.equal(await run.bridge.getToken(), `answer from ${IPC.getToken}`);
    await run.bridge.importTemplate();
    await run.bridge.saveDocument(5, 'Invoice.pdf');
    await run.bridge.showInFolder('/home/u/Invoice.pdf');
    assert.deepEqual(run.invoked, [
      { channel: IPC.getToken, args: [] },
      { channel: IPC.importTemplate, args: [] },
      { channel: IPC.saveDocument, args: [5, 'Invoice.pdf'] },
      { channel: IPC.showInFolder, args: ['/home/u/Invoice.pdf'] },
    ]);
  });

  it('relays imported templates without the IPC event, and unsubscribes', () => {
    const run = runPreload(ARGV);
    const received: unknown[][] = [];
    const unsubscribe = run.bridge.onTemplateImported((...args: unknown[]) => received.push(args));
    run.emit(IPC.templateImported, { uuid: 'u1', name: 'Invoice' });
    assert.deepEqual(received, [[{ uuid: 'u1', name: 'Invoice' }]], 'the page never sees the event object');
    unsubscribe();
    assert.equal(run.listenerCount(IPC.templateImported), 0);
    run.emit(IPC.templateImported, { uuid: 'u2', name: 'Letter' });
    assert.equal(received.length, 1);
  });

  it('uses only channels the main process handles (bridge-api.ts IPC)', async () => {
    const run = runPreload(['/x']);
    await run.bridge.getToken();
    await run.bridge.importTemplate();
    await run.bridge.saveDocument(1);
    await run.bridge.showInFolder('/x');
    run.bridge.onTemplateImported(() => {})();
    const used = new Set([...run.invoked.map((call) => call.channel), ...run.sentSync]);
    const known = new Set<string>(Object.values(IPC));
    assert.ok(used.size >= 4, `channels used: ${[...used].join(', ')}`);
    for (const channel of used) assert.ok(known.has(channel), channel);
    // and the literal names in the preload are exactly bridge-api's
    const literals = [...compiled.matchAll(/'(docloom:[a-z-]+)'/g)].map((match) => match[1]).sort();
    assert.deepEqual(literals, [...known].sort());
  });
});
