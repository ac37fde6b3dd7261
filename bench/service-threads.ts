/**
 * A diagnostic, not a benchmark (no targets; `npm run bench` skips it): where a `docloom serve`'s CPU goes per
 * document, thread by thread, with 8 concurrent clients (`clients=<n>`: another number; 1 is the sequential case)
 * creating the sample .json invoice (multipart, as the interface sends it) — after a warm-up long enough for the render workers' JIT to settle, which a short
 * benchmark run does not give (docs/benchmarks.md, session 16).
 *
 * Node names none of its threads, so they are told apart by what they do: the main thread (the event loop), the
 * render workers (the busiest threads besides it, as many as the service runs), and the rest — V8's platform
 * threads (concurrent compilation and garbage collection for every isolate) and libuv's thread pool (the fsyncs),
 * each printed with the clock ticks after the main thread it started at (V8's start with the process, libuv's pool
 * at its first use, the render workers last).
 *
 * `syscalls=1` also counts, with `perf stat` (Linux perf; software events, so it works without hardware counters),
 * each thread's system calls and context switches per document over the same window: counts that a busy machine
 * does not inflate as it does CPU times (docs/benchmarks.md, session 16, branch svc19).
 *
 *   npm run build:server && node --import tsx bench/service-threads.ts [seconds=6] [warm=15] [clients=8] [workers=<n>] [root=<checkout>] [node=--flag,--flag] [syscalls=1]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { requireDist, ROOT, startServe } from './lib/serve.js';

requireDist('bench/service-threads');

const args = Object.fromEntries(process.argv.slice(2).map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]));
const SECONDS = Number(args.seconds ?? 6);
const WARM = Number(args.warm ?? 15);
const CLIENTS = Number(args.clients ?? 8);
const root = args.root ? path.resolve(args.root) : ROOT;
const env: Record<string, string> = args.workers ? { DOCLOOM_RENDER_WORKERS: args.workers } : {};
const workers = args.workers ? Number(args.workers) : Math.max(1, os.availableParallelism() - 1);
const svc = await startServe('threads', env, root, args.node ? args.node.split(',') : []);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function send(method: string, where: string, body?: Buffer, type?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = { ...svc.auth, ...(body ? { 'content-type': type!, 'content-length': body.length } : {}) };
    const req = http.request({ agent, host: '127.0.0.1', port: svc.port, path: where, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const boundary = '----docloomThreads7MA4YWxk';
const part = (name: string, value: string | Buffer, filename?: string): Buffer =>
  Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"\r\nContent-Type: application/json` : ''}\r\n\r\n`),
    Buffer.from(value),
    Buffer.from('\r\n'),
  ]);
const multipart = (...parts: Buffer[]): Buffer => Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]);
const TYPE = `multipart/form-data; boundary=${boundary}`;

const template = fs.readFileSync(path.join(ROOT, 'resources', 'templates', 'invoice.json'));
const made = await send('POST', '/api/template', multipart(part('name', 'Invoice'), part('file', template, 'invoice.json')), TYPE);
if (made.status !== 201) throw new Error(`template upload: ${made.status} ${made.body}`);
const uuid = (JSON.parse(made.body) as { template: { uuid: string } }).template.uuid;
const data = JSON.parse(fs.readFileSync(path.join(ROOT, 'resources', 'templates', 'invoice.data.json'), 'utf8')) as Record<string, unknown>;

let created = 0;
async function clients(ms: number): Promise<number> {
  const end = Date.now() + ms;
  let done = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < end) {
        const body = multipart(part('template_id', uuid), part('data', JSON.stringify({ ...data, number: `INV-${created++}` })));
        const res = await send('POST', '/api/document', body, TYPE);
        if (res.status !== 201) throw new Error(`create: ${res.status} ${res.body}`);
        done++;
      }
    }),
  );
  return done;
}

interface Thread {
  tid: string;
  /** Clock ticks (1/100 s) after the process started. */
  start: number;
  /** CPU time so far, ms (schedstat: nanoseconds on a CPU). */
  cpu: number;
}

function threads(): Map<string, Thread> {
  const out = new Map<string, Thread>();
  for (const tid of fs.readdirSync(`/proc/${svc.pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${svc.pid}/task/${tid}/stat`, 'utf8');
      const start = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
      const cpu = Number(fs.readFileSync(`/proc/${svc.pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
      out.set(tid, { tid, start, cpu });
    } catch {
      // a thread that ended meanwhile
    }
  }
  return out;
}

/** Starts `perf stat` on every thread of the service; stop() ends it and gives each thread's counts. */
function countSyscalls(): { stop(): Promise<Map<string, { syscalls: number; switches: number }>> } {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-perf-')), 'stat.txt');
  const perf = spawn('perf', ['stat', '--per-thread', '-x', ',', '-e', 'raw_syscalls:sys_enter,context-switches', '-p', String(svc.pid), '-o', out], { stdio: 'ignore' });
  const exited = new Promise((resolve) => perf.once('exit', resolve));
  return {
    async stop() {
      perf.kill('SIGINT');
      await exited;
      const counts = new Map<string, { syscalls: number; switches: number }>();
      // CSV lines: `<comm>-<tid>,<count>,<unit>,<event>,...`
      for (const line of fs.readFileSync(out, 'utf8').split('\n')) {
        const [who, count, , event] = line.split(',');
        const tid = /-(\d+)$/.exec(who ?? '')?.[1];
        if (!tid || !event || !/^\d+$/.test(count ?? '')) continue;
        const c = counts.get(tid) ?? { syscalls: 0, switches: 0 };
        if (event.startsWith('raw_syscalls')) c.syscalls = Number(count);
        else c.switches = Number(count);
        counts.set(tid, c);
      }
      fs.rmSync(path.dirname(out), { recursive: true, force: true });
      return counts;
    },
  };
}

try {
  await clients(WARM * 1000);
  const counting = args.syscalls === '1' ? countSyscalls() : undefined;
  // perf attaches to the threads in a few milliseconds; the window starts after.
  if (counting) await new Promise((r) => setTimeout(r, 300));
  const before = threads();
  const t0 = performance.now();
  const docs = await clients(SECONDS * 1000);
  const wall = performance.now() - t0;
  const after = threads();
  const counts = await counting?.stop();
  const mainStart = after.get(String(svc.pid))!.start;
  const used = [...after.values()].map((t) => ({ ...t, cpu: t.cpu - (before.get(t.tid)?.cpu ?? 0) })).sort((a, b) => b.cpu - a.cpu);
  const main = used.find((t) => t.tid === String(svc.pid))!;
  const renderers = used.filter((t) => t !== main).slice(0, workers);
  const rest = used.filter((t) => t !== main && !renderers.includes(t));
  const per = (ms: number): string => `${(ms / docs).toFixed(3)} ms`;
  const sum = (ts: Thread[]): number => ts.reduce((s, t) => s + t.cpu, 0);
  console.log(`bench/service-threads: ${os.cpus().length} cpus, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`${docs} documents in ${(wall / 1000).toFixed(2)} s with ${CLIENTS} client(s) (${((docs / wall) * 1000).toFixed(1)}/s), after ${created - docs} to warm up; ${workers} render worker(s)`);
  console.log(`CPU per document: all threads ${per(sum(used))}; main thread ${per(main.cpu)}; render workers ${per(sum(renderers))}; the rest ${per(sum(rest))}`);
  for (const t of used.filter((u) => u.cpu / docs >= 0.005)) {
    const role = t === main ? 'main thread' : renderers.includes(t) ? 'render worker' : 'other';
    const c = counts?.get(t.tid);
    const calls = c ? `  ${(c.syscalls / docs).toFixed(2).padStart(6)} syscalls, ${(c.switches / docs).toFixed(2).padStart(6)} context switches per document` : '';
    console.log(`  thread ${t.tid.padEnd(8)} started +${String(t.start - mainStart).padStart(4)} ticks  ${per(t.cpu).padStart(9)}  ${role}${calls}`);
  }
} finally {
  await svc.stop();
}
