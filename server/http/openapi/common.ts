/**
 * Building blocks the areas share: references, JSON responses, form bodies (the three content types every body
 * route takes, CONTRACT.md §1), flags, the Laravel datetime and the standard error responses of a route.
 */
import type { MediaType, Parameter, RequestBody, ResponseObject, Schema } from './types.js';
import { errorResponse } from './errors.js';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../../errors/database.js';

export const ref = (schema: string): Schema => ({ $ref: `#/components/schemas/${schema}` });

/** UTC, Laravel's format with microseconds (CONTRACT.md §1). */
export const laravelDate: Schema = {
  type: 'string',
  format: 'date-time',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}Z$',
  examples: ['2026-11-22T08:11:00.000000Z'],
};

/** An integer flag the interface types as 0/1. */
export const int01: Schema = { type: 'integer', enum: [0, 1] };

/** A yes/no form field: `1/0`, `true/false`, `on/off`, `yes/no` (any case); JSON booleans and 0/1 too. */
export const flagField = (description: string): Schema => ({
  description,
  anyOf: [{ type: 'boolean' }, { type: 'integer', enum: [0, 1] }, { type: 'string', examples: ['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no'] }],
});

/** An object whose listed properties are all present and nothing else is (responses are exact). */
export function exact(properties: Record<string, Schema>, description?: string): Schema {
  return { type: 'object', ...(description ? { description } : {}), required: Object.keys(properties), properties, additionalProperties: false };
}

/** `{success: true, ...fields}`. */
export function success(fields: Record<string, Schema>, description?: string): Schema {
  return exact({ success: { const: true }, ...fields }, description);
}

export function jsonResponse(description: string, schema: Schema, example?: unknown): ResponseObject {
  const media: MediaType = { schema };
  if (example !== undefined) media.examples = { example: { value: example } };
  return { description, content: { 'application/json': media } };
}

/** A file download: the bytes with their type and a Content-Disposition naming the file. */
export function fileResponse(description: string, types: string[]): ResponseObject {
  const content: Record<string, MediaType> = {};
  // A file that is itself JSON (a docloom .json template) is described as what it is: an object.
  for (const t of types) content[t] = { schema: t === 'application/json' ? { type: 'object', description: 'The file: a docloom .json template.' } : { type: 'string', contentMediaType: t } };
  return {
    description,
    headers: {
      'Content-Disposition': {
        required: true,
        description: '`attachment; filename="…"` (plus `filename*=UTF-8\'\'…` for non-ASCII names); `inline` with `inline=1` where offered.',
        schema: { type: 'string' },
      },
    },
    content,
  };
}

/**
 * A body every route with one accepts as multipart/form-data (the interface's type), urlencoded, or JSON. Form
 * fields are strings; `json` overrides a field's schema in a JSON body (say `data` as an object).
 */
export function formBody(
  fields: Record<string, Schema>,
  required: string[],
  opts: { json?: Record<string, Schema>; files?: Record<string, Schema>; multipartOnly?: boolean; example?: unknown; description?: string } = {},
): RequestBody {
  const files = opts.files ?? {};
  const examples = opts.example === undefined ? undefined : { example: { value: opts.example } };
  const body: RequestBody = {
    required: required.length > 0,
    content: { 'multipart/form-data': { schema: { type: 'object', required, properties: { ...fields, ...files } }, ...(examples ? { examples } : {}) } },
  };
  // A file travels only in multipart: a body that must carry one has no other form.
  if (!opts.multipartOnly) {
    body.content['application/x-www-form-urlencoded'] = { schema: { type: 'object', required, properties: fields } };
    body.content['application/json'] = { schema: { type: 'object', required, properties: { ...fields, ...(opts.json ?? {}) } }, ...(examples ? { examples } : {}) };
  }
  if (opts.description) body.description = opts.description;
  return body;
}

export interface ErrorSet {
  /** Which token the route needs: none (public), any (read-only allowed) or write (a read-only token gets 403). */
  auth: 'none' | 'any' | 'write';
  /** The route reads a body: 400 (malformed), 413 (over the limit), 415 (an encoding it cannot read). */
  body?: boolean;
  /** The route's own 403 messages (beyond the read-only token's and the Host guard's). */
  forbidden?: string[];
  /** The route stores something: 507 when the disk is full. */
  stores?: boolean;
  /** Messages of the route's own 404 (`Document not found.`…), if it has one. */
  notFound?: string[];
  /** The route validates input: 422 with these example messages. */
  validation?: { message: string; errors: Record<string, string[]> };
  /** The route is not served in some set-ups: 503 with these messages (beside the database's). */
  unavailable?: string[];
}

/** The error responses a route can give, Laravel-shaped (CONTRACT.md §2), from the catalogue's statuses. */
export function standardErrors(set: ErrorSet): Record<string, ResponseObject> {
  const out: Record<string, ResponseObject> = {};
  if (set.body) out['400'] = errorResponse('bad_request', ['The request body is not valid JSON.']);
  if (set.auth !== 'none') out['401'] = errorResponse('unauthenticated', ['Unauthenticated.']);
  out['403'] = errorResponse('forbidden', [
    ...(set.auth === 'write' ? ['This action is unauthorized.'] : []),
    ...(set.forbidden ?? []),
    "This address is not allowed: use http://127.0.0.1 or http://localhost with the service's port.",
  ]);
  if (set.notFound) out['404'] = errorResponse('not_found', set.notFound);
  if (set.body) {
    out['413'] = errorResponse('too_large', ['The request body is larger than the limit of 10 MB.']);
    out['415'] = errorResponse('unsupported_type', ['unsupported charset "LATIN-9"']);
  }
  if (set.validation) out['422'] = errorResponse('validation', [set.validation.message], set.validation.errors);
  out['500'] = errorResponse('server_error', ['Server error.']);
  // Every route with a token reads the database on a team server (the token is looked up there): 503 when it drops.
  if (set.unavailable || set.auth !== 'none') {
    const unavailable = errorResponse('service_unavailable', [...(set.unavailable ?? []), DATABASE_UNAVAILABLE_MESSAGE]);
    unavailable.headers = { 'Retry-After': { required: false, description: 'Seconds to wait before trying again (when the database dropped).', schema: { type: 'string' } } };
    out['503'] = unavailable;
  }
  if (set.stores) out['507'] = errorResponse('insufficient_storage', ["There is no space left for docloom's data. Free some space and try again."]);
  return out;
}

export const query = (name: string, description: string, schema: Schema, example?: unknown): Parameter => ({
  name,
  in: 'query',
  description,
  schema,
  ...(example !== undefined ? { example } : {}),
});

export const pathParam = (name: string, description: string, schema: Schema, example: unknown): Parameter => ({
  name,
  in: 'path',
  required: true,
  description,
  schema,
  example,
});
