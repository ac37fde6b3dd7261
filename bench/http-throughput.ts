/**
 * Documents per second over HTTP: concurrent clients POST a 20-row invoice (synchronous create, as the
 * interface's clients do) to a real service with render workers. Target ≥ 100 documents/s on 2 cores.
 *
 *   node --import tsx bench/http-throughput.ts [clients=16] [seconds=10] [workers=2]
 */
import os from 'node:os';
import { withBenchService } from './lib/service.js';
import { percentile } from './lib/stats.js';

const CLIENTS = Number(process.argv[2] ?? 16);
const SECONDS = Number(process.argv[3] ?? 10);
const WORKERS = Number(process.argv[4] ?? 2);
const TARGET = 100;

const TEMPLATE = JSON.stringify({
  version: 1,
  defaults: { run: { font: 'Helvetica', size: 10 }, paragraph: {} },
  sections: [{
    page: { width: 595, height: 842, margins: { top: 56, right: 56, bottom: 56, left: 56 } },
    body: [
      { type: 'paragraph', runs: [{ type: 'text', text: 'Invoice {{number}}', style: { size: 18, bold: true } }] },
      { type: 'paragraph', runs: [{ type: 'text', text: 'Bill to: {{customer.name}}, {{customer.address}}' }] },
      {
        type: 'table',
        columns: [300, 80, 103],
        rows: [
          { header: true, cells: ['Description', 'Qty', 'Amount'].map((t) => ({ blocks: [{ type: 'paragraph', runs: [{ type: 'text', text: t, style: { bold: true } }] }] })) },
          { cells: ['{{#items}}{{description}}', '{{qty}}', '{{amount}}{{/items}}'].map((t) => ({ blocks: [{ type: 'paragraph', runs: [{ type: 'text', text: t }] }] })) },
        ],
      },
      { type: 'paragraph', runs: [{ type: 'text', text: 'Total: {{total}}', style: { bold: true } }] },
    ],
  }],
});

await withBenchService('http', { renderWorkers: WORKERS }, async (server) => {
  const { auth } = server;
  const uuid = await server.uploadTemplate(TEMPLATE);
  const items = Array.from({ length: 20 }, (_, i) => ({ description: `Consulting, block ${i + 1}`, qty: String(1 + (i % 4)), amount: `${(120 + i * 7.5).toFixed(2)}` }));
  const body = (n: number) => {
    const f = new FormData();
    f.append('template_id', uuid);
    f.append('data', JSON.stringify({ number: `INV-${n}`, customer: { name: 'Ada Lovelace', address: '12 St James Square, London' }, items, total: '3,825.00' }));
    return f;
  };
  const one = async (n: number): Promise<number> => {
    const t = performance.now();
    const res = await fetch(`${server.url}/api/document`, { method: 'POST', body: body(n), headers: auth });
    const json = (await res.json()) as { document?: { status: string } };
    if (res.status !== 201 || json.document?.status !== 'completed') throw new Error(`create failed: ${res.status} ${JSON.stringify(json)}`);
    return performance.now() - t;
  };
  // Warm-up: workers loaded, template compiled in each.
  await Promise.all(Array.from({ length: WORKERS * 4 }, (_, i) => one(i)));

  let n = 0;
  const latencies: number[] = [];
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const until = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < until) latencies.push(await one(n++));
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const rate = latencies.length / elapsed;
  // CPU time of this process (HTTP, store, and the render worker threads) per document: the figure that does not
  // depend on how busy the machine is. 2 cores / that = what 2 idle cores can do.
  const cpuMsPerDoc = (cpu.user + cpu.system) / 1000 / latencies.length;
  console.log(`cpus ${os.cpus().length}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`${latencies.length} documents in ${elapsed.toFixed(1)} s with ${CLIENTS} clients, ${WORKERS} render workers`);
  console.log(`latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms`);
  console.log(`CPU ${cpuMsPerDoc.toFixed(2)} ms per document (service + workers + the benchmark's own clients) → ${((2 * 1000) / cpuMsPerDoc).toFixed(0)} documents/s on 2 idle cores`);
  console.log(`${rate >= TARGET ? 'PASS' : 'MISS'} throughput ${rate.toFixed(1)} documents/s (target ≥ ${TARGET}/s)`);
});
