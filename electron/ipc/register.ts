/**
 * Registers the main-process side of the bridge: one handler per channel of bridge-api.ts's IPC, each checking
 * its sender and arguments (validate.ts) before doing anything.
 */
import { IPC, type ImportedTemplate, type SavedFile } from '../bridge-api.js';
import {
  assertTrustedSender,
  parseNoArguments,
  parseSaveDocumentArgs,
  parseShowInFolderArgs,
  type SaveDocumentRequest,
  type SenderInfo,
} from './validate.js';

/** The part of Electron's ipcMain used here. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: SenderInfo, ...args: unknown[]) => unknown): void;
  on(channel: string, listener: (event: SenderInfo & { returnValue: unknown }, ...args: unknown[]) => void): unknown;
}

export interface BridgeHandlers {
  /** Is this WebContents the docloom window's? */
  isTrustedContents(contents: unknown): boolean;
  apiBaseUrl(): string;
  token(): string;
  importTemplate(): Promise<ImportedTemplate | null>;
  saveDocument(request: SaveDocumentRequest): Promise<SavedFile | null>;
  showInFolder(filePath: string): void;
  /** Files written by saveDocument during this run (showInFolder accepts only these). */
  savedPaths: ReadonlySet<string>;
}

export function registerBridgeHandlers(ipcMain: IpcMainLike, handlers: BridgeHandlers): void {
  const trusted = (event: SenderInfo, channel: string): void =>
    assertTrustedSender(event, handlers.isTrustedContents, channel);

  ipcMain.handle(IPC.getToken, (event, ...args) => {
    trusted(event, IPC.getToken);
    parseNoArguments(IPC.getToken, args);
    return handlers.token();
  });

  ipcMain.on(IPC.getApiBaseUrl, (event, ...args) => {
    try {
      trusted(event, IPC.getApiBaseUrl);
      parseNoArguments(IPC.getApiBaseUrl, args);
      event.returnValue = handlers.apiBaseUrl();
    } catch (error) {
      // A synchronous message must always get an answer, or the renderer hangs; an empty URL fails visibly.
      console.error(String(error));
      event.returnValue = '';
    }
  });

  ipcMain.handle(IPC.importTemplate, (event, ...args) => {
    trusted(event, IPC.importTemplate);
    parseNoArguments(IPC.importTemplate, args);
    return handlers.importTemplate();
  });

  ipcMain.handle(IPC.saveDocument, (event, ...args) => {
    trusted(event, IPC.saveDocument);
    return handlers.saveDocument(parseSaveDocumentArgs(args));
  });

  ipcMain.handle(IPC.showInFolder, (event, ...args) => {
    trusted(event, IPC.showInFolder);
    handlers.showInFolder(parseShowInFolderArgs(args, handlers.savedPaths));
    return true;
  });
}
