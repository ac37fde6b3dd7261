/**
 * The GUI's error paths: a template with mistakes dropped on the import zone shows every problem with where it
 * is; a file that is not a template is refused with a reason; without a session the signed-out page explains
 * how to sign in, and a sign-in link works once.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../test/helpers/server.js';
import { launchBrowser, openGui } from './helpers/browser.js';
import { brokenTemplate } from './helpers/docx.js';
import { dropFile, pickFile } from './helpers/gui.js';
import { squash } from '../test/helpers/pdf.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('GUI: errors a person can act on', () => {
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('a broken template dropped on the import zone lists its errors with their locations', async () => {
    const gui = await openGui(browser, server);
    try {
      const { page } = gui;
      await page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor();
      await dropFile(page, '[data-testid="template-dropzone"]', { name: 'Broken letter.docx', mimeType: DOCX, buffer: Buffer.from(brokenTemplate()) });

      const report = page.locator('.template-errors');
      await report.waitFor();
      const heading = (await report.getByRole('heading').textContent()) ?? '';
      assert.match(heading, /“Broken letter\.docx” was not imported: \d+ problems? to fix/);

      // Every error the service reported is listed, each with its location.
      const form = new FormData();
      form.set('file', new Blob([brokenTemplate()]), 'Broken letter.docx');
      const api = (await (await server.api('/api/template', { method: 'POST', body: form })).json()) as {
        template_errors: Array<{ message: string; location: { part?: string; paragraph?: number; tag?: string } }>;
      };
      assert.ok(api.template_errors.length >= 2, JSON.stringify(api));
      const items = report.locator('.template-error');
      assert.equal(await items.count(), api.template_errors.length);
      for (const [i, error] of api.template_errors.entries()) {
        const text = (await items.nth(i).textContent()) ?? '';
        assert.ok(text.includes(error.message), `${text} lacks ${error.message}`);
        if (error.location.paragraph !== undefined) assert.ok(text.includes(`paragraph ${error.location.paragraph}`), text);
        if (error.location.tag) assert.ok(text.includes(error.location.tag), text);
        if (error.location.part) assert.ok(text.includes('Where: '), text);
      }
      // Nothing was stored.
      const list = (await (await server.api('/api/template')).json()) as { templates: { total: number } };
      assert.equal(list.templates.total, 0);
      await gui.screenshot('errors-01-template-errors');

      await dropFile(page, '[data-testid="template-dropzone"]', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
      await page.getByText('“notes.txt” is not a template: choose a Word document (.docx) or a docloom template (.json).').waitFor();
      assert.deepEqual(gui.foreignRequests(), []);
      // The refused upload is an expected 422 the browser logs as a failed resource.
      assert.deepEqual(gui.problems.filter((p) => !/status of 422/.test(p)), []);
    } finally {
      await gui.close();
    }
  });

  it('a .json template imports through the picker; a broken one lists its problems', async () => {
    const gui = await openGui(browser, server);
    try {
      const { page } = gui;
      const receipt = { docloom: 1, body: [{ type: 'paragraph', runs: ['Receipt for {{customer}}'] }] };
      await pickFile(page, 'Import template…', { name: 'Receipt.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(receipt)) });
      await page.getByRole('heading', { level: 1, name: 'Receipt' }).waitFor();
      await page.locator('.fields-tree').getByText('customer', { exact: true }).waitFor();

      await page.getByRole('link', { name: 'Templates', exact: true }).click();
      const broken = { docloom: 1, body: [{ type: 'paragraph', runs: ['Hello {{#x}} never closed'] }] };
      await dropFile(page, '[data-testid="template-dropzone"]', { name: 'Broken.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(broken)) });
      const item = page.locator('.template-error').first();
      await item.waitFor();
      assert.match(squash(await item.innerText()), /The section \{\{#x\}\} is never closed\. Where: body, paragraph 1, tag \{\{#x\}\}/);

      await dropFile(page, '[data-testid="template-dropzone"]', { name: 'Cut.json', mimeType: 'application/json', buffer: Buffer.from('{"docloom": 1, "body": [') });
      await page.locator('.template-error', { hasText: 'not valid JSON' }).getByText('Where: the file itself').waitFor();
    } finally {
      await gui.close();
    }
  });

  it('without a session the page explains how to sign in', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/`);
      await page.getByRole('heading', { name: 'Sign in to docloom' }).waitFor();
      await page.getByText('npx docloom serve').first().waitFor();
      assert.equal(await page.getByRole('navigation', { name: 'Main' }).count(), 0);
      await page.screenshot({ path: 'test-results/gui/errors-02-signed-out.png', fullPage: true });
    } finally {
      await context.close();
    }
  });

  it('a sign-in link works once; opened again it says so', async () => {
    const link = `${server.url}/#/signin?code=${server.createSignInCode()}`;
    const first = await browser.newContext();
    const second = await browser.newContext();
    try {
      const page = await first.newPage();
      await page.goto(link);
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      // The code leaves the address bar once used.
      assert.ok(!page.url().includes('code='), page.url());

      const again = await second.newPage();
      await again.goto(link);
      await again.getByRole('heading', { name: 'Sign in to docloom' }).waitFor();
      await again.getByText('This sign-in link has already been used or is no longer valid.', { exact: false }).waitFor();
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('a session whose token is revoked ends with an explanation', async () => {
    const gui = await openGui(browser, server, { hash: '#/tokens' });
    try {
      const { page } = gui;
      const own = page.locator('tr', { has: page.getByText('this window') });
      await own.getByRole('button', { name: /Revoke token/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Revoke this token?' });
      await dialog.getByText('This is the token of this window').waitFor();
      await dialog.getByRole('button', { name: 'Revoke token' }).click();
      // The next call the GUI makes is refused, and the GUI says what happened.
      await page.getByRole('link', { name: 'Templates', exact: true }).click();
      await page.getByRole('heading', { name: 'Sign in to docloom' }).waitFor();
      await page.getByText('Your session has ended', { exact: false }).waitFor();
    } finally {
      await gui.close();
    }
  });
});
