/**
 * Store at scale: with 50,000 documents in the store, creating a document and listing a page stay fast.
 * Targets: create p50 ≤ 15 ms, list page p50 ≤ 20 ms (measured over HTTP against a real service).
 *
 *   node --import tsx bench/store-scale.ts [documents=50000] [requests=200]
 */
import { withBenchService } from './lib/service.js';
import { percentile } from './lib/stats.js';
import { fillDocuments } from './lib/store-fill.js';

const DOCUMENTS = Number(process.argv[2] ?? 50_000);
const REQUESTS = Number(process.argv[3] ?? 200);
const TARGET_CREATE_P50 = 15;
const TARGET_LIST_P50 = 20;

const TEMPLATE = JSON.stringify({
  version: 1,
  defaults: { run: { font: 'Helvetica', size: 11 }, paragraph: {} },
  sections: [{
    page: { width: 595, height: 842, margins: { top: 56, right: 56, bottom: 56, left: 56 } },
    body: ['Invoice {{number}}', 'Customer: {{customer}}', '{{#items}}', '{{description}}: {{amount}}', '{{/items}}']
      .map((text) => ({ type: 'paragraph', runs: [{ type: 'text', text }] })),
  }],
});

async function timed(fn: () => Promise<Response>): Promise<number> {
  const t = performance.now();
  const res = await fn();
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return performance.now() - t;
}

async function fill(dataDir: string): Promise<void> {
  const fillMs = await fillDocuments(dataDir, DOCUMENTS);
  console.log(`filled ${DOCUMENTS} document records through the store in ${(fillMs / 1000).toFixed(1)} s`);
}

await withBenchService('scale', { renderWorkers: 1, prepare: fill }, async (server) => {
  const { auth } = server;
  const templateId = await server.uploadTemplate(TEMPLATE);
  const data = JSON.stringify({ number: 'INV-1', customer: 'Ada', items: Array.from({ length: 20 }, (_, i) => ({ description: `Item ${i}`, amount: `${i}.00` })) });
  const create = () => fetch(`${server.url}/api/document`, { method: 'POST', headers: auth, body: new URLSearchParams({ template_id: templateId, data }) });
  // Warm up: engine loaded, template compiled in the worker, connections open.
  for (let i = 0; i < 10; i++) await timed(create);

  const creates: number[] = [];
  for (let i = 0; i < REQUESTS; i++) creates.push(await timed(create));
  const lists: number[] = [];
  const lastPage = Math.ceil((DOCUMENTS + REQUESTS + 10) / 15);
  for (let i = 0; i < REQUESTS; i++) {
    const page = 1 + Math.floor((i / REQUESTS) * lastPage);
    lists.push(await timed(() => fetch(`${server.url}/api/document?page=${page}`, { headers: auth })));
  }
  const filtered: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    filtered.push(await timed(() => fetch(`${server.url}/api/document?status=completed&test=1&page=${1 + (i % 50)}`, { headers: auth })));
  }
  const single: number[] = [];
  for (let i = 0; i < REQUESTS; i++) single.push(await timed(() => fetch(`${server.url}/api/document/${1 + i * 97}`, { headers: auth })));

  const fmt = (v: number[]) => `p50 ${percentile(v, 50).toFixed(1)} ms, p95 ${percentile(v, 95).toFixed(1)} ms`;
  console.log(`store: ${DOCUMENTS} documents; ${REQUESTS} requests each, sequential`);
  console.log(`create (POST /api/document, 20-row invoice):  ${fmt(creates)}`);
  console.log(`list page (GET /api/document?page=N):        ${fmt(lists)}`);
  console.log(`filtered list (status+test filters):          ${fmt(filtered)}`);
  console.log(`single (GET /api/document/{id}):              ${fmt(single)}`);
  const c50 = percentile(creates, 50);
  const l50 = percentile(lists, 50);
  console.log(`${c50 <= TARGET_CREATE_P50 ? 'PASS' : 'MISS'} create p50 ${c50.toFixed(1)} ms (target ≤ ${TARGET_CREATE_P50} ms)`);
  console.log(`${l50 <= TARGET_LIST_P50 ? 'PASS' : 'MISS'} list page p50 ${l50.toFixed(1)} ms (target ≤ ${TARGET_LIST_P50} ms)`);
});
