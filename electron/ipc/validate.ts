/**
 * Checks on every IPC call from a renderer (checklist item 17): who sent it, and what it sent.
 * A renderer is where untrusted input (a template's text, an image URL's answer) is displayed, so its messages
 * are treated like requests from the network: the sender must be the top frame of our window showing our own
 * pages, and each argument must have exactly the expected shape. Failures throw IpcValidationError, which
 * reaches the page as a rejected promise; nothing is done on its behalf.
 */
import path from 'node:path';
import { isAppUrl } from '../security/navigation.js';

export class IpcValidationError extends Error {
  override readonly name = 'IpcValidationError';
}

/** The parts of Electron's IpcMainEvent/IpcMainInvokeEvent that identify the sender. */
export interface SenderInfo {
  sender: unknown;
  senderFrame: { url: string; parent: unknown } | null;
}

/**
 * True when the message comes from `trustedContents` (our window's WebContents), from its top frame (not an
 * iframe, e.g. a PDF preview), and that frame is showing one of the app's own pages.
 */
export function isTrustedSender(event: SenderInfo, isTrustedContents: (contents: unknown) => boolean): boolean {
  const frame = event.senderFrame;
  if (!frame) return false; // the frame navigated away or was destroyed before the message was handled
  if (frame.parent !== null) return false;
  if (!isTrustedContents(event.sender)) return false;
  return isAppUrl(frame.url);
}

export function assertTrustedSender(event: SenderInfo, isTrustedContents: (contents: unknown) => boolean, channel: string): void {
  if (!isTrustedSender(event, isTrustedContents)) {
    throw new IpcValidationError(`${channel}: refused, the request does not come from the docloom window`);
  }
}

/** No arguments at all (getToken, importTemplate). */
export function parseNoArguments(channel: string, args: readonly unknown[]): void {
  if (args.length !== 0) throw new IpcValidationError(`${channel}: takes no arguments`);
}

export interface SaveDocumentRequest {
  documentId: number;
  /** A bare file name (no folders), or undefined to use the document's own name. */
  suggestedName: string | undefined;
}

const MAX_FILE_NAME_LENGTH = 200;

/** Keeps a file name a file name: no folders, no characters Windows/macOS/Linux refuse, no dot files. */
export function sanitizeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
    .replace(/[<>:"|?*\u0000-\u001f\u007f]/g, '_')
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '')
    .slice(0, MAX_FILE_NAME_LENGTH);
  return cleaned;
}

export function parseSaveDocumentArgs(args: readonly unknown[]): SaveDocumentRequest {
  if (args.length < 1 || args.length > 2) {
    throw new IpcValidationError('saveDocument: expects (documentId, suggestedName?)');
  }
  const [documentId, suggestedName] = args;
  if (typeof documentId !== 'number' || !Number.isSafeInteger(documentId) || documentId < 1) {
    throw new IpcValidationError('saveDocument: documentId must be a positive whole number');
  }
  if (suggestedName === undefined || suggestedName === null) return { documentId, suggestedName: undefined };
  if (typeof suggestedName !== 'string' || suggestedName.length > 1000) {
    throw new IpcValidationError('saveDocument: suggestedName must be a string of at most 1000 characters');
  }
  const cleaned = sanitizeFileName(suggestedName);
  return { documentId, suggestedName: cleaned === '' ? undefined : cleaned };
}

/**
 * showInFolder(path): only a path this window saved through saveDocument (held in `savedPaths`), so a page
 * cannot use it to probe or reveal arbitrary files.
 */
export function parseShowInFolderArgs(args: readonly unknown[], savedPaths: ReadonlySet<string>): string {
  if (args.length !== 1 || typeof args[0] !== 'string' || args[0].length === 0 || args[0].length > 4096) {
    throw new IpcValidationError('showInFolder: expects one file path');
  }
  const requested = args[0];
  if (!path.isAbsolute(requested) || !savedPaths.has(path.normalize(requested))) {
    throw new IpcValidationError('showInFolder: only files saved from this window can be shown');
  }
  return path.normalize(requested);
}
