/** Path and query parameter helpers shared by the routes. */
import type { Request, Response } from 'express';
import { ServiceError, notFound } from '../services/errors.js';
import type { FileToSend } from '../services/documents.js';

/** `{id}` as a positive integer; anything else is simply not found (/api/document/abc → 404). */
export function idParam(req: Request, what: 'Document' | 'Token'): number {
  const raw = req.params.id;
  if (typeof raw !== 'string' || !/^[1-9]\d{0,14}$/.test(raw)) throw notFound(what);
  return Number(raw);
}

/** A single-valued query parameter (a repeated one counts as absent). */
export function queryString(req: Request, name: string): string | undefined {
  const value = (req.query as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** Streams a file with its type and a Content-Disposition carrying the name (RFC 6266 / 5987 for non-ASCII). */
export async function sendFile(res: Response, file: FileToSend, disposition: 'attachment' | 'inline' = 'attachment'): Promise<void> {
  // Opened before any header is set: an object store that fails here answers a plain error, not half a download.
  const stream = await file.open();
  res.attachment(file.filename);
  // After attachment(), which would set a type from the extension.
  res.setHeader('Content-Type', file.contentType);
  res.setHeader('Content-Length', String(file.size));
  if (disposition === 'inline') res.setHeader('Content-Disposition', String(res.getHeader('Content-Disposition')).replace(/^attachment/, 'inline'));
  res.setHeader('Cache-Control', 'private, no-store');
  await new Promise<void>((resolve, reject) => {
    stream.on('error', (err) => {
      if (!res.headersSent) {
        res.removeHeader('Content-Disposition');
        res.removeHeader('Content-Length');
        reject((err as NodeJS.ErrnoException).code === 'ENOENT' ? new ServiceError('gone', 'Document has expired.') : err);
      } else {
        res.destroy(err);
        resolve();
      }
    });
    res.on('close', resolve);
    stream.pipe(res);
  });
}
