/**
 * Holds the service to its OpenAPI description (server/http/openapi/): every response a test receives from a test
 * server is checked against the operation, status and media type the description gives, and a JSON body against
 * the schema, with ajv's JSON Schema 2020-12 (OpenAPI 3.1's dialect). startTestServer (server.ts) turns this on for
 * its server, so every service and GUI test that talks to one checks the description as a side effect.
 *
 * Requests the description cannot name are still checked for their shape: an unknown /api path must answer a
 * Laravel-shaped 404 (or 401/403 from the guards before it), and a described path with another method a 405.
 * CORS preflights (OPTIONS) and the GUI's own files (outside /api) are not part of the API.
 */
import fs from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { buildOpenApi, type OpenApiDocument } from '../../server/http/openapi/index.js';
import type { Method, Operation, ResponseObject, Schema } from '../../server/http/openapi/types.js';

const SCHEMA_BASE = 'https://docloom.invalid/openapi/schemas/';

export interface DescribedResponse {
  method: string;
  url: URL;
  status: number;
  /** The Content-Type header, or null. */
  contentType: string | null;
  /** The body text (read only for JSON responses; null otherwise). */
  body: string | null;
  /** The response's headers, to check the ones the description says are always sent. */
  headers?: Headers;
}

/** `#/components/schemas/X` → an absolute id ajv can resolve after each component is added under it. */
function rebase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rebase);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/') ? SCHEMA_BASE + v.slice('#/components/schemas/'.length) : rebase(v);
    }
    return out;
  }
  return value;
}

interface Route {
  template: string;
  pattern: RegExp;
  item: OpenApiDocument['paths'][string];
}

export class ResponseValidator {
  readonly doc: OpenApiDocument;
  readonly ajv: Ajv2020;
  readonly #routes: Route[];
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(doc: OpenApiDocument = buildOpenApi()) {
    this.doc = doc;
    this.ajv = new Ajv2020({
      strict: true,
      allErrors: true,
      formats: {
        'date-time': (s: string) => !Number.isNaN(Date.parse(s)),
        uri: (s: string) => URL.canParse(s),
        uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
      },
    });
    for (const [name, schema] of Object.entries(doc.components.schemas)) this.ajv.addSchema(rebase(schema) as Schema, SCHEMA_BASE + name);
    // Express matches a path with or without a trailing slash; a parameter is one segment.
    this.#routes = Object.entries(doc.paths).map(([template, item]) => ({
      template,
      item,
      pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
    }));
  }

  /** The compiled validator of a schema written in the description (refs to components resolved). */
  compile(key: string, schema: Schema): ValidateFunction {
    let fn = this.#compiled.get(key);
    if (!fn) {
      fn = this.ajv.compile(rebase(schema) as Schema);
      this.#compiled.set(key, fn);
    }
    return fn;
  }

  route(pathname: string): Route | undefined {
    return this.#routes.find((r) => r.pattern.test(pathname));
  }

  /** What is wrong with a response, by the description; [] when it conforms. */
  problems(r: DescribedResponse): string[] {
    const method = r.method.toUpperCase();
    if (method === 'OPTIONS' || !r.url.pathname.startsWith('/api/')) return [];
    const route = this.route(r.url.pathname);
    const opMethod = (method === 'HEAD' ? 'get' : method.toLowerCase()) as Method;
    const operation: Operation | undefined = route?.item[opMethod];
    const where = `${method} ${r.url.pathname} → ${r.status}`;
    if (!route || !operation) {
      // Not an operation: only the guards, the 404 of an unknown path or the 405 of a known one may answer.
      const allowed = route ? [401, 403, 405] : [401, 403, 404];
      if (!allowed.includes(r.status)) return [`${where}: ${route ? `${method} is not described for ${route.template}` : 'the path is not described'}, yet it answered ${r.status}`];
      return this.#body(where, `error ${r.status}`, { $ref: '#/components/schemas/Error' }, r);
    }
    const response = (operation.responses[String(r.status)] ?? operation.responses[`${String(r.status)[0]}XX`] ?? operation.responses.default) as ResponseObject | undefined;
    if (!response) return [`${where}: status ${r.status} is not described for ${operation.operationId} (described: ${Object.keys(operation.responses).join(', ')})`];
    const missing = Object.entries(response.headers ?? {})
      .filter(([name, h]) => 'required' in h && h.required && r.headers && !r.headers.has(name))
      .map(([name]) => `${where}: the ${name} header is missing`);
    if (missing.length) return missing;
    if (method === 'HEAD' || !response.content) return [];
    const mediaType = (r.contentType ?? '').split(';')[0].trim().toLowerCase();
    const media = response.content[mediaType];
    if (!media) return [`${where}: Content-Type ${mediaType || '(none)'} is not described (described: ${Object.keys(response.content).join(', ')})`];
    if (mediaType !== 'application/json') return [];
    return this.#body(where, `${operation.operationId} ${r.status}`, media.schema, r);
  }

  #body(where: string, key: string, schema: Schema, r: DescribedResponse): string[] {
    if (r.method.toUpperCase() === 'HEAD') return [];
    let value: unknown;
    try {
      value = JSON.parse(r.body ?? '');
    } catch {
      return [`${where}: the body is not JSON: ${(r.body ?? '').slice(0, 200)}`];
    }
    const validate = this.compile(key, schema);
    if (validate(value)) return [];
    const errors = (validate.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
    return [`${where}: the body does not match the description:\n  ${errors.join('\n  ')}\n  body: ${JSON.stringify(value).slice(0, 600)}`];
  }
}

let shared: ResponseValidator | undefined;
/**
 * DOCLOOM_OPENAPI_SEEN=<file>: each test process appends one line per checked response (`METHOD /path/{param}
 * status`), to see which described responses the tests exercise (docs/api.md, "OpenAPI description").
 */
const seenFile = process.env.DOCLOOM_OPENAPI_SEEN;
const origins = new Set<string>();
let installed = false;

function requestMethod(input: Parameters<typeof fetch>[0], init?: RequestInit): string {
  return (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
}

function requestUrl(input: Parameters<typeof fetch>[0]): URL {
  return new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
}

/**
 * Wraps the global fetch once: a response from a registered origin is checked before the caller gets it, and a
 * mismatch rejects the fetch with what is wrong (so the test that made the request fails, naming it).
 */
function install(): void {
  if (installed) return;
  installed = true;
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const res = await original(input, init);
    const url = requestUrl(input);
    if (!origins.has(url.origin)) return res;
    const contentType = res.headers.get('content-type');
    const isJson = /^application\/json\b/i.test(contentType ?? '');
    const method = requestMethod(input, init);
    // A clone, read in full only for JSON (small); files stream to the caller untouched.
    const body = isJson && method !== 'HEAD' ? await res.clone().text() : null;
    shared ??= new ResponseValidator();
    const problems = shared.problems({ method, url, status: res.status, contentType, body, headers: res.headers });
    if (seenFile) fs.appendFileSync(seenFile, `${method} ${shared.route(url.pathname)?.template ?? url.pathname} ${res.status}\n`);
    if (problems.length) throw new Error(`Response not as the OpenAPI description says (server/http/openapi/):\n${problems.join('\n')}`);
    return res;
  };
}

/** Checks every fetch answered by the service at `baseUrl` (and its localhost forms) until the returned function is called. */
export function validateResponsesFrom(baseUrl: string): () => void {
  install();
  const { port, protocol } = new URL(baseUrl);
  const added = [baseUrl, `${protocol}//127.0.0.1:${port}`, `${protocol}//localhost:${port}`, `${protocol}//[::1]:${port}`].map((u) => new URL(u).origin);
  for (const o of added) origins.add(o);
  return () => {
    for (const o of added) origins.delete(o);
  };
}
