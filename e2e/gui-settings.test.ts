/**
 * The "Allow images from the local network" switch on the API & tokens page (CONTRACT.md §9): it shows what
 * GET /api/settings says, a toggle changes what the service keeps (and shows again after a reload), and a key
 * that may not change it gets the reason in words while the switch stays as the service has it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../test/helpers/server.js';
import { launchBrowser, openGui } from './helpers/browser.js';
import { waitForNotice } from './helpers/gui.js';

// The one browser global the in-page code below uses (the project's tsconfig leaves the DOM library out).
declare const sessionStorage: { setItem(key: string, value: string): void };

const LABEL = 'Allow images from the local network';

describe('GUI: the local-network setting', () => {
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

  async function allowed(): Promise<boolean> {
    const body = (await (await server.api('/api/settings')).json()) as { settings: { allow_private_network: boolean } };
    return body.settings.allow_private_network;
  }

  /** The switch, found the way assistive technology finds it: by its role and label. */
  async function theSwitch(page: Page) {
    const control = page.getByRole('switch', { name: LABEL });
    await control.waitFor();
    // Enabled once the settings have loaded (before that it shows "off" without meaning it).
    await page.locator('#allow-private-network:enabled').waitFor();
    return control;
  }

  it('toggling changes what GET /api/settings returns, and the state shows again after a reload', async () => {
    const gui = await openGui(browser, server, { hash: '#/tokens' });
    try {
      const { page } = gui;
      let control = await theSwitch(page);
      assert.equal(await control.isChecked(), false);
      assert.equal(await allowed(), false);
      // The risk is explained beside the switch, tied to it for screen readers.
      const risk = await control.getAttribute('aria-describedby');
      assert.match((await page.locator(`#${risk}`).textContent()) ?? '', /reach this computer and devices on your network/);

      await control.check();
      await waitForNotice(page, 'Images from the local network are now allowed.');
      assert.equal(await allowed(), true);
      await gui.screenshot('settings-01-allowed');

      await page.reload();
      control = await theSwitch(page);
      assert.equal(await control.isChecked(), true);

      await control.uncheck();
      await waitForNotice(page, 'Images from the local network are blocked again.');
      assert.equal(await allowed(), false);
      await page.reload();
      control = await theSwitch(page);
      assert.equal(await control.isChecked(), false);
      assert.deepEqual(gui.foreignRequests(), []);
      assert.deepEqual(gui.problems, []);
    } finally {
      await gui.close();
    }
  });

  it('with a read-only key the change is refused in words and the switch stays off', async () => {
    const gui = await openGui(browser, server, { hash: '#/tokens' });
    try {
      const { page } = gui;
      // The browser GUI keeps its key in sessionStorage: swap it for a read-only one, as if signed in with it.
      await page.evaluate((token) => sessionStorage.setItem('docloom.token', token), server.readOnlyToken);
      await page.reload();
      const control = await theSwitch(page);
      await control.click();
      const alert = page.getByRole('alert').filter({ hasText: 'The setting was not changed.' });
      await alert.getByText('This key is not allowed to do that (it may be read-only).').waitFor();
      assert.equal(await control.isChecked(), false);
      assert.equal(await allowed(), false);
      await gui.screenshot('settings-02-refused');
      // The refused PUT is an expected 403 the browser logs as a failed resource.
      assert.deepEqual(gui.problems.filter((p) => !/status of 403/.test(p)), []);
    } finally {
      await gui.close();
    }
  });
});
