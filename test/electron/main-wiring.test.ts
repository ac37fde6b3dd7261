/**
 * electron/main.ts itself, run under Node with a stand-in 'electron' module (helpers/fake-electron.ts), since
 * the Electron binary cannot be installed here. Everything main.ts wires is real except Electron's objects:
 * the service process (started through the fake utilityProcess.fork), its port, token and data folder, the
 * protocol handler's files, the discovery file. One scenario per process (main.ts runs once per import).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { register } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MenuItemConstructorOptions } from 'electron';
import { IPC } from '../../electron/bridge-api.js';
import * as electron from './helpers/fake-electron.js';
import { isAlive, isListening, ROOT } from './helpers/node-fork.js';

// Sends `import ... from 'electron'` (in main.ts and pre-ready.ts) to the stand-in.
const FAKE_URL = pathToFileURL(path.join(ROOT, 'test', 'electron', 'helpers', 'fake-electron.ts')).href;
register(
  `data:text/javascript,${encodeURIComponent(
    `export async function resolve(specifier, context, next) {
       if (specifier === 'electron') return { url: ${JSON.stringify(FAKE_URL)}, shortCircuit: true };
       return next(specifier, context);
     }`,
  )}`,
  import.meta.url,
);

async function waitFor(condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; dialog errors: ${electron.dialog.errors.join(' | ')}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('main process wiring (electron/main.ts with a stand-in Electron)', () => {
  let tmp: string;
  let userData: string;
  let window: electron.BrowserWindow;
  const savedEnv = { ...process.env };

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-electron-main-'));
    userData = path.join(tmp, 'userData');
    const appPath = path.join(tmp, 'app');
    fs.mkdirSync(path.join(appPath, 'dist', 'renderer'), { recursive: true });
    fs.writeFileSync(path.join(appPath, 'dist', 'renderer', 'index.html'), '<!doctype html><title>docloom</title>');
    electron.app.appPath = appPath;
    electron.app.paths.set('downloads', path.join(tmp, 'Downloads'));
    Object.assign(process.env, {
      DOCLOOM_USER_DATA_DIR: userData,
      DOCLOOM_PORT: '0',
      DOCLOOM_RESOURCES_DIR: path.join(ROOT, 'resources'),
      DOCLOOM_LOG_LEVEL: 'error',
      DOCLOOM_SEED_SAMPLES: 'false',
      DOCLOOM_RENDER_WORKERS: '0',
    });
    await import('../../electron/main.js');
    electron.app.fireReady();
    await waitFor(() => electron.BrowserWindow.instances.length === 1, 'the window');
    window = electron.BrowserWindow.instances[0]!;
  });

  after(() => {
    for (const child of electron.utilityProcess.children) if (child.exitCode === null) child.kill('SIGKILL');
    process.env = savedEnv;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('does the pre-ready work before ready, then claims the single-instance lock', () => {
    const order = electron.calls.filter((call) => !call.startsWith('app.quit'));
    assert.deepEqual(order.slice(0, 5), [
      'app.setPath userData',
      'app.enableSandbox',
      'protocol.registerSchemesAsPrivileged',
      'app.requestSingleInstanceLock',
      'ready',
    ]);
    assert.deepEqual(electron.protocol.schemes, [
      { scheme: 'docloom', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
    ]);
    assert.equal(electron.app.getPath('userData'), userData);
  });

  it('starts the real service in a separate process with the app data folder', async () => {
    assert.equal(electron.utilityProcess.children.length, 1);
    const env = (electron.utilityProcess.options[0] as { env: Record<string, string> }).env;
    assert.equal(env.DOCLOOM_DATA_DIR, path.join(userData, 'data'));
    assert.equal(env.DOCLOOM_CORS_ORIGINS, 'docloom://app');
    assert.ok(!Object.values(env).includes(undefined as unknown as string));
    assert.ok(fs.existsSync(path.join(userData, 'data')));
  });

  it('opens the window on docloom://app with the secure preferences and the API address', () => {
    assert.equal(window.loadedUrl, 'docloom://app/index.html');
    assert.equal(window.shown, true, 'shown on ready-to-show');
    const prefs = window.options.webPreferences!;
    assert.equal(prefs.sandbox, true);
    assert.equal(prefs.contextIsolation, true);
    assert.equal(prefs.nodeIntegration, false);
    assert.equal(prefs.preload, path.join(ROOT, 'electron', 'preload.cjs'));
    assert.match(String((prefs.additionalArguments as string[])[0]), /^--docloom-api-base-url=http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(window.webContents.windowOpenHandler, 'navigation policy applied to the new WebContents');
    assert.deepEqual(window.webContents.windowOpenHandler!({ url: 'https://example.org/' }), { action: 'deny' });
    assert.ok(electron.shell.opened.includes('external https://example.org/'));
  });

  it('writes the discovery file with the service\'s address', async () => {
    const discovery = JSON.parse(fs.readFileSync(path.join(userData, 'docloom.json'), 'utf8')) as { baseUrl: string; pid: number };
    assert.equal(discovery.pid, process.pid);
    const base = (window.options.webPreferences!.additionalArguments as string[])[0]!.split('=')[1];
    assert.equal(discovery.baseUrl, base);
    assert.equal(await isListening(Number(new URL(discovery.baseUrl).port)), true);
  });

  it('serves the GUI through the protocol handler with a CSP naming the real API port', async () => {
    const handler = electron.protocol.handlers.get('docloom')!;
    const response = await handler(new Request('docloom://app/index.html'));
    assert.equal(response.status, 200);
    const base = (window.options.webPreferences!.additionalArguments as string[])[0]!.split('=')[1]!;
    assert.match(response.headers.get('content-security-policy')!, new RegExp(`connect-src 'self' ${base.replace(/\./g, '\\.')}`));
  });

  it('hands the token to the window over IPC, and it works against the service', async () => {
    const getToken = electron.ipcMain.handlers.get(IPC.getToken)!;
    const fromWindow = { sender: window.webContents, senderFrame: window.webContents.mainFrame };
    const token = (await getToken(fromWindow)) as string;
    const base = (window.options.webPreferences!.additionalArguments as string[])[0]!.split('=')[1]!;
    const response = await fetch(`${base}/api/template`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(response.status, 200);
    await assert.rejects(async () => getToken({ sender: {}, senderFrame: window.webContents.mainFrame }), /refused/);
  });

  it('denies permission requests', () => {
    const answers: boolean[] = [];
    electron.session.defaultSession.requestHandler!({}, 'media', (granted) => answers.push(granted), { requestingUrl: 'docloom://app/' });
    assert.deepEqual(answers, [false]);
  });

  it('builds the menu; Help copies the API base URL', () => {
    const template = (electron.Menu.applicationMenu as { template: MenuItemConstructorOptions[] }).template;
    const help = template.find((item) => item.role === 'help')!.submenu as MenuItemConstructorOptions[];
    const base = (window.options.webPreferences!.additionalArguments as string[])[0]!.split('=')[1]!;
    (help[0]!.click as () => void)();
    assert.equal(electron.clipboard.text, base);
    const file = template.find((item) => item.label === 'File')!.submenu as MenuItemConstructorOptions[];
    (file.find((item) => item.label === 'Open Data Folder')!.click as () => void)();
    assert.ok(electron.shell.opened.includes(`path ${path.join(userData, 'data')}`));
  });

  it('quits cleanly: the quit waits for the service to stop, then the discovery file goes', async () => {
    const child = electron.utilityProcess.children[0]!;
    const base = (window.options.webPreferences!.additionalArguments as string[])[0]!.split('=')[1]!;
    electron.app.quit();
    assert.equal(electron.app.quitCompleted, false, 'held while the service stops');
    await waitFor(() => electron.app.quitCompleted, 'the quit to go through');
    assert.equal(child.exitCode, 0);
    assert.equal(isAlive(child.pid!), false);
    assert.equal(await isListening(Number(new URL(base).port)), false);
    assert.equal(fs.existsSync(path.join(userData, 'docloom.json')), false);
    assert.deepEqual(electron.dialog.errors, [], 'no error dialogs on the way');
  });
});
