/**
 * The container image (Dockerfile) without Docker, which cannot run here: the files its runtime stage copies are
 * assembled into an empty folder with the production dependencies only (package-lock.json's non-dev packages), and
 * `docloom serve` runs from there as the image's CMD does — listening on 0.0.0.0, which requires
 * DOCLOOM_PUBLIC_URL. A file the Dockerfile forgets (fonts, the GUI, templates) or a devDependency the service
 * imports fails here instead of in someone's deployment. Needs dist/ (npm test builds it first).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NOT_BUILT = fs.existsSync(path.join(ROOT, 'dist', 'server', 'cli.js')) && fs.existsSync(path.join(ROOT, 'dist', 'renderer', 'index.html'))
  ? false
  : 'dist/ is not built (npm run build; npm test does)';

/** The runtime stage's copies, as [source in the checkout, destination in /app]. */
function runtimeCopies(): Array<[string, string]> {
  const text = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  const stages = text.split(/^FROM /m);
  const runtime = stages[stages.length - 1];
  const copies: Array<[string, string]> = [];
  for (const line of runtime.split('\n')) {
    const fromBuild = /^COPY --from=build \/src\/(\S+) \.\/(\S+)$/.exec(line.trim());
    if (fromBuild) copies.push([fromBuild[1], fromBuild[2]]);
    const plain = /^COPY ((?:[\w.-]+ )+)\.\/$/.exec(line.trim());
    if (plain) for (const file of plain[1].trim().split(' ')) copies.push([file, file]);
  }
  return copies;
}

/** package-lock.json's production packages at the top of node_modules (nested ones come inside their parent). */
function productionPackages(): string[] {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; devOptional?: boolean }> };
  return Object.entries(lock.packages)
    .filter(([key, p]) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(key) && !p.dev && !p.devOptional)
    .map(([key]) => key.slice('node_modules/'.length));
}

function assemble(): string {
  const app = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-image-'));
  for (const [from, to] of runtimeCopies()) fs.cpSync(path.join(ROOT, from), path.join(app, to), { recursive: true });
  for (const name of productionPackages()) {
    const source = path.join(ROOT, 'node_modules', name);
    if (!fs.existsSync(source)) continue; // an optional package for another platform
    fs.mkdirSync(path.dirname(path.join(app, 'node_modules', name)), { recursive: true });
    fs.symlinkSync(source, path.join(app, 'node_modules', name), 'dir');
  }
  return app;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

test('the Dockerfile copies what the service needs, and it serves with production dependencies alone', { skip: NOT_BUILT, timeout: 120_000 }, async () => {
  const copies = runtimeCopies();
  assert.ok(copies.some(([from]) => from === 'dist/server') && copies.some(([from]) => from === 'resources/fonts'), JSON.stringify(copies));
  const app = assemble();
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-image-data-'));
  const port = await freePort();
  // As the image sets it up: NODE_ENV, DOCLOOM_HOST=0.0.0.0, DOCLOOM_DATA_DIR; no tsx, no NODE_OPTIONS.
  const env = { PATH: process.env.PATH ?? '', HOME: data, NODE_ENV: 'production', DOCLOOM_HOST: '0.0.0.0', DOCLOOM_PORT: String(port), DOCLOOM_DATA_DIR: data, DOCLOOM_RENDER_WORKERS: '1' };
  const cli = (args: string[], extra: Record<string, string> = {}) => spawnSync(process.execPath, ['bin/docloom.js', ...args], { cwd: app, env: { ...env, ...extra }, encoding: 'utf8', timeout: 30_000 });
  try {
    const refused = cli(['serve']);
    assert.notEqual(refused.status, 0, 'serve on 0.0.0.0 without DOCLOOM_PUBLIC_URL must refuse to start');
    assert.match(refused.stderr, /DOCLOOM_PUBLIC_URL/);

    const made = cli(['token', 'create', '--name', 'container']);
    assert.equal(made.status, 0, made.stderr);
    const token = made.stdout.trim().split('\n').at(-1)!;
    const publicUrl = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['bin/docloom.js', 'serve'], { cwd: app, env: { ...env, DOCLOOM_PUBLIC_URL: publicUrl }, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (c) => (log += c));
    child.stderr.on('data', (c) => (log += c));
    try {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const up = await fetch(`${publicUrl}/api/openapi.json`).then((r) => r.ok, () => false);
        if (up) break;
        assert.ok(Date.now() < deadline && child.exitCode === null, `the service did not start:\n${log}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      const gui = await fetch(`${publicUrl}/`);
      assert.equal(gui.status, 200);
      assert.match(await gui.text(), /<div id="app"/, 'the GUI bundle is in the image');

      const auth = { authorization: `Bearer ${token}` };
      // The samples are offered just after the service starts listening: wait for them (seconds at most).
      type Listing = { templates: { data: Array<{ uuid: string; name: string }> } };
      let list: Listing;
      let invoice: { uuid: string; name: string } | undefined;
      for (let i = 0; i < 100 && !invoice; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, 100));
        list = (await (await fetch(`${publicUrl}/api/template`, { headers: auth })).json()) as Listing;
        invoice = list.templates.data.find((t) => /invoice/i.test(t.name));
      }
      assert.ok(invoice, `the sample templates are in the image: ${JSON.stringify(list!).slice(0, 300)}\n${log}`);
      const invoiceData = fs.readFileSync(path.join(ROOT, 'resources', 'templates', 'invoice.data.json'), 'utf8');
      const created = await fetch(`${publicUrl}/api/document`, { method: 'POST', headers: auth, body: new URLSearchParams({ template_id: invoice!.uuid, data: invoiceData }) });
      const body = (await created.json()) as { document: { status: string; download_url: string } };
      assert.equal(created.status, 201, JSON.stringify(body));
      assert.equal(body.document.status, 'completed');
      assert.ok(body.document.download_url.startsWith(`${publicUrl}/`), `links use the public URL: ${body.document.download_url}`);
      const pdf = Buffer.from(await (await fetch(body.document.download_url)).arrayBuffer());
      const pdfFile = path.join(data, 'out.pdf');
      fs.writeFileSync(pdfFile, pdf);
      const text = spawnSync('pdftotext', [pdfFile, '-'], { encoding: 'utf8' }).stdout;
      const customer = (JSON.parse(invoiceData) as { buyer?: { name?: string } }).buyer?.name;
      assert.ok(customer && text.includes(customer), `the PDF (drawn with the image's fonts) holds the data: ${text.slice(0, 300)}`);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('close', r));
    }
  } finally {
    fs.rmSync(app, { recursive: true, force: true });
    fs.rmSync(data, { recursive: true, force: true });
  }
});

test('only loopback addresses may be listened on without DOCLOOM_PUBLIC_URL', async () => {
  const { isLoopbackHost } = await import('../../server/config.js');
  for (const host of ['127.0.0.1', '127.10.0.3', 'localhost', '::1', '[::1]']) assert.equal(isLoopbackHost(host), true, host);
  for (const host of ['0.0.0.0', '::', '192.168.1.4', '10.0.0.1', 'docs.example.com', '128.0.0.1']) assert.equal(isLoopbackHost(host), false, host);
});
