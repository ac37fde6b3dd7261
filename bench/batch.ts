/**
 * Batches (issue #15): the certificate template (resources/templates/certificate.json) over a CSV of N rows, on
 * this machine's cores, against the engine's own sequential single-document rate measured in the same run.
 *
 *   node --import tsx bench/batch.ts [rows=1000] [bigRows=100000] [workers=2]
 *
 * - engine: compileTemplate once, renderPdf of each row in a loop on one thread (the sequential rate);
 * - CLI: `docloom batch … -o DIR --concurrency <workers>` as a child process (bin/docloom.js over dist/ when
 *   `npm run build:server` has been run, as `npx docloom` does; tsx otherwise, which adds its start-up); its
 *   summary line's doc/s (from the first row to the last file written) and its CPU time per document;
 * - API: POST /api/batch with the same CSV to a real service with <workers> render workers, 202 → `completed`;
 *   meanwhile a single POST /api/document every 100 ms, whose latency is compared with the same request idle;
 * - memory: the CLI's peak RSS (/usr/bin/time's maximum resident set, all threads) for `rows` and for `bigRows`.
 * Targets: CLI ≥ 300 doc/s, API ≥ 200 doc/s, peak RSS at bigRows ≤ 1.5 × at rows.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileTemplate, renderPdf } from '../server/engine/index.js';
import { withBenchService } from './lib/service.js';
import { percentile } from './lib/stats.js';

const ROWS = Number(process.argv[2] ?? 1000);
const BIG_ROWS = Number(process.argv[3] ?? 100_000);
const WORKERS = Number(process.argv[4] ?? 2);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CERTIFICATE = path.join(ROOT, 'resources', 'templates', 'certificate.json');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-bench-batch-'));
/** `npx docloom` runs the compiled CLI (bin/docloom.js over dist/): measured that way when dist/ is built. */
const BUILT = fs.existsSync(path.join(ROOT, 'dist', 'server', 'batch', 'cli-batch.js'));
const CLI = BUILT ? [path.join(ROOT, 'bin', 'docloom.js')] : ['--import', 'tsx', path.join(ROOT, 'server', 'cli.ts')];

function quote(s: string): string {
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function row(i: number): Record<string, string | boolean> {
  return { certificate_id: `C-${i}`, recipient: `Person ${i}, Jr.`, course: `Course ${i % 7}`, date: '2026-11-02', 'instructor.name': `Dr. Teacher ${i}`, with_honors: i % 2 === 1, hours: String(i % 40) };
}

/** The CSV (BOM, quoted commas, a dotted header, TRUE/false), written as a stream. */
async function writeCsv(file: string, rows: number): Promise<void> {
  const out = fs.createWriteStream(file);
  out.write('\uFEFF' + Object.keys(row(1)).join(',') + '\r\n');
  for (let i = 1; i <= rows; i++) {
    const line = Object.values(row(i)).map((v) => (typeof v === 'boolean' ? (v ? 'TRUE' : 'false') : quote(v))).join(',') + '\r\n';
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(resolve));
}

function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

const verdicts: string[] = [];
function verdict(ok: boolean, what: string): void {
  const line = `${ok ? 'PASS' : 'MISS'} ${what}`;
  verdicts.push(line);
  console.log(line);
}

/** The engine alone, one thread: the rate a batch is compared with. */
async function engineRate(n: number): Promise<number> {
  const compiled = compileTemplate({ kind: 'json', bytes: fs.readFileSync(CERTIFICATE), delimiters: ['{{', '}}'] });
  if (!compiled.ok) throw new Error('certificate.json does not compile');
  const data = (i: number) => ({ ...row(i), instructor: { name: `Dr. Teacher ${i}` } });
  for (let i = 0; i < 30; i++) await renderPdf(compiled.template, data(i), {});
  const t = performance.now();
  for (let i = 1; i <= n; i++) await renderPdf(compiled.template, data(i), {});
  return (n * 1000) / (performance.now() - t);
}

interface CliRun {
  rate: number;
  wallMs: number;
  cpuMs: number;
  maxRssKb: number;
  summary: string;
}

/** `docloom batch` under /usr/bin/time (peak RSS and CPU of the whole process, every thread). */
async function cli(csv: string, out: string): Promise<CliRun> {
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-f', 'TIME %M %U %S', process.execPath, ...CLI, 'batch', CERTIFICATE, csv, '-o', out, '--name', '{{certificate_id}}', '--concurrency', String(WORKERS)], {
    cwd: ROOT,
    env: { ...process.env, DOCLOOM_DATA_DIR: path.join(tmp, 'data'), DOCLOOM_LIMIT_BATCH_ROWS: String(Math.max(BIG_ROWS, ROWS)) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const wallMs = performance.now() - started;
  const summary = /^(\d+)\/(\d+) done, (\d+) failed, .* (\d+) doc\/s$/m.exec(err);
  const time = /^TIME (\d+) ([\d.]+) ([\d.]+)$/m.exec(err);
  if (code !== 0 || !summary || !time) throw new Error(`docloom batch failed (${code}):\n${err.slice(-2000)}`);
  return { rate: Number(summary[4]), wallMs, cpuMs: (Number(time[2]) + Number(time[3])) * 1000, maxRssKb: Number(time[1]), summary: summary[0] };
}

try {
  console.log(`bench/batch: certificate.json, ${fmt(ROWS)} rows (memory also at ${fmt(BIG_ROWS)}), ${WORKERS} workers, ${os.availableParallelism()} cores, CLI ${BUILT ? 'dist/' : 'tsx (dist/ not built)'}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const small = path.join(tmp, 'rows.csv');
  await writeCsv(small, ROWS);

  const engine = await engineRate(Math.min(ROWS, 500));
  console.log(`engine, one thread, sequential: ${fmt(engine)} doc/s (${fmt(1000 / engine, 2)} ms/doc)`);

  const c = await cli(small, path.join(tmp, 'out-small'));
  const cpuPerDoc = c.cpuMs / ROWS;
  console.log(`CLI ${c.summary}; wall ${fmt(c.wallMs / 1000, 1)} s with start-up; CPU ${fmt(cpuPerDoc, 2)} ms/doc in all (→ ~${fmt((WORKERS * 1000) / cpuPerDoc)} doc/s on ${WORKERS} idle cores); ${fmt(c.rate / engine, 2)}× the engine's sequential rate; peak RSS ${fmt(c.maxRssKb / 1024, 1)} MB`);
  verdict(c.rate >= 300, `CLI ${fmt(c.rate)} doc/s (target ≥ 300)`);
  fs.rmSync(path.join(tmp, 'out-small'), { recursive: true, force: true });

  await withBenchService('batch', { renderWorkers: WORKERS }, async (server) => {
    const uuid = await server.uploadTemplate(fs.readFileSync(CERTIFICATE, 'utf8'), 'certificate.json');
    const single = async (): Promise<number> => {
      const form = new FormData();
      form.append('template_id', uuid);
      form.append('data', JSON.stringify({ ...row(0), instructor: { name: 'Dr. Single' } }));
      const t = performance.now();
      const res = await fetch(`${server.url}/api/document`, { method: 'POST', body: form, headers: server.auth });
      if (res.status !== 201) throw new Error(`single create: ${res.status}`);
      await res.arrayBuffer();
      return performance.now() - t;
    };
    for (let i = 0; i < 20; i++) await single();
    const idle: number[] = [];
    for (let i = 0; i < 30; i++) idle.push(await single());

    const form = new FormData();
    form.append('template_id', uuid);
    form.append('output_filename', '{{certificate_id}}');
    form.append('file', new Blob([fs.readFileSync(small)]), 'rows.csv');
    const t = performance.now();
    const res = await fetch(`${server.url}/api/batch`, { method: 'POST', body: form, headers: server.auth });
    const { batch } = (await res.json()) as { batch: { id: number } };
    if (res.status !== 202) throw new Error(`POST /api/batch: ${res.status}`);
    const during: number[] = [];
    let status = 'queued';
    let done = 0;
    while (status === 'queued' || status === 'processing') {
      during.push(await single());
      await new Promise((r) => setTimeout(r, 100));
      const b = (await (await fetch(`${server.url}/api/batch/${batch.id}`, { headers: server.auth })).json()) as { batch: { status: string; done: number } };
      status = b.batch.status;
      done = b.batch.done;
    }
    const ms = performance.now() - t;
    const rate = (done * 1000) / ms;
    console.log(`API: ${fmt(done)} rows ${status} in ${fmt(ms / 1000, 1)} s (202 → completed, polled every 100 ms) = ${fmt(rate)} doc/s, ${fmt(rate / engine, 2)}× the engine's sequential rate`);
    console.log(`single POST /api/document while the batch ran: p50 ${fmt(percentile(during, 50), 1)} ms, max ${fmt(Math.max(...during), 1)} ms (${during.length} requests); idle p50 ${fmt(percentile(idle, 50), 1)} ms; one render ≈ ${fmt(1000 / engine, 1)} ms`);
    verdict(status === 'completed' && rate >= 200, `API ${fmt(rate)} doc/s (target ≥ 200)`);
  });

  if (BIG_ROWS > 0) {
    const big = path.join(tmp, 'big.csv');
    await writeCsv(big, BIG_ROWS);
    const b = await cli(big, path.join(tmp, 'out-big'));
    fs.rmSync(path.join(tmp, 'out-big'), { recursive: true, force: true });
    const ratio = b.maxRssKb / c.maxRssKb;
    console.log(`CLI ${fmt(BIG_ROWS)} rows: ${b.summary}; peak RSS ${fmt(b.maxRssKb / 1024, 1)} MB vs ${fmt(c.maxRssKb / 1024, 1)} MB at ${fmt(ROWS)} rows (${fmt(ratio, 2)}×)`);
    verdict(ratio <= 1.5, `peak RSS ${fmt(BIG_ROWS)} rows / ${fmt(ROWS)} rows = ${fmt(ratio, 2)}× (target ≤ 1.5×)`);
  }
  console.log(`bench/batch: ${verdicts.filter((v) => v.startsWith('PASS')).length}/${verdicts.length} targets met`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
