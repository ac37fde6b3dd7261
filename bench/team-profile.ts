/**
 * Where a synchronous `POST /api/document` spends its time on the team server (issue #16): one `docloom serve` over a
 * throwaway PostgreSQL cluster and s3rver (as bench/team.ts), and one over a data folder, both with
 * DOCLOOM_PROFILE=1 (services/profile.ts); sequential creates of the sample invoice, interleaved, and the p50 of
 * each phase of their Server-Timing headers. For scale, in the same run: a bare PUT of the same PDF bytes to the
 * same s3rver from the same SDK client settings, a bare `SELECT 1` round trip, and a bare NOTIFY → LISTEN delivery.
 *
 *   npm run build:server && node --import tsx bench/team-profile.ts [creates=200]
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import pg from 'pg';
import { BUILT, cliToken, ROOT, startServe, type ServeChild } from '../scripts/lib/serve-child.js';
import { createS3Client } from '../server/store/files/s3.js';
import { openPgRepositories } from '../server/store/pg/index.js';
import { TokenAccess } from '../server/services/token-access.js';
import { startPgCluster } from '../test/helpers/pg-cluster.js';
import { startS3Server } from '../test/helpers/s3-server.js';
import { percentile } from './lib/stats.js';

if (!BUILT) {
  console.error('bench/team-profile: dist/ is missing; run `npm run build:server` first.');
  process.exit(1);
}

const CREATES = Number(process.argv[2] ?? 200);
const BUCKET = 'docloom-profile';
const load = (): string => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const p50 = (values: number[]): string => `${percentile(values, 50).toFixed(2)} ms`;

const template = fs.readFileSync(path.join(ROOT, 'resources', 'templates', 'invoice.json'));
const sample = JSON.parse(fs.readFileSync(path.join(ROOT, 'resources', 'templates', 'invoice.data.json'), 'utf8')) as Record<string, unknown>;
const agent = new http.Agent({ keepAlive: true });

interface Target {
  label: string;
  serve: ServeChild;
  port: number;
  auth: { authorization: string };
  uuid: string;
  times: number[];
  timings: string[];
}

/** One synchronous create; keeps its client time and its Server-Timing header. Answers the document's id. */
function create(t: Target, n: number): Promise<number> {
  const body = Buffer.from(new URLSearchParams({ template_id: t.uuid, data: JSON.stringify({ ...sample, number: `INV-${n}` }) }).toString());
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent, host: '127.0.0.1', port: t.port, path: '/api/document', method: 'POST', headers: { ...t.auth, 'content-type': 'application/x-www-form-urlencoded', 'content-length': body.length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 201 || !text.includes('"status":"completed"')) return reject(new Error(`create failed: ${res.statusCode} ${text.slice(0, 300)}`));
          t.times.push(performance.now() - started);
          t.timings.push(String(res.headers['server-timing'] ?? ''));
          resolve((JSON.parse(text) as { document: { id: number } }).document.id);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function start(label: string, dataDir: string, env: Record<string, string>, token: string): Promise<Target> {
  const serve = await startServe(dataDir, { DOCLOOM_LOG_LEVEL: 'error', DOCLOOM_RENDER_WORKERS: '1', DOCLOOM_PROFILE: '1', ...env });
  const port = Number(new URL(serve.url).port);
  const auth = { authorization: `Bearer ${token}` };
  const form = new FormData();
  form.append('file', new Blob([template]), 'invoice.json');
  const res = await fetch(`http://127.0.0.1:${port}/api/template`, { method: 'POST', body: form, headers: auth });
  const uuid = ((await res.json()) as { template: { uuid: string } }).template.uuid;
  return { label, serve, port, auth, uuid, times: [], timings: [] };
}

/** Per phase, in order of first appearance: the p50 over the requests (a phase absent from a request counts 0). */
function phases(t: Target): string {
  const names: string[] = [];
  const rows = t.timings.map((header) => {
    const row = new Map<string, number>();
    for (const part of header.split(',')) {
      const m = /^\s*([\w-]+);dur=([\d.]+)/.exec(part);
      if (!m) continue;
      if (!names.includes(m[1])) names.push(m[1]);
      row.set(m[1], Number(m[2]));
    }
    return row;
  });
  return names.map((name) => `  ${name.padEnd(22)} ${p50(rows.map((r) => r.get(name) ?? 0))}`).join('\n');
}

console.log(`bench/team-profile: ${os.cpus().length} cpus, Node ${process.version}, load average ${load()}; ${CREATES} sequential creates per store, interleaved in rounds of 25`);
const cluster = await startPgCluster();
if (typeof cluster === 'string') {
  console.error(`bench/team-profile: no PostgreSQL: ${cluster}`);
  process.exit(1);
}
const s3 = await startS3Server([BUCKET]);
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-team-profile-'));
const targets: Target[] = [];
try {
  const url = await cluster.createDatabase();
  const repos = await openPgRepositories(url, { cacheDir: path.join(temp, 'cache') });
  const { token } = await new TokenAccess(repos.tokens).create('profile', false);
  await repos.close();
  const team = await start('PostgreSQL + S3 (s3rver)', path.join(temp, 'team'), { DOCLOOM_DATABASE_URL: url, ...s3.serveEnv(BUCKET) }, token);
  targets.push(team);
  const localDir = path.join(temp, 'local');
  fs.mkdirSync(localDir);
  const local = await start('data folder (lowdb + disk)', localDir, {}, await cliToken(localDir, 'profile'));
  targets.push(local);

  let lastId = 0;
  for (let i = 0; i < 30; i++) {
    lastId = await create(team, i);
    await create(local, i);
  }
  for (const t of targets) {
    t.times.length = 0;
    t.timings.length = 0;
  }
  for (let done = 0; done < CREATES; done += 25) {
    for (const t of targets) for (let i = 0; i < 25; i++) await create(t, done + i);
  }

  // The bare costs, for scale: the same PDF's bytes PUT to the same s3rver, a round trip, a notification.
  const pdf = await (await fetch(`http://127.0.0.1:${team.port}/api/document/${lastId}/download`, { headers: team.auth })).arrayBuffer();
  const client = createS3Client(s3.settings(BUCKET));
  const put: number[] = [];
  for (let i = 0; i < 100; i++) {
    const t = performance.now();
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `bare/${i % 10}.pdf`, Body: new Uint8Array(pdf), ContentLength: pdf.byteLength, ContentType: 'application/pdf' }));
    put.push(performance.now() - t);
  }
  client.destroy();
  const db = new pg.Pool({ connectionString: url, max: 2 });
  const roundTrip: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    await db.query('SELECT 1');
    roundTrip.push(performance.now() - t);
  }
  const listener = await db.connect();
  await listener.query('LISTEN bench_profile');
  const notify: number[] = [];
  for (let i = 0; i < 100; i++) {
    const heard = new Promise<void>((resolve) => listener.once('notification', () => resolve()));
    const t = performance.now();
    await db.query(`SELECT pg_notify('bench_profile', '')`);
    await heard;
    notify.push(performance.now() - t);
  }
  listener.release();
  await db.end();

  console.log(`load ${load()}`);
  for (const t of targets) console.log(`${t.label}: client p50 ${p50(t.times)}, p95 ${percentile(t.times, 95).toFixed(2)} ms; Server-Timing p50 per phase:\n${phases(t)}`);
  console.log(`bare PUT of the same ${pdf.byteLength} bytes to s3rver (SDK client in this process): p50 ${p50(put)}`);
  console.log(`bare PostgreSQL round trip (SELECT 1): p50 ${p50(roundTrip)}; NOTIFY → LISTEN delivered (statement + delivery): p50 ${p50(notify)}`);
} finally {
  for (const t of targets) {
    if (t.serve.child.exitCode === null) t.serve.child.kill('SIGTERM');
    await t.serve.exited;
  }
  agent.destroy();
  await s3.stop();
  await cluster.stop();
  fs.rmSync(temp, { recursive: true, force: true });
}
