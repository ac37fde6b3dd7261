/**
 * One error catalogue (server/errors/catalogue.ts): docs/api.md's "Error codes" table lists exactly its codes with
 * the same status; no meaning has two spellings; every code the sources emit as a string literal is in it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATALOGUE, isErrorCode, statusOf, type ErrorCode } from '../../server/errors/catalogue.js';
import { EngineError } from '../../server/engine/errors.js';
import { ServiceError } from '../../server/services/errors.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const codes = Object.keys(CATALOGUE) as ErrorCode[];

/** The rows of docs/api.md's "## Error codes" table: code → {kind, status}. */
function docsTable(): Map<string, { kind: string; status: number | null }> {
  const text = fs.readFileSync(path.join(root, 'docs/api.md'), 'utf8');
  const start = text.indexOf('\n## Error codes\n');
  assert.ok(start >= 0, 'docs/api.md has an "## Error codes" section');
  const end = text.indexOf('\n## ', start + 1);
  const rows = new Map<string, { kind: string; status: number | null }>();
  for (const line of text.slice(start, end < 0 ? undefined : end).split('\n')) {
    const m = /^\| `([a-z_]+)` \| ([a-z]+) \| (\d{3}|—) \|/.exec(line);
    if (!m) continue;
    assert.ok(!rows.has(m[1]), `${m[1]} is listed twice`);
    rows.set(m[1], { kind: m[2], status: m[3] === '—' ? null : Number(m[3]) });
  }
  return rows;
}

test('every catalogue code is in the docs table with its kind and status, and nothing else is', () => {
  const rows = docsTable();
  assert.ok(rows.size > 30, `the table was parsed (${rows.size} rows)`);
  for (const code of codes) {
    const row = rows.get(code);
    assert.ok(row, `${code} is missing from docs/api.md's Error codes table`);
    assert.equal(row.status, CATALOGUE[code].status, `${code}: status`);
    assert.equal(row.kind, CATALOGUE[code].kind, `${code}: kind`);
  }
  for (const code of rows.keys()) assert.ok(isErrorCode(code), `docs/api.md lists ${code}, which the catalogue does not declare`);
});

test('one spelling per meaning: no two codes are the same words in another order', () => {
  const seen = new Map<string, string>();
  for (const code of codes) {
    assert.match(code, /^[a-z]+(_[a-z]+)*$/, `${code} is snake_case`);
    const key = code.split('_').sort().join('_');
    assert.ok(!seen.has(key), `${code} and ${seen.get(key)} spell the same meaning twice`);
    seen.set(key, code);
  }
});

test('HTTP kinds have their statuses; the new codes are declared', () => {
  const expected: Record<string, number> = {
    bad_request: 400, unauthenticated: 401, forbidden: 403, not_found: 404, conflict: 409, gone: 410, too_large: 413,
    unsupported_type: 415, validation: 422, server_error: 500, insufficient_storage: 507,
  };
  for (const [code, status] of Object.entries(expected)) {
    assert.ok(isErrorCode(code), code);
    assert.equal(CATALOGUE[code].kind, 'http', code);
    assert.equal(statusOf(code), status, code);
  }
  assert.equal(CATALOGUE.limit_exceeded.kind, 'document');
  assert.equal(CATALOGUE.limit_exceeded.status, 422);
  assert.equal(CATALOGUE.macros_removed.kind, 'warning');
  assert.ok(!isErrorCode('image_invalid'), 'image_invalid was merged into invalid_image');
  assert.ok(!isErrorCode('template_invalid'), 'template_invalid was merged into invalid_template');
  assert.ok(!isErrorCode('storage_failed'), 'storage_failed is gone');
});

test('free strings do not compile as codes', () => {
  // @ts-expect-error a code outside the catalogue
  const engine = new EngineError('no_such_code', 'x');
  // @ts-expect-error a kind outside the catalogue's HTTP kinds
  const service = new ServiceError('teapot', 'x');
  // @ts-expect-error a document code is not an HTTP kind
  const notHttp = new ServiceError('render_failed', 'x');
  assert.ok(engine && service && notHttp);
});

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(full));
    else if (/\.(ts|cts|mts)$/.test(entry.name)) out.push(full);
  }
  return out;
}

/** String literals the sources pass or compare as codes (lower-case: `ENOENT` and the like are Node's). */
const EMITTERS: RegExp[] = [
  /new EngineError\(\s*'([^']*)'/g,
  /new ServiceError\(\s*'([^']*)'/g,
  /new ImageFailure\(\s*'([^']*)'/g,
  /\bcode: '([a-z][^']*)'/g,
  /(?<!typeof )\bcode === '([a-z][^']*)'/g,
  /(?<!typeof )\bcode !== '([a-z][^']*)'/g,
  /\bfail\(\s*'([a-z_]+)'/g,
  /\breport\(\s*[a-z]+,\s*'([a-z_]+)'/g,
  /\breport\(\s*\n\s*[a-z]+,\s*\n?\s*'([a-z_]+)'/g,
];

test('nothing is emitted outside the catalogue', () => {
  const found = new Map<string, string>();
  for (const file of sources(path.join(root, 'server'))) {
    if (file.endsWith(path.join('errors', 'catalogue.ts'))) continue;
    const text = fs.readFileSync(file, 'utf8');
    for (const re of EMITTERS) {
      for (const m of text.matchAll(re)) found.set(m[1], path.relative(root, file));
    }
  }
  // The scan must see the emitters it is meant to see.
  for (const known of ['invalid_image', 'limit_exceeded', 'unclosed_tag', 'unclosed_section', 'empty_tag', 'render_crashed', 'not_found', 'image_blocked']) {
    assert.ok(found.has(known), `the scan found ${known}`);
  }
  const outside = [...found].filter(([code]) => !isErrorCode(code));
  assert.deepEqual(outside, [], 'codes emitted outside the catalogue (code, first file)');
});
