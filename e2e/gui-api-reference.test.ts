/**
 * The API & tokens page links to the API reference (issue #15 part 5): a person follows the link and reads, offline,
 * every endpoint of the OpenAPI description — rendered by the service, with nothing loaded from elsewhere.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { buildOpenApi } from '../server/http/openapi/index.js';
import { startTestServer, type TestServer } from '../test/helpers/server.js';
import { launchBrowser, openGui } from './helpers/browser.js';

describe('GUI: the API reference link', () => {
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

  it('opens the reference page in a new window, listing every endpoint, with no request leaving the machine', async () => {
    const gui = await openGui(browser, server, { hash: '#/tokens' });
    try {
      const link = gui.page.getByRole('link', { name: 'API reference' });
      assert.equal(await link.getAttribute('href'), `${server.url}/api/reference`);
      assert.equal(await link.getAttribute('target'), '_blank');
      const [popup] = await Promise.all([gui.context.waitForEvent('page'), link.click()]);
      await popup.waitForLoadState();
      assert.equal(popup.url(), `${server.url}/api/reference`);
      await popup.getByRole('heading', { level: 1, name: /docloom API/ }).waitFor();
      const text = (await popup.locator('main').innerText()).replace(/\s+/g, ' ');
      for (const [p, item] of Object.entries(buildOpenApi().paths)) {
        for (const m of ['get', 'post', 'put', 'delete'] as const) {
          if (item[m]) assert.ok(text.includes(`${m.toUpperCase()} ${p}`), `the page lists ${m.toUpperCase()} ${p}`);
        }
      }
      // The page's own link to the JSON works from there too.
      const json = await popup.request.get(`${server.url}/api/openapi.json`);
      assert.equal(json.status(), 200);
      assert.deepEqual(gui.foreignRequests(), []);
      assert.deepEqual(gui.problems, []);
      await popup.close();
    } finally {
      await gui.close();
    }
  });
});
