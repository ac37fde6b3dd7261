/**
 * Checks what `npm run dist` would pack, on a machine without the Electron binary:
 * 1. builds the project into a temporary copy (tsc → dist/, Vite → dist/renderer);
 * 2. runs electron-builder's `dir` target with electron-builder.yml, but with a stand-in for the Electron
 *    distribution (a script, not Electron) and without the fuses step (fuses are written into the real binary);
 * 3. lists app.asar (production packages in, development packages out) and the extraResources;
 * 4. runs the packaged service entry from the extracted app.asar with Node, as utilityProcess would, with the
 *    packaged resources folder, and renders every sample template through the API.
 * It proves the package's contents and layout; it cannot prove anything about Electron itself.
 *
 * Run: node --import tsx electron/tools/pack-check.ts [--keep]     (Linux; about a minute on 2 cores)
 * Not part of the app: electron-builder.yml leaves dist/electron/tools out of the package.
 */
import { execFileSync, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import asar from '@electron/asar';
import { getConfig } from 'app-builder-lib/out/util/config/config.js';
import { build, Platform } from 'electron-builder';
import { parseServiceMessage } from '../service/messages.js';
import { serviceEnvironment } from '../service/environment.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DEVELOPMENT_ONLY = ['electron', 'vite', 'vue', 'pinia', 'typescript', 'tsx', 'playwright-core', 'eslint', 'electron-builder'];

function step(message: string): void {
  console.log(`\n== ${message}`);
}

function copyProject(into: string): void {
  for (const name of ['package.json', 'package-lock.json', 'electron-builder.yml', 'README.md']) {
    if (fs.existsSync(path.join(ROOT, name))) fs.copyFileSync(path.join(ROOT, name), path.join(into, name));
  }
  for (const folder of ['resources', 'docs']) {
    if (fs.existsSync(path.join(ROOT, folder))) fs.cpSync(path.join(ROOT, folder), path.join(into, folder), { recursive: true });
  }
  // Hard links, not a symlink: electron-builder walks node_modules and does not follow a linked folder.
  execFileSync('cp', ['-al', path.join(ROOT, 'node_modules'), path.join(into, 'node_modules')]);
}

function buildInto(into: string): void {
  try {
    execFileSync(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', path.join(ROOT, 'tsconfig.json'), '--outDir', path.join(into, 'dist')], { stdio: 'pipe' });
  } catch (error) {
    // Type errors elsewhere in the tree still emit JavaScript; what matters is that the entry points exist.
    console.log(`tsc reported errors (output kept): ${String((error as { stdout?: Buffer }).stdout ?? '').split('\n').length} lines`);
  }
  execFileSync(
    path.join(ROOT, 'node_modules/.bin/vite'),
    ['build', '--config', path.join(ROOT, 'renderer/vite.config.ts'), '--outDir', path.join(into, 'dist/renderer'), '--emptyOutDir', '--logLevel', 'warn'],
    { stdio: 'inherit' },
  );
  for (const entry of ['dist/electron/main.js', 'dist/electron/preload.cjs', 'dist/electron/service-entry.js', 'dist/renderer/index.html']) {
    if (!fs.existsSync(path.join(into, entry))) throw new Error(`build did not produce ${entry}`);
  }
}

function standInElectron(into: string): string {
  const dir = path.join(into, 'electron-stand-in');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'electron'), '#!/bin/sh\necho "stand-in for the Electron binary" >&2\nexit 1\n', { mode: 0o755 });
  const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string }).version;
  fs.writeFileSync(path.join(dir, 'version'), `v${version}`);
  return dir;
}

async function pack(projectDir: string, electronDist: string): Promise<string> {
  // electron-builder.yml as electron-builder reads it, minus the fuses (the stand-in has no fuse sentinel to
  // flip), plus the stand-in; written as the configuration file of this one build.
  const { electronFuses: _fuses, ...config } = await getConfig(projectDir, path.join(projectDir, 'electron-builder.yml'), null);
  const checkConfig = path.join(projectDir, 'electron-builder.check.json');
  fs.writeFileSync(checkConfig, JSON.stringify({ ...config, electronDist, directories: { ...config.directories, output: 'release' } }, null, 2));
  await build({ projectDir, targets: Platform.LINUX.createTarget('dir'), config: checkConfig });
  return path.join(projectDir, 'release', 'linux-unpacked');
}

function inspect(unpacked: string): void {
  const archive = path.join(unpacked, 'resources', 'app.asar');
  const files = asar.listPackage(archive, { isPack: false });
  const packages = new Set(files.map((file) => /^[/\\]node_modules[/\\]((?:@[^/\\]+[/\\])?[^/\\]+)/.exec(file)?.[1]).filter(Boolean));
  const present = DEVELOPMENT_ONLY.filter((name) => packages.has(name));
  console.log(`app.asar: ${(fs.statSync(archive).size / 1e6).toFixed(1)} MB, ${files.length} entries, ${packages.size} packages`);
  for (const folder of ['/dist/electron', '/dist/server', '/dist/renderer', '/dist/electron/tools']) {
    console.log(`  ${folder}: ${files.filter((file) => file.replace(/\\/g, '/').startsWith(`${folder}/`)).length} entries`);
  }
  console.log(`  development-only packages inside: ${present.length === 0 ? 'none' : present.join(', ')}`);
  const extra = path.join(unpacked, 'resources');
  for (const name of fs.readdirSync(extra)) {
    if (name !== 'app.asar') console.log(`extraResources: resources/${name}/ → ${fs.readdirSync(path.join(extra, name)).join(', ')}`);
  }
}

async function runPackagedService(unpacked: string, scratch: string): Promise<number> {
  const app = path.join(scratch, 'app-extracted');
  asar.extractAll(path.join(unpacked, 'resources', 'app.asar'), app);
  const env = serviceEnvironment(
    { ...process.env, DOCLOOM_PORT: '0', DOCLOOM_LOG_LEVEL: 'error' },
    { dataDir: path.join(scratch, 'userData', 'data'), resourcesDir: path.join(unpacked, 'resources', 'resources'), appOrigin: 'docloom://app' },
  );
  const child = fork(path.join(app, 'dist/electron/service-entry.js'), [], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const started = Date.now();
  const ready = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    child.on('message', (raw) => {
      const message = parseServiceMessage(raw);
      if (message?.type === 'ready') resolve(message);
      if (message?.type === 'error') reject(new Error(message.message));
    });
    child.on('exit', (code) => reject(new Error(`service exited with ${code}`)));
  });
  console.log(`service ready at ${ready.url} after ${Date.now() - started} ms`);
  const headers = { Authorization: `Bearer ${ready.token}` };
  const gui = await fetch(`${ready.url}/`);
  console.log(`GET / (the GUI from app.asar): ${gui.status}`);
  const list = (await (await fetch(`${ready.url}/api/template?per_page=100`, { headers })).json()) as {
    templates: { data: Array<{ uuid: string; name: string; sample_data: unknown }> };
  };
  let failures = 0;
  for (const template of list.templates.data) {
    const data = typeof template.sample_data === 'object' && template.sample_data ? template.sample_data : {};
    const response = await fetch(`${ready.url}/api/document`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ template_id: template.uuid, data }),
    });
    const body = (await response.json()) as { document?: { status: string; size: number | null; error: { message: string } | null } };
    const outcome = body.document?.status === 'completed' ? `completed, ${body.document.size} bytes` : `${body.document?.status ?? response.status}: ${body.document?.error?.message ?? JSON.stringify(body)}`;
    if (body.document?.status !== 'completed') failures += 1;
    console.log(`  render "${template.name}": ${outcome}`);
  }
  if (list.templates.data.length === 0) {
    failures += 1;
    console.log('  no sample templates were offered');
  }
  child.send({ type: 'stop' });
  await new Promise((resolve) => child.once('exit', resolve));
  console.log(`service stopped with exit code ${child.exitCode}`);
  return failures;
}

async function main(): Promise<void> {
  const keep = process.argv.includes('--keep');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-pack-check-'));
  const project = path.join(scratch, 'project');
  fs.mkdirSync(project);
  try {
    step('copy the project (node_modules hard-linked) and build it');
    copyProject(project);
    buildInto(project);
    step('electron-builder --linux dir, with a stand-in Electron distribution and no fuses');
    const unpacked = await pack(project, standInElectron(scratch));
    inspect(unpacked);
    step('the packaged service, run from the extracted app.asar with Node');
    const failures = await runPackagedService(unpacked, scratch);
    console.log(failures === 0 ? '\npack-check: OK' : `\npack-check: ${failures} problem(s)`);
    process.exitCode = failures === 0 ? 0 : 1;
  } finally {
    if (keep) console.log(`\nkept: ${scratch}`);
    else fs.rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
