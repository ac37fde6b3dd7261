/**
 * What Electron needs done before its 'ready' event. In an ES-module main process only the side effects of the
 * entry file's *imports* are sure to run before 'ready' (Electron's ESM guide, "Caveats"), so this module is
 * imported first by main.ts and does its work when loaded — the one module here with import-time effects.
 */
import { app, protocol } from 'electron';
import path from 'node:path';
import { APP_SCHEME } from './bridge-api.js';
import { OpenFileQueue } from './open-files.js';

// Tests (and users who want a second, separate profile) may move the app data folder. It must happen before
// anything reads it, and before the single-instance lock, which is held per app data folder.
if (process.env.DOCLOOM_USER_DATA_DIR) app.setPath('userData', path.resolve(process.env.DOCLOOM_USER_DATA_DIR));

// Every renderer sandboxed, whatever a window's options say (checklist item 4; the window also sets it).
app.enableSandbox();

// Gives docloom:// a real origin ('self' in the CSP, an Origin header for CORS), a secure context and fetch().
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
]);

/** Template files the OS hands over; macOS does so by event, possibly before 'ready'. */
export const filesFromOs = new OpenFileQueue();
app.on('open-file', (event, filePath) => {
  event.preventDefault();
  filesFromOs.add(filePath);
});
