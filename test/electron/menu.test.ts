/** The application menu (electron/menu.ts): its items and what each one does. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { MenuItemConstructorOptions } from 'electron';
import { buildMenuTemplate, MENU_LABELS, type MenuActions } from '../../electron/menu.js';

function recordingActions(): { actions: MenuActions; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    actions: {
      importTemplate: () => calls.push('importTemplate'),
      openDataFolder: () => calls.push('openDataFolder'),
      copyApiBaseUrl: () => calls.push('copyApiBaseUrl'),
      openDocumentation: () => calls.push('openDocumentation'),
    },
  };
}

function submenu(template: MenuItemConstructorOptions[], match: (item: MenuItemConstructorOptions) => boolean): MenuItemConstructorOptions[] {
  const top = template.find(match);
  assert.ok(top, 'menu present');
  assert.ok(Array.isArray(top.submenu), 'has items');
  return top.submenu;
}

function click(item: MenuItemConstructorOptions | undefined): void {
  assert.ok(item?.click, `${item?.label ?? '?'} is clickable`);
  // Electron calls click(menuItem, window, event); the actions ignore them.
  (item.click as () => void)();
}

const API = 'http://127.0.0.1:7463';

describe('application menu', () => {
  for (const isMac of [false, true]) {
    it(`File and Help carry the app's actions (${isMac ? 'macOS' : 'Windows/Linux'})`, () => {
      const { actions, calls } = recordingActions();
      const template = buildMenuTemplate({ appName: 'docloom', isMac, isDevelopment: false, apiBaseUrl: API, actions });

      const file = submenu(template, (item) => item.label === 'File');
      const importItem = file.find((item) => item.label === MENU_LABELS.importTemplate);
      assert.equal(importItem?.accelerator, 'CmdOrCtrl+O');
      click(importItem);
      click(file.find((item) => item.label === MENU_LABELS.openDataFolder));
      assert.equal(file.at(-1)?.role, isMac ? 'close' : 'quit');

      const help = submenu(template, (item) => item.role === 'help');
      const copy = help.find((item) => item.label === MENU_LABELS.copyApiBaseUrl(API));
      assert.ok(copy?.label?.includes(API), 'the address is shown in the menu');
      click(copy);
      click(help.find((item) => item.label === MENU_LABELS.documentation));

      assert.deepEqual(calls, ['importTemplate', 'openDataFolder', 'copyApiBaseUrl', 'openDocumentation']);
      assert.equal(template[0]!.label === 'docloom', isMac, 'macOS alone has the app-name menu');
      assert.ok(template.some((item) => item.role === 'editMenu'), 'copy/paste work in text fields');
    });
  }

  it('developer tools appear only when running from source', () => {
    const { actions } = recordingActions();
    const roles = (isDevelopment: boolean): unknown[] =>
      submenu(buildMenuTemplate({ appName: 'docloom', isMac: false, isDevelopment, apiBaseUrl: API, actions }), (item) => item.label === 'View').map(
        (item) => item.role,
      );
    assert.ok(roles(true).includes('toggleDevTools'));
    assert.ok(!roles(false).includes('toggleDevTools'));
    assert.ok(!roles(false).includes('reload'));
  });
});
