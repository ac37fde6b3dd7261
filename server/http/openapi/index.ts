/**
 * The OpenAPI 3.1 description of the whole service, the one source of truth for GET /api/openapi.json, the
 * reference page (GET /api/reference) and docs/openapi.json (npm run openapi). The tests hold it to the service:
 * every route the app registers must be here and every path here must be a route (test/service/openapi.test.ts),
 * and every response the service tests receive is validated against it (test/helpers/openapi.ts).
 *
 * Each area of the API is one file exporting an Area; a new area is a new file and a line in AREAS. An area that
 * also changes existing resources (batches put `batch_id` on documents and a `batch_id` filter on their list) does
 * it in its `extend`, so it stays one file.
 */
import { createRequire } from 'node:module';
import { projectRoot } from '../../config.js';
import { batchArea } from './batch.js';
import { documentsArea } from './documents.js';
import { errorSchemas } from './errors.js';
import { metaArea } from './meta.js';
import { pageSchemas } from './pagination.js';
import { serviceArea } from './service.js';
import { templatesArea } from './templates.js';
import { tokensArea } from './tokens.js';
import type { Area, PathItem, ResponseObject, Schema } from './types.js';

export type { Area, Schema } from './types.js';

export const AREAS: readonly Area[] = [documentsArea, templatesArea, batchArea, serviceArea, tokensArea, metaArea];

/** Where docs/openapi.json says the service is: the default address (the served copy names the real one). */
export const DEFAULT_SERVER = 'http://127.0.0.1:7463';

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: Record<string, unknown>;
  servers: Array<{ url: string; description: string }>;
  tags: Array<{ name: string; description: string }>;
  security: Array<Record<string, string[]>>;
  paths: Record<string, PathItem>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, unknown> };
}

function packageVersion(): string {
  try {
    return (createRequire(import.meta.url)(`${projectRoot()}/package.json`) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

const DESCRIPTION = [
  'docloom serves the AutomatedDocs document API on your own machine. Clients written for AutomatedDocs work unchanged;',
  'the extras are marked in each operation. Prose, decisions and limits: docs/api.md.',
  '',
  '- Every `/api` route needs `Authorization: Bearer <token>`, except the signed download links, the sign-in exchange and this description.',
  '- Bodies may be `multipart/form-data`, `application/x-www-form-urlencoded` or `application/json`.',
  '- Errors are Laravel-shaped: `{"success": false, "message": "…", "errors": {…}}` (`errors` on 422).',
  '- A known path with another method answers 405 (the `Allow` header lists the methods); an unknown `/api` path 404 `Not found.`',
  '- Every response has an `X-Request-Id` header; unknown fields and query parameters are ignored.',
].join('\n');

/** The description; `serverUrl` is the address it names (the running service's own when served). `areas`: for tests. */
export function buildOpenApi(serverUrl: string = DEFAULT_SERVER, areas: readonly Area[] = AREAS): OpenApiDocument {
  const paths: Record<string, PathItem> = {};
  const schemas: Record<string, Schema> = { ...errorSchemas, ...pageSchemas };
  for (const area of areas) {
    for (const [p, item] of Object.entries(area.paths)) {
      if (paths[p]) throw new Error(`OpenAPI: path ${p} described twice`);
      paths[p] = item;
    }
    for (const [name, schema] of Object.entries(area.schemas ?? {})) {
      if (schemas[name]) throw new Error(`OpenAPI: schema ${name} described twice`);
      schemas[name] = schema;
    }
  }
  // A fresh copy each time: the areas' objects are shared, and a caller (swagger-parser) may rewrite what it gets.
  const parts = structuredClone({ paths, schemas });
  for (const area of areas) area.extend?.(parts);
  const doc: OpenApiDocument = structuredClone({
    openapi: '3.1.0',
    info: {
      title: 'docloom API',
      version: packageVersion(),
      summary: 'Offline document generation, AutomatedDocs-compatible.',
      description: DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl, description: 'The local docloom service' }],
    tags: areas.map((a) => a.tag),
    security: [{ bearer: [] }],
    paths: parts.paths,
    components: {
      schemas: parts.schemas,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A token from the GUI\'s "API & tokens" page or `docloom token create --name N`.' },
        signedLink: {
          type: 'apiKey',
          in: 'query',
          name: 'signature',
          description: 'The signed `download_url` / `editable_url` a document carries (`expires` + `signature`), valid for a limited time.',
        },
      },
    },
  });
  // Every response carries the request id (the one a 500 body repeats) — except a 403 of the Host guard, which
  // refuses a foreign Host before a request gets one.
  for (const item of Object.values(doc.paths)) {
    for (const op of [item.get, item.put, item.post, item.delete]) {
      for (const [status, r] of Object.entries(op?.responses ?? {})) {
        const res = r as ResponseObject;
        const header = { required: status !== '403', description: 'The id of this request in the service log.', schema: { type: 'string', pattern: '^[0-9a-f]{12}$' } };
        res.headers = { 'X-Request-Id': header, ...res.headers };
      }
    }
  }
  return doc;
}
