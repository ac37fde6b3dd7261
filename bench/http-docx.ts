/**
 * Where each millisecond of a document over HTTP goes (issue #14): a one-page invoice made from a Word (.docx)
 * template built here (a header, a footer, a 20-row table), and the same for the sample .json invoice
 * (resources/templates/invoice.json), against a real `docloom serve` with its default settings (bin/docloom.js
 * over dist/). One run prints, per template:
 *
 * - the engine's own time for the same document in this process (compiled once; bind + layout + paint, median);
 * - sequential synchronous POST /api/document (multipart, as the interface sends it), p50/p95;
 * - documents/s with 8 concurrent clients, and the service's CPU time per document (/proc: all its threads, and its
 *   main thread — the event loop — alone);
 * - the service's own time per document, phase by phase: a second service with DOCLOOM_PROFILE=1 answers every
 *   create with a Server-Timing header (services/profile.ts), and the p50 of each phase is printed.
 *
 * and PASS/MISS against the issue's targets. The figures depend on how busy the machine is: the load average is
 * printed with them.
 *
 * Further arguments add comparisons, in the same run (before/after figures of a change): `workers=<n>` is the
 * same service started with DOCLOOM_RENDER_WORKERS=<n>; `root=<folder>` is the `docloom serve` of another checkout
 * (built, its node_modules beside it), e.g. the commit before a change, with its own default settings.
 *
 *   npm run build:server && node --import tsx bench/http-docx.ts [sequential=300] [seconds=8] [workers=1] [root=../before]
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { compileTemplate, renderPdf, type CompiledTemplate } from '../server/engine/index.js';
import { buildDocx, p } from '../test/docx/build-docx.js';
import { cpuMs, mainThreadCpuMs, requireDist, ROOT, startServe, type ServeProcess } from './lib/serve.js';
import { percentile } from './lib/stats.js';

requireDist('bench/http-docx');

const SEQUENTIAL = Number(process.argv[2] ?? 300);
const SECONDS = Number(process.argv[3] ?? 8);
const COMPARISONS = process.argv.slice(4).map((arg): { label: string; env: Record<string, string>; root: string | undefined } => {
  const m = /^(workers|root)=(.+)$/.exec(arg);
  if (!m) throw new Error(`bench/http-docx: unknown comparison "${arg}" (workers=<n> or root=<folder>)`);
  return m[1] === 'workers'
    ? { label: `DOCLOOM_RENDER_WORKERS=${m[2]}`, env: { DOCLOOM_RENDER_WORKERS: m[2] }, root: undefined }
    : { label: `the checkout at ${m[2]}`, env: {}, root: path.resolve(m[2]) };
});
const CLIENTS = 8;

// ---- the documents -------------------------------------------------------------------------------------------

const CELL = (text: string, width: number, rPr = ''): string =>
  `<w:tc><w:tcPr><w:tcW w:w="${width}" w:type="dxa"/></w:tcPr>${p(text, '', rPr)}</w:tc>`;
const WIDTHS = [4600, 1000, 1600, 1826];
const ROW = (cells: string[], rPr = ''): string => `<w:tr>${cells.map((c, i) => CELL(c, WIDTHS[i], rPr)).join('')}</w:tr>`;
const BORDERS =
  '<w:tblBorders><w:top w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:left w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:bottom w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:right w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:insideH w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:insideV w:val="single" w:sz="4" w:space="0" w:color="auto"/></w:tblBorders>';
const SECT =
  '<w:sectPr><w:headerReference w:type="default" r:id="rId_header1"/><w:footerReference w:type="default" r:id="rId_footer1"/><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>';

/** The one-page Word invoice: a header, a footer, addresses, a 20-row items table (a row loop), totals. */
function invoiceDocx(): Uint8Array {
  return buildDocx({
    body:
      p('INVOICE {{number}}', '<w:jc w:val="right"/>', '<w:b/><w:sz w:val="40"/>') +
      p('Date {{date}} · due {{due_date}}', '<w:jc w:val="right"/>') +
      p('{{seller.name}}', '', '<w:b/>') +
      p('{{seller.address}}') +
      p('Bill to: {{buyer.name}}', '', '<w:b/>') +
      p('{{buyer.address}}') +
      `<w:tbl><w:tblPr><w:tblW w:w="9026" w:type="dxa"/>${BORDERS}</w:tblPr><w:tblGrid>${WIDTHS.map((w) => `<w:gridCol w:w="${w}"/>`).join('')}</w:tblGrid>` +
      ROW(['Description', 'Qty', 'Unit price', 'Amount'], '<w:b/>') +
      ROW(['{{#items}}{{description}}', '{{qty}}', '{{unit_price}}', '{{amount}}{{/items}}']) +
      '</w:tbl>' +
      p('Subtotal {{subtotal}}', '<w:jc w:val="right"/>') +
      p('VAT 20% {{vat}}', '<w:jc w:val="right"/>') +
      p('Total due {{total}}', '<w:jc w:val="right"/>', '<w:b/>'),
    sectPr: SECT,
    headers: { header1: p('Northwind Studio LLC · Invoice {{number}}', '<w:jc w:val="right"/>', '<w:sz w:val="16"/>') },
    footers: { footer1: p('IBAN US12 3456 7890 1234 · Thank you for your business.', '<w:jc w:val="center"/>', '<w:sz w:val="16"/>') },
  });
}

function invoiceDocxData(n: number): Record<string, unknown> {
  return {
    number: `INV-2026-${String(n).padStart(4, '0')}`,
    date: '22 November 2026',
    due_date: '22 December 2026',
    seller: { name: 'Northwind Studio LLC', address: '1200 Harbor Street, Suite 4, Seattle, WA 98101' },
    buyer: { name: 'Contoso Trading Ltd.', address: '48 Market Lane, Bristol BS1 4DJ, United Kingdom' },
    items: Array.from({ length: 20 }, (_, i) => ({
      description: `Consulting services, item ${i + 1} – phase ${i + 1}`,
      qty: String(i + 1),
      unit_price: `€${(12.5 * (i + 1)).toFixed(2)}`,
      amount: `€${(12.5 * (i + 1) * (i + 1)).toFixed(2)}`,
    })),
    subtotal: '€35,875.00',
    vat: '€7,175.00',
    total: '€43,050.00',
  };
}

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

/** The engine alone, in this process: the template compiled once, then bind + layout + paint per document. */
async function engineMs(c: Case, runs: number): Promise<number> {
  const compiled = compileTemplate({ kind: c.filename.endsWith('.docx') ? 'docx' : 'json', bytes: c.template });
  if (!compiled.ok) throw new Error(`${c.filename}: ${JSON.stringify(compiled.errors)}`);
  const template: CompiledTemplate = compiled.template;
  const one = async (n: number): Promise<number> => {
    const t = performance.now();
    const out = await renderPdf(template, c.data(n), { metadata: { title: 'Invoice', creator: 'docloom' } });
    if (out.pages !== 1) throw new Error(`${c.filename}: ${out.pages} pages, expected 1`);
    return performance.now() - t;
  };
  for (let i = 0; i < 30; i++) await one(i);
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
  serverTiming?: string;
}

/** One synchronous create over a kept-alive connection; throws unless 201 completed. */
function create(svc: ServeProcess, uuid: string, data: Record<string, unknown>): Promise<Created> {
  const { body, type } = multipart(uuid, data);
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent, host: '127.0.0.1', port: svc.port, path: '/api/document', method: 'POST', headers: { ...svc.auth, 'content-type': type, 'content-length': body.length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const elapsed = performance.now() - t;
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 201 || !text.includes('"status":"completed"')) {
            reject(new Error(`create failed: ${res.statusCode} ${text.slice(0, 500)}`));
            return;
          }
          const st = res.headers['server-timing'];
          resolve({ ms: elapsed, serverTiming: typeof st === 'string' ? st : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
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

async function sequential(svc: ServeProcess, uuid: string, c: Case, runs: number): Promise<{ times: number[]; timings: string[]; cpuPerDoc: number; loopCpuPerDoc: number }> {
  for (let i = 0; i < 30; i++) await create(svc, uuid, c.data(i));
  const times: number[] = [];
  const timings: string[] = [];
  const cpu0 = cpuMs(svc.pid);
  const loop0 = mainThreadCpuMs(svc.pid);
  for (let i = 0; i < runs; i++) {
    const r = await create(svc, uuid, c.data(i));
    times.push(r.ms);
    if (r.serverTiming) timings.push(r.serverTiming);
  }
  return { times, timings, cpuPerDoc: (cpuMs(svc.pid) - cpu0) / runs, loopCpuPerDoc: (mainThreadCpuMs(svc.pid) - loop0) / runs };
}

async function concurrent(svc: ServeProcess, uuid: string, c: Case, seconds: number): Promise<{ rate: number; p50: number; cpuPerDoc: number; loopCpuPerDoc: number }> {
  // Warm-up with the same concurrency: every worker has the template compiled.
  await Promise.all(Array.from({ length: CLIENTS * 2 }, (_, i) => create(svc, uuid, c.data(i))));
  const latencies: number[] = [];
  let n = 0;
  const cpu0 = cpuMs(svc.pid);
  const loop0 = mainThreadCpuMs(svc.pid);
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < until) latencies.push((await create(svc, uuid, c.data(n++))).ms);
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { rate: latencies.length / elapsed, p50: median(latencies), cpuPerDoc: (cpuMs(svc.pid) - cpu0) / latencies.length, loopCpuPerDoc: (mainThreadCpuMs(svc.pid) - loop0) / latencies.length };
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
console.log(`${SEQUENTIAL} sequential creates, ${CLIENTS} clients for ${SECONDS} s; docloom serve with default settings (bin/docloom.js over dist/)`);

const engine = new Map<Case, number>();
for (const c of CASES) engine.set(c, await engineMs(c, SEQUENTIAL));

interface Result {
  seq: { times: number[]; cpuPerDoc: number; loopCpuPerDoc: number };
  conc: { rate: number; p50: number; cpuPerDoc: number; loopCpuPerDoc: number };
  profile?: { times: number[]; timings: string[] };
  compare: Array<{ label: string; p50: number; p95: number; rate: number; concP50: number; cpuPerDoc: number }>;
}
const results = new Map<Case, Result>();

const plain = await startServe('http-docx');
try {
  for (const c of CASES) {
    const uuid = await upload(plain, c);
    const seq = await sequential(plain, uuid, c, SEQUENTIAL);
    const conc = await concurrent(plain, uuid, c, SECONDS);
    results.set(c, { seq, conc, compare: [] });
  }
} finally {
  await plain.stop();
}

for (const comparison of COMPARISONS) {
  const other = await startServe('http-docx-compare', comparison.env, comparison.root);
  try {
    for (const c of CASES) {
      const uuid = await upload(other, c);
      const seq = await sequential(other, uuid, c, SEQUENTIAL);
      const conc = await concurrent(other, uuid, c, SECONDS);
      results.get(c)!.compare.push({ label: comparison.label, p50: median(seq.times), p95: percentile(seq.times, 95), rate: conc.rate, concP50: conc.p50, cpuPerDoc: conc.cpuPerDoc });
    }
  } finally {
    await other.stop();
  }
}

const profiled = await startServe('http-docx-profile', { DOCLOOM_PROFILE: '1' });
try {
  for (const c of CASES) {
    const uuid = await upload(profiled, c);
    const { times, timings } = await sequential(profiled, uuid, c, SEQUENTIAL);
    results.get(c)!.profile = { times, timings };
  }
} finally {
  await profiled.stop();
}

for (const [index, c] of CASES.entries()) {
  const r = results.get(c)!;
  const e = engine.get(c)!;
  const p50 = median(r.seq.times);
  const p95 = percentile(r.seq.times, 95);
  const overhead = p50 - e;
  const engineRate = 1000 / e;
  console.log(`\n--- ${c.name}`);
  console.log(`engine in-process (bind + layout + paint), median of ${SEQUENTIAL}: ${ms(e)} → ${engineRate.toFixed(0)} documents/s on one core`);
  console.log(`sequential HTTP create: p50 ${ms(p50)}, p95 ${ms(p95)}; service CPU ${ms(r.seq.cpuPerDoc)} per document (all threads), event loop ${ms(r.seq.loopCpuPerDoc)}`);
  console.log(`${CLIENTS} clients: ${r.conc.rate.toFixed(1)} documents/s (latency p50 ${ms(r.conc.p50)}); service CPU ${ms(r.conc.cpuPerDoc)} per document, event loop ${ms(r.conc.loopCpuPerDoc)}`);
  for (const o of r.compare) {
    console.log(`  same with ${o.label}: sequential p50 ${ms(o.p50)}, p95 ${ms(o.p95)}; ${CLIENTS} clients ${o.rate.toFixed(1)} documents/s (p50 ${ms(o.concP50)}), CPU ${ms(o.cpuPerDoc)} per document`);
  }
  console.log(`service overhead (HTTP p50 − engine): ${ms(overhead)}   [load average ${load()}]`);
  if (r.profile) {
    const phases = breakdown(r.profile.timings);
    const total = phases.find((ph) => ph.name === 'total');
    console.log(`breakdown with DOCLOOM_PROFILE=1 (Server-Timing of ${r.profile.timings.length} sequential creates; client p50 ${ms(median(r.profile.times))}):`);
    console.log('  phase              p50 ms   mean ms   CPU mean ms (all threads)');
    for (const ph of phases) console.log(`  ${ph.name.padEnd(17)} ${ph.p50.toFixed(3).padStart(7)}  ${ph.mean.toFixed(3).padStart(8)}  ${ph.cpuMean === null ? '' : ph.cpuMean.toFixed(3).padStart(8)}`.trimEnd());
    if (total) console.log(`  outside the app    ${(median(r.profile.times) - total.p50).toFixed(3).padStart(7)}            (client p50 − total p50: sockets, HTTP parsing before Express, the client)`);
  }
  const docx = index === 0;
  if (docx) {
    console.log(`${verdict(p50 <= 10 && p50 <= e + 3)} sequential create p50 ${ms(p50)} (target ≤ 10 ms and ≤ engine + 3 = ${ms(e + 3)})`);
    console.log(`${verdict(r.conc.rate >= 150 && r.conc.rate >= 1.2 * engineRate)} ${CLIENTS}-client throughput ${r.conc.rate.toFixed(1)}/s (target ≥ 150/s and ≥ 1.2 × engine ${engineRate.toFixed(0)}/s = ${(1.2 * engineRate).toFixed(0)}/s)`);
  }
  console.log(`${verdict(overhead <= 2)} ${docx ? '.docx' : '.json'} service overhead p50 ${ms(overhead)} (target ≤ 2 ms)`);
}
agent.destroy();
