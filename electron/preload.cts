/**
 * The preload of the GUI's window: the only code with Electron access that shares the page's process.
 * It runs sandboxed (webPreferences.sandbox: true), so it is CommonJS (this file compiles to preload.cjs) and may
 * require nothing but 'electron'; that is why the channel names below repeat bridge-api.ts's IPC
 * (test/electron/preload.test.ts runs this file in such a sandbox and checks each name).
 *
 * It exposes a handful of typed functions as `window.docloom` through contextBridge, never ipcRenderer itself
 * nor an IPC event object (which would hand the page `sender` and the means to send on any channel).
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { DocloomBridge, IPC, ImportedTemplate, SavedFile } from './bridge-api.js';

const CHANNELS = {
  getToken: 'docloom:get-token',
  getApiBaseUrl: 'docloom:get-api-base-url',
  importTemplate: 'docloom:import-template',
  saveDocument: 'docloom:save-document',
  showInFolder: 'docloom:show-in-folder',
  templateImported: 'docloom:template-imported',
  // A sandboxed preload can require nothing but 'electron', so the names are repeated here; the type check keeps
  // them identical to bridge-api.ts's IPC.
} as const satisfies typeof IPC;

/** Reads `--name=value` from the switches the main process appended (webPreferences.additionalArguments). */
function switchValue(prefix: string): string | undefined {
  const arg = process.argv.find((candidate) => candidate.startsWith(prefix));
  return arg === undefined ? undefined : arg.slice(prefix.length);
}

// The base URL is known before the window exists, so it arrives as a switch; the synchronous request is only
// a fallback should a future Electron stop delivering additionalArguments to sandboxed preloads.
const apiBaseUrl = switchValue('--docloom-api-base-url=') ?? String(ipcRenderer.sendSync(CHANNELS.getApiBaseUrl));
const appVersion = switchValue('--docloom-app-version=') ?? '';

const bridge: DocloomBridge = {
  apiBaseUrl,
  appVersion,
  getToken: () => ipcRenderer.invoke(CHANNELS.getToken) as Promise<string>,
  importTemplate: () => ipcRenderer.invoke(CHANNELS.importTemplate) as Promise<ImportedTemplate | null>,
  saveDocument: (documentId: number, suggestedName?: string) =>
    ipcRenderer.invoke(CHANNELS.saveDocument, documentId, suggestedName) as Promise<SavedFile | null>,
  showInFolder: (filePath: string) => ipcRenderer.invoke(CHANNELS.showInFolder, filePath) as Promise<boolean>,
  onTemplateImported(listener: (template: ImportedTemplate) => void): () => void {
    // The page gets the template only, never the IPC event.
    const relay = (_event: IpcRendererEvent, template: ImportedTemplate): void => listener(template);
    ipcRenderer.on(CHANNELS.templateImported, relay);
    return () => {
      ipcRenderer.removeListener(CHANNELS.templateImported, relay);
    };
  },
};

contextBridge.exposeInMainWorld('docloom', Object.freeze(bridge));

/** For a compile-time check in main.ts that the bridge is what the GUI expects (erased from the output). */
export type ExposedBridge = typeof bridge;
