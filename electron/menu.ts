/**
 * The application menu, as data: Electron's Menu.buildFromTemplate turns it into native menus (main.ts).
 * Actions are passed in, so the template can be checked under Node without Electron.
 */
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  importTemplate(): void;
  openDataFolder(): void;
  copyApiBaseUrl(): void;
  openDocumentation(): void;
}

export interface MenuOptions {
  appName: string;
  /** macOS puts About/Quit in an app menu of its own; the others put Quit in File. */
  isMac: boolean;
  /** Adds reload and developer tools, for `npm start` only (never in a packaged build). */
  isDevelopment: boolean;
  /** Shown in the Help menu, so the user sees which address local tools should use. */
  apiBaseUrl: string;
  actions: MenuActions;
}

export const MENU_LABELS = {
  importTemplate: 'Import Template…',
  openDataFolder: 'Open Data Folder',
  copyApiBaseUrl: (apiBaseUrl: string) => `API Base URL: ${apiBaseUrl} (Copy)`,
  documentation: 'Documentation',
} as const;

export function buildMenuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const { appName, isMac, isDevelopment, apiBaseUrl, actions } = options;
  const template: MenuItemConstructorOptions[] = [];

  if (isMac) {
    template.push({
      label: appName,
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        { role: 'services' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }

  template.push({
    label: 'File',
    submenu: [
      { label: MENU_LABELS.importTemplate, accelerator: 'CmdOrCtrl+O', click: () => actions.importTemplate() },
      { label: MENU_LABELS.openDataFolder, click: () => actions.openDataFolder() },
      { type: 'separator' },
      isMac ? { role: 'close' } : { role: 'quit' },
    ],
  });

  // Standard editing roles: without them copy/paste shortcuts do nothing in text fields on macOS.
  template.push({ role: 'editMenu' });

  const view: MenuItemConstructorOptions[] = [
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  if (isDevelopment) view.unshift({ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' });
  template.push({ label: 'View', submenu: view });

  template.push({ role: 'windowMenu' });

  template.push({
    role: 'help',
    submenu: [
      { label: MENU_LABELS.copyApiBaseUrl(apiBaseUrl), click: () => actions.copyApiBaseUrl() },
      { label: MENU_LABELS.documentation, click: () => actions.openDocumentation() },
    ],
  });

  return template;
}
