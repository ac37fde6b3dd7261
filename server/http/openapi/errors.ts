/**
 * The Laravel-shaped error bodies (CONTRACT.md §2) and the codes they and failed documents carry, taken from the
 * one error catalogue (server/errors/catalogue.ts), so a code added there is in the description too.
 */
import { CATALOGUE, type ErrorCode, type ErrorKind, type HttpErrorCode } from '../../errors/catalogue.js';
import type { ResponseObject, Schema } from './types.js';

const codesOf = (...kinds: ErrorKind[]): ErrorCode[] => (Object.keys(CATALOGUE) as ErrorCode[]).filter((c) => kinds.includes(CATALOGUE[c].kind));

/**
 * A failed document's `error.code`: the document kinds, plus `invalid_template` (the file changed under the
 * service) and `insufficient_storage` (an accepted async document that could not be saved).
 */
export const DOCUMENT_ERROR_CODES: ErrorCode[] = [...codesOf('document'), 'invalid_template', 'insufficient_storage'];

export const errorSchemas: Record<string, Schema> = {
  ErrorCode: { type: 'string', description: 'Every code docloom says (docs/api.md, "Error codes").', enum: Object.keys(CATALOGUE) },
  ValidationErrors: {
    type: 'object',
    description: 'Each field that failed, with its messages (Laravel).',
    additionalProperties: { type: 'array', minItems: 1, items: { type: 'string' } },
    examples: [{ template_id: ['The template id field is required.'] }],
  },
  TemplateError: {
    type: 'object',
    description: 'One problem in a refused template file, with where it is.',
    required: ['code', 'message', 'location'],
    additionalProperties: false,
    properties: {
      code: { type: 'string', enum: codesOf('template') },
      message: { type: 'string' },
      location: {
        type: 'object',
        required: ['part'],
        additionalProperties: false,
        properties: {
          part: { type: 'string', description: 'body, header, footer:first, file, template…' },
          paragraph: { type: 'integer', minimum: 1 },
          tag: { type: 'string', description: 'The tag as written, delimiters included.' },
          offset: { type: 'integer', minimum: 0, description: "Where the tag starts in its paragraph's text (from 0, in characters)." },
          column: { type: 'integer', minimum: 1, description: 'Where the fault is in `tag` (from 1): for a malformed expression (`invalid_expression`, `unsupported_tag`).' },
        },
      },
    },
  },
  Error: {
    type: 'object',
    description: 'Laravel-shaped error: `errors` on 422, `template_errors` for a refused template file, `request_id` on 500.',
    required: ['success', 'message'],
    additionalProperties: false,
    properties: {
      success: { const: false },
      message: { type: 'string', minLength: 1 },
      errors: { $ref: '#/components/schemas/ValidationErrors' },
      template_errors: { type: 'array', items: { $ref: '#/components/schemas/TemplateError' } },
      request_id: { type: 'string', description: 'The id in the service log (and the X-Request-Id header).' },
    },
  },
  ValidationError: {
    type: 'object',
    description: 'A 422: the first message (`(and N more errors)` when there are more) and every field that failed.',
    required: ['success', 'message', 'errors'],
    additionalProperties: false,
    properties: {
      success: { const: false },
      message: { type: 'string', minLength: 1 },
      errors: { $ref: '#/components/schemas/ValidationErrors' },
      template_errors: { type: 'array', items: { $ref: '#/components/schemas/TemplateError' } },
    },
  },
};

/** An error response for an HTTP code of the catalogue, with example messages from the interface and CONTRACT.md. */
export function errorResponse(code: HttpErrorCode, messages: string[], errors?: Record<string, string[]>): ResponseObject {
  const schema = code === 'validation' ? 'ValidationError' : 'Error';
  const examples: Record<string, { value: unknown }> = {};
  messages.forEach((message, i) => {
    const value: Record<string, unknown> = { success: false, message };
    if (code === 'validation') value.errors = errors ?? {};
    if (code === 'server_error') value.request_id = '4f1c2a9be0d3';
    examples[`example${i + 1}`] = { value };
  });
  return {
    description: `\`${code}\`: ${CATALOGUE[code].meaning}`,
    ...(code === 'unauthenticated' ? { headers: { 'WWW-Authenticate': { required: true, description: '`Bearer`.', schema: { const: 'Bearer' } } } } : {}),
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` }, examples } },
  };
}
