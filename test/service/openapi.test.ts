/**
 * The OpenAPI description (server/http/openapi/) against the service it describes (issue #15 part 5): a valid
 * OpenAPI 3.1 document, with exactly the routes the Express app registers, served without a token as JSON and as a
 * readable page, committed as docs/openapi.json, its examples valid by its own schemas. That every response the
 * service tests receive matches it is test/helpers/openapi.ts's job (on for every startTestServer); the last tests
 * here show that check fails when the description and a real response disagree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { Express } from 'express';
import { loadConfig, projectRoot } from '../../server/config.js';
import { createApp } from '../../server/http/app.js';
import { AREAS, buildOpenApi, type OpenApiDocument } from '../../server/http/openapi/index.js';
import { exact, jsonResponse, ref, standardErrors, success } from '../../server/http/openapi/common.js';
import type { Area, Method, Operation, ResponseObject, Schema } from '../../server/http/openapi/types.js';
import { CATALOGUE, type ErrorCode } from '../../server/errors/catalogue.js';
import { createServices } from '../../server/services/index.js';
import { createLogger } from '../../server/services/log.js';
import { openStore } from '../../server/store/index.js';
import { ResponseValidator } from '../helpers/openapi.js';
import { startTestServer } from '../helpers/server.js';
import { createDocument, createInvoiceTemplate, INVOICE_DATA, json, tempDir } from './support.js';

const METHODS: Method[] = ['get', 'put', 'post', 'delete'];

/** `METHOD /api/path/{param}` for every operation the description has. */
function describedRoutes(doc: OpenApiDocument): Set<string> {
  const out = new Set<string>();
  for (const [p, item] of Object.entries(doc.paths)) for (const m of METHODS) if (item[m]) out.add(`${m.toUpperCase()} ${p}`);
  return out;
}

interface Layer {
  route?: { path: unknown; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  rawPath?: unknown;
}

/**
 * Walks Express 5's router stack (router@2: a mounted router's layer keeps its mount path in `rawPath`, a route
 * its `path` and `methods`): `METHOD /api/path/{param}` for every route under /api; the rest (the GUI's catch-all,
 * a RegExp) is returned apart.
 */
function registeredRoutes(app: Express): { api: Set<string>; other: string[] } {
  const api = new Set<string>();
  const other: string[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const full = typeof layer.route.path === 'string' ? prefix + layer.route.path : `${prefix}${String(layer.route.path)}`;
        for (const [m, on] of Object.entries(layer.route.methods)) {
          if (!on || m === '_all') continue;
          const key = `${m.toUpperCase()} ${full.replace(/:(\w+)/g, '{$1}')}`;
          if (full.startsWith('/api/')) api.add(key);
          else other.push(key);
        }
      } else if (Array.isArray(layer.handle.stack)) {
        const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
        walk(layer.handle.stack, prefix + mount);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return { api, other };
}

/** The app exactly as startServer builds it, over a temporary data dir, without listening. */
async function buildApp(): Promise<{ app: Express; close: () => Promise<void> }> {
  const dataDir = tempDir();
  const config = loadConfig({}, { dataDir, port: 0, renderWorkers: 0, seedSamples: false });
  const logger = createLogger('error', () => {});
  const store = await openStore(dataDir);
  const services = await createServices({ config, store, logger, baseUrl: () => 'http://127.0.0.1:7463' });
  const app = createApp({ services, logger, allowedHosts: () => new Set(), guiDir: tempDir() });
  return {
    app,
    close: async () => {
      await services.close();
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

test('the description is a valid OpenAPI 3.1 document (swagger-parser), with unique operation ids', async () => {
  const doc = buildOpenApi();
  const api = (await SwaggerParser.validate(structuredClone(doc) as never)) as unknown as OpenApiDocument;
  assert.equal(api.openapi, '3.1.0');
  const ids = [...Object.values(doc.paths)].flatMap((item) => METHODS.flatMap((m) => (item[m] ? [item[m].operationId] : [])));
  assert.equal(new Set(ids).size, ids.length, `duplicate operationId in ${ids.join(', ')}`);
  for (const p of ['/api/document', '/api/document/{id}', '/api/template', '/api/template/{uuid}']) assert.ok(doc.paths[p], `${p} is described`);
});

test('drift: every route the Express app registers is described, and every described operation is a route', async () => {
  const { app, close } = await buildApp();
  try {
    const { api, other } = registeredRoutes(app);
    const described = describedRoutes(buildOpenApi());
    assert.ok(api.size >= 15, `the walk found the app's routes (${api.size})`);
    const missing = [...api].filter((r) => !described.has(r));
    const extra = [...described].filter((r) => !api.has(r));
    assert.deepEqual(missing, [], `routes the app has but the description does not (add them in server/http/openapi/): ${missing.join(', ')}`);
    assert.deepEqual(extra, [], `operations the description has but the app does not: ${extra.join(', ')}`);
    // Outside /api there is only the GUI's single-page fallback (gui.ts), which is not part of the API.
    assert.deepEqual(other, ['GET /.*/']);
  } finally {
    await close();
  }
});

test('docs/openapi.json is the generated description (run `npm run openapi` after changing server/http/openapi/)', () => {
  const committed = fs.readFileSync(path.join(projectRoot(), 'docs', 'openapi.json'), 'utf8');
  assert.equal(committed, `${JSON.stringify(buildOpenApi(), null, 2)}\n`);
});

test('every error kind of the catalogue with a status is described somewhere, the codes of failed documents come from it', () => {
  const doc = buildOpenApi();
  const descriptions = Object.values(doc.paths).flatMap((item) => METHODS.flatMap((m) => Object.values(item[m]?.responses ?? {}).map((r) => (r as ResponseObject).description)));
  const httpCodes = (Object.keys(CATALOGUE) as ErrorCode[]).filter((c) => CATALOGUE[c].kind === 'http' && c !== 'method_not_allowed');
  for (const code of httpCodes) assert.ok(descriptions.some((d) => d.startsWith(`\`${code}\``)), `${code} (${CATALOGUE[code].status}) is described`);
  assert.deepEqual((doc.components.schemas.ErrorCode as { enum: string[] }).enum, Object.keys(CATALOGUE));
});

test("every example in the description is valid by the description's own schema", () => {
  const doc = buildOpenApi();
  const v = new ResponseValidator(doc);
  let checked = 0;
  const check = (where: string, schema: Schema, examples: Record<string, { value: unknown }> | undefined) => {
    for (const [name, ex] of Object.entries(examples ?? {})) {
      const validate = v.compile(`example ${where}`, schema);
      assert.ok(validate(ex.value), `${where} example ${name}: ${JSON.stringify(validate.errors)}`);
      checked++;
    }
  };
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const m of METHODS) {
      const op = item[m] as Operation | undefined;
      if (!op) continue;
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) check(`${m} ${p} body ${type}`, media.schema, media.examples);
      for (const [status, r] of Object.entries(op.responses)) {
        for (const [type, media] of Object.entries((r as ResponseObject).content ?? {})) check(`${m} ${p} ${status} ${type}`, media.schema, media.examples);
      }
    }
  }
  assert.ok(checked > 40, `examples checked: ${checked}`);
});

test('a new area is one file: its paths, schemas and tag join the description, and its extend changes existing resources', async () => {
  const extra: Area = {
    tag: { name: 'Extra', description: 'An area added later.' },
    schemas: { Extra: exact({ id: { type: 'integer' } }) },
    paths: {
      '/api/extra/{id}': {
        get: { operationId: 'getExtra', summary: 'Get an extra', tags: ['Extra'], responses: { '200': jsonResponse('It.', success({ extra: ref('Extra') })), ...standardErrors({ auth: 'any' }) } },
      },
    },
    extend({ schemas }) {
      for (const name of ['Document', 'DocumentListItem']) {
        const s = schemas[name] as { properties: Record<string, Schema>; required: string[] };
        s.properties.extra_id = { type: ['integer', 'null'] };
        s.required.push('extra_id');
      }
    },
  };
  const doc = buildOpenApi(undefined, [...AREAS, extra]);
  await SwaggerParser.validate(structuredClone(doc) as never);
  assert.ok(doc.paths['/api/extra/{id}'].get);
  assert.ok(doc.tags.some((t) => t.name === 'Extra'));
  assert.ok((doc.components.schemas.Document.required as string[]).includes('extra_id'));
  // The areas' own objects are untouched: the description without the extra area is as before.
  assert.equal((buildOpenApi().components.schemas.Document.required as string[]).includes('extra_id'), false);
});

test("another method on every described path answers 405 whose Allow header lists exactly the described methods", async () => {
  const s = await startTestServer();
  try {
    const doc = buildOpenApi();
    for (const [p, item] of Object.entries(doc.paths)) {
      const url = p.replace(/\{[^}]+\}/g, '1');
      const described = METHODS.filter((m) => item[m]).flatMap((m) => (m === 'get' ? ['GET', 'HEAD'] : [m.toUpperCase()]));
      // Every method the path does not have (a route with a parameter must not swallow a fixed path beside it,
      // as `/batch/:id` once took `GET /batch/row`).
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !described.includes(m))) {
        const res = await s.api(url, { method });
        assert.equal(res.status, 405, `${method} ${url}`);
        assert.deepEqual((res.headers.get('allow') ?? '').split(', ').sort(), described.sort(), `Allow of ${p}`);
      }
    }
  } finally {
    await s.close();
  }
});

test('GET /api/openapi.json needs no token and names the running service; GET /api/reference renders it offline', async () => {
  const s = await startTestServer();
  try {
    const res = await fetch(`${s.url}/api/openapi.json`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const served = (await res.json()) as OpenApiDocument;
    assert.deepEqual(served, buildOpenApi(s.url));
    assert.equal(served.servers[0].url, s.url);
    await SwaggerParser.validate(served as never);

    const page = await fetch(`${s.url}/api/reference`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const html = await page.text();
    // Nothing to load from anywhere: no script, no stylesheet or image from another address.
    assert.doesNotMatch(html, /<script|<link|<img|\bsrc=/i);
    for (const [p, item] of Object.entries(served.paths)) {
      for (const m of METHODS) {
        if (!item[m]) continue;
        assert.ok(html.includes(`<span class="method ${m}">${m.toUpperCase()}</span> <code>${p}</code>`), `the page lists ${m.toUpperCase()} ${p}`);
      }
    }
    for (const name of Object.keys(served.components.schemas)) assert.ok(html.includes(`id="schema-${name}"`), `the page shows the ${name} schema`);
    assert.ok(html.includes('Document not found.') || html.includes('Not found'), 'error responses are listed');
    // Another method on them is the usual 405.
    assert.equal((await s.api('/api/openapi.json', { method: 'POST' })).status, 405);
  } finally {
    await s.close();
  }
});

test('the response check fails when a response and the description disagree', async () => {
  const s = await startTestServer();
  try {
    const template = await createInvoiceTemplate(s);
    const made = await createDocument(s, { template_id: template.uuid, data: JSON.stringify(INVOICE_DATA) });
    assert.equal(made.status, 201);
    const res = await s.api(`/api/document/${made.body.document.id}`);
    const body = JSON.stringify(await json(res));
    const url = new URL(`${s.url}/api/document/${made.body.document.id}`);
    const real = { method: 'GET', url, status: 200, contentType: 'application/json; charset=utf-8', body };
    assert.deepEqual(new ResponseValidator().problems(real), [], 'the real response conforms');

    // A description that lost a field (or typed one otherwise) refuses the same real response.
    const narrowed = buildOpenApi();
    const documentSchema = narrowed.components.schemas.Document as { properties: Record<string, Schema>; required: string[] };
    delete documentSchema.properties.size;
    documentSchema.required = documentSchema.required.filter((name) => name !== 'size');
    assert.match(new ResponseValidator(narrowed).problems(real).join('\n'), /must NOT have additional properties.*size/s);
    const retyped = buildOpenApi();
    (retyped.components.schemas.Document.properties as Record<string, Schema>).pages = { type: 'string' };
    assert.match(new ResponseValidator(retyped).problems(real).join('\n'), /\/document\/pages must be string/);

    const v = new ResponseValidator();
    assert.match(v.problems({ ...real, status: 418 }).join(''), /status 418 is not described for getDocument/);
    assert.match(v.problems({ ...real, contentType: 'text/html' }).join(''), /Content-Type text\/html is not described/);
    assert.match(v.problems({ ...real, url: new URL(`${s.url}/api/nowhere`) }).join(''), /the path is not described, yet it answered 200/);
    assert.match(v.problems({ ...real, method: 'PATCH' }).join(''), /PATCH is not described for \/api\/document\/\{id\}/);
    assert.match(v.problems({ ...real, status: 404, body: '{"success":false}' }).join(''), /must have required property 'message'/);
    assert.deepEqual(v.problems({ ...real, status: 404, body: '{"success":false,"message":"Document not found."}' }), []);
    assert.match(v.problems({ ...real, headers: new Headers({ 'content-type': 'application/json' }) }).join(''), /the X-Request-Id header is missing/);
    assert.deepEqual(v.problems({ ...real, headers: res.headers }), []);
  } finally {
    await s.close();
  }
});

test('an import warning carries `suggested_delimiters` with `no_tags_found` and only with it', async () => {
  const s = await startTestServer();
  try {
    const template = await createInvoiceTemplate(s);
    const res = await s.api(`/api/template/${template.uuid}`);
    const real = (await json(res)) as { template: Record<string, unknown> };
    const v = new ResponseValidator();
    const url = new URL(`${s.url}/api/template/${template.uuid}`);
    const check = (warning: Record<string, unknown>): string =>
      v
        .problems({ method: 'GET', url, status: 200, contentType: 'application/json; charset=utf-8', headers: res.headers, body: JSON.stringify({ ...real, template: { ...real.template, import_warnings: [warning] } }) })
        .join('\n');
    const base = { message: 'No {{ }} tags found; 7 tags use { }.', location: { part: 'file' }, count: 7 };
    assert.equal(check({ code: 'no_tags_found', ...base, suggested_delimiters: '{ }' }), '');
    assert.match(check({ code: 'no_tags_found', ...base }), /must have required property 'suggested_delimiters'/);
    assert.match(check({ code: 'no_tags_found', ...base, suggested_delimiters: '{{ }}' }), /suggested_delimiters must be equal to one of the allowed values/);
    assert.match(check({ code: 'macros_removed', ...base, suggested_delimiters: '{ }' }), /suggested_delimiters.*boolean schema is false|must match "else" schema/s);
    assert.equal(check({ code: 'macros_removed', ...base }), '');
  } finally {
    await s.close();
  }
});
