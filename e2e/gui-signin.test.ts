/**
 * One credential per browser window (issue 13, item 7), in Chromium against a real service: each sign-in link
 * gives its window a window sign-in (not an API token), listed apart on the Tokens page with this window's
 * marked; a reload and a duplicated tab reuse it; a new link in the same window revokes the old one; "Sign out"
 * in the header revokes it on the service (then 401 Unauthenticated.). The API tokens are never touched.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../test/helpers/server.js';
import { launchBrowser, openGui, type GuiPage } from './helpers/browser.js';
import type { PageWindow } from './helpers/page-dom.js';

declare const window: PageWindow & { sessionStorage: { getItem(key: string): string | null }; location: { href: string }; open(url: string): unknown };

interface Listing {
  tokens: Array<{ id: number; name: string }>;
  window_sign_ins: Array<{ id: number; current: boolean }>;
}

describe('GUI: one sign-in per window, Sign out', () => {
  let server: TestServer;
  let browser: Browser;
  const windows: GuiPage[] = [];

  before(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
  });

  after(async () => {
    for (const w of windows) await w.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });

  const listing = async (): Promise<Listing> => (await (await server.api('/api/tokens')).json()) as Listing;
  const credentialOf = (page: Page) => page.evaluate(() => window.sessionStorage.getItem('docloom.token'));
  const idOf = (token: string | null) => Number(String(token).split('|')[0]);
  const statusWith = (token: string | null) =>
    fetch(`${server.url}/api/info`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => ({ status: r.status, body: (await r.json()) as { message?: string } }));

  async function open(): Promise<GuiPage> {
    const gui = await openGui(browser, server);
    windows.push(gui);
    return gui;
  }

  async function signOut(gui: GuiPage): Promise<void> {
    await gui.page.getByRole('button', { name: 'Sign out' }).click();
    await gui.page.getByRole('heading', { level: 1, name: 'Sign in to docloom' }).waitFor();
    await gui.page.getByRole('alert').getByText(/You signed out/).waitFor();
  }

  it('three sign-ins and two sign-outs leave one window sign-in; the API tokens are unchanged', async () => {
    const before = await listing();
    const [a, b, c] = [await open(), await open(), await open()];
    const tokens = await Promise.all([a, b, c].map((w) => credentialOf(w.page)));
    assert.deepEqual(
      (await listing()).window_sign_ins.map((w) => w.id).sort(),
      tokens.map(idOf).sort(),
      'each window has its own sign-in',
    );

    // The Tokens page lists the windows apart from the API tokens, this window's marked.
    await c.page.getByRole('link', { name: 'API & tokens' }).click();
    const windowsTable = c.page.getByRole('table', { name: 'Browser windows signed in' });
    await windowsTable.waitFor();
    assert.equal(await windowsTable.locator('tbody tr').count(), 3);
    const marked = windowsTable.locator('tr', { hasText: 'this window' });
    assert.equal(await marked.count(), 1);
    assert.equal(await marked.getAttribute('data-sign-in-id'), String(idOf(tokens[2])));
    const apiTable = c.page.getByRole('table', { name: 'API tokens' });
    assert.deepEqual(
      (await apiTable.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-token-id')))).map(Number),
      before.tokens.map((t) => t.id),
    );

    await signOut(a);
    await signOut(b);
    for (const token of tokens.slice(0, 2)) {
      const after = await statusWith(token);
      assert.equal(after.status, 401);
      assert.equal(after.body.message, 'Unauthenticated.');
    }
    // A reload of a signed-out window stays signed out (it forgot its credential).
    await a.page.reload();
    await a.page.getByRole('heading', { level: 1, name: 'Sign in to docloom' }).waitFor();

    const end = await listing();
    assert.deepEqual(end.window_sign_ins.map((w) => w.id), [idOf(tokens[2])]);
    assert.deepEqual(end.tokens, before.tokens, 'API tokens untouched');
    assert.equal((await statusWith(tokens[2])).status, 200);
    for (const w of [a, b, c]) assert.deepEqual(w.problems.filter((p) => !/401/.test(p)), []);
  });

  it('a reload and a duplicated tab reuse the window sign-in; a new link in the same window revokes the old one', async () => {
    const gui = await open();
    const first = await credentialOf(gui.page);
    const count = (await listing()).window_sign_ins.length;

    await gui.page.reload();
    await gui.page.getByRole('navigation', { name: 'Main' }).waitFor();
    assert.equal(await credentialOf(gui.page), first);

    // A duplicated tab (opened from this one) starts with a copy of the tab's storage: the same sign-in.
    const [twin] = await Promise.all([gui.context.waitForEvent('page'), gui.page.evaluate(() => void window.open(window.location.href))]);
    await twin.getByRole('navigation', { name: 'Main' }).waitFor();
    assert.equal(await credentialOf(twin), first);
    await twin.close();
    assert.equal((await listing()).window_sign_ins.length, count, 'no new credential for a reload or a twin');

    await gui.page.goto(`${server.url}/#/signin?code=${server.createSignInCode()}`);
    await gui.page.getByRole('navigation', { name: 'Main' }).waitFor();
    const second = await credentialOf(gui.page);
    assert.notEqual(second, first);
    assert.equal((await statusWith(first)).status, 401, 'the window\'s old sign-in was revoked');
    assert.equal((await listing()).window_sign_ins.length, count);
    await signOut(gui);
  });
});
