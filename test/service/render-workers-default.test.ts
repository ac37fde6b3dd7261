/**
 * How many render workers the service runs by default (one per CPU less one for the event loop, at least one;
 * DOCLOOM_RENDER_WORKERS overrides), and that a pool is warm — every worker's engine loaded and a warm-up page
 * rendered — when it says it is ready (a start waits for that, up to 1 s, before it listens: issue 14).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import { DEFAULT_LIMITS, defaultRenderWorkers, loadConfig } from '../../server/config.js';
import { WorkerPool } from '../../server/services/render-pool.js';
import { BATCH_CLI_WORKER_LIMITS, RENDER_WORKER_LIMITS } from '../../server/services/render-worker-limits.js';
import { batchRenderer } from '../../server/batch/cli-batch.js';

test('default render workers: CPUs − 1, at least 1; DOCLOOM_RENDER_WORKERS overrides, 0 included', () => {
  assert.deepEqual([1, 2, 3, 4, 8, 64].map((n) => defaultRenderWorkers(n)), [1, 1, 2, 3, 7, 63]);
  assert.equal(loadConfig({}).renderWorkers, Math.max(1, os.availableParallelism() - 1));
  assert.equal(loadConfig({ DOCLOOM_RENDER_WORKERS: '3' }).renderWorkers, 3);
  assert.equal(loadConfig({ DOCLOOM_RENDER_WORKERS: '0' }).renderWorkers, 0);
  assert.throws(() => loadConfig({ DOCLOOM_RENDER_WORKERS: 'two' }), /DOCLOOM_RENDER_WORKERS must be a whole number/);
});

test('a pool is ready only once every worker is warm', async () => {
  const logs: string[] = [];
  const pool = new WorkerPool(2, { limits: DEFAULT_LIMITS, fontsDir: null }, (line) => logs.push(line));
  try {
    assert.equal(pool.warmThreads(), 0, 'not warm at once');
    await pool.ready();
    assert.equal(pool.warmThreads(), 2);
    assert.deepEqual(logs, []);
    // Every worker runs with the render workers' young generation (render-worker-limits.ts), whatever the Node: as
    // V8 reports it for the running thread, not as asked. Node 20 and 22 default to 48 MB anyway; on Node 24 (192 MB
    // here) this fails without the limit, and npm test runs test/service on Node 24 too.
    for (const worker of pool.threads()) assert.equal(worker.resourceLimits?.maxYoungGenerationSizeMb, RENDER_WORKER_LIMITS.maxYoungGenerationSizeMb);
  } finally {
    await pool.close();
  }
});

test('`docloom batch` runs its workers with its own limits: the old generation capped (V8 collects at ~2× the live heap, not 4×)', async () => {
  const pool = batchRenderer(loadConfig({}), 2, () => undefined);
  try {
    assert.ok(pool instanceof WorkerPool);
    await pool.ready();
    assert.equal(pool.warmThreads(), 2);
    for (const worker of pool.threads()) {
      assert.equal(worker.resourceLimits?.maxOldGenerationSizeMb, BATCH_CLI_WORKER_LIMITS.maxOldGenerationSizeMb);
      assert.equal(worker.resourceLimits?.maxYoungGenerationSizeMb, RENDER_WORKER_LIMITS.maxYoungGenerationSizeMb);
    }
    // Below 2 GB, where V8's growing factor is no longer 4 (heap-controller.cc); the service's workers keep V8's own.
    assert.ok(BATCH_CLI_WORKER_LIMITS.maxOldGenerationSizeMb! < 2048);
    assert.equal(RENDER_WORKER_LIMITS.maxOldGenerationSizeMb, undefined);
  } finally {
    await pool.close();
  }
});
