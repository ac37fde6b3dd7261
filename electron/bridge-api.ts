/**
 * The contract between the main process, the preload and the GUI: the IPC channel names and the shape of
 * `window.docloom`. The preload cannot import this file at run time (a sandboxed preload may only require
 * 'electron'), so it repeats the channel names; test/electron/preload.test.ts runs the preload and checks that
 * every name it uses is one of these.
 */

/** Origin of the GUI inside the window: pages are served by the `docloom://app/` protocol handler. */
export const APP_SCHEME = 'docloom';
export const APP_HOST = 'app';
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

export const IPC = {
  /** invoke() → the GUI's bearer token (string). */
  getToken: 'docloom:get-token',
  /** sendSync() → the API base URL; used only when the window's argv lacks it (see preload.cts). */
  getApiBaseUrl: 'docloom:get-api-base-url',
  /** invoke() → open dialog, upload the chosen file → ImportedTemplate, or null when cancelled. */
  importTemplate: 'docloom:import-template',
  /** invoke(documentId, suggestedName?) → save dialog, download → SavedFile, or null when cancelled. */
  saveDocument: 'docloom:save-document',
  /** invoke(path) → reveals a file this window saved in the OS file manager → boolean. */
  showInFolder: 'docloom:show-in-folder',
  /** main → renderer: a template was imported outside the GUI (File menu, file association, second instance). */
  templateImported: 'docloom:template-imported',
} as const;

export type IpcChannel = (typeof IPC)[keyof typeof IPC];

/** The switch carrying the API base URL to the preload (webPreferences.additionalArguments). */
export const API_BASE_URL_SWITCH = '--docloom-api-base-url=';
export const APP_VERSION_SWITCH = '--docloom-app-version=';

/** What the service answered for an imported template (its `template` object, as the API returns it). */
export interface ImportedTemplate {
  uuid: string;
  name: string;
  [field: string]: unknown;
}

export interface SavedFile {
  /** Absolute path of the file written. */
  path: string;
  /** Bytes written. */
  size: number;
}

/** `window.docloom`, exposed by electron/preload.cts through contextBridge. */
export interface DocloomBridge {
  /** Origin of the local service, e.g. `http://127.0.0.1:7463`; API paths (`/api/...`) are relative to it. */
  readonly apiBaseUrl: string;
  readonly appVersion: string;
  /** The GUI's bearer token, made for this run of the app. Never put it in a URL. */
  getToken(): Promise<string>;
  /** Lets the user pick a .docx / .json / .docloom file and uploads it; null when the dialog is cancelled. */
  importTemplate(): Promise<ImportedTemplate | null>;
  /** Lets the user choose where to save document `documentId` and writes it there; null when cancelled. */
  saveDocument(documentId: number, suggestedName?: string): Promise<SavedFile | null>;
  /** Shows a file saved by saveDocument() in the OS file manager (true); rejects for any other path. */
  showInFolder(filePath: string): Promise<boolean>;
  /** Called when a template is imported from the menu or by opening a file; returns an unsubscribe function. */
  onTemplateImported(listener: (template: ImportedTemplate) => void): () => void;
}
