/** The `docloom` CLI as a real process (node --import tsx server/cli.ts …), against a real service and data dir. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer } from '../helpers/server.js';
import { pdfText, squash } from '../helpers/pdf.js';
import { INVOICE_DATA, INVOICE_LINES, json, jsonTemplate, tempDir } from './support.js';
import { docxWithWarnings } from '../docx/build-docx.js';
import { runProcess, type Finished } from '../helpers/process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'server', 'cli.ts');

/** Runs the CLI without blocking this process's event loop (the service under test lives in it). */
function cli(args: string[], env: Record<string, string>): Promise<Finished> {
  return runProcess(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, DOCLOOM_LOG_LEVEL: 'error', ...env },
    timeout: 60_000,
  });
}

test('token create prints the token alone on its last line, and it works against the running service at once', async () => {
  const s = await startTestServer();
  try {
    const made = await cli(['token', 'create', '--name', 'my-tool'], { DOCLOOM_DATA_DIR: s.dataDir });
    assert.equal(made.status, 0, made.stderr);
    const lines = made.stdout.trim().split('\n');
    const token = lines.at(-1)!;
    assert.match(token, /^\d+\|[A-Za-z0-9]{40}$/);
    const res = await fetch(`${s.url}/api/document`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200);

    const ro = await cli(['token', 'create', '--name', 'reader', '--read-only'], { DOCLOOM_DATA_DIR: s.dataDir });
    const roToken = ro.stdout.trim().split('\n').at(-1)!;
    const refused = await fetch(`${s.url}/api/document/1`, { method: 'DELETE', headers: { authorization: `Bearer ${roToken}` } });
    assert.equal(refused.status, 403);

    const list = await cli(['token', 'list'], { DOCLOOM_DATA_DIR: s.dataDir });
    assert.equal(list.status, 0);
    assert.match(list.stdout, /my-tool/);
    assert.match(list.stdout, /read-only\s.*reader/);
    assert.ok(!list.stdout.includes(token.split('|')[1]));

    const id = token.split('|')[0];
    const revoked = await cli(['token', 'revoke', id], { DOCLOOM_DATA_DIR: s.dataDir });
    assert.equal(revoked.status, 0);
    assert.equal((await fetch(`${s.url}/api/document`, { headers: { authorization: `Bearer ${token}` } })).status, 401);
    assert.equal((await cli(['token', 'revoke', id], { DOCLOOM_DATA_DIR: s.dataDir })).status, 1);
    assert.equal((await cli(['token', 'create'], { DOCLOOM_DATA_DIR: s.dataDir })).status, 2);
  } finally {
    await s.close();
  }
});

test('render writes a PDF holding the data, without a service', async () => {
  const dir = tempDir();
  try {
    fs.writeFileSync(path.join(dir, 'invoice.json'), jsonTemplate(INVOICE_LINES));
    fs.writeFileSync(path.join(dir, 'data.json'), JSON.stringify(INVOICE_DATA));
    const out = path.join(dir, 'out.pdf');
    const r = await cli(['render', path.join(dir, 'invoice.json'), path.join(dir, 'data.json'), '-o', out], { DOCLOOM_DATA_DIR: path.join(dir, 'data') });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /1 page/);
    assert.equal(squash(pdfText(fs.readFileSync(out))), 'Invoice INV-0042 Customer: Ada Lovelace Analytical engine: 1200.00 Punched cards: 35.50');

    const protectedOut = path.join(dir, 'locked.pdf');
    const p = await cli(['render', path.join(dir, 'invoice.json'), path.join(dir, 'data.json'), '-o', protectedOut, '--test', '--password', 'pw'], {});
    assert.equal(p.status, 0, p.stderr);
    const text = squash(pdfText(fs.readFileSync(protectedOut), { password: 'pw' }));
    assert.match(text, /Ada Lovelace/);
    assert.match(text.replace(/\s/g, ''), /TESTDOCUMENT/);

    fs.writeFileSync(path.join(dir, 'angle.json'), jsonTemplate(['Hi <<name>>']));
    fs.writeFileSync(path.join(dir, 'n.json'), '{"name":"Ada"}');
    const d = await cli(['render', path.join(dir, 'angle.json'), path.join(dir, 'n.json'), '-o', out, '--delimiters', '<< >>'], {});
    assert.equal(d.status, 0, d.stderr);
    assert.equal(squash(pdfText(fs.readFileSync(out))), 'Hi Ada');

    fs.writeFileSync(path.join(dir, 'broken.json'), jsonTemplate(['{{#open}} never closed']));
    const broken = await cli(['render', path.join(dir, 'broken.json'), path.join(dir, 'n.json'), '-o', path.join(dir, 'b.pdf')], {});
    assert.equal(broken.status, 1);
    assert.match(broken.stderr, /body, paragraph 1/);
    assert.equal(fs.existsSync(path.join(dir, 'b.pdf')), false);
    assert.equal((await cli(['render', path.join(dir, 'invoice.json')], {})).status, 2);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('import adds a template that the running service lists at once', async () => {
  const s = await startTestServer();
  const dir = tempDir();
  try {
    fs.writeFileSync(path.join(dir, 'letter.json'), jsonTemplate(['Dear <<name>>']));
    const r = await cli(['import', path.join(dir, 'letter.json'), '--name', 'Letter', '--delimiters', '<< >>'], { DOCLOOM_DATA_DIR: s.dataDir });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /Imported "Letter"/);
    const list = (await json(await s.api('/api/template'))).templates;
    assert.equal(list.total, 1);
    assert.equal(list.data[0].name, 'Letter');
    assert.equal(list.data[0].delimiters, '<< >>');
    const doc = await s.api('/api/document', { method: 'POST', body: new URLSearchParams({ template_id: list.data[0].uuid, data: '{"name":"Ada"}' }) });
    const d = (await json(doc)).document;
    assert.equal(d.status, 'completed');
    assert.equal(squash(pdfText(new Uint8Array(await (await fetch(d.download_url)).arrayBuffer()))), 'Dear Ada');

    // Import warnings: one line each on stderr; the output line and the exit code stay.
    fs.writeFileSync(path.join(dir, 'pictures.docx'), docxWithWarnings());
    const warned = await cli(['import', path.join(dir, 'pictures.docx')], { DOCLOOM_DATA_DIR: s.dataDir });
    assert.equal(warned.status, 0, warned.stderr);
    assert.match(warned.stdout, /^Imported "pictures" .*fields: name\.\n$/);
    const lines = warned.stderr.trim().split('\n');
    assert.equal(lines.length, 2, warned.stderr);
    assert.match(lines[0], /pictures\.docx: warning picture_format_unsupported \(word\/document\.xml\): 1 EMF picture not drawn/);
    assert.match(lines[1], /warning chart_not_drawn \(word\/document\.xml, c:chart\): 1 chart not drawn/);

    fs.writeFileSync(path.join(dir, 'notes.txt'), 'x');
    const bad = await cli(['import', path.join(dir, 'notes.txt')], { DOCLOOM_DATA_DIR: s.dataDir });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /\.docx/);
  } finally {
    await s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('--help, unknown commands and bad settings', async () => {
  const help = await cli(['--help'], {});
  assert.equal(help.status, 0);
  assert.match(help.stdout, /docloom token create --name NAME/);
  assert.equal((await cli(['frobnicate'], {})).status, 2);
  const badEnv = await cli(['token', 'list'], { DOCLOOM_PORT: 'eighty' });
  assert.equal(badEnv.status, 2);
  assert.match(badEnv.stderr, /DOCLOOM_PORT/);
});

test('serve prints the API URL, the sign-in link and the token hint; the link signs a browser in; SIGINT stops it', async () => {
  const dir = tempDir();
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve'], {
    cwd: ROOT,
    env: { ...process.env, DOCLOOM_DATA_DIR: dir, DOCLOOM_PORT: '0', DOCLOOM_SEED_SAMPLES: 'false', DOCLOOM_LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 30_000;
    while (!/Press Ctrl\+C/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.match(out, /API:\s+http:\/\/127\.0\.0\.1:\d+\/api/, err);
    assert.match(out, /npx docloom token create --name my-tool/);
    const link = /(http:\/\/127\.0\.0\.1:(\d+))\/#\/signin\?code=([A-Za-z0-9]+)/.exec(out);
    assert.ok(link, out);
    const [, base, , code] = link;
    const ex = await fetch(`${base}/api/gui/exchange`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
    assert.equal(ex.status, 200);
    const token = (await json(ex)).token;
    assert.equal((await fetch(`${base}/api/info`, { headers: { authorization: `Bearer ${token}` } })).status, 200);
    child.kill('SIGINT');
    assert.equal(await exited, 0);
    assert.match(out, /Stopped\./);
    assert.equal(fs.existsSync(path.join(dir, 'service.lock')), false);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
