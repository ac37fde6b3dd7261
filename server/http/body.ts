/**
 * Request bodies (CONTRACT.md §1): multipart/form-data (as in the interface), urlencoded, or JSON — every route
 * that takes a body accepts all three. Bodies over the limit are refused with 413 before they are read when
 * Content-Length says so, and while reading otherwise. Files other than the expected one are ignored.
 */
import express, { type Request, type RequestHandler } from 'express';
import multer from 'multer';
import type { Limits } from '../config.js';
import { ServiceError } from '../services/errors.js';
import type { UploadedFile } from '../services/templates.js';
import { dataDepthMessage, jsonTextNestsDeeper } from '../services/validate.js';
import { megabytes } from './errors.js';

export interface BodyParsers {
  /** JSON, urlencoded or multipart without a file of interest (documents, tokens, previews…). */
  fields: RequestHandler[];
  /** JSON, urlencoded or multipart with a template `file` (POST/PUT /api/template). */
  upload: RequestHandler[];
}

/** The media types each parser reads (body-parser's `type` options and multer's own check). */
const JSON_TYPES = ['application/json', 'application/*+json'];
const FORM_TYPE = 'application/x-www-form-urlencoded';
const BODY_TYPES = [...JSON_TYPES, FORM_TYPE, 'multipart'];

/**
 * One middleware for a route's body, not four in a row: bodies over `max` are refused from Content-Length, then the
 * Content-Type is matched once and only the parser it names runs (each parser checks the type again itself and
 * leaves any other type unread, so the outcome is the same as running all three in turn). Every create paid for the
 * two parsers that skip and for three route layers (docs/benchmarks.md, session 16, branch svc17).
 */
function bodyReader(max: number, what: string, json: RequestHandler, form: RequestHandler, multipart: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const length = Number(req.headers['content-length'] ?? 0);
    if (length > max) throw new ServiceError('too_large', `The ${what} is larger than the limit of ${megabytes(max)}.`);
    const type = req.is(BODY_TYPES);
    if (type === 'multipart') multipart(req, res, next);
    else if (type === FORM_TYPE) form(req, res, next);
    else if (type) json(req, res, next);
    else next();
  };
}

/**
 * A JSON body nested deeper than `data` may be (the body object is one level more) is refused with the 422 the
 * data check gives, from the raw bytes, before body-parser builds the nesting (it may cost a lot of memory).
 */
function depthGuard(limits: Limits): (req: unknown, res: unknown, buf: Buffer) => void {
  return (_req, _res, buf) => {
    if (jsonTextNestsDeeper(buf, limits.dataDepth + 1)) {
      const message = dataDepthMessage(limits.dataDepth);
      // body-parser passes a verify error on with the status and type it carries (403 otherwise).
      throw Object.assign(new ServiceError('validation', message, { errors: { data: [message] } }), { status: 422, type: 'data.too_deep' });
    }
  };
}

export function bodyParsers(limits: Limits): BodyParsers {
  const json = express.json({ limit: limits.requestBodyBytes, strict: false, type: JSON_TYPES, verify: depthGuard(limits) });
  const form = express.urlencoded({ limit: limits.requestBodyBytes, extended: false, parameterLimit: 1000, type: FORM_TYPE });
  const multipartFields = multer({
    storage: multer.memoryStorage(),
    defParamCharset: 'utf8',
    // A `data` part sent as a file (curl -F data=@data.json) is read as the data field.
    limits: { fileSize: limits.requestBodyBytes, fieldSize: limits.requestBodyBytes, files: 5, fields: 100, parts: 105 },
  }).any();
  const multipartUpload = multer({
    storage: multer.memoryStorage(),
    // Browsers send a non-ASCII filename as raw UTF-8 in the part header.
    defParamCharset: 'utf8',
    limits: { fileSize: limits.templateUploadBytes, fieldSize: limits.requestBodyBytes, files: 1, fields: 100, parts: 101 },
  }).any();
  // Multipart framing adds a little on top of the parts themselves.
  const slack = 64 * 1024;
  return {
    fields: [bodyReader(limits.requestBodyBytes + slack, 'request body', json, form, multipartFields)],
    upload: [bodyReader(limits.templateUploadBytes + limits.requestBodyBytes + slack, 'upload', json, form, multipartUpload)],
  };
}

/** The parsed fields as a plain object ({} when there was no body or an unknown content type). */
export function bodyFields(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new ServiceError('bad_request', 'The request body must be a JSON object.');
  const fields = { ...(body as Record<string, unknown>) };
  const files = (req.files as Express.Multer.File[] | undefined) ?? [];
  const dataFile = files.find((f) => f.fieldname === 'data');
  if (dataFile && fields.data === undefined) fields.data = dataFile.buffer.toString('utf8');
  return fields;
}

/** The uploaded template file, if any (the part named `file`). */
export function uploadedFile(req: Request): UploadedFile | undefined {
  const files = (req.files as Express.Multer.File[] | undefined) ?? [];
  const file = files.find((f) => f.fieldname === 'file');
  if (!file) return undefined;
  return { filename: file.originalname, bytes: file.buffer };
}
