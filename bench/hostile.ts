/**
 * Hostile input at the default limits (issue #10) against a real `docloom serve` (bin/docloom.js over dist/, as
 * users run it): the largest picture allowed (40 megapixels, as a data URI inside the 10 MB body), a .docx whose
 * document.xml is over 30 MB (inside the zip limits), a 10 MB data body, and a 1 MB word with no break in it.
 * Each case runs against a fresh, warmed-up service (so no case is charged for what another left behind): its peak RSS (all
 * its threads: /proc/<pid>/status VmHWM, reset as the case starts) ≤ 1 GB, and GET /api/info's p99 latency, polled
 * meanwhile, ≤ 250 ms.
 *
 *   npm run build:server && node --import tsx bench/hostile.ts      (npm run bench:hostile)
 */
import os from 'node:os';
import { bigData, bigDocx, bigPngDataUri } from './lib/hostile-files.js';
import { memoryOf, resetPeak } from './lib/memory.js';
import { requireDist, startServe, type ServeProcess } from './lib/serve.js';
import { percentile } from './lib/stats.js';
import { jsonTemplate } from '../test/service/support.js';

const RSS_TARGET_MB = 1024;
const P99_TARGET_MS = 250;

requireDist('bench/hostile');

/** The service's memory; /proc must be readable (the benchmark's RSS target is Linux's). */
function status(pid: number): { rssMb: number; hwmMb: number } {
  const memory = memoryOf(pid);
  if (!memory) throw new Error(`bench/hostile: /proc/${pid}/status cannot be read`);
  return memory;
}

/** A fresh `docloom serve` over a new data dir, with a token: each case gets its own, so no case pays for another. */
const startService = (): Promise<ServeProcess> => startServe('hostile');

let svc: ServeProcess;

async function upload(name: string, bytes: Uint8Array): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const res = await fetch(`${svc.base}/api/template`, { method: 'POST', body: form, headers: svc.auth });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function createDocument(uuid: string, data: string): Promise<string> {
  const res = await fetch(`${svc.base}/api/document`, {
    method: 'POST',
    headers: { ...svc.auth, 'content-type': 'application/json' },
    body: `{"template_id":${JSON.stringify(uuid)},"data":${data}}`,
  });
  const body = (await res.json()) as { document?: { status: string; pages: number | null; error: { code: string } | null }; message?: string };
  const doc = body.document;
  if (!doc) return `${res.status} ${body.message ?? ''}`.trim();
  return `${res.status} ${doc.status}${doc.pages ? `, ${doc.pages} pages` : ''}${doc.error ? ` (${doc.error.code})` : ''}`;
}

/** Runs one case while polling GET /api/info every 25 ms and sampling the service's RSS every 50 ms. */
/**
 * Starts a service, warms it up (a first template upload and document: the engine loaded on the main thread and in
 * the render worker, as in a service that has been running), runs `prepare` (the case's templates), then measures
 * `work`.
 */
async function measure(name: string, prepare: () => Promise<string>, work: (uuid: string) => Promise<string>): Promise<boolean> {
  svc = await startService();
  try {
    await createDocument(await templateUuid('warm.json', ['Warm-up {{x}}']), '{"x":"y"}');
    const uuid = await prepare();
    return await measureOn(svc, name, () => work(uuid));
  } finally {
    const errors = svc.errors().trim();
    await svc.stop();
    if (errors) console.log(`  service stderr: ${errors.slice(0, 1000)}`);
  }
}

async function templateUuid(name: string, lines: string[]): Promise<string> {
  const res = await upload(name, jsonTemplate(lines));
  if (res.status !== 201) throw new Error(`template upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body.template as { uuid: string }).uuid;
}

const IMAGE_LINES = ['Picture:', '{{%photo:400x250}}'];
const TEXT_LINES = ['{{title}}', '{{#rows}}', '{{description}} {{qty}} {{amount}}', '{{/rows}}', '{{word}}'];

async function measureOn(s: ServeProcess, name: string, work: () => Promise<string>): Promise<boolean> {
  const { pid, base, auth } = s;
  const canReset = resetPeak(pid);
  let peakSampled = status(pid).rssMb;
  let running = true;
  const latencies: number[] = [];
  const sampler = setInterval(() => {
    peakSampled = Math.max(peakSampled, status(pid).rssMb);
  }, 50);
  const poller = (async () => {
    while (running) {
      const t = performance.now();
      const res = await fetch(`${base}/api/info`, { headers: auth });
      await res.arrayBuffer();
      latencies.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  const started = performance.now();
  let outcome: string;
  try {
    outcome = await work();
  } catch (err) {
    outcome = `error: ${(err as Error).message}`;
  }
  const seconds = (performance.now() - started) / 1000;
  running = false;
  await poller;
  clearInterval(sampler);
  const peak = Math.max(peakSampled, canReset ? status(pid).hwmMb : 0);
  const p99 = percentile(latencies, 99);
  const ok = peak <= RSS_TARGET_MB && p99 <= P99_TARGET_MS;
  console.log(
    `${ok ? 'PASS' : 'MISS'} ${name}: peak RSS ${peak.toFixed(0)} MB (≤ ${RSS_TARGET_MB}), /api/info p99 ${p99.toFixed(0)} ms over ${latencies.length} requests (≤ ${P99_TARGET_MS}); ${outcome} in ${seconds.toFixed(1)} s`,
  );
  return ok;
}

let allOk = true;
console.log(`cpus ${os.cpus().length}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; a fresh service per case`);

const png = bigPngDataUri(8000, 5000);
allOk =
  (await measure(
    `40-megapixel PNG (${(png.length / 1e6).toFixed(1)} MB data URI)`,
    () => templateUuid('image.json', IMAGE_LINES),
    (uuid) => createDocument(uuid, JSON.stringify({ photo: png })),
  )) && allOk;

const docx = bigDocx(32 * 1024 * 1024);
allOk =
  (await measure(
    `.docx with a ${(docx.xmlBytes / 1024 / 1024).toFixed(1)} MB document.xml (${(docx.bytes.length / 1024 / 1024).toFixed(1)} MB file)`,
    async () => '',
    async () => {
      const res = await upload('big.docx', docx.bytes);
      return `${res.status}${res.status === 201 ? '' : ` ${String(res.body.message).slice(0, 120)}`}`;
    },
  )) && allOk;

// 10,000 rows (rows_per_list) of about 1 KB: all of it is rendered, unless a render limit stops it first.
const data = JSON.stringify(bigData(10 * 1024 * 1024 - 64 * 1024));
allOk =
  (await measure(`${(data.length / 1024 / 1024).toFixed(1)} MB data body, 10,000 rows`, () => templateUuid('text.json', TEXT_LINES), (uuid) => createDocument(uuid, data))) &&
  allOk;

const word = 'x'.repeat(1024 * 1024);
allOk =
  (await measure('1 MB unbroken word', () => templateUuid('text.json', TEXT_LINES), (uuid) => createDocument(uuid, JSON.stringify({ title: 'Word', rows: [], word })))) &&
  allOk;

// A brace flood: tens of thousands of unclosed `{{` in one template → a 422 of at most 64 KB within 1 s.
const flood = { status: 0, bytes: 0, ms: 0 };
allOk =
  (await measure('50,000 paragraphs with an unclosed {{', async () => '', async () => {
    const form = new FormData();
    form.append('file', new Blob([jsonTemplate(Array.from({ length: 50_000 }, () => 'Dear {{name'))]), 'flood.json');
    const started = performance.now();
    const res = await fetch(`${svc.base}/api/template`, { method: 'POST', body: form, headers: svc.auth });
    const text = await res.text();
    Object.assign(flood, { status: res.status, bytes: Buffer.byteLength(text), ms: performance.now() - started });
    return `${res.status}`;
  })) && allOk;
const floodOk = flood.status === 422 && flood.bytes <= 64 * 1024 && flood.ms < 1000;
console.log(
  `${floodOk ? 'PASS' : 'MISS'} brace flood answer: ${flood.status} (422), ${(flood.bytes / 1024).toFixed(1)} KB (≤ 64 KB) in ${flood.ms.toFixed(0)} ms (< 1000 ms)`,
);
allOk = floodOk && allOk;

console.log(allOk ? 'hostile input: all PASS' : 'hostile input: some MISS');
