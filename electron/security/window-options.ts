/**
 * The GUI window's options. Every security-relevant web preference is spelled out, even where it is already
 * Electron's default, so a reader (and test/electron/window-options.test.ts) can see each checklist item here.
 */
import type { BrowserWindowConstructorOptions } from 'electron';
import { API_BASE_URL_SWITCH, APP_VERSION_SWITCH } from '../bridge-api.js';
import { assertLoopbackOrigin } from './csp.js';

export interface MainWindowOptions {
  preloadPath: string;
  iconPath: string;
  apiBaseUrl: string;
  appVersion: string;
  /** DevTools only when running from source (`npm start`). */
  isDevelopment: boolean;
}

export function mainWindowOptions(options: MainWindowOptions): BrowserWindowConstructorOptions {
  assertLoopbackOrigin(options.apiBaseUrl);
  return {
    width: 1280,
    height: 860,
    minWidth: 900,
    minHeight: 600,
    title: 'docloom',
    icon: options.iconPath,
    show: false, // shown on 'ready-to-show', so the window never flashes empty
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      devTools: options.isDevelopment,
      spellcheck: true,
      // Read by the preload from process.argv: the API's address is not a secret (the token is; it goes
      // through ipcRenderer.invoke, never a switch or a URL).
      additionalArguments: [`${API_BASE_URL_SWITCH}${options.apiBaseUrl}`, `${APP_VERSION_SWITCH}${options.appVersion}`],
    },
  };
}
