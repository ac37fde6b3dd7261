/**
 * The one error table (CONTRACT.md §2): every failure becomes a Laravel-shaped body
 * `{success: false, message, errors?}` with the right status. Route handlers only throw.
 */
import type { ErrorRequestHandler, Response } from 'express';
import { MulterError } from 'multer';
import { ServiceError } from '../services/errors.js';
import { statusOf } from '../errors/catalogue.js';
import { isNoSpace, NO_SPACE_MESSAGE } from '../errors/storage.js';
import { DATABASE_UNAVAILABLE_MESSAGE, RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../errors/database.js';
import type { Limits } from '../config.js';
import { sendJson } from './send-json.js';

export function sendError(res: Response, status: number, message: string, extra: Record<string, unknown> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, status, { success: false, message, ...extra });
}

const KB = 1024;
const MB = 1024 * 1024;

/**
 * A limit in bytes as people read it: `20 MB`, `64 KB`; a limit configured to an uneven value is given exactly
 * (`2,000 bytes`, `1.5 MB (1,572,864 bytes)`), since the message is how a user finds which limit was hit.
 */
export function megabytes(bytes: number): string {
  if (bytes >= MB && bytes % MB === 0) return `${bytes / MB} MB`;
  if (bytes >= KB && bytes < MB && bytes % KB === 0) return `${bytes / KB} KB`;
  const exact = `${bytes.toLocaleString('en-US')} bytes`;
  return bytes >= MB ? `${(bytes / MB).toFixed(1)} MB (${exact})` : exact;
}

/** Errors raised by body-parser (express.json/urlencoded) carry `type` and `status`. */
interface ParserError {
  type?: string;
  status?: number;
  expose?: boolean;
  message?: string;
}

/**
 * `shared`: the service keeps its records in a shared database (the team server), whose loss during a request is
 * a 503 to retry, not a bug.
 */
export function errorHandler(limits: Limits, log: (line: string) => void, shared = false): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    if (err instanceof ServiceError) {
      const extra: Record<string, unknown> = {};
      if (err.kind === 'validation') extra.errors = err.errors ?? {};
      if (err.templateErrors) extra.template_errors = err.templateErrors;
      // A token found revoked as the document was stored (services/documents.ts): answered as requireToken does.
      if (err.kind === 'unauthenticated') res.setHeader('WWW-Authenticate', 'Bearer');
      sendError(res, statusOf(err.kind), err.message, extra);
      return;
    }
    if (err instanceof MulterError) {
      if (err.code === 'LIMIT_FILE_SIZE') {
        sendError(res, 413, `The template file is larger than the upload limit of ${megabytes(limits.templateUploadBytes)}.`);
      } else if (err.code === 'LIMIT_FIELD_VALUE') {
        sendError(res, 413, `The ${err.field ?? 'a'} field is larger than the request body limit of ${megabytes(limits.requestBodyBytes)}.`);
      } else {
        sendError(res, 400, `The multipart body is malformed or has too many parts (${err.message}).`);
      }
      return;
    }
    const parser = err as ParserError;
    if (parser && typeof parser.type === 'string' && typeof parser.status === 'number') {
      if (parser.type === 'entity.too.large') {
        sendError(res, 413, `The request body is larger than the limit of ${megabytes(limits.requestBodyBytes)}.`);
      } else if (parser.type === 'entity.parse.failed') {
        sendError(res, 400, 'The request body is not valid JSON.');
      } else if (parser.type === 'charset.unsupported' || parser.type === 'encoding.unsupported') {
        sendError(res, 415, parser.message ?? 'Unsupported request encoding.');
      } else {
        sendError(res, parser.status >= 400 && parser.status < 500 ? parser.status : 400, 'The request body could not be read.');
      }
      return;
    }
    // Multipart bodies that busboy cannot read ("Unexpected end of form", bad boundary…).
    if (err instanceof Error && /^(Unexpected end of form|Malformed part header|Multipart: Boundary not found|Unexpected end of multipart data)/.test(err.message)) {
      sendError(res, 400, `The multipart body is malformed (${err.message}).`);
      return;
    }
    const requestId = String(res.locals.requestId ?? '');
    // A full disk (or quota) on any store or file write: 507, never 500; the services stored nothing half-way.
    if (isNoSpace(err)) {
      log(`[${requestId}] ${req.method} ${req.path}: no space left: ${err instanceof Error ? err.message : String(err)}`);
      sendError(res, statusOf('insufficient_storage'), NO_SPACE_MESSAGE);
      return;
    }
    // The database went away under the request: what it changed was one transaction, committed or not at all.
    if (shared && isDatabaseUnavailable(err)) {
      log(`[${requestId}] ${req.method} ${req.path}: database unavailable: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      sendError(res, statusOf('service_unavailable'), DATABASE_UNAVAILABLE_MESSAGE);
      return;
    }
    log(`[${requestId}] ${req.method} ${req.path} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    sendError(res, 500, 'Server error.', { request_id: requestId });
  };
}
