/**
 * A batch from the GUI in Chromium against a real service (issue #15): on the Generate page of the certificate
 * template, pick a CSV, see its columns matched to the fields, preview row 3's PDF, start, watch it reach `Completed`, download the
 * zip (checked with unzip -l and pdftotext); a past batch is listed. A file dropped on the drop zone (a real drop
 * event carrying a DataTransfer) shows its unused columns, and its failing row is listed with field and reason
 * when the batch ends `Completed with errors`. Cancel during a long batch ends it `Cancelled`, the documents made
 * so far kept. Every request stays on the local service.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../test/helpers/server.js';
import { launchBrowser, openGui, type GuiPage } from './helpers/browser.js';
import { downloadBytes, dropFile, pickFile } from './helpers/gui.js';
import { uploadTemplate } from './helpers/seed.js';
import { certificateCsv } from '../test/batch/fixtures.js';
import type { PageDocument } from './helpers/page-dom.js';

// In-page code below runs in the browser (see helpers/page-dom.ts).
declare const document: PageDocument;

describe('GUI: a batch from a CSV on the Generate page → progress → zip', () => {
  let server: TestServer;
  let browser: Browser;
  let gui: GuiPage;
  let uuid = '';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-gui-batch-'));

  before(async () => {
    server = await startTestServer({ renderWorkers: 1 });
    uuid = (await uploadTemplate(server, 'certificate.json', fs.readFileSync(path.resolve('resources/templates/certificate.json')))).uuid;
    browser = await launchBrowser();
    gui = await openGui(browser, server, { hash: `#/generate/${uuid}` });
  });

  after(async () => {
    await gui?.close();
    await browser?.close();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('picks a CSV, shows the columns matched to the fields, runs the batch and downloads a zip of every row', async () => {
    const { page } = gui;
    const panel = page.getByTestId('batch-panel');
    await panel.waitFor();
    await pickFile(page, 'Choose rows file', { name: 'rows.csv', mimeType: 'text/csv', buffer: Buffer.from(certificateCsv(25)) });
    const columns = page.getByTestId('batch-columns');
    await columns.getByText('Matched:').waitFor();
    const text = (await columns.textContent()) ?? '';
    for (const name of ['certificate_id', 'recipient', 'instructor.name', 'with_honors']) assert.ok(text.includes(name), `${name} matched: ${text}`);
    assert.match(text, /Fields no column fills:.*logo/);

    // The row picker: row 3 previewed as the batch will read it.
    await page.getByLabel('Row', { exact: true }).fill('3');
    await page.getByTestId('batch-preview').click();
    await page.waitForFunction(() => {
      const layers = Array.from(document.querySelectorAll('[data-testid="batch-row-preview"] .textLayer'));
      const text = layers.map((l) => l.textContent ?? '').join(' ').replace(/\s+/g, ' ');
      return text.includes('Person 3, Jr.') && text.includes('Dr. Teacher 3');
    }, undefined, { timeout: 30_000 });

    await page.getByTestId('batch-start').click();
    await page.locator('[data-testid="batch-progress"][data-status="completed"]').waitFor({ timeout: 60_000 });
    assert.match((await page.getByTestId('batch-progress').getByRole('status').textContent()) ?? '', /Completed: 25 of 25 done/);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('batch-download').click()]);
    const zip = path.join(dir, 'batch.zip');
    fs.writeFileSync(zip, await downloadBytes(download));
    assert.match(execFileSync('unzip', ['-l', zip], { encoding: 'utf8' }), /\s25 files\n/);
    execFileSync('unzip', ['-q', zip, '-d', path.join(dir, 'out')]);
    const first = fs.readdirSync(path.join(dir, 'out')).sort()[0];
    assert.ok(execFileSync('pdftotext', [path.join(dir, 'out', first), '-'], { encoding: 'utf8' }).includes('Person 1, Jr.'));

    await panel.getByText(/#\d+ rows\.csv — Completed, 25\/25/).waitFor();
    assert.deepEqual(gui.foreignRequests(), []);
    assert.deepEqual(gui.problems, []);
  });

  it('a file dropped on the drop zone: unused columns shown; the progress bar fills; the failing row is listed with its field and reason', async () => {
    const { page } = gui;
    const csv = 'recipient,logo,shoe_size\nAda,,41\nBob,not-an-image,44\nCy,,39\n';
    await dropFile(page, '[data-testid="batch-drop"]', { name: 'dropped.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByTestId('batch-drop').getByText('dropped.csv').waitFor();
    const columns = page.getByTestId('batch-columns');
    await columns.getByText('Columns the template does not use:').waitFor();
    const line = async (label: string): Promise<string> => (await columns.locator('p', { hasText: label }).textContent()) ?? '';
    assert.match(await line('Matched:'), /^\s*Matched:\s*(recipient, logo|logo, recipient)\s*$/);
    assert.match(await line('Columns the template does not use:'), /use:\s*shoe_size\s*$/);
    assert.match(await line('Fields no column fills:'), /certificate_id/);

    await page.getByTestId('batch-start').click();
    await page.locator('[data-testid="batch-progress"][data-status="completed_with_errors"]').waitFor({ timeout: 60_000 });
    const progress = page.getByTestId('batch-progress');
    assert.match((await progress.getByRole('status').textContent()) ?? '', /Completed with errors: 2 of 3 done, 1 failed/);
    const bar = progress.getByRole('progressbar');
    assert.deepEqual([await bar.getAttribute('max'), await bar.getAttribute('value')], ['3', '3']);
    const failed = progress.getByRole('table', { name: 'Failed rows' });
    await failed.waitFor();
    const cells = await failed.locator('tbody tr').first().locator('td').allTextContents();
    assert.equal(cells[0], '2');
    assert.equal(cells[1], 'logo');
    assert.match(cells[2], /image/i);
    // The failed row's document opens from its link.
    assert.match((await failed.getByRole('link').first().getAttribute('href')) ?? '', /^#\/documents\/\d+$/);
    assert.deepEqual(gui.foreignRequests(), []);
    assert.deepEqual(gui.problems, []);
  });

  it('Cancel during a long batch: it ends Cancelled, no row starts after it, the documents made so far remain', async () => {
    const { page } = gui;
    await pickFile(page, 'Choose rows file', { name: 'long.csv', mimeType: 'text/csv', buffer: Buffer.from(certificateCsv(5000)) });
    await page.getByTestId('batch-columns').getByText('Matched:').waitFor();
    await page.getByTestId('batch-start').click();
    // Some rows done, far from all: then Cancel.
    await page.waitForFunction(() => /Generating: [1-9]\d* of 5000 done/.test(document.querySelector('[data-testid="batch-progress"] [role="status"]')?.textContent ?? ''), undefined, { timeout: 60_000 });
    await page.getByTestId('batch-progress').getByRole('button', { name: 'Cancel' }).click();
    await page.locator('[data-testid="batch-progress"][data-status="cancelled"]').waitFor({ timeout: 10_000 });
    assert.match((await page.getByTestId('batch-progress').getByRole('status').textContent()) ?? '', /^\s*Cancelled: \d+ of 5000 done/);

    const id = await latestBatchId();
    // Rows already handed to the render workers end without a document; after that nothing more appears.
    await new Promise((r) => setTimeout(r, 1500));
    const first = await batchDocuments(id);
    await new Promise((r) => setTimeout(r, 1000));
    const again = await batchDocuments(id);
    const { batch } = (await (await server.api(`/api/batch/${id}`)).json()) as { batch: { status: string; done: number; failed: number } };
    assert.equal(batch.status, 'cancelled');
    assert.ok(first > 0 && first < 5000, `${first} documents made before the cancel`);
    assert.equal(again, first, 'no row started after the cancel');
    assert.equal(first, batch.done + batch.failed, 'the counters match the documents kept');
    await page.getByTestId('batch-panel').getByText(new RegExp(`#${id} long\\.csv — Cancelled`)).waitFor();
    assert.deepEqual(gui.problems, []);
  });

  async function latestBatchId(): Promise<number> {
    const page = (await (await server.api('/api/batch')).json()) as { batches: { data: Array<{ id: number }> } };
    return page.batches.data[0].id;
  }

  async function batchDocuments(id: number): Promise<number> {
    const list = (await (await server.api(`/api/document?batch_id=${id}&per_page=1`)).json()) as { documents: { total: number } };
    return list.documents.total;
  }
});
