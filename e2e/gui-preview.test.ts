/**
 * The live preview on Generate (issue 13, items 4, 8 and 9), in Chromium against a real service: typing keeps
 * one preview request in flight and the last change is always previewed, in one pdf.js worker; the preview is a
 * focusable, labelled region that scrolls by keys, later pages drawn with their text layer; axe-core finds
 * nothing in the preview's region; after a service restart the preview comes back by itself, no keystroke.
 * (How fast is measured by bench/gui-editor.ts, not here.)
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../test/helpers/server.js';
import { jsonTemplate } from '../test/service/support.js';
import { launchBrowser, openGui, type GuiPage } from './helpers/browser.js';
import { uploadTemplate } from './helpers/seed.js';
import { previewText, waitForPreview } from './helpers/gui.js';
import type { PageDocument, PageElement } from './helpers/page-dom.js';

declare const document: PageDocument;
interface AxeResult {
  violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[]; html: string }> }>;
}
declare const axe: { run(context: unknown, options?: unknown): Promise<AxeResult> };
type Scrolling = PageElement & { scrollTop: number; scrollHeight: number; clientHeight: number; parentElement: Scrolling | null; closest(s: string): PageElement | null };

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const LONG_LINES = [...Array.from({ length: 160 }, (_, i) => `Line ${i + 1} of a long preview {{title}}`), 'The very last line'];

describe('GUI: the live preview', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-preview-e2e-'));
  let server: TestServer;
  let browser: Browser;
  let gui: GuiPage;
  let invoice = '';
  let long = '';

  before(async () => {
    server = await startTestServer({ seedSamples: true, dataDir });
    const list = (await (await server.api('/api/template?name=Invoice')).json()) as { templates: { data: Array<{ uuid: string; name: string }> } };
    invoice = list.templates.data.find((t) => t.name === 'Invoice')!.uuid;
    long = (await uploadTemplate(server, 'Long.json', jsonTemplate(LONG_LINES))).uuid;
    browser = await launchBrowser();
    gui = await openGui(browser, server);
  });

  after(async () => {
    await gui?.close();
    await browser?.close();
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function openGenerate(page: Page, uuid: string): Promise<void> {
    await page.goto(`${server.url}/#/generate/${uuid}`);
    await page.waitForFunction(() => (document.querySelector('.pdf-preview .textLayer')?.textContent ?? '').length > 0);
  }

  const numberField = (page: Page) => page.getByLabel('number', { exact: true });

  it('typing: never more than one preview request in flight, the last change previewed, one pdf.js worker', async () => {
    const { page, context } = gui;
    let inFlight = 0;
    let most = 0;
    const bodies: string[] = [];
    const isPreview = (url: string) => new URL(url).pathname === '/api/preview';
    context.on('request', (r) => {
      if (!isPreview(r.url())) return;
      inFlight++;
      most = Math.max(most, inFlight);
      bodies.push(r.postData() ?? '');
    });
    const done = (r: { url(): string }) => {
      if (isPreview(r.url())) inFlight--;
    };
    context.on('requestfinished', done);
    context.on('requestfailed', done);
    let workers = 0;
    page.on('worker', () => workers++);

    await openGenerate(page, invoice);
    const sample = await numberField(page).inputValue();
    await numberField(page).click();
    await page.keyboard.press('End');
    await page.keyboard.type('-XYZ-42');
    await waitForPreview(page, [`${sample}-XYZ-42`]);
    await page.getByTestId('preview-status').and(page.locator('[data-state="ready"]')).waitFor();

    assert.equal(most, 1, 'one preview request at a time');
    assert.ok(bodies.length >= 2 && bodies.length <= 1 + '-XYZ-42'.length, `requests: ${bodies.length}`);
    assert.equal(JSON.parse(bodies.at(-1)!).data.number, `${sample}-XYZ-42`, 'the last request carries the last change');
    assert.equal(workers, 1, 'one pdf.js worker for every preview');
    assert.deepEqual(gui.problems, []);
  });

  it('the preview is focusable and labelled, scrolls by keys, and draws later pages with their text when scrolled to', async () => {
    const { page } = gui;
    await openGenerate(page, long);
    const preview = page.getByRole('document', { name: 'Preview of the document' });
    await preview.focus();
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Preview of the document');
    const scrollTop = () =>
      page.evaluate(() => {
        for (let el = (document.querySelector('.pdf-preview') as Scrolling).parentElement; el; el = el.parentElement) {
          if (el.scrollHeight > el.clientHeight + 1) return el.scrollTop;
        }
        return -1;
      });
    const top = await scrollTop();
    assert.ok(top >= 0 && top < 100, `the preview's box scrolls (${top})`);
    await page.keyboard.press('PageDown');
    await page.waitForFunction((from) => {
      for (let el = (document.querySelector('.pdf-preview') as Scrolling).parentElement; el; el = el.parentElement) {
        if (el.scrollHeight > el.clientHeight + 1) return el.scrollTop > from + 100;
      }
      return false;
    }, top);
    await page.keyboard.press('End');
    const text = await waitForPreview(page, ['The very last line', 'Line 160 of a long preview']);
    assert.ok(Number(await page.locator('.pdf-preview').getAttribute('data-pages')) >= 3, text.slice(0, 80));
    assert.equal(await page.locator('.pdf-preview .pdf-page').count(), Number(await page.locator('.pdf-preview').getAttribute('data-pages')));
  });

  it('axe-core finds no violation in the preview\'s region, and pdf.js\'s measuring canvas is outside nothing', async () => {
    const { page } = gui;
    for (const uuid of [invoice, long]) {
      await openGenerate(page, uuid);
      await page.evaluate(AXE_SOURCE);
      const region = await page.evaluate(() => axe.run((document.querySelector('.pdf-preview') as Scrolling).closest('section')));
      assert.deepEqual(region.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`), []);
      // The whole page's landmark rule: nothing of the preview's (its pages, pdf.js's canvases) outside landmarks.
      const landmarks = await page.evaluate(() => axe.run(document, { runOnly: ['region'] }));
      const preview = landmarks.violations.flatMap((v) => v.nodes).filter((n) => /canvas|pdf-|textLayer/.test(n.html));
      assert.deepEqual(preview, []);
      assert.ok((await page.locator('body > canvas.hiddenCanvasElement').count()) > 0, 'pdf.js measured text on its canvas');
      assert.equal(await page.locator('body > canvas.hiddenCanvasElement:not([aria-hidden="true"])').count(), 0);
    }
  });

  it('after a service restart the preview refreshes by itself, with no keystroke', async () => {
    const { page } = gui;
    await openGenerate(page, invoice);
    const port = server.port;
    await server.close(); // the data dir is this test's: it stays
    await numberField(page).click();
    await page.keyboard.press('End');
    await page.keyboard.type('R');
    await page.getByTestId('preview-status').and(page.locator('[data-state="error"]')).waitFor();
    const value = await numberField(page).inputValue();

    server = await startTestServer({ seedSamples: false, dataDir, port });
    // No key is pressed from here on: the preview asks again by itself.
    await page.getByTestId('preview-status').and(page.locator('[data-state="ready"]')).waitFor({ timeout: 10_000 });
    await waitForPreview(page, [value]);
    assert.ok((await previewText(page)).includes(value));
  });
});
