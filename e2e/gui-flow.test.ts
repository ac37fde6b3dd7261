/**
 * The whole GUI flow in Chromium against a real service: import a .docx template → its settings → fill the data
 * with every helper (text, dotted text, list rows, table rows, reorder, image file, condition) → the live preview
 * shows the values → generate → the documents list → download (checked with pdftotext) → delete.
 * Every request must stay on the local service, and the page must run without errors under the CSP.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../test/helpers/server.js';
import { pdfText, squash } from '../test/helpers/pdf.js';
import { launchBrowser, openGui, type GuiPage } from './helpers/browser.js';
import { buildDocx, invoiceTemplate } from './helpers/docx.js';
import { solidPng } from '../scripts/lib/png.js';
import { downloadBytes, pickFile, waitForNotice, waitForPreview } from './helpers/gui.js';
import type { PageDocument, PageNavigator } from './helpers/page-dom.js';

// In-page code below runs in the browser (see helpers/page-dom.ts).
declare const document: PageDocument;
declare const navigator: PageNavigator;

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('GUI: import → settings → generate → documents → download → delete', () => {
  let server: TestServer;
  let browser: Browser;
  let gui: GuiPage;
  let uuid = '';
  let documentId = 0;

  before(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    gui = await openGui(browser, server);
    await gui.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  });

  after(async () => {
    await gui?.close();
    await browser?.close();
    await server?.close();
  });

  it('imports a .docx through the file picker and opens its settings', async () => {
    const { page } = gui;
    await page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor();
    await pickFile(page, 'Import template…', { name: 'Invoice.docx', mimeType: DOCX, buffer: Buffer.from(invoiceTemplate()) });
    await page.getByRole('heading', { level: 1, name: 'Invoice' }).waitFor();
    uuid = await page.getByLabel('Template uuid', { exact: true }).inputValue();
    assert.match(uuid, /^[0-9a-f-]{36}$/);
    assert.ok(page.url().endsWith(`#/templates/${uuid}`));

    // The fields the service found, nested where they belong.
    const fields = page.locator('.fields-tree');
    for (const name of ['number', 'customer.name', 'logo', 'notes', 'note', 'items', 'description', 'qty', 'paid']) {
      await fields.getByText(name, { exact: true }).first().waitFor();
    }

    await page.getByRole('button', { name: 'Copy the template uuid' }).click();
    await waitForNotice(page, 'Copied to the clipboard.');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), uuid);
    await gui.screenshot('flow-01-settings');
  });

  it('edits the defaults in place (PUT) and downloads the original file', async () => {
    const { page } = gui;
    await page.getByLabel(/Output file name/).fill('Invoice {{number}}');
    await page.getByLabel('Keep documents for (minutes)').fill('120');
    await page.getByText('= 2 hours').waitFor();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await waitForNotice(page, 'Settings saved.');

    const record = (await (await server.api(`/api/template/${uuid}`)).json()) as { template: { output_filename: string; expiration: number } };
    assert.equal(record.template.output_filename, 'Invoice {{number}}');
    assert.equal(record.template.expiration, 120);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download original' }).click()]);
    assert.equal(download.suggestedFilename(), 'Invoice.docx');
    assert.deepEqual(await downloadBytes(download), Buffer.from(invoiceTemplate()));
  });

  it('replaces the template file: same uuid, next version, new fields', async () => {
    const { page } = gui;
    const replacement = buildDocx(['Invoice {{number}}', 'Customer: {{customer.name}}', '{{%logo}}', '{{#notes}}Note: {{note}}{{/notes}}',
      { table: [['Description', 'Quantity'], ['{{#items}}{{description}}', '{{qty}}{{/items}}']] },
      '{{#paid}}PAID IN FULL{{/paid}}', '{{^paid}}Payment is due within 30 days.{{/paid}}', 'Questions? {{contact}}']);
    await pickFile(page, 'Replace file…', { name: 'Invoice v2.docx', mimeType: DOCX, buffer: Buffer.from(replacement) });
    await waitForNotice(page, 'File replaced: “Invoice” is now version 2.');
    await page.locator('.fields-tree').getByText('contact', { exact: true }).waitFor();
    assert.equal(await page.getByLabel('Template uuid', { exact: true }).inputValue(), uuid);
    // The settings made before are kept.
    assert.equal(await page.getByLabel(/Output file name/).inputValue(), 'Invoice {{number}}');
  });

  it('fills the data with every helper and the live preview shows the values', async () => {
    const { page } = gui;
    await page.getByRole('link', { name: 'Generate a document' }).click();
    await page.getByRole('heading', { name: 'Data for “Invoice”' }).waitFor();
    assert.equal(await page.getByLabel('Template', { exact: true }).inputValue(), uuid);

    await page.getByLabel('number', { exact: true }).fill('INV-2026-042');
    await page.getByLabel('customer.name', { exact: true }).fill('Zephyrine Okonkwo');

    // A list: the two sample rows rewritten, a third added, reordered, then removed.
    await page.getByLabel('notes row 1: note').fill('Fragile parcel');
    await page.getByLabel('notes row 2: note').fill('Deliver before noon');
    await page.getByRole('button', { name: '+ Add a row to notes' }).click();
    await page.getByLabel('notes row 3: note').fill('Spare row');
    await page.getByRole('button', { name: 'Move notes row 2 up' }).click();
    assert.equal(await page.getByLabel('notes row 1: note').inputValue(), 'Deliver before noon');
    await page.getByRole('button', { name: 'Remove notes row 3' }).click();
    assert.equal(await page.getByLabel('notes row 3: note').count(), 0);

    // A table: three rows of two columns, the last one removed again.
    await page.getByRole('button', { name: '+ Add a row to items' }).click();
    await page.getByLabel('items row 1: description').fill('Walnut desk');
    await page.getByLabel('items row 1: qty').fill('2');
    await page.getByLabel('items row 2: description').fill('Brass lamp');
    await page.getByLabel('items row 2: qty').fill('5');
    await page.getByLabel('items row 3: description').fill('Spare row');
    await page.getByRole('button', { name: 'Remove items row 3' }).click();

    // An image picked from the disk, embedded as a data: URI (it replaces the sample picture).
    const png = solidPng(40, 20, [200, 30, 30]);
    await pickFile(page, 'Choose file for logo', { name: 'logo.png', mimeType: 'image/png', buffer: png });
    await page.waitForFunction(
      (expected) => document.querySelector('.image-field img')?.getAttribute('src') === expected,
      `data:image/png;base64,${png.toString('base64')}`,
    );

    // A condition: off, then on again; the preview follows each state.
    const paid = page.getByRole('switch', { name: /paid/ });
    await paid.uncheck();
    await waitForPreview(page, ['INV-2026-042', 'Payment is due'], ['PAID IN FULL']);
    await paid.check();

    // The Test switch starts off (a document is real unless asked otherwise): switched on for the watermark.
    await page.getByRole('switch', { name: 'Test document' }).check();
    const text = await waitForPreview(
      page,
      // The watermark among the awaited words: the preview of the switch itself, not the one before it.
      ['INV-2026-042', 'Zephyrine Okonkwo', 'Deliver before noon', 'Fragile parcel', 'Walnut desk', 'Brass lamp', 'PAID IN FULL', 'TEST DOCUMENT'],
      ['Spare row', 'Payment is due'],
    );
    // The list kept its new order in the document too.
    assert.ok(text.indexOf('Deliver before noon') < text.indexOf('Fragile parcel'), text);
    await page.locator('[data-testid="preview-status"][data-state="ready"]').waitFor();
    assert.ok(text.includes('TEST DOCUMENT'), 'the test switch is on: the preview carries the watermark');
    await gui.screenshot('flow-02-generate-preview');
  });

  it('offers the same request as a curl command', async () => {
    const { page } = gui;
    await page.getByText('Same request with curl').click();
    const command = await page.getByTestId('curl-command').textContent();
    assert.ok(command?.includes(`${server.url}/api/document`), command ?? '');
    assert.ok(command?.includes(`template_id=${uuid}`));
    assert.ok(command?.includes('"number":"INV-2026-042"'));
    assert.ok(command?.includes('$DOCLOOM_TOKEN'));
    assert.ok(!command?.includes(server.token), 'the curl command never carries a real token');
  });

  it('generates a real document and downloads it', async () => {
    const { page } = gui;
    await page.getByRole('switch', { name: 'Test document' }).uncheck();
    await page.getByTestId('generate-button').click();
    const result = page.getByTestId('generate-result');
    await result.getByText('completed').waitFor();
    const heading = await result.getByRole('heading').textContent();
    documentId = Number(/#(\d+)/.exec(heading ?? '')?.[1]);
    assert.ok(documentId > 0, heading ?? '');
    await result.getByText('Invoice INV-2026-042.pdf').waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), result.getByTestId('download-link').click()]);
    assert.equal(download.suggestedFilename(), 'Invoice INV-2026-042.pdf');
    const bytes = await downloadBytes(download);
    const text = squash(pdfText(bytes));
    for (const value of ['Invoice INV-2026-042', 'Customer: Zephyrine Okonkwo', 'Walnut desk', 'Brass lamp', 'PAID IN FULL']) {
      assert.ok(text.includes(value), `"${value}" missing from: ${text}`);
    }
    assert.ok(!text.includes('TEST DOCUMENT'), 'a real document has no watermark');
    assert.ok(!text.includes('Payment is due'));
    assert.equal(embeddedImages(bytes), 1, 'the picked logo is in the PDF');
    await gui.screenshot('flow-03-generated');
  });

  it('lists the document with its template and status, filters it, opens and deletes it', async () => {
    const { page } = gui;
    await page.getByRole('link', { name: 'Documents', exact: true }).click();
    const row = page.locator(`tr[data-document-id="${documentId}"]`);
    await row.waitFor();
    assert.match(squash((await row.textContent()) ?? ''), /Invoice INV-2026-042\.pdf.*Invoice.*completed/);

    await page.getByLabel('Test documents').selectOption('1');
    await page.getByText('No documents match these filters.').waitFor();
    await page.getByLabel('Test documents').selectOption('0');
    await row.waitFor();
    assert.ok(page.url().includes('test=0'));

    await row.getByRole('link', { name: 'Invoice INV-2026-042.pdf' }).click();
    await page.getByRole('heading', { level: 1, name: /Invoice INV-2026-042\.pdf/ }).waitFor();
    await page.waitForFunction(() => (document.querySelector('.pdf-preview .textLayer')?.textContent ?? '').includes('Walnut desk'));
    await gui.screenshot('flow-04-document');
    // Back and Forward move between the GUI's pages.
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
    await page.goForward();
    await page.getByRole('heading', { level: 1, name: /Invoice INV-2026-042\.pdf/ }).waitFor();

    await page.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this document?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete document' }).click();
    await waitForNotice(page, 'Document deleted.');
    await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
    assert.equal((await server.api(`/api/document/${documentId}`)).status, 404);
  });

  it('deletes the template after confirmation', async () => {
    const { page } = gui;
    await page.goto(`${server.url}/#/templates/${uuid}`);
    await page.getByRole('button', { name: 'Delete template…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this template?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal((await server.api(`/api/template/${uuid}`)).status, 200, 'cancel keeps it');

    await page.getByRole('button', { name: 'Delete template…' }).click();
    await dialog.getByRole('button', { name: 'Delete template' }).click();
    await waitForNotice(page, 'Template deleted.');
    await page.getByText('No templates yet: import one above.').waitFor();
    await gui.screenshot('flow-05-template-deleted');
    assert.equal((await server.api(`/api/template/${uuid}`)).status, 404);
  });

  it('stayed on the local service and ran without errors under the CSP', () => {
    assert.deepEqual(gui.foreignRequests(), []);
    assert.deepEqual(gui.problems, []);
    assert.ok(gui.requests.some((url) => url.includes('pdf.worker')), 'the pdf.js worker came from the bundle');
  });
});

/** Images in a PDF, counted by poppler's pdfimages. */
function embeddedImages(bytes: Buffer): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-gui-img-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    fs.writeFileSync(file, bytes);
    const out = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' });
    return out.trim().split('\n').slice(2).filter((line) => line.trim() && !/\bsmask\b/.test(line)).length;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
