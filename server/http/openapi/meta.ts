/** The description itself and its readable reference: public, so a tool or a browser reads them without a token. */
import { standardErrors } from './common.js';
import type { Area } from './types.js';

export const metaArea: Area = {
  tag: { name: 'Description', description: 'This OpenAPI description and its reference page (no token needed).' },
  paths: {
    '/api/openapi.json': {
      get: {
        operationId: 'getOpenApi',
        summary: 'This OpenAPI 3.1 description',
        description: 'The same document as docs/openapi.json in the repository, with `servers` set to this service.',
        tags: ['Description'],
        security: [],
        responses: {
          '200': { description: 'The description.', content: { 'application/json': { schema: { type: 'object', required: ['openapi', 'info', 'paths'], properties: { openapi: { const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } } } } } },
          ...standardErrors({ auth: 'none' }),
        },
      },
    },
    '/api/reference': {
      get: {
        operationId: 'getApiReference',
        summary: 'The API reference as a web page',
        description: 'Rendered from this description by the service; no script, no external assets (works offline).',
        tags: ['Description'],
        security: [],
        responses: {
          '200': { description: 'An HTML page.', content: { 'text/html': { schema: { type: 'string' } } } },
          ...standardErrors({ auth: 'none' }),
        },
      },
    },
  },
};
