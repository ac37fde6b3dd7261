/**
 * Template imports in their own worker thread (issue #10): the event loop keeps answering while a large .docx is
 * read and compiled; an import over the worker's heap or time limit is a clean refusal, and the next one works.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bigDocx } from '../../bench/lib/hostile-files.js';
import { createImporter } from '../../server/services/import-jobs.js';
import { MAX_LISTED_TEMPLATE_ERRORS } from '../../server/services/import-core.js';
import { startTestServer } from '../helpers/server.js';
import { jsonTemplate, uploadTemplate } from './support.js';

const LIMITS = { maxUncompressedBytes: 100 * 1024 * 1024, maxEntryRatio: 100 };
const big = bigDocx(6 * 1024 * 1024).bytes;

test('the import worker compiles, refuses, and answers too_large / too_slow past its limits', async () => {
  const logs: string[] = [];
  const small = createImporter(true, (l) => logs.push(l), { heapMb: 64 });
  try {
    const ok = await small.run({ kind: 'json', bytes: jsonTemplate(['Hi {{name}}']), delimiters: ['{{', '}}'], docxLimits: LIMITS });
    assert.ok(ok.ok && ok.fields.some((f) => f.name === 'name'), JSON.stringify(ok).slice(0, 300));
    const flood = await small.run({ kind: 'json', bytes: jsonTemplate(Array.from({ length: 5000 }, () => 'x {{')), delimiters: ['{{', '}}'], docxLimits: LIMITS });
    assert.ok(!flood.ok && 'total' in flood);
    assert.equal(flood.total, 5000);
    assert.equal(flood.errors.length, MAX_LISTED_TEMPLATE_ERRORS, 'the errors the 422 lists, no more');
    const oom = await small.run({ kind: 'docx', bytes: big, delimiters: ['{{', '}}'], docxLimits: LIMITS });
    assert.ok(!oom.ok && 'failed' in oom && oom.failed === 'too_large', JSON.stringify(oom).slice(0, 200));
    // A fresh worker takes the next import.
    const again = await small.run({ kind: 'json', bytes: jsonTemplate(['{{a}}']), delimiters: ['{{', '}}'], docxLimits: LIMITS });
    assert.ok(again.ok);
  } finally {
    await small.close();
  }
  const slow = createImporter(true, (l) => logs.push(l), { timeoutMs: 30 });
  try {
    const outcome = await slow.run({ kind: 'docx', bytes: big, delimiters: ['{{', '}}'], docxLimits: LIMITS });
    assert.ok(!outcome.ok && 'failed' in outcome && outcome.failed === 'too_slow');
  } finally {
    await slow.close();
  }
  assert.deepEqual(logs, []);
});

test('with render workers, GET /api/info keeps answering while a large .docx imports', async () => {
  const s = await startTestServer({ renderWorkers: 1 });
  try {
    const started = performance.now();
    const upload = uploadTemplate(s, { name: 'big.docx', bytes: big });
    let done = false;
    void upload.finally(() => (done = true));
    const latencies: number[] = [];
    while (!done) {
      const t = performance.now();
      const res = await s.api('/api/info');
      assert.equal(res.status, 200);
      await res.arrayBuffer();
      latencies.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
    const { status, body } = await upload;
    const importMs = performance.now() - started;
    assert.equal(status, 201, JSON.stringify(body).slice(0, 300));
    // Relative, not a time limit (the bench, bench/hostile.ts, holds the 250 ms p99 target): an import on the
    // event loop would hold one /api/info for the whole import; in the worker, many answers fit inside it, and
    // none waits for most of it — on a loaded machine as on an idle one.
    const slowest = Math.max(...latencies);
    const figures = `slowest /api/info ${Math.round(slowest)} ms of ${latencies.length}, import ${Math.round(importMs)} ms`;
    assert.ok(latencies.length >= 5, figures);
    assert.ok(slowest < importMs / 2, figures);
    assert.deepEqual(s.logs, []);
  } finally {
    await s.close();
  }
});
