/** API tokens (CONTRACT.md §3) and the browser sign-in exchange (docs/api.md, "Tokens", "Browser sign-in"). */
import { exact, flagField, formBody, jsonResponse, laravelDate, pathParam, standardErrors, success } from './common.js';
import type { Area, Schema } from './types.js';

const TOKEN: Schema = { type: 'string', pattern: '^\\d+\\|[A-Za-z0-9]{40}$', description: "Laravel Sanctum's shape: `<id>|<40 characters>`; shown only once." };
const EXAMPLE_TOKEN = '7|q8Zc3LmN0pR5tV2xY4bA6dF1gH9jK7sW0eU3iO5y';

const schemas: Record<string, Schema> = {
  Token: exact(
    {
      id: { type: 'integer', minimum: 1 },
      name: { type: 'string' },
      read_only: { type: 'boolean' },
      created_at: laravelDate,
      last_used_at: { ...laravelDate, type: ['string', 'null'], description: 'Recorded at most once an hour; null until first used.' },
    },
    'A token as listed (the token itself is never stored).',
  ),
};

export const tokensArea: Area = {
  tag: { name: 'Tokens', description: 'Bearer tokens for local tools, and the one-time sign-in code exchange of a browser GUI.' },
  schemas,
  paths: {
    '/api/tokens': {
      get: {
        operationId: 'listTokens',
        summary: 'List tokens',
        tags: ['Tokens'],
        responses: {
          '200': jsonResponse('Every token.', success({ tokens: { type: 'array', items: { $ref: '#/components/schemas/Token' } } }), {
            success: true,
            tokens: [{ id: 7, name: 'my-tool', read_only: false, created_at: '2026-11-22T08:11:00.000000Z', last_used_at: null }],
          }),
          ...standardErrors({ auth: 'any' }),
        },
      },
      post: {
        operationId: 'createToken',
        summary: 'Make a token',
        tags: ['Tokens'],
        requestBody: formBody({ name: { type: 'string', maxLength: 255 }, read_only: flagField('A read-only token cannot create, change or delete.') }, ['name'], { example: { name: 'my-tool', read_only: 'false' } }),
        responses: {
          '201': jsonResponse(
            'Made; `token` is shown only here.',
            success({ token: TOKEN, id: { type: 'integer', minimum: 1 }, name: { type: 'string' }, read_only: { type: 'boolean' }, created_at: laravelDate }),
            { success: true, token: EXAMPLE_TOKEN, id: 7, name: 'my-tool', read_only: false, created_at: '2026-11-22T08:11:00.000000Z' },
          ),
          ...standardErrors({ auth: 'write', body: true, stores: true, validation: { message: 'The name field is required.', errors: { name: ['The name field is required.'] } } }),
        },
      },
    },
    '/api/tokens/{id}': {
      parameters: [pathParam('id', 'The token id (the part before `|`).', { type: 'integer', minimum: 1 }, 7)],
      delete: {
        operationId: 'revokeToken',
        summary: 'Revoke a token',
        description: 'It stops working at once.',
        tags: ['Tokens'],
        responses: {
          '200': jsonResponse('Revoked.', success({ message: { type: 'string' } }), { success: true, message: 'Token revoked.' }),
          ...standardErrors({ auth: 'write', stores: true, notFound: ['Token not found.'] }),
        },
      },
    },
    '/api/gui/exchange': {
      post: {
        operationId: 'exchangeSignInCode',
        summary: 'Trade a one-time sign-in code for a token',
        description: '`docloom serve` prints a sign-in link carrying the code; it works once and for 10 minutes. No bearer token.',
        tags: ['Tokens'],
        security: [],
        requestBody: formBody({ code: { type: 'string' } }, ['code'], { example: { code: 'Xf3kQ9wLm2Rt7vBn4Yc8Hd1Jp6Sa0Eg5' } }),
        responses: {
          '200': jsonResponse('A fresh read-write token named `GUI (browser)`.', success({ token: TOKEN }), { success: true, token: EXAMPLE_TOKEN }),
          ...standardErrors({
            auth: 'none',
            body: true,
            stores: true,
            validation: { message: 'The sign-in code is invalid or has expired.', errors: { code: ['The sign-in code is invalid or has expired.'] } },
          }),
        },
      },
    },
  },
};
