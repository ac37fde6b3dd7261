/**
 * The desktop app itself, driven by Playwright's Electron support: launch → window → the GUI's bridge →
 * generate a document through the window → quit, with the real main process, preload, service process and GUI.
 *
 * It needs an Electron binary, which cannot be installed on machines without access to GitHub's releases (npm
 * installs the `electron` package's JS and types, but its postinstall download of the binary fails there). Where
 * the binary is missing, or Linux has no display to open a window on, the tests are SKIPPED with the reason.
 * Run it where Electron is installed, after `npm run build`:  node --import tsx --test e2e/electron-app.test.ts
 * (on a Linux server: xvfb-run -a node --import tsx --test e2e/electron-app.test.ts).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import type { DocloomBridge } from '../electron/bridge-api.js';
import { pdfText } from '../test/helpers/pdf.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Finds the Electron binary WITHOUT `require('electron')`: that module tries to download the binary when it is
 * missing (a network call that fails slowly here). Returns the executable, or why there is none.
 */
function findElectron(): { executable: string } | { missing: string } {
  const explicit = process.env.DOCLOOM_ELECTRON_PATH;
  if (explicit) {
    return fs.existsSync(explicit) ? { executable: explicit } : { missing: `DOCLOOM_ELECTRON_PATH=${explicit} does not exist` };
  }
  const pkg = path.join(ROOT, 'node_modules', 'electron');
  const pathFile = path.join(pkg, 'path.txt');
  if (!fs.existsSync(pathFile)) {
    return {
      missing:
        'the Electron binary is not installed (node_modules/electron/path.txt and dist/ are absent: npm installed the ' +
        'electron package\'s JS and types, but its binary download from GitHub failed or was not possible). Run ' +
        '`npx install-electron` where GitHub is reachable, or set DOCLOOM_ELECTRON_PATH to an Electron 45 executable.',
    };
  }
  const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH ?? path.join(pkg, 'dist');
  const executable = path.join(dist, fs.readFileSync(pathFile, 'utf8').trim());
  if (!fs.existsSync(executable)) return { missing: `the Electron binary ${executable} named by path.txt does not exist` };
  return { executable };
}

function skipReason(): string | undefined {
  const found = findElectron();
  if ('missing' in found) return found.missing;
  // As Node (no display needed): proves the binary runs on this machine and tells its Electron version.
  const version = spawnSync(found.executable, ['-p', 'process.versions.electron'], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  if (version.status !== 0) {
    const why = version.error?.message ?? (version.stderr.trim() || `exit code ${version.status}`);
    return `the Electron binary ${found.executable} does not run here (${why})`;
  }
  console.log(`# Electron ${version.stdout.trim()} at ${found.executable}`);
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return 'no display to open a window on (Linux without DISPLAY/WAYLAND_DISPLAY): run under xvfb-run -a';
  }
  return undefined;
}

const skip = skipReason();
if (skip) console.log(`e2e/electron-app.test.ts is skipped: ${skip}`);

/** What the page sees (declared here: the project's type-check has no DOM library). */
interface PageGlobals {
  docloom?: DocloomBridge;
  require?: unknown;
  process?: unknown;
  location: { href: string };
}
declare const window: PageGlobals;

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

describe('desktop app (Electron)', () => {
  let userData: string;
  let app: ElectronApplication;
  let page: Page;
  let apiBaseUrl = '';

  before(async () => {
    if (skip) return;
    for (const built of ['dist/electron/main.js', 'dist/electron/preload.cjs', 'dist/renderer/index.html']) {
      assert.ok(fs.existsSync(path.join(ROOT, built)), `${built} is missing: run \`npm run build\` first`);
    }
    userData = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-electron-e2e-'));
    const { executable } = findElectron() as { executable: string };
    app = await _electron.launch({
      executablePath: executable,
      args: [ROOT],
      cwd: ROOT,
      // A profile of its own, and any free port: a docloom the user runs must not be disturbed.
      env: { ...process.env, DOCLOOM_USER_DATA_DIR: userData, DOCLOOM_PORT: '0', DOCLOOM_LOG_LEVEL: 'error' },
      timeout: 60_000,
    });
    page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
  });

  after(async () => {
    await app?.close().catch(() => {});
    if (userData) fs.rmSync(userData, { recursive: true, force: true });
  });

  it('shows the GUI from docloom://app, with the bridge and without Node', { skip }, async () => {
    assert.match(page.url(), /^docloom:\/\/app\//);
    const seen = await page.evaluate(() => ({
      bridge: window.docloom ? Object.keys(window.docloom).sort() : null,
      apiBaseUrl: window.docloom?.apiBaseUrl ?? '',
      require: typeof window.require,
      process: typeof window.process,
    }));
    assert.deepEqual(seen.bridge, ['apiBaseUrl', 'appVersion', 'getToken', 'importTemplate', 'onTemplateImported', 'saveDocument', 'showInFolder']);
    assert.equal(seen.require, 'undefined');
    assert.equal(seen.process, 'undefined');
    assert.match(seen.apiBaseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    apiBaseUrl = seen.apiBaseUrl;
    assert.doesNotMatch(page.url(), /token|\d+\|/i, 'no token in the URL');
  });

  it('keeps its data and the discovery file in the app data folder', { skip }, async () => {
    assert.equal(await app.evaluate(({ app: electronApp }) => electronApp.getPath('userData')), userData);
    const discovery = JSON.parse(fs.readFileSync(path.join(userData, 'docloom.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(discovery).sort(), ['baseUrl', 'pid', 'startedAt', 'version']);
    assert.equal(discovery.baseUrl, apiBaseUrl);
    assert.equal(discovery.pid, app.process().pid);
    assert.ok(fs.existsSync(path.join(userData, 'data')), 'the service\'s data folder');
  });

  it('generates a document from the window: token from the bridge, API over CORS, PDF back', { skip }, async () => {
    const result = await page.evaluate(async () => {
      const bridge = window.docloom!;
      const token = await bridge.getToken();
      const headers = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
      const list = (await (await fetch(`${bridge.apiBaseUrl}/api/template?per_page=100`, { headers })).json()) as {
        templates: { data: Array<{ uuid: string; name: string; sample_data?: unknown }> };
      };
      const template = list.templates.data.find((t) => t.name === 'Invoice') ?? list.templates.data[0];
      if (!template) return { error: 'no templates were seeded' };
      const created = await fetch(`${bridge.apiBaseUrl}/api/document`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        // sample_data is the template's example data (an object); an empty object renders the template's text.
        body: JSON.stringify({ template_id: template.uuid, data: typeof template.sample_data === 'object' && template.sample_data ? template.sample_data : {} }),
      });
      const body = (await created.json()) as { document: { id: number; status: string } };
      const pdf = await fetch(`${bridge.apiBaseUrl}/api/document/${body.document.id}/download`, { headers });
      const bytes = Array.from(new Uint8Array(await pdf.arrayBuffer()));
      return { status: created.status, document: body.document, bytes };
    });
    assert.ok(!('error' in result), JSON.stringify(result));
    const { status, document, bytes } = result as { status: number; document: { status: string }; bytes: number[] };
    assert.equal(status, 201);
    assert.equal(document.status, 'completed');
    assert.ok(pdfText(Uint8Array.from(bytes)).trim().length > 0, 'the PDF has text');
  });

  it('blocks other origins (CSP) and refuses new windows', { skip }, async () => {
    const blocked = await page.evaluate(async () => {
      try {
        await fetch('https://example.org/');
        return false;
      } catch {
        return true;
      }
    });
    assert.equal(blocked, true);
    const windows = app.windows().length;
    await page.evaluate(() => void (globalThis as unknown as { open(url: string): unknown }).open('docloom://app/index.html'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(app.windows().length, windows);
  });

  it('quits cleanly: service stopped, discovery file removed', { skip }, async () => {
    const port = Number(new URL(apiBaseUrl).port);
    assert.equal(await isListening(port), true);
    await app.close();
    assert.equal(await isListening(port), false, 'the service no longer listens');
    assert.equal(fs.existsSync(path.join(userData, 'docloom.json')), false);
  });
});
