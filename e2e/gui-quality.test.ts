/**
 * Quality of every page: accessible names for every control, unique ids, a visible focus ring, a tab order
 * that reaches the main actions; light and dark themes; layouts that fit 800×600 and 1280×800; the strict CSP
 * from the service; search, pagination and tokens working end to end. Screenshots of each page and size go to
 * test-results/gui/.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../test/helpers/server.js';
import { launchBrowser, openGui, type GuiPage } from './helpers/browser.js';
import { duplicateIds, focusPageStart, tabThrough, unnamedControls } from './helpers/a11y.js';
import { invoiceTemplate, buildDocx } from './helpers/docx.js';
import { createDocument, uploadTemplate, type SeededTemplate } from './helpers/seed.js';
import { waitForNotice } from './helpers/gui.js';
import type { GetComputedStyle, PageDocument, PageNavigator } from './helpers/page-dom.js';

// In-page code below runs in the browser (see helpers/page-dom.ts).
declare const document: PageDocument;
declare const navigator: PageNavigator;
declare const getComputedStyle: GetComputedStyle;

const PAGES: Array<{ name: string; hash: (t: SeededTemplate, doc: number) => string; ready: (page: Page) => Promise<void> }> = [
  { name: 'templates', hash: () => '#/templates', ready: (p) => p.locator('.template-card').first().waitFor() },
  { name: 'settings', hash: (t) => `#/templates/${t.uuid}`, ready: (p) => p.getByRole('heading', { name: 'Settings and defaults' }).waitFor() },
  {
    name: 'generate',
    hash: (t) => `#/generate/${t.uuid}`,
    ready: async (p) => {
      await p.waitForFunction(() => (document.querySelector('.pdf-preview .textLayer')?.textContent ?? '').length > 0);
    },
  },
  { name: 'documents', hash: () => '#/documents', ready: (p) => p.locator('tr[data-document-id]').first().waitFor() },
  {
    name: 'document',
    hash: (_t, doc) => `#/documents/${doc}`,
    ready: async (p) => {
      await p.waitForFunction(() => (document.querySelector('.pdf-preview .textLayer')?.textContent ?? '').length > 0);
    },
  },
  { name: 'tokens', hash: () => '#/tokens', ready: (p) => p.getByRole('button', { name: /Revoke token/ }).first().waitFor() },
];

describe('GUI quality: accessibility, themes, small windows, CSP', () => {
  let server: TestServer;
  let browser: Browser;
  let invoice: SeededTemplate;
  let documentId = 0;

  before(async () => {
    server = await startTestServer({ seedSamples: true });
    invoice = await uploadTemplate(server, 'Invoice.docx', invoiceTemplate());
    await uploadTemplate(server, 'Welcome letter.docx', buildDocx(['Dear {{name}},', 'Welcome aboard.']));
    // 17 documents: more than one page of 15.
    for (let i = 1; i <= 17; i++) documentId = await createDocument(server, invoice.uuid, { number: `Q-${i}` }, i % 2 === 0);
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function visit(gui: GuiPage, hash: string, ready: (page: Page) => Promise<void>): Promise<void> {
    await gui.page.goto(`${server.url}/${hash}`);
    await ready(gui.page);
  }

  it('every control on every page has an accessible name, and ids are unique', async () => {
    const gui = await openGui(browser, server);
    try {
      for (const page of PAGES) {
        await visit(gui, page.hash(invoice, documentId), page.ready);
        assert.deepEqual(await unnamedControls(gui.page), [], `unnamed controls on ${page.name}`);
        assert.deepEqual(await duplicateIds(gui.page), [], `duplicate ids on ${page.name}`);
      }
      // The JSON tab and an open dialog too.
      await visit(gui, `#/generate/${invoice.uuid}`, PAGES[2].ready);
      await gui.page.getByRole('tab', { name: 'JSON' }).click();
      assert.deepEqual(await unnamedControls(gui.page), []);
      await visit(gui, `#/templates/${invoice.uuid}`, PAGES[1].ready);
      await gui.page.getByRole('button', { name: 'Delete template…' }).click();
      await gui.page.getByRole('dialog').waitFor();
      assert.deepEqual(await unnamedControls(gui.page), []);
      await gui.page.keyboard.press('Escape');
      await gui.page.getByRole('dialog').waitFor({ state: 'hidden' });
      assert.deepEqual(gui.foreignRequests(), []);
      assert.deepEqual(gui.problems, []);
    } finally {
      await gui.close();
    }
  });

  it('the keyboard reaches the main actions with a visible focus ring', async () => {
    const gui = await openGui(browser, server);
    try {
      await visit(gui, '#/templates', PAGES[0].ready);
      let stops = await tabThrough(gui.page, 40);
      const names = stops.map((s) => s.name);
      for (const expected of ['Skip to content', 'Templates', 'Generate', 'Documents', 'API & tokens', 'Theme', 'Search templates by name', 'Import template…']) {
        assert.ok(names.some((n) => n.startsWith(expected)), `Tab never reached “${expected}”: ${names.join(' | ')}`);
      }
      assert.ok(names.indexOf('Import template…') < names.findIndex((n) => n.startsWith('Generate from')), 'import comes before the cards');
      assert.deepEqual(stops.filter((s) => !s.visible), [], 'every focus stop shows a focus ring');

      await visit(gui, `#/generate/${invoice.uuid}`, PAGES[2].ready);
      stops = await tabThrough(gui.page, 120);
      const generateNames = stops.map((s) => s.name);
      for (const expected of ['Template', 'number', 'Form', 'Test document', 'Generate']) {
        assert.ok(generateNames.includes(expected), `Tab never reached “${expected}”: ${generateNames.join(' | ')}`);
      }
      assert.deepEqual(stops.filter((s) => !s.visible), [], 'every focus stop shows a focus ring');

      // The skip link moves focus to the main region.
      await focusPageStart(gui.page);
      await gui.page.keyboard.press('Tab');
      assert.equal(await gui.page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
      await gui.page.keyboard.press('Enter');
      assert.equal(await gui.page.evaluate(() => document.activeElement?.id), 'main');
    } finally {
      await gui.close();
    }
  });

  it('follows the system theme and the theme switch', async () => {
    const gui = await openGui(browser, server, { colorScheme: 'dark' });
    try {
      const background = () => gui.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      await visit(gui, '#/templates', PAGES[0].ready);
      assert.ok(luminance(await background()) < 0.1, `dark system theme: ${await background()}`);
      await gui.screenshot('quality-templates-dark-1280');

      await gui.page.getByLabel('Theme').selectOption('light');
      assert.ok(luminance(await background()) > 0.8, `light chosen: ${await background()}`);
      await gui.page.reload();
      await PAGES[0].ready(gui.page);
      assert.equal(await gui.page.getByLabel('Theme').inputValue(), 'light', 'the choice is remembered');
      assert.ok(luminance(await background()) > 0.8);

      await gui.page.getByLabel('Theme').selectOption('system');
      assert.ok(luminance(await background()) < 0.1);
      await visit(gui, `#/generate/${invoice.uuid}`, PAGES[2].ready);
      await gui.screenshot('quality-generate-dark-1280');
    } finally {
      await gui.close();
    }
  });

  for (const viewport of [
    { width: 800, height: 600 },
    { width: 1280, height: 800 },
  ]) {
    it(`every page fits a ${viewport.width}×${viewport.height} window`, async () => {
      const gui = await openGui(browser, server, { viewport });
      try {
        for (const page of PAGES) {
          await visit(gui, page.hash(invoice, documentId), page.ready);
          const overflow = await gui.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          assert.ok(overflow <= 0, `${page.name} scrolls sideways by ${overflow}px at ${viewport.width}px`);
          await gui.screenshot(`quality-${page.name}-light-${viewport.width}`);
        }
        // On a small window the preview goes under the editor; on a wide one beside it.
        await visit(gui, `#/generate/${invoice.uuid}`, PAGES[2].ready);
        const editor = await gui.page.locator('.editor-column').boundingBox();
        const preview = await gui.page.locator('.preview-column').boundingBox();
        assert.ok(editor && preview);
        if (viewport.width < 1000) assert.ok(preview.y >= editor.y + editor.height - 1, 'stacked');
        else assert.ok(preview.x >= editor.x + editor.width - 1, 'side by side');
      } finally {
        await gui.close();
      }
    });
  }

  it('is served at / under the strict Content-Security-Policy', async () => {
    const response = await fetch(`${server.url}/`);
    const csp = response.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "worker-src 'self' blob:",
      "object-src 'none'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ]) {
      assert.ok(csp.includes(directive), `CSP lacks ${directive}: ${csp}`);
    }
    const html = await response.text();
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
    assert.match(html, /src="\.\/assets\//, 'assets are referenced relatively (the Electron shell loads the same bundle)');
  });

  it('searches templates, including the samples offered on first start', async () => {
    const gui = await openGui(browser, server);
    try {
      await visit(gui, '#/templates', PAGES[0].ready);
      const all = (await (await server.api('/api/template?per_page=100')).json()) as { templates: { total: number } };
      await gui.page.waitForFunction((n) => document.querySelectorAll('.template-card').length === Math.min(n, 24), all.templates.total);
      assert.ok(all.templates.total >= 2);

      await gui.page.getByLabel('Search templates by name').fill('welcome');
      await gui.page.waitForFunction(() => document.querySelectorAll('.template-card').length === 1);
      await gui.page.getByRole('heading', { name: 'Welcome letter' }).waitFor();
      assert.ok(gui.page.url().includes('q=welcome'));
      await gui.page.getByLabel('Search templates by name').fill('no such template');
      await gui.page.getByText('No template’s name contains “no such template”.').waitFor();
    } finally {
      await gui.close();
    }
  });

  it('pages through the documents with the API’s page object and filters them', async () => {
    const gui = await openGui(browser, server);
    try {
      await visit(gui, '#/documents', PAGES[3].ready);
      const pager = gui.page.getByRole('navigation', { name: 'Document pages' });
      await pager.getByText('Showing 1–15 of 17').waitFor();
      await pager.getByRole('button', { name: 'Page 2' }).click();
      await pager.getByText('Showing 16–17 of 17').waitFor();
      assert.equal(await gui.page.locator('tr[data-document-id]').count(), 2);
      assert.equal(await pager.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current'), 'page');
      await pager.getByRole('button', { name: /Previous/ }).click();
      await pager.getByText('Showing 1–15 of 17').waitFor();

      await gui.page.getByLabel('Test documents').selectOption('1');
      await pager.getByText('Showing 1–8 of 8').waitFor();
      await gui.page.getByLabel('Template').selectOption({ label: 'Welcome letter' });
      await gui.page.getByText('No documents match these filters.').waitFor();
      await gui.page.getByRole('button', { name: 'Clear filters' }).click();
      await pager.getByText('Showing 1–15 of 17').waitFor();
    } finally {
      await gui.close();
    }
  });

  it('creates a token shown once, which works, and revokes it', async () => {
    const gui = await openGui(browser, server, { hash: '#/tokens' });
    try {
      const { page } = gui;
      await gui.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      assert.equal(await page.getByLabel('API base URL', { exact: true }).inputValue(), `${server.url}/api`);
      await page.getByLabel('Name').fill('billing script');
      await page.getByLabel(/Read-only/).check();
      await page.getByRole('button', { name: 'Create token' }).click();
      const token = await page.getByTestId('new-token').inputValue();
      assert.match(token, /^\d+\|\S{40}$/);
      await page.getByRole('button', { name: 'Copy the new token' }).click();
      await waitForNotice(page, 'Copied to the clipboard.');
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), token);
      await gui.screenshot('quality-tokens-created');

      const asTool = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}` } });
      assert.equal((await asTool('/api/template')).status, 200);
      assert.equal((await asTool(`/api/template/${invoice.uuid}`, { method: 'DELETE' })).status, 403, 'read-only');

      const row = page.locator('tr', { hasText: 'billing script' });
      await row.getByText('read-only').waitFor();
      await page.getByRole('button', { name: 'Done' }).click();
      assert.equal(await page.getByTestId('new-token').count(), 0, 'shown once');
      await row.getByRole('button', { name: 'Revoke token billing script' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
      await waitForNotice(page, 'Token “billing script” revoked.');
      assert.equal(await row.count(), 0);
      assert.equal((await asTool('/api/template')).status, 401);
    } finally {
      await gui.close();
    }
  });
});

/** Relative luminance (0 black … 1 white) of a CSS rgb() colour. */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? ['0', '0', '0']).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
