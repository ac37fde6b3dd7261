/**
 * The Generate page's data editor typed into like a person does (keyboard, Enter, paste, reload, the picker,
 * a killed browser), on the bundled samples: text keeps its line breaks from the keyboard to the PDF, edits
 * survive reloads, template switches and crashes (IndexedDB drafts), Reset and Remove are undoable, Test starts
 * off, one Generate makes one document, invalid JSON holds Generate back, focus lands where the next step is,
 * and axe-core finds nothing to fix.
 */
import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { startTestServer, type TestServer } from '../test/helpers/server.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH, launchBrowser, openGui, type GuiPage } from './helpers/browser.js';
import { downloadBytes } from './helpers/gui.js';
import type { PageDocument, PageElement } from './helpers/page-dom.js';

// In-page code below runs in the browser (see page-dom.ts).
declare const document: PageDocument;
declare const navigator: { clipboard: { writeText(text: string): Promise<void> } };
declare const axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> };

interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: Array<{ target: string[]; html: string; inPreview?: boolean }>;
}

interface PreviewBody {
  template_id: string;
  data: Record<string, unknown>;
  test: unknown;
}

interface Sample {
  uuid: string;
  name: string;
}

const AXE_SOURCE = fs.readFileSync(path.resolve('node_modules/axe-core/axe.min.js'), 'utf8');

function isPreview(request: Request): boolean {
  return request.method() === 'POST' && new URL(request.url()).pathname === '/api/preview';
}

function isGenerate(request: Request): boolean {
  return request.method() === 'POST' && new URL(request.url()).pathname === '/api/document';
}

describe('GUI: the Generate page data editor, typed into like a person', () => {
  let server: TestServer;
  let browser: Browser;
  let gui: GuiPage;
  let page: Page;
  let samples: Sample[];
  let invoice: Sample;
  let sampleInvoice: Record<string, unknown>;

  const tab = (name: 'Form' | 'JSON') => page.getByRole('tab', { name });
  const field = (name: string) => page.getByRole('textbox', { name, exact: true });
  const generateButton = () => page.getByRole('button', { name: 'Generate', exact: true });

  async function jsonData(): Promise<Record<string, unknown>> {
    await tab('JSON').click();
    const text = await page.getByRole('textbox', { name: 'Data as JSON' }).inputValue();
    await tab('Form').click();
    return JSON.parse(text) as Record<string, unknown>;
  }

  async function documentCount(): Promise<number> {
    const body = (await (await server.api('/api/document?per_page=100')).json()) as { documents: { total: number } };
    return body.documents.total;
  }

  async function openGenerate(target: GuiPage, sample: Sample): Promise<void> {
    await target.page.goto(`${server.url}/#/generate/${sample.uuid}`);
    await target.page.getByRole('heading', { name: `Data for “${sample.name}”` }).waitFor();
  }

  async function paste(text: string): Promise<void> {
    await page.evaluate((t) => navigator.clipboard.writeText(t), text);
    await page.keyboard.press('Control+V');
  }

  before(async () => {
    server = await startTestServer({ seedSamples: true });
    const listed = (await (await server.api('/api/template?per_page=50')).json()) as { templates: { data: Sample[] } };
    samples = listed.templates.data.map(({ uuid, name }) => ({ uuid, name }));
    invoice = samples.find((s) => s.name === 'Invoice') as Sample;
    assert.ok(invoice && samples.some((s) => s.name === 'Business letter'), JSON.stringify(samples));
    sampleInvoice = JSON.parse(fs.readFileSync(path.resolve('resources/templates/invoice.data.json'), 'utf8')) as Record<string, unknown>;
    browser = await launchBrowser();
    gui = await openGui(browser, server);
    page = gui.page;
    await gui.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  });

  after(async () => {
    await gui?.close();
    await browser?.close();
    await server?.close();
  });

  it('starts with Test off, and the first preview asks for a real document (test: false)', async () => {
    const firstPreview = page.waitForRequest(isPreview);
    await openGenerate(gui, invoice);
    assert.equal(await page.getByRole('switch', { name: 'Test document' }).isChecked(), false);
    const body = (await firstPreview).postDataJSON() as PreviewBody;
    assert.equal(body.test, false);
    assert.equal(body.template_id, invoice.uuid);
    assert.deepEqual(body.data, sampleInvoice, 'the page opens with the sample data, unchanged');
  });

  it('keeps both line breaks of the seller address, typed at its end, in the JSON, the preview request and the PDF', async () => {
    const sample = (sampleInvoice.seller as { address: string }).address;
    assert.equal(sample.split('\n').length, 3, 'the sample address has three lines');
    const address = field('seller.address');

    let preview = page.waitForRequest((r) => isPreview(r) && (r.postDataJSON() as PreviewBody).data.seller !== undefined && ((r.postDataJSON() as PreviewBody).data.seller as { address: string }).address.endsWith('Z'));
    await address.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('Z');
    assert.equal(((await preview).postDataJSON() as PreviewBody).data.seller && (((await preview).postDataJSON() as PreviewBody).data.seller as { address: string }).address, `${sample}Z`);
    assert.equal(((await jsonData()).seller as { address: string }).address, `${sample}Z`);

    preview = page.waitForRequest((r) => isPreview(r) && ((r.postDataJSON() as PreviewBody).data.seller as { address: string }).address.endsWith('\nY'));
    await address.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Y');
    const expected = `${sample}Z\nY`;
    assert.equal(((await preview).postDataJSON() as PreviewBody).data.seller && (((await preview).postDataJSON() as PreviewBody).data.seller as { address: string }).address, expected);
    assert.equal(await address.inputValue(), expected);
    assert.equal(((await jsonData()).seller as { address: string }).address, expected);

    // Generate: the PDF has the address on its lines; focus goes to Download, the next step.
    const made = page.waitForResponse((r) => isGenerate(r.request()));
    await generateButton().click();
    await focusedDownloadOf(Number(((await (await made).json()) as { document: { id: number } }).document.id));
    const result = page.getByTestId('generate-result');
    const [download] = await Promise.all([page.waitForEvent('download'), result.getByRole('link', { name: 'Download' }).click()]);
    const file = path.join(os.tmpdir(), `docloom-editor-${process.pid}.pdf`);
    fs.writeFileSync(file, await downloadBytes(download));
    try {
      const lines = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).split('\n').map((l) => l.trim());
      const at = lines.indexOf('United StatesZ');
      assert.ok(at > 0, `a line reads "United StatesZ": ${JSON.stringify(lines)}`);
      for (const line of sample.split('\n').slice(0, 2)) assert.ok(lines.includes(line), `a line reads "${line}"`);
      assert.ok(lines.includes('Y'), `"Y" is a line of its own: ${JSON.stringify(lines)}`);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('keeps the line break of pasted text, in a one-line field that becomes multi-line', async () => {
    const number = field('number');
    await number.click();
    await page.keyboard.press('Control+A');
    await paste('a\r\nb');
    assert.equal(await number.inputValue(), 'a\nb');
    assert.equal((await jsonData()).number, 'a\nb');
    assert.ok(Number(await number.getAttribute('rows')) >= 2, 'the box grew to show both lines');
    await gui.screenshot('editor-multiline');
    // Shift+Enter in a one-line field adds a line break too; Enter alone does not.
    const vat = field('seller.vat_id');
    await vat.click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('x');
    assert.equal(await vat.inputValue(), 'US-94-1234567\nx');
  });

  it('fills rows and columns from tab-separated lines pasted into a table cell, adding rows', async () => {
    await field('items row 5: description').click();
    await paste('Posters\tA2, matte\t20\n\nStickers\tDie-cut\t100\n');
    const items = (await jsonData()).items as Array<Record<string, string>>;
    assert.equal(items.length, 7);
    assert.deepEqual(items[4], { ...items[4], description: 'Posters', details: 'A2, matte', quantity: '20' });
    assert.equal(items[5].description, '');
    assert.deepEqual(items[6], { description: 'Stickers', details: 'Die-cut', quantity: '100', unit_price: '', amount: '' });
    // One undo step takes the whole block back.
    await page.keyboard.press('Control+Z');
    assert.equal(((await jsonData()).items as unknown[]).length, 5);
  });

  it('removes a row at once, focuses the next row’s Remove (else Add), and Ctrl+Z brings the row back', async () => {
    const before = (await jsonData()).items as Array<Record<string, string>>;
    await page.getByRole('button', { name: 'Remove items row 2' }).click();
    await page.getByTestId('edit-notice').getByText('Removed items row 2.').waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'items row 2: description' }).inputValue(), before[2].description);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Remove items row 2');

    await page.keyboard.press('Control+Z');
    assert.deepEqual((await jsonData()).items, before);
    assert.equal(await field('items row 2: description').inputValue(), 'Logo design');

    // The last row has no next row: focus goes to the add button.
    await page.getByRole('button', { name: `Remove items row ${before.length}` }).click();
    assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), '+ Add a row to items');
    await page.getByRole('button', { name: 'Undo', exact: true }).first().click();
    assert.deepEqual((await jsonData()).items, before);
  });

  it('Reset restores the sample at once, with no console error, and Undo in its notice brings the edit back', async () => {
    const edited = await jsonData();
    assert.notDeepEqual(edited, sampleInvoice, 'the data was edited above');
    await page.getByRole('button', { name: 'Reset to sample data' }).click();
    await page.getByTestId('edit-notice').getByText('Data reset to the sample.').waitFor();
    assert.deepEqual(await jsonData(), sampleInvoice);
    assert.deepEqual(gui.problems, []);

    await page.getByTestId('edit-notice').getByRole('button', { name: 'Undo' }).click();
    assert.deepEqual(await jsonData(), edited);
    // Redo (Ctrl+Shift+Z) and undo again (Ctrl+Z), from the keyboard.
    await page.keyboard.press('Control+Shift+Z');
    assert.deepEqual(await jsonData(), sampleInvoice);
    await page.keyboard.press('Control+Z');
    assert.deepEqual(await jsonData(), edited);
  });

  it('disables Generate while the JSON text is invalid, saying where', async () => {
    await tab('JSON').click();
    const json = page.getByRole('textbox', { name: 'Data as JSON' });
    await json.click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('End'); // after the opening brace
    await page.keyboard.type(' oops');
    assert.equal(await generateButton().isDisabled(), true);
    assert.match((await page.getByTestId('generate-blocked').textContent()) ?? '', /line 1, column \d+/);
    for (let i = 0; i < ' oops'.length; i++) await page.keyboard.press('Backspace');
    assert.equal(await generateButton().isEnabled(), true);
    await tab('Form').click();
  });

  it('takes pasted JSON in the “Data as JSON” box, and Ctrl+Z takes it back', async () => {
    const before = await jsonData();
    await tab('JSON').click();
    const json = page.getByRole('textbox', { name: 'Data as JSON' });
    await json.click();
    await page.keyboard.press('Control+A');
    await paste(JSON.stringify({ ...before, number: 'P-1' }, null, 2));
    await tab('Form').click();
    assert.equal(await field('number').inputValue(), 'P-1');
    await page.keyboard.press('Control+Z');
    assert.deepEqual(await jsonData(), before);
  });

  it('makes one document for a double click on Generate, sent with an Idempotency-Key', async () => {
    const count = await documentCount();
    const posts: Request[] = [];
    page.on('request', (r) => isGenerate(r) && posts.push(r));
    let made = page.waitForResponse((r) => isGenerate(r.request()));
    await generateButton().dblclick();
    await focusedDownloadOf(Number(((await (await made).json()) as { document: { id: number } }).document.id));
    assert.equal(posts.length, 1);
    assert.ok(((await posts[0].allHeaders())['idempotency-key'] ?? '').length >= 16);
    assert.equal(await documentCount(), count + 1);

    // Ctrl+Enter generates too (from a text box), with a key of its own.
    made = page.waitForResponse((r) => isGenerate(r.request()));
    await field('number').click();
    await page.keyboard.press('Control+Enter');
    await focusedDownloadOf(Number(((await (await made).json()) as { document: { id: number } }).document.id));
    assert.equal(posts.length, 2);
    assert.notEqual((await posts[1].allHeaders())['idempotency-key'], (await posts[0].allHeaders())['idempotency-key']);
    assert.equal(await documentCount(), count + 2);
  });

  /** The result of document `id` is shown and its Download has the focus. */
  async function focusedDownloadOf(id: number): Promise<void> {
    const result = page.getByTestId('generate-result');
    await result.getByRole('heading', { name: new RegExp(`Document #${id}\\b`) }).waitFor();
    await page.waitForFunction(() => document.activeElement?.textContent?.trim() === 'Download');
  }

  it('keeps an edit across a reload and a switch to “Business letter” and back', async () => {
    const number = field('number');
    await number.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('-R1');
    const expected = await number.inputValue();
    assert.ok(expected.endsWith('-R1'));

    await page.reload();
    await page.getByRole('heading', { name: 'Data for “Invoice”' }).waitFor();
    assert.equal(await field('number').inputValue(), expected);
    assert.equal(await page.getByRole('switch', { name: 'Test document' }).isChecked(), false);

    await page.getByRole('switch', { name: 'Test document' }).check(); // kept with the draft too
    await page.getByRole('combobox', { name: 'Template' }).selectOption({ label: 'Business letter' });
    await page.getByRole('heading', { name: 'Data for “Business letter”' }).waitFor();
    await page.getByRole('combobox', { name: 'Template' }).selectOption({ label: 'Invoice' });
    await page.getByRole('heading', { name: 'Data for “Invoice”' }).waitFor();
    assert.equal(await field('number').inputValue(), expected);
    assert.equal(await page.getByRole('switch', { name: 'Test document' }).isChecked(), true);
    await page.getByRole('switch', { name: 'Test document' }).uncheck();
  });

  it('keeps line breaks typed in a plain list item (the letter’s paragraphs)', async () => {
    await page.getByRole('combobox', { name: 'Template' }).selectOption({ label: 'Business letter' });
    await page.getByRole('heading', { name: 'Data for “Business letter”' }).waitFor();
    const item = field('paragraphs row 1');
    const text = await item.inputValue();
    await item.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('P.S.');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Again');
    assert.equal(((await jsonData()).paragraphs as string[])[0], `${text}\nP.S.\nAgain`);
    await page.getByRole('combobox', { name: 'Template' }).selectOption({ label: 'Invoice' });
    await page.getByRole('heading', { name: 'Data for “Invoice”' }).waitFor();
  });

  it('keeps an edit when Chromium is killed 1 s after the last key (a new browser on the same profile)', async (t: TestContext) => {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-profile-'));
    // Chromium's helper processes (of the killed browser too) may still be writing the profile when the test ends:
    // the removal is retried for a few seconds and is best effort — leftover files in /tmp are no test outcome.
    t.after(async () => {
      for (let attempt = 0; attempt < 20; attempt++) {
        try {
          fs.rmSync(profile, { recursive: true, force: true });
          return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
    });
    const first = await startProfileBrowser(profile);
    try {
      const p = await signedInPage(first.browser);
      await p.goto(`${server.url}/#/generate/${invoice.uuid}`);
      await p.getByRole('heading', { name: 'Data for “Invoice”' }).waitFor();
      const box = p.getByRole('textbox', { name: 'buyer.name', exact: true });
      await box.click();
      await p.keyboard.press('Control+End');
      await p.keyboard.type(' (crash)');
      await p.waitForTimeout(1000); // the scenario: the browser dies one second after the last key
    } finally {
      await first.kill();
    }
    const second = await startProfileBrowser(profile);
    try {
      const p = await signedInPage(second.browser);
      await p.goto(`${server.url}/#/generate/${invoice.uuid}`);
      await p.getByRole('heading', { name: 'Data for “Invoice”' }).waitFor();
      assert.equal(await p.getByRole('textbox', { name: 'buyer.name', exact: true }).inputValue(), 'Contoso Trading Ltd. (crash)');
    } finally {
      await second.kill();
    }
  });

  it('axe-core finds no violations on the Generate page: every sample, both tabs, light and dark, and after Generate', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const view = await openGui(browser, server, { colorScheme, viewport: { width: 1280, height: 800 } });
      try {
        for (const sample of samples) {
          await openGenerate(view, sample);
          await view.page.locator('[data-testid="preview-status"]:is([data-state="ready"], [data-state="error"])').waitFor();
          for (const name of ['Form', 'JSON'] as const) {
            await view.page.getByRole('tab', { name }).click();
            await check(view.page, `${sample.name}, ${name}, ${colorScheme}`);
          }
          await view.page.getByRole('tab', { name: 'Form' }).click();
        }
        await openGenerate(view, invoice);
        await view.page.getByRole('button', { name: 'Generate', exact: true }).click();
        await view.page.getByTestId('generate-result').getByText('completed').waitFor();
        await check(view.page, `Invoice after Generate, ${colorScheme}`);
      } finally {
        await view.close();
      }
    }

    async function check(target: Page, where: string): Promise<void> {
      // The whole page, the preview region (its scroll box, pdf.js's canvas) included.
      const violations = await runAxe(target);
      assert.deepEqual(
        violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.html).join(' | ')}`),
        [],
        where,
      );
    }
  });

  it('keeps nothing in the items table out of reach at 800×600', async () => {
    const small = await openGui(browser, server, { viewport: { width: 800, height: 600 } });
    try {
      await openGenerate(small, invoice);
      const p = small.page;
      const clipped = await p.evaluate(() => {
        const problems: string[] = [];
        const scroller = document.querySelector('.rows-editor[data-field="items"] .table-scroll') as unknown as HTMLLike | null;
        if (!scroller) return ['no items table'];
        const box = scroller.getBoundingClientRect();
        for (const el of Array.from(document.querySelectorAll('.rows-editor[data-field="items"] textarea')) as unknown as HTMLLike[]) {
          if (el.scrollWidth > el.clientWidth + 1) problems.push(`${el.getAttribute('aria-label')}: text wider than its box`);
        }
        for (const el of Array.from(document.querySelectorAll('.rows-editor[data-field="items"] button[data-action="remove"]')) as unknown as HTMLLike[]) {
          const r = el.getBoundingClientRect();
          if (r.left < box.left - 1 || r.right > box.right + 1) problems.push(`${el.getAttribute('aria-label')}: outside the table's view`);
        }
        return problems;
      });
      await small.screenshot('editor-800x600');
      assert.deepEqual(clipped, []);
      // The page itself does not scroll sideways.
      assert.equal(await p.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), true);
    } finally {
      await small.close();
    }
  });

  it('ran without console errors or requests leaving the machine', () => {
    assert.deepEqual(gui.problems, []);
    assert.deepEqual(gui.foreignRequests(), []);
  });

  // ---- helpers ----

  /** Chromium on a profile dir of our own, so it can be killed (SIGKILL) and started again on the same profile. */
  async function startProfileBrowser(profile: string): Promise<{ browser: Browser; kill(): Promise<void> }> {
    const child: ChildProcess = spawn(CHROMIUM_PATH, [...CHROMIUM_ARGS, `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const endpoint = await new Promise<string>((resolve, reject) => {
      let seen = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
        if (match) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`Chromium exited (${code}) before listening: ${seen}`)));
    });
    const connected = await chromium.connectOverCDP(endpoint);
    return {
      browser: connected,
      async kill() {
        child.kill('SIGKILL');
        await exited;
      },
    };
  }

  async function signedInPage(target: Browser): Promise<Page> {
    const context = target.contexts()[0];
    context.setDefaultTimeout(10_000);
    const p = context.pages()[0] ?? (await context.newPage());
    await p.goto(`${server.url}/#/signin?code=${server.createSignInCode()}`);
    await p.getByRole('navigation', { name: 'Main' }).waitFor();
    return p;
  }
});

interface HTMLLike extends PageElement {
  scrollWidth: number;
  clientWidth: number;
  getBoundingClientRect(): { left: number; right: number; top: number; bottom: number };
}

/** axe-core's default rules on the whole page; each node marked when it sits in the preview region. */
async function runAxe(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const { violations } = await axe.run(document, {});
    return violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => {
        const el = document.querySelector(n.target.join(' '));
        // pdf.js appends its measuring canvas (`hiddenCanvasElement`) to <body>: the preview's too.
        const inPreview = n.html.includes('hiddenCanvasElement') || Boolean(el && (el as unknown as { closest(s: string): unknown }).closest('.preview-scroll, .pdf-preview'));
        return { target: n.target, html: n.html.slice(0, 200), inPreview };
      }),
    }));
  });
}
