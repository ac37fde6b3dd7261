/**
 * What a synchronous create's enqueue statement costs on the team server (docs/team-server.md, "Caches"): the
 * statement without a write guard (as before the caches: unnamed, planned on every call) against the guarded one
 * (the token and the template's row version checked in the statement; named, so prepared once per connection).
 * One throwaway PostgreSQL cluster (test/helpers/pg-cluster.ts), the repositories in this process, alternating;
 * `idle` ms between statements stands for the render between two creates' statements (0: back to back).
 *
 *   node --import tsx bench/team-enqueue.ts [statements=1200] [idle=0]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPgRepositories } from '../server/store/pg/index.js';
import { QUEUE_PRIORITY } from '../server/store/queue.js';
import { startPgCluster } from '../test/helpers/pg-cluster.js';
import { documentRecord } from '../test/service/support.js';
import { templateInput } from '../test/store-contract/contract.js';
import { percentile } from './lib/stats.js';

const STATEMENTS = Number(process.argv[2] ?? 1200);
const IDLE_MS = Number(process.argv[3] ?? 0);
const load = (): string => os.loadavg().map((l) => l.toFixed(2)).join(' ');

const cluster = await startPgCluster();
if (typeof cluster === 'string') {
  console.error(`bench/team-enqueue: no PostgreSQL: ${cluster}`);
  process.exit(1);
}
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-team-enqueue-'));
try {
  const repos = await openPgRepositories(await cluster.createDatabase(), { cacheDir: temp });
  const queue = await repos.openQueue!({ instance: 'bench', leaseMs: 30_000, log: () => undefined });
  const token = await repos.tokens.create({ name: 'bench', hash: 'a'.repeat(64), read_only: false, created_at: new Date().toISOString() });
  const template = await repos.templates.create(templateInput('bench-template', 'Bench'), new Uint8Array([1]));
  const request = { template, data: { number: 'INV-1', items: [{ description: 'x', amount: 1 }] }, outputType: 'pdf', test: false, password: null, editable: false, expiration: 60, locale: null, async: false };
  const plain: number[] = [];
  const guarded: number[] = [];
  console.log(`bench/team-enqueue: ${os.cpus().length} cpus, Node ${process.version}, load average ${load()}; ${STATEMENTS} enqueueLeased statements, alternating, ${IDLE_MS} ms idle between`);
  for (let i = 0; i < STATEMENTS; i++) {
    const guard = i % 2 === 1 ? { tokenId: token.id, template, exact: true } : undefined;
    const started = performance.now();
    const lease = await queue.enqueueLeased(documentRecord(0, { status: 'processing' }), request, QUEUE_PRIORITY.interactive, guard);
    // The first 200 (100 of each) warm the connections and prepare the named statement on each.
    if (i >= 200) (guard ? guarded : plain).push(performance.now() - started);
    lease.release();
    if (IDLE_MS > 0) await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  }
  console.log(`load ${load()}`);
  console.log(`unguarded (unnamed): p50 ${percentile(plain, 50).toFixed(3)} ms, p95 ${percentile(plain, 95).toFixed(3)} ms`);
  console.log(`guarded (named):     p50 ${percentile(guarded, 50).toFixed(3)} ms, p95 ${percentile(guarded, 95).toFixed(3)} ms`);
  await queue.close();
  await repos.close();
} finally {
  await cluster.stop();
  fs.rmSync(temp, { recursive: true, force: true });
}
