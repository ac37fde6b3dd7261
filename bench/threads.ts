/**
 * CPU per document of each thread of a service at 8 clients (issue 14): docloom checkouts and bare servers side by side,
 * in 1-s turns, so a busy machine's load falls on every target alike. Per thread name (MAIN, WorkerThread, V8Worker:
 * V8's platform threads, GC and compilation for every isolate; libuv-worker: fs and fsync), summed over the turns, per
 * document; and the render thread's context switches per document (W.vol: it blocked, waiting for work; W.invol: it
 * was preempted), which tell a thread that waits or is pushed off its core from one that computes more.
 *
 * Run: `"$(bash scripts/shipped-node.sh)" --import tsx bench/threads.ts ROUNDS [docx] TARGET…` after `npm run
 * build:server` (`docx`: bench/http-docx.ts's Word invoice instead of the .json one),
 * where a TARGET is `d:<checkout>` (its docloom serve over dist/) or `b:<mode>` (bench/lib/bare-server.ts: inline,
 * worker, durable, wal), either followed by `:NAME=VALUE,…` — environment for that target only (BARE_POOL=1,
 * BARE_YOUNG_MB=48, DOCLOOM_…), or NICE=<n>: every thread of that service but its render threads reniced after
 * start. The same target twice (add a dummy `X=dup`) shows the run's own spread.
 * Linux only (/proc/<pid>/task).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { invoiceDocx, invoiceDocxData } from './lib/invoice-docx.js';
import { dataDirLine } from './lib/data-dir.js';
import { ROOT, startBare, startServe, bareTemplate, type ServeProcess } from './lib/serve.js';

/** `docx` among the arguments: the Word invoice bench/http-docx.ts renders; else the .json one. */
const DOCX = process.argv.includes('docx');
const tpl = DOCX ? invoiceDocx() : fs.readFileSync(path.join(ROOT, 'resources/templates/invoice.json'));
const jsonData = JSON.parse(fs.readFileSync(path.join(ROOT, 'resources/templates/invoice.data.json'), 'utf8')) as Record<string, unknown>;
const dataFor = (n: number): Record<string, unknown> => (DOCX ? invoiceDocxData(n) : { ...jsonData, number: 'INV-' + n });
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function post(svc: ServeProcess, uuid: string, n: number): Promise<void> {
  const body = Buffer.from(JSON.stringify({ template_id: uuid, data: dataFor(n) }));
  return new Promise((resolve, reject) => {
    const headers = { ...svc.auth, 'content-type': 'application/json', 'content-length': body.length };
    const req = http.request({ agent, host: '127.0.0.1', port: svc.port, path: '/api/document', method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`create answered ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** CPU ms by thread id (name kept), and the render thread's context switches (counts, not ms). */
function threads(pid: number): Map<string, { name: string; value: number }> {
  const out = new Map<string, { name: string; value: number }>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const [cpu, runq] = fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map((v) => Number(v) / 1e6);
      out.set(tid, { name: tid === String(pid) ? 'MAIN' : name, value: cpu });
      if (name === 'WorkerThread') {
        // Time it was ready to run but waited for a core (schedstat's second field): a render thread pushed off its
        // core by the service's other threads, where W.invol counts how often.
        out.set(`${tid}q`, { name: 'W.runq', value: runq });
        const status = fs.readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
        out.set(`${tid}v`, { name: 'W.vol', value: Number(/\nvoluntary_ctxt_switches:\s+(\d+)/.exec(status)?.[1] ?? 0) });
        out.set(`${tid}n`, { name: 'W.invol', value: Number(/nonvoluntary_ctxt_switches:\s+(\d+)/.exec(status)?.[1] ?? 0) });
      }
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return out;
}

interface Target {
  label: string;
  svc: ServeProcess;
  uuid: string;
  docs: number;
  sums: Map<string, number>;
  /** NICE=<n> among its settings: the priority its threads but the render threads get after start (0: left alone). */
  nice: number;
}

async function start(spec: string): Promise<Target> {
  const [kind, what, envs = ''] = spec.split(':');
  const pairs = envs.split(',').filter(Boolean).map((kv) => kv.split('=') as [string, string]);
  const nice = Number(pairs.find(([k]) => k === 'NICE')?.[1] ?? 0);
  const saved = { ...process.env };
  // startBare passes this process's environment on; startServe takes DOCLOOM_ settings as its own argument.
  for (const [k, v] of pairs) process.env[k] = v;
  try {
    if (kind === 'd') {
      const svc = await startServe('threads', Object.fromEntries(pairs.filter(([k]) => k.startsWith('DOCLOOM_'))), path.resolve(what));
      const form = new FormData();
      form.append('file', new Blob([tpl]), DOCX ? 'invoice.docx' : 'invoice.json');
      const up = (await (await fetch(`${svc.base}/api/template`, { method: 'POST', body: form, headers: svc.auth })).json()) as { template: { uuid: string } };
      return { label: spec, svc, uuid: up.template.uuid, docs: 0, sums: new Map(), nice };
    }
    if (kind !== 'b') throw new Error(`bench/threads: a target is d:<checkout> or b:<mode>, not ${spec}`);
    const svc = await startBare(what as 'inline' | 'worker' | 'durable');
    return { label: spec, svc, uuid: await bareTemplate(svc, tpl, DOCX ? 'docx' : 'json'), docs: 0, sums: new Map(), nice };
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

const rounds = Number(process.argv[2] ?? 6);
const targets: Target[] = [];
try {
  for (const spec of process.argv.slice(3).filter((a) => a !== 'docx')) targets.push(await start(spec));
  let n = 0;
  // Warm-up: every service's hot paths compiled before the first turn counts.
  for (const t of targets) for (let i = 0; i < 400; i++) await post(t.svc, t.uuid, n++);
  // A target's NICE=<n>: every thread of its process but the render threads reniced to n after start (Linux applies
  // setpriority to one thread id): does the render thread, the 8-client bottleneck, gain from winning its core?
  for (const t of targets) {
    if (!t.nice) continue;
    for (const tid of fs.readdirSync(`/proc/${t.svc.pid}/task`)) {
      if (fs.readFileSync(`/proc/${t.svc.pid}/task/${tid}/comm`, 'utf8').trim() !== 'WorkerThread') os.setPriority(Number(tid), t.nice);
    }
  }
  for (let round = 0; round < rounds; round++) {
    for (const t of targets) {
      const before = threads(t.svc.pid);
      const until = performance.now() + 1000;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (performance.now() < until) {
            await post(t.svc, t.uuid, n++);
            t.docs++;
          }
        }),
      );
      for (const [tid, a] of threads(t.svc.pid)) t.sums.set(a.name, (t.sums.get(a.name) ?? 0) + a.value - (before.get(tid)?.value ?? 0));
    }
  }
  console.log(`load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  console.log(dataDirLine());
  for (const t of targets) {
    const cpu = [...t.sums].filter(([k]) => !k.startsWith('W.')).reduce((a, [, v]) => a + v, 0);
    const parts = [...t.sums].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(v / t.docs).toFixed(3)}`);
    const hwm = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${t.svc.pid}/status`, 'utf8'))?.[1];
    console.log(`${t.label}: ${t.docs} docs (${(t.docs / rounds).toFixed(0)}/s), peak RSS ${Math.round(Number(hwm) / 1024)} MB, CPU ${(cpu / t.docs).toFixed(3)} ms per document: ${parts.join(', ')}`);
  }
} finally {
  for (const t of targets) await t.svc.stop();
  agent.destroy();
}
