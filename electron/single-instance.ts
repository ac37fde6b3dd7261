/**
 * One docloom per user: a second launch (from the menu, a file manager "Open with", the command line) hands its
 * arguments to the first and quits, and the first brings its window to the front and imports any template file
 * it was given. Two instances would fight over the data folder and the port.
 */
import { templateFilesFromArgv } from './open-files.js';

/** The part of Electron's `app` used here. */
export interface SingleInstanceApp {
  requestSingleInstanceLock(): boolean;
  quit(): void;
  on(event: 'second-instance', listener: (event: unknown, argv: string[], workingDirectory: string) => void): unknown;
}

export interface SingleInstanceHandlers {
  /** Bring the existing window to the front (or make one if none is open). */
  focusWindow(): void;
  /** Template files named on the second instance's command line (absolute paths). */
  openFiles(paths: string[]): void;
}

/** Returns true when this process is the one instance; false after asking the app to quit. */
export function claimSingleInstance(app: SingleInstanceApp, handlers: SingleInstanceHandlers): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', (_event, argv, workingDirectory) => {
    handlers.focusWindow();
    const files = templateFilesFromArgv(argv, workingDirectory);
    if (files.length > 0) handlers.openFiles(files);
  });
  return true;
}

/** The part of BrowserWindow used to bring it forward. */
export interface FocusableWindow {
  isDestroyed(): boolean;
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
}

export function focusWindow(window: FocusableWindow | null): boolean {
  if (!window || window.isDestroyed()) return false;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
  return true;
}
