/**
 * A real `docloom serve` (bin/docloom.js over dist/, as users run it) in a child process: a fresh data dir, a free
 * port, a token made with `docloom token create`, the environment given on top of the default settings. stop()
 * ends it and removes the data dir.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchDataDir } from './data-dir.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ServeProcess {
  base: string;
  port: number;
  auth: { authorization: string };
  pid: number;
  /** Its data folder (removed by stop()). */
  dataDir: string;
  errors: () => string;
  stop: () => Promise<void>;
}

/** Exits with a message when dist/ has not been built (the benchmarks run what users run). */
export function requireDist(script: string): void {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'server', 'cli.js'))) {
    console.error(`${script}: dist/ is missing; run \`npm run build:server\` first.`);
    process.exit(1);
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * `root`: another checkout's `docloom serve` (a before/after comparison); default this one's. `nodeArgs`: flags for
 * the service's node (`--cpu-prof`, which NODE_OPTIONS does not take). `node`: another Node binary to run it on
 * (default the one running the benchmark).
 */
export async function startServe(name: string, extraEnv: Record<string, string> = {}, root = ROOT, nodeArgs: string[] = [], node = process.execPath): Promise<ServeProcess> {
  const bin = path.join(root, 'bin', 'docloom.js');
  const dataDir = benchDataDir(`docloom-bench-${name}-`);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DOCLOOM_DATA_DIR: dataDir, DOCLOOM_PORT: String(port), DOCLOOM_SEED_SAMPLES: 'false', DOCLOOM_LOG_LEVEL: 'error', ...extraEnv };
  // The parent's own settings must not leak into "default settings".
  for (const key of Object.keys(env)) if (key.startsWith('DOCLOOM_') && !(key in extraEnv) && !['DOCLOOM_DATA_DIR', 'DOCLOOM_PORT', 'DOCLOOM_SEED_SAMPLES', 'DOCLOOM_LOG_LEVEL'].includes(key)) delete env[key];
  const tokenOut = execFileSync(node, [bin, 'token', 'create', '--name', 'bench'], { env, encoding: 'utf8' });
  const token = tokenOut.trim().split('\n').pop()!.trim();
  const auth = { authorization: `Bearer ${token}` };
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(node, [...nodeArgs, bin, 'serve'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  return waitForService(child, base, port, auth, dataDir);
}

/** Waits until a started service answers GET /api/info (30 s at most); stop() ends it and removes its data dir. */
async function waitForService(child: ChildProcess, base: string, port: number, auth: { authorization: string }, dataDir: string): Promise<ServeProcess> {
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    try {
      const res = await fetch(`${base}/api/info`, { headers: auth });
      if (res.ok) return { base, port, auth, pid: child.pid!, dataDir, errors: () => errors, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error(`the service did not start: ${errors}`);
}

/** CPU time (user + system) of a process's main thread (its event loop, for Node) so far, in milliseconds (Linux /proc). */
export function mainThreadCpuMs(pid: number): number {
  return cpuMs(pid, `/proc/${pid}/task/${pid}/stat`);
}

/** CPU time (user + system, all threads) a process has used so far, in milliseconds (Linux /proc). */
export function cpuMs(pid: number, file = `/proc/${pid}/stat`): number {
  const stat = fs.readFileSync(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the command name; in clock ticks.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * CPU time one thread has used so far, in milliseconds at nanosecond resolution (Linux /proc/…/schedstat: time on a
 * CPU), for figures per request where the clock ticks of /proc/<pid>/stat (10 ms) are too coarse. Default: this
 * process's main thread (the benchmark's own HTTP client).
 */
export function threadCpuMs(pid = process.pid, tid = pid): number {
  return Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
}

/**
 * The bare server (bench/lib/bare-server.ts) in a child process, in one of its modes, as a ServeProcess; its
 * templates are registered with bareTemplate(). `node`: the Node binary (default the benchmark's).
 */
export async function startBare(mode: 'inline' | 'worker' | 'durable' | 'wal', node = process.execPath, workers = 1): Promise<ServeProcess> {
  const dataDir = benchDataDir(`docloom-bench-bare-${mode}-`);
  const port = await freePort();
  const token = `bare-${process.pid}`;
  const auth = { authorization: `Bearer ${token}` };
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, BARE_PORT: String(port), BARE_TOKEN: token, BARE_MODE: mode, BARE_DIR: dataDir, BARE_WORKERS: String(workers) };
  const child = spawn(node, ['--import', 'tsx', path.join(ROOT, 'bench', 'lib', 'bare-server.ts')], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  return waitForService(child, base, port, auth, dataDir);
}

/** Registers a template with a bare server; returns the id its creates name. */
export async function bareTemplate(svc: ServeProcess, bytes: Uint8Array, kind: 'docx' | 'json'): Promise<string> {
  const res = await fetch(`${svc.base}/bare/template?kind=${kind}`, { method: 'POST', body: bytes, headers: svc.auth });
  const body = (await res.json()) as { template?: { uuid: string } };
  if (!body.template) throw new Error(`bare server refused the template: ${res.status} ${JSON.stringify(body)}`);
  return body.template.uuid;
}
