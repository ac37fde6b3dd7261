/**
 * Batches (issue #15): the certificate template (resources/templates/certificate.json) over a CSV of N rows, on
 * this machine's cores, against the engine's own sequential single-document rate measured in the same run.
 *
 *   node --import tsx bench/batch.ts [rows=1000] [bigRows=100000] [workers=2] [apiRows=10000]
 *
 * - engine: compileTemplate once, renderPdf of each row in a loop on one thread (the sequential rate);
 * - CLI: `docloom batch … -o DIR --concurrency <workers>` as a child process (bin/docloom.js over dist/ when
 *   `npm run build:server` has been run, as `npx docloom` does; tsx otherwise, which adds its start-up); its
 *   summary line's doc/s (from the first row to the last file written) and its CPU time per document;
 * - API: POST /api/batch with an <apiRows>-row CSV to a real service with <workers> render workers, 202 →
 *   `completed`; meanwhile, one after the other, a single POST /api/document and a GUI preview (POST /api/preview)
 *   every ~50 ms, whose p50 and p95 are compared with the same requests idle plus one render's time: the wall time
 *   a worker spends on one batch row in this batch (workers × elapsed / rows);
 * - memory: the CLI's peak RSS (/usr/bin/time's maximum resident set, all threads) for `rows` and for `bigRows`.
 * Targets: CLI ≥ 300 doc/s, API ≥ 200 doc/s, peak RSS at bigRows ≤ 1.5 × at rows; during the batch, p50 and
 * p95 of each interactive request ≤ its idle p50 / p95 + one row's time.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileTemplate, renderPdf } from '../server/engine/index.js';
import { benchDataDir } from './lib/data-dir.js';
import { withBenchService } from './lib/service.js';
import { percentile } from './lib/stats.js';

const ROWS = Number(process.argv[2] ?? 1000);
const BIG_ROWS = Number(process.argv[3] ?? 100_000);
const WORKERS = Number(process.argv[4] ?? 2);
/** The API batch: 10,000 rows, the size for the priority bound. */
const API_ROWS = Number(process.argv[5] ?? 10_000);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CERTIFICATE = path.join(ROOT, 'resources', 'templates', 'certificate.json');
const tmp = benchDataDir('docloom-bench-batch-');
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

  const apiCsv = path.join(tmp, 'api-rows.csv');
  await writeCsv(apiCsv, API_ROWS);
  await withBenchService('batch', { renderWorkers: WORKERS }, async (server) => {
    const uuid = await server.uploadTemplate(fs.readFileSync(CERTIFICATE, 'utf8'), 'certificate.json');
    const singleData = { ...row(0), instructor: { name: 'Dr. Single' } };
    /** One interactive request, timed from sending to the last byte of its answer. */
    const timed = async (what: 'document' | 'preview'): Promise<number> => {
      const t = performance.now();
      let res: Response;
      if (what === 'document') {
        const form = new FormData();
        form.append('template_id', uuid);
        form.append('data', JSON.stringify(singleData));
        res = await fetch(`${server.url}/api/document`, { method: 'POST', body: form, headers: server.auth });
      } else {
        res = await fetch(`${server.url}/api/preview`, { method: 'POST', body: JSON.stringify({ template_id: uuid, data: singleData }), headers: { ...server.auth, 'content-type': 'application/json' } });
      }
      if (res.status !== (what === 'document' ? 201 : 200)) throw new Error(`${what}: ${res.status}`);
      await res.arrayBuffer();
      return performance.now() - t;
    };
    for (let i = 0; i < 20; i++) await timed('document');
    for (let i = 0; i < 20; i++) await timed('preview');
    const idle = { document: [] as number[], preview: [] as number[] };
    for (let i = 0; i < 40; i++) {
      idle.document.push(await timed('document'));
      idle.preview.push(await timed('preview'));
    }

    const form = new FormData();
    form.append('template_id', uuid);
    form.append('output_filename', '{{certificate_id}}');
    form.append('file', new Blob([fs.readFileSync(apiCsv)]), 'rows.csv');
    const t = performance.now();
    const res = await fetch(`${server.url}/api/batch`, { method: 'POST', body: form, headers: server.auth });
    const { batch } = (await res.json()) as { batch: { id: number } };
    if (res.status !== 202) throw new Error(`POST /api/batch: ${res.status}`);
    const during = { document: [] as number[], preview: [] as number[] };
    let status = 'queued';
    let done = 0;
    let lastPoll = 0;
    while (status === 'queued' || status === 'processing') {
      // Measured only while the batch is under way (its first row done, its last not yet): a request in the
      // batch's first or last moments would not be "behind" it.
      const measuring = done > 0 && done < API_ROWS - WORKERS * 4;
      const d = await timed('document');
      const p = await timed('preview');
      if (measuring) {
        during.document.push(d);
        during.preview.push(p);
      }
      await new Promise((r) => setTimeout(r, 50));
      if (performance.now() - lastPoll >= 100) {
        lastPoll = performance.now();
        const b = (await (await fetch(`${server.url}/api/batch/${batch.id}`, { headers: server.auth })).json()) as { batch: { status: string; done: number } };
        status = b.batch.status;
        done = b.batch.done;
      }
    }
    const ms = performance.now() - t;
    const rate = (done * 1000) / ms;
    console.log(`API: ${fmt(done)} rows ${status} in ${fmt(ms / 1000, 1)} s (202 → completed, polled every 100 ms) = ${fmt(rate)} doc/s, ${fmt(rate / engine, 2)}× the engine's sequential rate; load average ${os.loadavg()[0].toFixed(1)}`);
    verdict(status === 'completed' && rate >= 200, `API ${fmt(rate)} doc/s (target ≥ 200)`);
    // "One render's time" (docs/benchmarks.md, "Batches"): the wall time a render worker spends on one batch row
    // during this batch — workers × elapsed / rows — the most a request reaching a worker in the middle of a row
    // can wait for it. The bound: latency during the batch ≤ the same request's idle latency + that.
    const rowMs = (WORKERS * ms) / Math.max(1, done);
    for (const what of ['document', 'preview'] as const) {
      const name = what === 'document' ? 'single POST /api/document' : 'GUI preview POST /api/preview';
      const [i50, i95, d50, d95] = [percentile(idle[what], 50), percentile(idle[what], 95), percentile(during[what], 50), percentile(during[what], 95)];
      console.log(`${name}: idle p50 ${fmt(i50, 1)} / p95 ${fmt(i95, 1)} ms; during the ${fmt(API_ROWS)}-row batch p50 ${fmt(d50, 1)} / p95 ${fmt(d95, 1)} / max ${fmt(Math.max(...during[what]), 1)} ms (${during[what].length} requests); one batch row on a worker ${fmt(rowMs, 1)} ms`);
      verdict(during[what].length >= 20 && d50 <= i50 + rowMs, `${name} p50 during the batch ${fmt(d50, 1)} ms ≤ idle p50 ${fmt(i50, 1)} + one row ${fmt(rowMs, 1)} = ${fmt(i50 + rowMs, 1)} ms`);
      verdict(during[what].length >= 20 && d95 <= i95 + rowMs, `${name} p95 during the batch ${fmt(d95, 1)} ms ≤ idle p95 ${fmt(i95, 1)} + one row ${fmt(rowMs, 1)} = ${fmt(i95 + rowMs, 1)} ms`);
    }
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
