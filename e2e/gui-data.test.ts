/**
 * The Generate page's data editor: the form and the JSON view stay in sync both ways, invalid JSON and data
 * that does not fit the template are explained, data loads from and saves to a .json file, and a preview
 * that the service refuses is explained in words.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../test/helpers/server.js';
import { launchBrowser, openGui, type GuiPage } from './helpers/browser.js';
import { invoiceTemplate } from './helpers/docx.js';
import { uploadTemplate } from './helpers/seed.js';
import { downloadBytes, pickFile, waitForNotice, waitForPreview } from './helpers/gui.js';

describe('GUI: data editor (form ⇄ JSON)', () => {
  let server: TestServer;
  let browser: Browser;
  let gui: GuiPage;
  let page: Page;

  const json = () => page.getByLabel('Data as JSON');
  const tab = (name: 'Form' | 'JSON') => page.getByRole('tab', { name });

  async function jsonData(): Promise<Record<string, unknown>> {
    await tab('JSON').click();
    return JSON.parse(await json().inputValue()) as Record<string, unknown>;
  }

  before(async () => {
    server = await startTestServer();
    const template = await uploadTemplate(server, 'Invoice.docx', invoiceTemplate());
    browser = await launchBrowser();
    gui = await openGui(browser, server, { hash: `#/generate/${template.uuid}` });
    page = gui.page;
    await page.getByRole('heading', { name: 'Data for “Invoice”' }).waitFor();
  });

  after(async () => {
    await gui?.close();
    await browser?.close();
    await server?.close();
  });

  it('form edits appear in the JSON view', async () => {
    // Start from empty data (the page opens with the template's sample data).
    await tab('JSON').click();
    await json().fill('{}');
    await tab('Form').click();
    await page.getByText('No rows yet.').first().waitFor();
    await page.getByLabel('number', { exact: true }).fill('A-17');
    await page.getByLabel('customer.name', { exact: true }).fill('Ada Lovelace');
    await page.getByRole('button', { name: '+ Add a row to items' }).click();
    await page.getByLabel('items row 1: description').fill('Analytical engine');
    await page.getByRole('switch', { name: /paid/ }).check();

    // Exactly what was typed: a dotted name addresses a nested object, a new row has every column.
    assert.deepEqual(await jsonData(), {
      number: 'A-17',
      customer: { name: 'Ada Lovelace' },
      items: [{ description: 'Analytical engine', qty: '' }],
      paid: true,
    });
    await page.getByText('The data fits the template.').waitFor();
  });

  it('JSON edits appear in the form, and the preview follows', async () => {
    const data = await jsonData();
    data.number = 'B-99';
    data.items = [
      { description: 'Difference engine', qty: '1' },
      { description: 'Punched cards', qty: '400' },
    ];
    data.notes = [{ note: 'Handle with care' }];
    data.paid = false;
    await json().fill(JSON.stringify(data, null, 2));

    await tab('Form').click();
    assert.equal(await page.getByLabel('number', { exact: true }).inputValue(), 'B-99');
    assert.equal(await page.getByLabel('items row 2: description').inputValue(), 'Punched cards');
    assert.equal(await page.getByLabel('notes row 1: note').inputValue(), 'Handle with care');
    assert.equal(await page.getByRole('switch', { name: /paid/ }).isChecked(), false);
    await waitForPreview(page, ['B-99', 'Punched cards', 'Handle with care', 'Payment is due'], ['PAID IN FULL']);
    await gui.screenshot('data-01-form-after-json');
  });

  it('explains JSON that does not parse and keeps the form as it was', async () => {
    await tab('JSON').click();
    await json().fill('{\n  "number": "C-1",\n  "items": [\n}');
    const error = page.getByTestId('json-error');
    await error.waitFor();
    assert.match((await error.textContent()) ?? '', /Not valid JSON yet: .*line \d+, column \d+/);
    assert.equal(await json().getAttribute('aria-invalid'), 'true');
    await gui.screenshot('data-02-json-error');
    await tab('Form').click();
    assert.equal(await page.getByLabel('number', { exact: true }).inputValue(), 'B-99');
  });

  it('explains data that does not fit the template', async () => {
    await tab('JSON').click();
    await json().fill(JSON.stringify({ number: 'C-2', items: 'not rows', logo: 'ftp://example/logo.png', extra: 1 }));
    const problems = page.getByTestId('json-problems');
    await problems.getByText('“items” should be a list of rows ([ { … }, … ]).').waitFor();
    await problems.getByText('“logo” should start with https://, http:// or data:image/.').waitFor();
    await page.getByText('Not used by this template: “extra”.').waitFor();

    await tab('Form').click();
    await page.getByText('This should be a list of rows, but the data holds something else.').waitFor();
    await page.getByRole('button', { name: 'Replace with an empty list' }).click();
    assert.deepEqual((await jsonData()).items, []);
  });

  it('explains a preview the service refuses (an image that is not one)', async () => {
    await tab('JSON').click();
    await json().fill(JSON.stringify({ number: 'C-3', logo: 'data:image/png;base64,AAAA' }));
    const alert = page.locator('.preview-card [role="alert"]').first();
    await alert.waitFor();
    const text = (await alert.textContent()) ?? '';
    assert.match(text, /logo/i, text);
    assert.doesNotMatch(text, /Server error|undefined|\[object/, text);
    await gui.screenshot('data-03-preview-refused');
  });

  it('loads data from a .json file and saves it back', async () => {
    const saved = { number: 'D-4', customer: { name: 'Grace Hopper' }, items: [{ description: 'Compiler', qty: '1' }], paid: true };
    await pickFile(page, 'Load .json data file', { name: 'order.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(saved)) });
    await waitForNotice(page, 'Data loaded from “order.json”.');
    await tab('Form').click();
    assert.equal(await page.getByLabel('customer.name', { exact: true }).inputValue(), 'Grace Hopper');
    assert.equal(await page.getByLabel('items row 1: description').inputValue(), 'Compiler');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save as .json' }).click()]);
    assert.equal(download.suggestedFilename(), 'Invoice data.json');
    const written = JSON.parse((await downloadBytes(download)).toString('utf8')) as Record<string, unknown>;
    // Loading completes the fields the file lacked; everything it had is kept.
    assert.deepEqual({ ...written, logo: undefined, notes: undefined }, { ...saved, logo: undefined, notes: undefined });
    assert.equal(written.logo, '');
    assert.deepEqual(written.notes, []);

    await pickFile(page, 'Load .json data file', { name: 'list.json', mimeType: 'application/json', buffer: Buffer.from('[1, 2]') });
    await page.getByText('“list.json” holds JSON, but not an object of field values ({ … }).').waitFor();
  });

  it('a long table renders the rows near the view, and a row far down reached by scroll or keyboard is edited', async () => {
    const items = Array.from({ length: 200 }, (_, i) => ({ description: `Item ${i + 1}`, qty: String(i + 1) }));
    await tab('JSON').click();
    await json().fill(JSON.stringify({ number: 'L-200', items }));
    await tab('Form').click();
    const cell = (row: number) => page.getByLabel(`items row ${row}: description`, { exact: true });
    await cell(1).waitFor();
    // Not all 200 rows are in the page (a flat cost per row), but the table says how many there are.
    assert.equal(await cell(120).count(), 0, 'row 120 is not rendered while far from the view');
    assert.equal(await page.locator('fieldset[data-field="items"] table').getAttribute('aria-rowcount'), '201');

    // Scrolling down brings row 120 in; typed into, the edit reaches the JSON.
    await cell(1).hover();
    for (let i = 0; i < 60 && (await cell(120).count()) === 0; i++) await page.mouse.wheel(0, 500);
    await cell(120).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' far');
    assert.equal(((await jsonData()).items as Array<{ description: string }>)[119].description, 'Item 120 far');

    // From "Add a row", Shift+Tab walks back into the last row and on into the row before it.
    await tab('Form').click();
    await page.getByRole('button', { name: '+ Add a row to items' }).focus();
    const focusedLabel = () => page.evaluate('document.activeElement && document.activeElement.getAttribute("aria-label")');
    let label: unknown = null;
    for (let i = 0; i < 30 && label !== 'items row 199: description'; i++) {
      await page.keyboard.press('Shift+Tab');
      label = await focusedLabel();
    }
    assert.equal(label, 'items row 199: description');
    await page.keyboard.press('End');
    await page.keyboard.type(' kb');
    assert.equal(((await jsonData()).items as Array<{ description: string }>)[198].description, 'Item 199 kb');
  });

  it('stayed on the local service and ran without errors', () => {
    assert.deepEqual(gui.foreignRequests(), []);
    // The refused preview is an expected 422 the browser logs as a failed resource; nothing else may appear.
    assert.deepEqual(
      gui.problems.filter((p) => !/status of 422/.test(p)),
      [],
    );
  });
});
