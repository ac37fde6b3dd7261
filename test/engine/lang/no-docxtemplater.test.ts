/**
 * One engine for both outputs (issue #12, item 1): the filled .docx is written by docloom's own writer from the
 * compiled template, so nothing under server/ (or electron/) loads docxtemplater; it is a devDependency, kept only as
 * the oracle of `npm run diff:docxtemplater`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../../../', import.meta.url).pathname;
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.(ts|js|mjs|cjs)$/.test(path) ? [path] : [];
  });
}

/** An import, dynamic import or require of the package (or one of its files). */
export const LOADS_DOCXTEMPLATER = /(?:from\s*|import\s*\(\s*|require\s*\(\s*|import\s+)['"]docxtemplater(?:\/[^'"]*)?['"]/;

test('nothing under server/ or electron/ loads docxtemplater', () => {
  const all = ['server', 'electron'].filter((d) => existsSync(join(ROOT, d))).flatMap((d) => files(join(ROOT, d)));
  assert.ok(all.length > 50, 'the scan found the sources');
  const found = all.filter((path) => LOADS_DOCXTEMPLATER.test(readFileSync(path, 'utf8')));
  assert.deepEqual(found, []);
});

test('docxtemplater is a devDependency only', () => {
  assert.equal(PACKAGE.dependencies?.docxtemplater, undefined);
  assert.ok(PACKAGE.devDependencies?.docxtemplater, 'kept as the differential test\'s oracle');
});

test('the scan would catch a use', () => {
  assert.ok(LOADS_DOCXTEMPLATER.test("import Docxtemplater from 'docxtemplater';"));
  assert.ok(LOADS_DOCXTEMPLATER.test("import expressionParser from 'docxtemplater/expressions.js';"));
  assert.ok(LOADS_DOCXTEMPLATER.test("const D = require('docxtemplater');"));
  assert.ok(LOADS_DOCXTEMPLATER.test("await import('docxtemplater')"));
  assert.ok(!LOADS_DOCXTEMPLATER.test("// docxtemplater's own rule"));
});
