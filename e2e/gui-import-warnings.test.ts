/**
 * Import warnings in the GUI: a template whose file the import could not draw in full (an EMF picture, a chart)
 * says so on its card in the templates list and, line by line, on its settings page; a faithful one says nothing.
 * A Word template written with other delimiters (docxtemplater's `{ }`) is not left at "0 fields": the import
 * says which delimiters its tags use, and one click reads it with them.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../test/helpers/server.js';
import { buildDocx, docxWithWarnings, p } from '../test/docx/build-docx.js';
import { launchBrowser, openGui } from './helpers/browser.js';
import { uploadTemplate } from './helpers/seed.js';
import { pickFile } from './helpers/gui.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const EXAMPLES = path.resolve('..', 'shared', 'fixtures', 'docxtemplater-examples');

describe('GUI: import warnings', () => {
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

  it('the card shows how many, the settings page lists each one; a plain template shows none', async () => {
    const warned = await uploadTemplate(server, 'Pictures.docx', docxWithWarnings());
    const plain = await uploadTemplate(server, 'Plain.docx', buildDocx({ body: p('Hello {{name}}') }));
    const gui = await openGui(browser, server);
    try {
      const { page } = gui;
      const card = page.locator('article', { has: page.locator(`#tpl-${warned.uuid}`) });
      await card.waitFor();
      assert.equal((await card.getByTestId('import-warnings-badge').textContent())?.trim(), '2 import warnings');
      assert.match((await card.textContent()) ?? '', /1 EMF picture not drawn/);
      const plainCard = page.locator('article', { has: page.locator(`#tpl-${plain.uuid}`) });
      assert.equal(await plainCard.getByTestId('import-warnings-badge').count(), 0);

      await page.goto(`${new URL(page.url()).origin}${new URL(page.url()).pathname}#/templates/${warned.uuid}`);
      const section = page.getByTestId('import-warnings');
      await section.waitFor();
      const items = (await section.locator('li .message').allTextContents()).map((t) => t.trim());
      assert.deepEqual(items, ['1 EMF picture not drawn (the format cannot be drawn)', '1 chart not drawn']);
      await gui.screenshot('import-warnings-01-settings');

      await page.goto(`${new URL(page.url()).origin}${new URL(page.url()).pathname}#/templates/${plain.uuid}`);
      await page.getByRole('heading', { name: 'Plain' }).waitFor();
      assert.equal(await page.getByTestId('import-warnings').count(), 0);
      assert.deepEqual(gui.problems, []);
    } finally {
      await gui.close();
    }
  });

  it('a docxtemplater example ({ } tags): "No {{ }} tags found; N tags use { }", and one click gives it its fields', async () => {
    const gui = await openGui(browser, server);
    try {
      const { page } = gui;
      await page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor();
      await pickFile(page, 'Import template…', { name: 'tag-example.docx', mimeType: DOCX, buffer: fs.readFileSync(path.join(EXAMPLES, 'tag-example.docx')) });
      const suggestion = page.getByTestId('delimiter-suggestion');
      await suggestion.waitFor();
      const said = ((await suggestion.textContent()) ?? '').replace(/\s+/g, ' ');
      const count = Number(/No \{\{ \}\} tags found; (\d+) tags use \{ \}/.exec(said)?.[1]);
      assert.ok(count >= 3, said);

      await page.getByRole('button', { name: 'Use { }' }).click();
      await page.getByRole('heading', { level: 1, name: 'tag-example' }).waitFor();
      const fields = page.locator('.fields-tree');
      for (const name of ['first_name', 'last_name', 'phone', 'description']) await fields.getByText(name, { exact: true }).first().waitFor();
      const uuid = /#\/templates\/([0-9a-f-]{36})/.exec(page.url())![1];
      const record = (await (await server.api(`/api/template/${uuid}`)).json()) as { template: { delimiters: unknown; fields: string; import_warnings: Array<{ code: string }> } };
      assert.equal(JSON.parse(record.template.fields).length > 0, true);
      assert.ok(!record.template.import_warnings.some((w) => w.code === 'no_tags_found'));
      assert.deepEqual(gui.problems, []);
    } finally {
      await gui.close();
    }
  });
});
