/**
 * The compiled service (dist/, made by `npm run build:server`, which `npm test` runs first) renders in a worker
 * thread without tsx, and `node bin/docloom.js` runs the compiled CLI. Skipped, with this reason, when dist/ has
 * not been built.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST_INDEX = path.join(ROOT, 'dist', 'server', 'index.js');
const NOT_BUILT = fs.existsSync(DIST_INDEX) ? false : 'dist/server is not built (run npm run build:server; npm test does)';

function run(args: string[], input?: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    // Plain node: no tsx loader, exactly as `docloom` and Electron run it.
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(input ?? '');
  });
}

const SCRIPT = `
import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path';
const { startServer } = await import(${JSON.stringify(new URL(`file://${DIST_INDEX}`).href)});
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-dist-'));
const s = await startServer({ env: {}, config: { port: 0, dataDir: dir, seedSamples: false, renderWorkers: 1, logLevel: 'error' } });
try {
  const { token } = await s.createToken('x');
  const auth = { authorization: 'Bearer ' + token };
  const tpl = JSON.stringify({ version: 1, defaults: { run: {}, paragraph: {} }, sections: [{ page: { width: 595, height: 842, margins: { top: 50, right: 50, bottom: 50, left: 50 } }, body: [{ type: 'paragraph', runs: [{ type: 'text', text: 'Hello {{name}}' }] }] }] });
  const f = new FormData(); f.append('file', new Blob([tpl]), 't.json');
  const t = await (await fetch(s.url + '/api/template', { method: 'POST', body: f, headers: auth })).json();
  const d = await (await fetch(s.url + '/api/document', { method: 'POST', body: new URLSearchParams({ template_id: t.template.uuid, data: '{"name":"compiled"}' }), headers: auth })).json();
  console.log(JSON.stringify(d.document));
} finally { await s.close(); fs.rmSync(dir, { recursive: true, force: true }); }
`;

test('the compiled service renders in a worker thread without tsx', { skip: NOT_BUILT }, async () => {
  const r = await run(['--input-type=module', '-'], SCRIPT);
  assert.equal(r.code, 0, r.err);
  const doc = JSON.parse(r.out.trim().split('\n').at(-1)!);
  assert.equal(doc.status, 'completed', JSON.stringify(doc.error));
  assert.equal(doc.pages, 1);
});

test('node bin/docloom.js --help runs the compiled CLI', { skip: NOT_BUILT }, async () => {
  const r = await run([path.join(ROOT, 'bin', 'docloom.js'), '--help']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /docloom token create --name NAME/);
});
