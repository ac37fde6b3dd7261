/**
 * The desktop's own file flows, behind native dialogs: import a template (open dialog → upload) and save a
 * document (save dialog → download). Dialogs are passed in (Electron's `dialog`, bound to the window, in
 * main.ts; small fakes in the tests); the service they talk to is real.
 */
import path from 'node:path';
import type { ImportedTemplate, SavedFile } from './bridge-api.js';
import { defaultDocumentFileName, ServiceRequestError, type ServiceClient } from './service/client.js';

export interface OpenDialogOptions {
  title: string;
  properties: Array<'openFile'>;
  filters: Array<{ name: string; extensions: string[] }>;
}

export interface SaveDialogOptions {
  title: string;
  defaultPath: string;
  filters: Array<{ name: string; extensions: string[] }>;
}

/** The part of Electron's `dialog` used here (already bound to the parent window). */
export interface Dialogs {
  showOpenDialog(options: OpenDialogOptions): Promise<{ canceled: boolean; filePaths: string[] }>;
  showSaveDialog(options: SaveDialogOptions): Promise<{ canceled: boolean; filePath?: string }>;
  showError(title: string, message: string): void;
}

export const TEMPLATE_FILE_FILTERS = [
  { name: 'Templates (Word, docloom)', extensions: ['docx', 'docloom', 'json'] },
  { name: 'Word documents', extensions: ['docx'] },
  { name: 'docloom templates', extensions: ['docloom', 'json'] },
];

/** A readable message for a failed import or save, with the service's field errors when it gave any. */
export function describeFailure(error: unknown): string {
  if (error instanceof ServiceRequestError) {
    return error.details.length > 0 ? `${error.message}\n\n${error.details.join('\n')}` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Uploads a file the OS or the user named; shows any failure and returns null. */
export async function importTemplateFile(client: ServiceClient, dialogs: Dialogs, filePath: string): Promise<ImportedTemplate | null> {
  try {
    return await client.uploadTemplate(filePath);
  } catch (error) {
    dialogs.showError(`Could not import ${path.basename(filePath)}`, describeFailure(error));
    return null;
  }
}

/** File → Import Template… and the GUI's import button: open dialog, then upload. Null when cancelled or failed. */
export async function importTemplateInteractively(client: ServiceClient, dialogs: Dialogs): Promise<ImportedTemplate | null> {
  const choice = await dialogs.showOpenDialog({
    title: 'Import a template',
    properties: ['openFile'],
    filters: TEMPLATE_FILE_FILTERS,
  });
  const filePath = choice.filePaths[0];
  if (choice.canceled || !filePath) return null;
  return importTemplateFile(client, dialogs, filePath);
}

export interface SaveDocumentOptions {
  documentId: number;
  suggestedName: string | undefined;
  /** Folder the dialog opens in (the OS Downloads folder). */
  defaultFolder: string;
}

/**
 * Asks where to save, then writes the document there. Errors reach the caller (the GUI shows them beside the
 * document); a cancelled dialog is null.
 */
export async function saveDocumentInteractively(
  client: ServiceClient,
  dialogs: Dialogs,
  options: SaveDocumentOptions,
): Promise<SavedFile | null> {
  const document = await client.getDocument(options.documentId);
  const fileName = options.suggestedName ?? defaultDocumentFileName(document);
  const extension = path.extname(fileName).slice(1) || document.output_type || 'pdf';
  const choice = await dialogs.showSaveDialog({
    title: 'Save document',
    defaultPath: path.join(options.defaultFolder, fileName),
    filters: [{ name: `${extension.toUpperCase()} file`, extensions: [extension] }],
  });
  if (choice.canceled || !choice.filePath) return null;
  const target = path.resolve(choice.filePath);
  const size = await client.downloadDocument(options.documentId, target);
  return { path: target, size };
}
