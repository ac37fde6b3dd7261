/**
 * The team server's figures (issue #16), in one run on this machine: `docloom serve` (bin/docloom.js over dist/)
 * on one throwaway PostgreSQL cluster and one s3rver bucket on loopback (test/helpers), each instance with one
 * render worker (DOCLOOM_RENDER_WORKERS=1), the sample invoice (resources/templates/invoice.json +
 * invoice.data.json), synchronous `POST /api/document`:
 *
 * - documents/s with `clients` concurrent clients against 1 instance, then against 2 instances on the same
 *   database and bucket (the clients alternate between them; the render queue spreads the jobs) — goal: 2
 *   instances ≥ 1.6 × one;
 * - the CPU each document costs (all threads of the instances, and this process: the clients and s3rver), and the
 *   rate the machine's cores bound that to, since 2 instances on 2 cores can only double if the CPU is free;
 * - the per-document cost of the PostgreSQL + S3 path against the data folder (lowdb + disk): sequential create
 *   p50 of an instance of each, interleaved in rounds — goal: ≤ + 3 ms p50.
 *
 * The load average is printed with the figures: on a busy machine the rates say little (the lead re-runs quietly).
 *
 *   npm run build:server && node --import tsx bench/team.ts [seconds=8] [clients=8] [sequential=300]
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { BUILT, cliToken, ROOT, startServe, type ServeChild } from '../scripts/lib/serve-child.js';
import { openPgRepositories } from '../server/store/pg/index.js';
import { TokenAccess } from '../server/services/token-access.js';
import { startPgCluster } from '../test/helpers/pg-cluster.js';
import { startS3Server } from '../test/helpers/s3-server.js';
import { cpuMs } from './lib/serve.js';
import { percentile } from './lib/stats.js';

if (!BUILT) {
  console.error('bench/team: dist/ is missing; run `npm run build:server` first.');
  process.exit(1);
}

const SECONDS = Number(process.argv[2] ?? 8);
const CLIENTS = Number(process.argv[3] ?? 8);
const SEQUENTIAL = Number(process.argv[4] ?? 300);
const BUCKET = 'docloom-bench';

const load = (): string => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const verdict = (ok: boolean): string => (ok ? 'PASS' : 'MISS');
const ms = (v: number): string => `${v.toFixed(2)} ms`;

const template = fs.readFileSync(path.join(ROOT, 'resources', 'templates', 'invoice.json'));
const sample = JSON.parse(fs.readFileSync(path.join(ROOT, 'resources', 'templates', 'invoice.data.json'), 'utf8')) as Record<string, unknown>;
const data = (n: number): string => JSON.stringify({ ...sample, number: `INV-2026-${n}` });

interface Instance {
  serve: ServeChild;
  port: number;
  auth: { authorization: string };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One synchronous create over a kept-alive connection; throws unless 201 completed. Answers its milliseconds. */
function create(target: Instance, uuid: string, n: number): Promise<number> {
  const body = Buffer.from(new URLSearchParams({ template_id: uuid, data: data(n) }).toString());
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port: target.port,
        path: '/api/document',
        method: 'POST',
        headers: { ...target.auth, 'content-type': 'application/x-www-form-urlencoded', 'content-length': body.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 201 || !text.includes('"status":"completed"')) reject(new Error(`create failed: ${res.statusCode} ${text.slice(0, 500)}`));
          else resolve(performance.now() - t);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function upload(target: Instance): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([template]), 'invoice.json');
  const res = await fetch(`http://127.0.0.1:${target.port}/api/template`, { method: 'POST', body: form, headers: target.auth });
  const body = (await res.json()) as { template?: { uuid: string } };
  if (!body.template) throw new Error(`template upload failed: ${res.status} ${JSON.stringify(body)}`);
  return body.template.uuid;
}

async function start(dataDir: string, env: Record<string, string>, token: string): Promise<Instance> {
  const serve = await startServe(dataDir, { DOCLOOM_LOG_LEVEL: 'error', DOCLOOM_RENDER_WORKERS: '1', ...env });
  return { serve, port: Number(new URL(serve.url).port), auth: { authorization: `Bearer ${token}` } };
}

async function stop(instance: Instance): Promise<void> {
  if (instance.serve.child.exitCode === null) instance.serve.child.kill('SIGTERM');
  await instance.serve.exited;
}

/** The cluster's postmaster: the process whose command line carries `-p <port>` (pg-cluster.ts starts it so). */
function postmasterPid(port: number): number | undefined {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (args[0].endsWith('postgres') && args.includes('-p') && args[args.indexOf('-p') + 1] === String(port)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/** CPU (ms) of the postmaster and its live children (each connection is a process; the pools keep theirs open). */
function postgresCpuMs(postmaster: number | undefined): number {
  if (postmaster === undefined) return 0;
  let sum = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (Number(entry) === postmaster || ppid === postmaster) sum += cpuMs(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return sum;
}

let postmaster: number | undefined;

/** CPU (ms) the instances (all threads), this process (clients, s3rver) and PostgreSQL have used so far. */
function cpuNow(instances: Instance[]): { service: number; bench: number; postgres: number } {
  const own = process.cpuUsage();
  return {
    service: instances.reduce((sum, i) => sum + cpuMs(i.serve.child.pid!), 0),
    bench: (own.user + own.system) / 1000,
    postgres: postgresCpuMs(postmaster),
  };
}

/** `CLIENTS` clients for `SECONDS`, the n-th request to instances[n % length]: documents/s and CPU per document. */
async function throughput(instances: Instance[], uuid: string): Promise<{ rate: number; p50: number; serviceCpu: number; benchCpu: number; pgCpu: number; perDoc: number; cores: number }> {
  let n = 0;
  // Warm-up for 4 s at the same concurrency: each instance's worker has the template compiled and its code
  // JIT-compiled (a just-started instance's compiler threads would otherwise be counted as its documents' CPU).
  const warm = performance.now() + 4000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < warm) await create(instances[n % instances.length], uuid, n++);
    }),
  );
  const latencies: number[] = [];
  const cpu0 = cpuNow(instances);
  const started = performance.now();
  const until = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < until) {
        const k = n++;
        latencies.push(await create(instances[k % instances.length], uuid, k));
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu1 = cpuNow(instances);
  const docs = latencies.length;
  const perDoc = (cpu1.service - cpu0.service + cpu1.bench - cpu0.bench + cpu1.postgres - cpu0.postgres) / docs;
  return {
    rate: docs / elapsed,
    p50: percentile(latencies, 50),
    serviceCpu: (cpu1.service - cpu0.service) / docs,
    benchCpu: (cpu1.bench - cpu0.bench) / docs,
    pgCpu: (cpu1.postgres - cpu0.postgres) / docs,
    perDoc,
    // Cores this run kept busy (the rest went to the machine's other work): 2 instances can only beat one by
    // what is left free.
    cores: (perDoc * docs) / 1000 / elapsed,
  };
}

// ---- the run ---------------------------------------------------------------------------------------------------

console.log(`bench/team: ${os.cpus().length} cpus (${os.cpus()[0]?.model ?? '?'}), Node ${process.version}, load average ${load()}`);
console.log(`${CLIENTS} clients for ${SECONDS} s per rate, ${SEQUENTIAL} sequential creates per store; 1 render worker per instance; the sample invoice`);

const cluster = await startPgCluster();
if (typeof cluster === 'string') {
  console.error(`bench/team: no PostgreSQL to run on: ${cluster}`);
  process.exit(1);
}
const s3 = await startS3Server([BUCKET]);
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-bench-team-'));
const started: Instance[] = [];
try {
  const url = await cluster.createDatabase();
  postmaster = postmasterPid(cluster.port);
  const teamEnv = {
    DOCLOOM_DATABASE_URL: url,
    ...s3.serveEnv(BUCKET),
  };
  // The token is made in the database (migrated by this open), as `docloom token create` makes it in a data folder.
  const repos = await openPgRepositories(url, { cacheDir: path.join(temp, 'cache') });
  const { token } = await new TokenAccess(repos.tokens).create('bench', false);
  await repos.close();
  const a = await start(path.join(temp, 'a'), teamEnv, token);
  started.push(a);
  const uuid = await upload(a);

  // 1 instance, then 2 on the same database and bucket.
  const one = await throughput([a], uuid);
  const line = (r: typeof one): string =>
    `${r.rate.toFixed(1)} documents/s (p50 ${ms(r.p50)}); CPU per document ${ms(r.perDoc)} (instances ${ms(r.serviceCpu)}, PostgreSQL ${ms(r.pgCpu)}, ` +
    `clients + s3rver ${ms(r.benchCpu)}); ${r.cores.toFixed(2)} of ${os.cpus().length} cores busy with it`;
  console.log(`load ${load()}`);
  console.log(`1 instance:   ${line(one)}`);
  const b = await start(path.join(temp, 'b'), teamEnv, token);
  started.push(b);
  const two = await throughput([a, b], uuid);
  console.log(`load ${load()}`);
  console.log(`2 instances:  ${line(two)}`);
  const ratio = two.rate / one.rate;
  const cpuBound = (os.cpus().length * 1000) / two.perDoc;
  console.log(
    `  CPU bound on ${os.cpus().length} idle cores at ${ms(two.perDoc)} per document: ≤ ${cpuBound.toFixed(1)} documents/s = ${(cpuBound / one.rate).toFixed(2)} × one instance ` +
      `(one instance kept ${one.cores.toFixed(2)} cores busy, two ${two.cores.toFixed(2)})`,
  );
  console.log(`  2 instances ≥ 1.6 × one: ${ratio.toFixed(2)} × — ${verdict(ratio >= 1.6)}`);
  await stop(b);
  started.pop();

  // The per-document cost of PostgreSQL + S3 against the data folder: one instance of each, interleaved rounds.
  const localDir = path.join(temp, 'local');
  fs.mkdirSync(localDir);
  const localToken = await cliToken(localDir, 'bench');
  const local = await start(localDir, {}, localToken);
  started.push(local);
  const localUuid = await upload(local);
  for (let i = 0; i < 30; i++) {
    await create(a, uuid, i);
    await create(local, localUuid, i);
  }
  const teamTimes: number[] = [];
  const localTimes: number[] = [];
  const ROUND = 25;
  for (let done = 0; done < SEQUENTIAL; done += ROUND) {
    for (let i = 0; i < ROUND; i++) teamTimes.push(await create(a, uuid, done + i));
    for (let i = 0; i < ROUND; i++) localTimes.push(await create(local, localUuid, done + i));
  }
  const teamP50 = percentile(teamTimes, 50);
  const localP50 = percentile(localTimes, 50);
  console.log(`load ${load()}`);
  console.log(`sequential create, data folder (lowdb + disk): p50 ${ms(localP50)}, p95 ${ms(percentile(localTimes, 95))}`);
  console.log(`sequential create, PostgreSQL + S3 (s3rver):   p50 ${ms(teamP50)}, p95 ${ms(percentile(teamTimes, 95))}`);
  console.log(`  PostgreSQL + S3 ≤ data folder + 3 ms p50: +${ms(teamP50 - localP50)} — ${verdict(teamP50 - localP50 <= 3)}`);
} finally {
  for (const instance of started) await stop(instance);
  agent.destroy();
  await s3.stop();
  await cluster.stop();
  fs.rmSync(temp, { recursive: true, force: true });
}
