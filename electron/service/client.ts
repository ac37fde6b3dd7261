/**
 * What the main process asks of the local service, over HTTP like any other client: upload a template the user
 * picked in a native dialog, read a document's record, stream a document into a file the user chose.
 * Errors carry the service's own message (its Laravel-shaped body), so dialogs can show it as is.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ImportedTemplate } from '../bridge-api.js';

export class ServiceRequestError extends Error {
  override readonly name = 'ServiceRequestError';
  constructor(
    message: string,
    readonly status: number,
    /** One line per field error of a 422 answer (template syntax errors carry their location). */
    readonly details: readonly string[] = [],
  ) {
    super(message);
  }
}

export interface DocumentSummary {
  id: number;
  output_filename: string | null;
  output_type: string;
  [field: string]: unknown;
}

async function errorFrom(response: Response, what: string): Promise<ServiceRequestError> {
  let message = `${what} failed (HTTP ${response.status})`;
  const details: string[] = [];
  try {
    const body = (await response.json()) as { message?: unknown; errors?: unknown };
    if (typeof body.message === 'string' && body.message) message = body.message;
    if (body.errors && typeof body.errors === 'object') {
      for (const [field, messages] of Object.entries(body.errors as Record<string, unknown>)) {
        for (const text of Array.isArray(messages) ? messages : [messages]) details.push(`${field}: ${String(text)}`);
      }
    }
  } catch {
    // Not JSON: keep the status line.
  }
  return new ServiceRequestError(message, response.status, details);
}

/** The name to upload a file under: `.docloom` files are JSON templates and go up as `<name>.json`. */
export function uploadFileName(filePath: string): string {
  const base = path.basename(filePath);
  return path.extname(base).toLowerCase() === '.docloom' ? `${base.slice(0, -'.docloom'.length)}.json` : base;
}

function contentTypeFor(fileName: string): string {
  return path.extname(fileName).toLowerCase() === '.docx'
    ? 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
    : 'application/json';
}

export class ServiceClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { Authorization: `Bearer ${this.token}`, Accept: 'application/json', ...extra };
  }

  /** POST /api/template with the file streamed from disk (never read whole into memory). */
  async uploadTemplate(filePath: string): Promise<ImportedTemplate> {
    const fileName = uploadFileName(filePath);
    const blob = await fs.openAsBlob(filePath, { type: contentTypeFor(fileName) });
    const form = new FormData();
    form.set('file', blob, fileName);
    form.set('name', fileName.replace(/\.[^.]+$/, ''));
    const response = await fetch(`${this.baseUrl}/api/template`, { method: 'POST', headers: this.headers(), body: form });
    if (!response.ok) throw await errorFrom(response, `Importing ${path.basename(filePath)}`);
    const body = (await response.json()) as { template?: ImportedTemplate };
    if (!body.template || typeof body.template.uuid !== 'string') {
      throw new ServiceRequestError('The service accepted the template but did not return it', response.status);
    }
    return body.template;
  }

  async getDocument(documentId: number): Promise<DocumentSummary> {
    const response = await fetch(`${this.baseUrl}/api/document/${documentId}`, { headers: this.headers() });
    if (!response.ok) throw await errorFrom(response, `Reading document ${documentId}`);
    const body = (await response.json()) as { document?: DocumentSummary };
    if (!body.document) throw new ServiceRequestError(`Document ${documentId}: unexpected answer`, response.status);
    return body.document;
  }

  /**
   * Streams the document's file into `target`: written to `<target>.part` first and renamed when complete, so an
   * interrupted download never leaves a truncated file under the user's chosen name. Returns bytes written.
   */
  async downloadDocument(documentId: number, target: string): Promise<number> {
    const response = await fetch(`${this.baseUrl}/api/document/${documentId}/download`, {
      headers: this.headers({ Accept: '*/*' }),
    });
    if (!response.ok || !response.body) throw await errorFrom(response, `Downloading document ${documentId}`);
    const partial = `${target}.part`;
    try {
      await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), fs.createWriteStream(partial));
      await fs.promises.rename(partial, target);
    } catch (error) {
      await fs.promises.rm(partial, { force: true });
      throw error;
    }
    return (await fs.promises.stat(target)).size;
  }
}

/** The file name a document is saved under by default: its output_filename plus the type's extension. */
export function defaultDocumentFileName(document: DocumentSummary): string {
  const extension = `.${document.output_type || 'pdf'}`;
  const name = document.output_filename || `document-${document.id}`;
  return name.toLowerCase().endsWith(extension) ? name : `${name}${extension}`;
}
