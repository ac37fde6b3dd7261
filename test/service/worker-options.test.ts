/**
 * `docloom serve` started with a V8 option (`node --stack-trace-limit=20 …`, or the same in NODE_OPTIONS, as test
 * runners and Electron do) still renders in its worker thread: workers get only the Node options they accept
 * (issue #10 part 3). Uses the compiled service (dist/); skipped, with this reason, when it has not been built.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDocx, p } from '../docx/build-docx.js';
import { tempDir } from './support.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin', 'docloom.js');
const NOT_BUILT = fs.existsSync(path.join(ROOT, 'dist', 'server', 'cli.js')) ? false : 'dist/server is not built (run npm run build:server; npm test does)';

function envFor(dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_OPTIONS: '' };
  return { ...env, DOCLOOM_DATA_DIR: dataDir, DOCLOOM_PORT: '0', DOCLOOM_RENDER_WORKERS: '1', DOCLOOM_SEED_SAMPLES: 'false', ...extra };
}

/** Starts `node <nodeArgs> bin/docloom.js serve`; resolves with its API URL once it prints it. */
function serve(nodeArgs: readonly string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; api: string; output: () => string }> {
  const child = spawn(process.execPath, [...nodeArgs, BIN, 'serve'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no API line within 20 s:\n${out}`)), 20_000);
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const m = /API:\s+(http:\/\/\S+\/api)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, api: m[1], output: () => out });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`docloom serve exited with code ${code}:\n${out}`));
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const DOCX = buildDocx({ body: p('Hello {{name}}') + p('Second line') });

for (const [label, nodeArgs, extraEnv] of [
  ['node --stack-trace-limit=20', ['--stack-trace-limit=20'], {}],
  ["NODE_OPTIONS='--stack-trace-limit=20'", [], { NODE_OPTIONS: '--stack-trace-limit=20' }],
] as const) {
  test(`${label} bin/docloom.js serve (1 render worker) renders a .docx template: 201 completed, a valid PDF`, { skip: NOT_BUILT }, async () => {
    const dataDir = tempDir();
    const env = envFor(dataDir, extraEnv);
    const printed = execFileSync(process.execPath, [BIN, 'token', 'create', '--name', 'test'], { cwd: ROOT, env: envFor(dataDir), encoding: 'utf8' });
    const token = printed.trim().split('\n').at(-1)!.trim();
    const { child, api, output } = await serve(nodeArgs, env);
    try {
      const auth = { authorization: `Bearer ${token}` };
      const form = new FormData();
      form.append('file', new Blob([DOCX]), 'hello.docx');
      const t = await fetch(`${api}/template`, { method: 'POST', body: form, headers: auth });
      const tb = (await t.json()) as { template: { uuid: string } };
      assert.equal(t.status, 201, JSON.stringify(tb));
      const res = await fetch(`${api}/document`, { method: 'POST', body: new URLSearchParams({ template_id: tb.template.uuid, data: '{"name":"worker"}' }), headers: auth });
      const body = (await res.json()) as { document: { status: string; pages: number; download_url: string; error: unknown } };
      assert.equal(res.status, 201, JSON.stringify(body));
      assert.equal(body.document.status, 'completed', `${JSON.stringify(body.document.error)}\n${output()}`);
      assert.equal(body.document.pages, 1);
      const pdf = Buffer.from(await (await fetch(body.document.download_url)).arrayBuffer());
      assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
      assert.match(pdf.subarray(-32).toString('latin1'), /%%EOF\s*$/);
      assert.doesNotMatch(output(), /render worker|ERR_WORKER/, 'the worker started: no fallback, no crash');
    } finally {
      await stop(child);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
}
