/**
 * A batch from the GUI in Chromium against a real service (issue #15): on the Generate page of the certificate
 * template, pick a CSV, see its columns matched to the fields, preview row 3's PDF, start, watch it reach `Completed`, download the
 * zip (checked with unzip -l and pdftotext); a past batch is listed. Every request stays on the local service.
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
import { downloadBytes, pickFile } from './helpers/gui.js';
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
});
