/**
 * Big documents stay linear and bounded (issue 14): the sample invoice template (resources/templates/invoice.json)
 * with a table of 1,000 and of 10,000 rows, rendered by the engine (bind + layout + paint, as a render worker does)
 * with the list cap and the page cap raised for the benchmark only. Each size runs in a fresh Node process, so its
 * peak RSS (VmHWM of /proc/self/status; maxRSS elsewhere) is its own; the process renders a 20-row invoice first
 * (engine loaded and warm, as in a render worker) and reports the RSS before and after the big render, and the V8
 * heap and external memory while the result is still held.
 *
 *   npm run build:server && node --import tsx bench/big-table.ts [small=1000] [big=10000]
 *
 * The children run the built JavaScript (dist/) under plain node, the render in a worker thread started with the
 * render workers' heap limits (services/render-worker-limits.ts), as a render worker does it.
 *
 * Targets: time(big) / time(small) ≤ 1.2 × big/small (≤ 12× for 10× the rows); peak RSS ≤ 300 MB at 10,000 rows.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { RENDER_WORKER_LIMITS } from '../server/services/render-worker-limits.js';
import { memoryOf, resetPeak } from './lib/memory.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The checkout (dist/bench/ when this runs as built JavaScript, bench/ under tsx). */
const ROOT = path.basename(path.dirname(HERE)) === 'dist' ? path.resolve(HERE, '..', '..') : path.resolve(HERE, '..');
const RSS_TARGET_MB = 300;

interface Sample {
  rows: number;
  ms: number;
  pages: number;
  bytes: number;
  rssBeforeMb: number;
  peakRssMb: number;
  heapUsedMb: number;
  externalMb: number;
  arrayBuffersMb: number;
}

/** This process's peak RSS: VmHWM where /proc has it, the OS's maxRSS elsewhere. */
function peakRssMb(): number {
  return memoryOf(process.pid)?.hwmMb ?? process.resourceUsage().maxRSS / 1024;
}

/** The render of `rows` rows, measured (in the child's worker thread). */
async function render(rows: number): Promise<Sample> {
  const engine = await import('../server/engine/index.js');
  const { DEFAULT_LIMITS } = await import('../server/config.js');
  const fonts = path.join(ROOT, 'resources', 'fonts');
  const { useFontsDir } = await import('../server/services/engine.js');
  useFontsDir(fonts);
  const template = fs.readFileSync(path.join(ROOT, 'resources', 'templates', 'invoice.json'));
  const sample = JSON.parse(fs.readFileSync(path.join(ROOT, 'resources', 'templates', 'invoice.data.json'), 'utf8')) as Record<string, unknown> & { items: Array<Record<string, string>> };
  const compiled = engine.compileTemplate({ kind: 'json', bytes: template, delimiters: ['{{', '}}'] });
  if (!compiled.ok) throw new Error(compiled.errors.map((e) => e.message).join('; '));
  const data = (n: number) => ({
    ...sample,
    logo: '',
    items: Array.from({ length: n }, (_, i) => ({ ...sample.items[i % sample.items.length], description: `${sample.items[i % sample.items.length].description} #${i + 1}` })),
  });
  const options = {
    limits: { ...DEFAULT_LIMITS, rowsPerList: Math.max(rows, DEFAULT_LIMITS.rowsPerList) },
    renderLimits: { pages: 1_000_000, ms: 600_000 },
  };
  // Warm: the engine loaded and one ordinary invoice rendered, as in a render worker.
  await engine.renderPdf(compiled.template, data(20), options);
  const input = data(rows);
  (globalThis as { gc?: () => void }).gc?.();
  const rssBefore = process.memoryUsage().rss / 2 ** 20;
  // Where Linux allows it, the peak is the render's alone (else it includes the start-up).
  resetPeak(process.pid);
  const t0 = performance.now();
  const result = await engine.renderPdf(compiled.template, input, options);
  const ms = performance.now() - t0;
  const mem = process.memoryUsage();
  return {
    rows,
    ms,
    pages: result.pages,
    bytes: result.bytes.byteLength,
    rssBeforeMb: rssBefore,
    peakRssMb: peakRssMb(),
    heapUsedMb: mem.heapUsed / 2 ** 20,
    externalMb: mem.external / 2 ** 20,
    arrayBuffersMb: mem.arrayBuffers / 2 ** 20,
  };
}

/** The child process: the render in a worker thread with the render workers' limits; prints its Sample. */
async function child(rows: number): Promise<void> {
  const sample = await new Promise<Sample>((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { rows }, resourceLimits: RENDER_WORKER_LIMITS });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the render worker exited with code ${code} before its figures`)));
  });
  console.log(JSON.stringify(sample));
  process.exit(0);
}

const BUILT_FILE = path.join(ROOT, 'dist', 'bench', 'big-table.js');
const BUILT = fs.existsSync(BUILT_FILE) ? BUILT_FILE : null;

function run(built: string, rows: number): Sample {
  // The child runs what a render worker runs: the built JavaScript (dist/, after `npm run build:server`) under plain
  // node. Under tsx the process held ~50 MB more before the render (its loader, the sources and their maps), which
  // is the benchmark's memory, not the engine's — and Node 20 does not pass tsx on to a worker thread.
  const out = spawnSync(process.execPath, ['--expose-gc', built, '--child', String(rows)], { encoding: 'utf8', cwd: ROOT, maxBuffer: 1 << 20 });
  if (out.status !== 0) throw new Error(`bench/big-table: the ${rows}-row child failed:\n${out.stderr}`);
  return JSON.parse(out.stdout.trim().split('\n').at(-1)!) as Sample;
}

if (!isMainThread) {
  parentPort!.postMessage(await render((workerData as { rows: number }).rows));
} else if (process.argv[2] === '--child') {
  await child(Number(process.argv[3]));
} else if (!BUILT) {
  console.error('bench/big-table: dist/ is missing; run `npm run build:server` first.');
  process.exit(1);
} else {
  const small = Number(process.argv[2] ?? 1000);
  const big = Number(process.argv[3] ?? 10_000);
  console.log(`bench/big-table: ${os.cpus().length} cpus, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`each size in a fresh node running ${path.relative(ROOT, BUILT)}: the built engine in a worker thread with the render workers' limits (${JSON.stringify(RENDER_WORKER_LIMITS)}), as a render worker runs it`);
  const results = [run(BUILT, small), run(BUILT, big)];
  for (const r of results) {
    console.log(
      `${r.rows.toLocaleString('en-US')} rows: ${r.ms.toFixed(0)} ms, ${r.pages} pages, ${(r.bytes / 2 ** 20).toFixed(1)} MB PDF; ` +
        `RSS ${r.rssBeforeMb.toFixed(0)} MB before, peak ${r.peakRssMb.toFixed(0)} MB; after: heap ${r.heapUsedMb.toFixed(0)} MB, external ${r.externalMb.toFixed(0)} MB (array buffers ${r.arrayBuffersMb.toFixed(0)} MB)`,
    );
  }
  const [s, b] = results;
  const ratio = b.ms / s.ms;
  const allowed = 1.2 * (big / small);
  console.log(`${ratio <= allowed ? 'PASS' : 'MISS'} time ratio ${big.toLocaleString('en-US')}/${small.toLocaleString('en-US')} rows: ${ratio.toFixed(1)}× (target ≤ ${allowed.toFixed(0)}×)`);
  console.log(`${b.peakRssMb <= RSS_TARGET_MB ? 'PASS' : 'MISS'} peak RSS at ${big.toLocaleString('en-US')} rows: ${b.peakRssMb.toFixed(0)} MB (target ≤ ${RSS_TARGET_MB} MB)`);
  console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
}
