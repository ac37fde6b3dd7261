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
    'An API token as listed (the token itself is never stored).',
  ),
  WindowSignIn: exact(
    {
      id: { type: 'integer', minimum: 1 },
      name: { type: 'string', description: '`GUI (browser)`.' },
      created_at: laravelDate,
      last_used_at: { ...laravelDate, type: ['string', 'null'], description: 'Recorded at most every 5 minutes; null until first used.' },
      expires_at: { ...laravelDate, description: 'When it stops working if it is not used before: 12 hours after its last use.' },
      current: { type: 'boolean', description: "True on the caller's own sign-in." },
    },
    "A browser window's sign-in (from the sign-in link's code exchange): not an API token, always read-write.",
  ),
};

export const tokensArea: Area = {
  tag: { name: 'Tokens', description: 'Bearer tokens for local tools, and the one-time sign-in code exchange of a browser GUI.' },
  schemas,
  paths: {
    '/api/tokens': {
      get: {
        operationId: 'listTokens',
        summary: 'List API tokens and window sign-ins',
        description: "`tokens` are the API tokens; browser windows' sign-ins are listed apart in `window_sign_ins`.",
        tags: ['Tokens'],
        responses: {
          '200': jsonResponse(
            'Every API token and every window sign-in.',
            success({
              tokens: { type: 'array', items: { $ref: '#/components/schemas/Token' } },
              window_sign_ins: { type: 'array', items: { $ref: '#/components/schemas/WindowSignIn' } },
            }),
            {
              success: true,
              tokens: [{ id: 7, name: 'my-tool', read_only: false, created_at: '2026-11-22T08:11:00.000000Z', last_used_at: null }],
              window_sign_ins: [
                {
                  id: 9,
                  name: 'GUI (browser)',
                  created_at: '2026-11-22T08:15:00.000000Z',
                  last_used_at: '2026-11-22T09:40:00.000000Z',
                  expires_at: '2026-11-22T21:40:00.000000Z',
                  current: true,
                },
              ],
            },
          ),
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
        summary: 'Revoke a token or a window sign-in',
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
        summary: 'Trade a one-time sign-in code for a window sign-in',
        description: [
          '`docloom serve` prints a sign-in link carrying the code; it works once and for 10 minutes. No bearer token is needed.',
          'A window signing in again sends the credential it held as its bearer: when that is a window sign-in it is revoked',
          '(an API token sent this way never is; an unknown or revoked one is ignored), so a window never holds two.',
        ].join(' '),
        tags: ['Tokens'],
        security: [{}, { bearer: [] }],
        requestBody: formBody({ code: { type: 'string' } }, ['code'], { example: { code: 'Xf3kQ9wLm2Rt7vBn4Yc8Hd1Jp6Sa0Eg5' } }),
        responses: {
          '200': jsonResponse(
            "A fresh window sign-in named `GUI (browser)`, read-write; it stops working after 12 hours without a request.",
            success({ token: TOKEN }),
            { success: true, token: EXAMPLE_TOKEN },
          ),
          ...standardErrors({
            auth: 'none',
            body: true,
            stores: true,
            validation: { message: 'The sign-in code is invalid or has expired.', errors: { code: ['The sign-in code is invalid or has expired.'] } },
          }),
        },
      },
    },
    '/api/gui/sign-out': {
      post: {
        operationId: 'signOutWindow',
        summary: "Sign this window out (revoke the caller's window sign-in)",
        description: 'The GUI header\'s "Sign out". The bearer must be a window sign-in; an API token is refused (403: revoke it by id).',
        tags: ['Tokens'],
        responses: {
          '200': jsonResponse('Revoked: the next request with it answers 401.', success({ message: { type: 'string' } }), { success: true, message: 'Signed out.' }),
          ...standardErrors({ auth: 'any', stores: true, forbidden: ['Only a window sign-in signs out; revoke an API token on the Tokens page.'] }),
        },
      },
    },
  },
};

