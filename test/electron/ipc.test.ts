/**
 * IPC checks (electron/ipc/validate.ts) and the handlers that apply them (electron/ipc/register.ts), with a fake
 * ipcMain that calls handlers the way Electron does: (event, ...args).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { IPC } from '../../electron/bridge-api.js';
import { registerBridgeHandlers, type BridgeHandlers, type IpcMainLike } from '../../electron/ipc/register.js';
import {
  IpcValidationError,
  isTrustedSender,
  parseSaveDocumentArgs,
  parseShowInFolderArgs,
  sanitizeFileName,
  type SenderInfo,
} from '../../electron/ipc/validate.js';

const ourContents = { id: 1 };
const otherContents = { id: 2 };
const isOurs = (contents: unknown): boolean => contents === ourContents;

function event(overrides: Partial<SenderInfo> = {}): SenderInfo & { returnValue: unknown } {
  return { sender: ourContents, senderFrame: { url: 'docloom://app/index.html#/templates', parent: null }, returnValue: undefined, ...overrides };
}

describe('isTrustedSender', () => {
  it('accepts the top frame of our window showing an app page', () => {
    assert.equal(isTrustedSender(event(), isOurs), true);
  });

  const refused: Array<[string, Partial<SenderInfo>]> = [
    ['another WebContents', { sender: otherContents }],
    ['a destroyed/navigated frame', { senderFrame: null }],
    ['an iframe (e.g. a PDF preview)', { senderFrame: { url: 'docloom://app/index.html', parent: {} } }],
    ['a remote page', { senderFrame: { url: 'https://evil.example/', parent: null } }],
    ['a file:// page', { senderFrame: { url: 'file:///work/main/dist/renderer/index.html', parent: null } }],
    ['the local API origin', { senderFrame: { url: 'http://127.0.0.1:7463/', parent: null } }],
    ['a look-alike host', { senderFrame: { url: 'docloom://app.evil/index.html', parent: null } }],
    ['a URL with credentials', { senderFrame: { url: 'docloom://user:pw@app/index.html', parent: null } }],
    ['an unparsable URL', { senderFrame: { url: 'not a url', parent: null } }],
  ];
  for (const [what, overrides] of refused) {
    it(`refuses ${what}`, () => assert.equal(isTrustedSender(event(overrides), isOurs), false));
  }
});

describe('argument validators', () => {
  it('saveDocument takes a positive whole document id and an optional bare file name', () => {
    assert.deepEqual(parseSaveDocumentArgs([12]), { documentId: 12, suggestedName: undefined });
    assert.deepEqual(parseSaveDocumentArgs([12, undefined]), { documentId: 12, suggestedName: undefined });
    assert.deepEqual(parseSaveDocumentArgs([12, 'Invoice 7.pdf']), { documentId: 12, suggestedName: 'Invoice 7.pdf' });
    assert.deepEqual(parseSaveDocumentArgs([12, '../../etc/passwd']), { documentId: 12, suggestedName: 'passwd' });
    assert.deepEqual(parseSaveDocumentArgs([12, 'C:\\Windows\\evil.exe']), { documentId: 12, suggestedName: 'evil.exe' });
    assert.deepEqual(parseSaveDocumentArgs([12, '...']), { documentId: 12, suggestedName: undefined });
    for (const bad of [[], ['12'], [0], [-1], [1.5], [Number.NaN], [2 ** 53], [{ id: 1 }], [1, 5], [1, 'x'.repeat(1001)], [1, 'a', 'b']]) {
      assert.throws(() => parseSaveDocumentArgs(bad), IpcValidationError, JSON.stringify(bad));
    }
  });

  it('file names lose folders, reserved characters and leading dots', () => {
    assert.equal(sanitizeFileName('a/b\\c.pdf'), 'c.pdf');
    assert.equal(sanitizeFileName('in<voi>ce:"1"|?*.pdf'), 'in_voi_ce__1____.pdf');
    assert.equal(sanitizeFileName('.bashrc'), 'bashrc');
    assert.equal(sanitizeFileName('name\u0000.pdf'), 'name_.pdf');
    assert.equal(sanitizeFileName('x'.repeat(300)).length, 200);
  });

  it('showInFolder accepts only files this window saved', () => {
    const saved = path.resolve('/tmp/docloom-saved/Invoice.pdf');
    const savedPaths = new Set([saved]);
    assert.equal(parseShowInFolderArgs([saved], savedPaths), saved);
    assert.equal(parseShowInFolderArgs([`${path.dirname(saved)}/./Invoice.pdf`], savedPaths), saved);
    for (const bad of [[], [path.resolve('/etc/passwd')], ['Invoice.pdf'], [42], [saved, 'extra'], ['']]) {
      assert.throws(() => parseShowInFolderArgs(bad, savedPaths), IpcValidationError, JSON.stringify(bad));
    }
  });
});

describe('registered handlers', () => {
  class FakeIpcMain implements IpcMainLike {
    handlers = new Map<string, (event: SenderInfo, ...args: unknown[]) => unknown>();
    listeners = new Map<string, (event: SenderInfo & { returnValue: unknown }, ...args: unknown[]) => void>();
    handle(channel: string, listener: (event: SenderInfo, ...args: unknown[]) => unknown): void {
      this.handlers.set(channel, listener);
    }
    on(channel: string, listener: (event: SenderInfo & { returnValue: unknown }, ...args: unknown[]) => void): this {
      this.listeners.set(channel, listener);
      return this;
    }
    /** Like ipcRenderer.invoke: the handler's result or its error, as a promise. */
    async invoke(channel: string, from: SenderInfo, ...args: unknown[]): Promise<unknown> {
      const handler = this.handlers.get(channel);
      assert.ok(handler, `${channel} has a handler`);
      return handler(from, ...args);
    }
  }

  function setup(): { ipc: FakeIpcMain; calls: string[]; savedPaths: Set<string> } {
    const ipc = new FakeIpcMain();
    const calls: string[] = [];
    const savedPaths = new Set<string>();
    const handlers: BridgeHandlers = {
      isTrustedContents: isOurs,
      apiBaseUrl: () => 'http://127.0.0.1:7463',
      token: () => '1|secret',
      importTemplate: async () => {
        calls.push('import');
        return { uuid: 'u', name: 'n' };
      },
      saveDocument: async (request) => {
        calls.push(`save ${request.documentId} ${request.suggestedName ?? '-'}`);
        const saved = path.resolve('/tmp/out.pdf');
        savedPaths.add(saved);
        return { path: saved, size: 3 };
      },
      showInFolder: (filePath) => void calls.push(`show ${filePath}`),
      savedPaths,
    };
    registerBridgeHandlers(ipc, handlers);
    return { ipc, calls, savedPaths };
  }

  it('covers every channel of the bridge', () => {
    const { ipc } = setup();
    const registered = [...ipc.handlers.keys(), ...ipc.listeners.keys()].sort();
    const expected = Object.values(IPC).filter((channel) => channel !== IPC.templateImported).sort();
    assert.deepEqual(registered, expected);
  });

  it('gives the token to our window, and to nobody else', async () => {
    const { ipc } = setup();
    assert.equal(await ipc.invoke(IPC.getToken, event()), '1|secret');
    await assert.rejects(ipc.invoke(IPC.getToken, event({ sender: otherContents })), IpcValidationError);
    await assert.rejects(ipc.invoke(IPC.getToken, event({ senderFrame: { url: 'https://evil.example/', parent: null } })), /refused/);
    await assert.rejects(ipc.invoke(IPC.getToken, event(), 'extra'), /takes no arguments/);
  });

  it('answers the synchronous base-URL request, with an empty answer for strangers (never leaves it hanging)', () => {
    const { ipc } = setup();
    const listener = ipc.listeners.get(IPC.getApiBaseUrl)!;
    const ours = event();
    listener(ours);
    assert.equal(ours.returnValue, 'http://127.0.0.1:7463');
    const stranger = event({ sender: otherContents });
    const original = console.error;
    console.error = () => {};
    try {
      listener(stranger);
    } finally {
      console.error = original;
    }
    assert.equal(stranger.returnValue, '');
  });

  it('validates before acting: nothing is done for a bad request', async () => {
    const { ipc, calls } = setup();
    await assert.rejects(ipc.invoke(IPC.saveDocument, event(), 'DROP TABLE'), IpcValidationError);
    await assert.rejects(ipc.invoke(IPC.saveDocument, event({ sender: otherContents }), 3), IpcValidationError);
    await assert.rejects(ipc.invoke(IPC.showInFolder, event(), path.resolve('/etc/passwd')), IpcValidationError);
    await assert.rejects(ipc.invoke(IPC.importTemplate, event({ senderFrame: null })), IpcValidationError);
    assert.deepEqual(calls, []);
  });

  it('passes well-formed requests on, and shows only what it saved', async () => {
    const { ipc, calls } = setup();
    assert.deepEqual(await ipc.invoke(IPC.importTemplate, event()), { uuid: 'u', name: 'n' });
    const saved = (await ipc.invoke(IPC.saveDocument, event(), 7, 'a/Quote.pdf')) as { path: string };
    assert.equal(await ipc.invoke(IPC.showInFolder, event(), saved.path), true);
    assert.deepEqual(calls, ['import', 'save 7 Quote.pdf', `show ${saved.path}`]);
  });
});
