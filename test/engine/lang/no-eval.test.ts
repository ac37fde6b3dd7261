/** Safety by construction (issue #12, item 5): nothing under server/ can run text as code. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SERVER = new URL('../../../server/', import.meta.url).pathname;
const PACKAGE = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { dependencies?: Record<string, string> };

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

// Comments may mention the words; code may not use them.
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

const FORBIDDEN: Array<[string, RegExp]> = [
  ['eval', /(^|[^.\w$])eval\s*\(/],
  ['Function constructor', /(^|[^.\w$])(new\s+)?Function\s*\(/],
  ['node:vm', /['"](node:)?vm['"]/],
  ['expression library', /['"](angular-expressions|expr-eval|jexl|mathjs|filtrex)['"]/],
];

test('no eval, Function, vm or expression library in server/', () => {
  const all = files(SERVER);
  assert.ok(all.length > 50, 'the scan found the server sources');
  const found: string[] = [];
  for (const path of all) {
    const text = code(readFileSync(path, 'utf8'));
    for (const [what, pattern] of FORBIDDEN) if (pattern.test(text)) found.push(`${path}: ${what}`);
  }
  assert.deepEqual(found, []);
  for (const name of ['angular-expressions', 'expr-eval', 'jexl', 'mathjs', 'filtrex']) {
    assert.equal(PACKAGE.dependencies?.[name], undefined, `${name} is a runtime dependency`);
  }
});

test('the scan would catch a use', () => {
  assert.ok(FORBIDDEN[0][1].test(code('const x = eval("1")')));
  assert.ok(FORBIDDEN[1][1].test(code('const f = new Function("return 1")')));
  assert.ok(FORBIDDEN[2][1].test(code("import vm from 'node:vm';")));
  assert.ok(!FORBIDDEN[0][1].test(code('// eval( in a comment')));
});
