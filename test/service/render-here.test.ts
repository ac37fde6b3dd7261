/**
 * A small synchronous document asked for alone renders on the event loop (PoolOptions.renderHere,
 * DOCLOOM_RENDER_HERE): no message goes to or comes from a worker for it. Anything else — a template version not
 * rendered yet, or last rendered big, data past the bounds, a job not alone, a worker or the loop already busy,
 * batch work, the option off — goes to the workers as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { WorkerPool, smallData } from '../../server/services/render-pool.js';
import type { RenderJob, RenderOutcome } from '../../server/services/render-core.js';
import { DEFAULT_LIMITS } from '../../server/config.js';
import { INVOICE_LINES, jsonTemplate, tempDir } from './support.js';

interface Setup {
  dir: string;
  pool: WorkerPool;
  job: (lines: number) => RenderJob;
  /** Starts recording the worker's messages (once it is ready). */
  watch: () => void;
  /** The messages recorded since the last call. */
  messages: () => string[];
}

function setup(renderHere: boolean): Setup {
  const dir = tempDir();
  const file = path.join(dir, 't.json');
  fs.writeFileSync(file, jsonTemplate(INVOICE_LINES));
  const pool = new WorkerPool(1, { limits: { ...DEFAULT_LIMITS, pagesPerDocument: 10_000 }, fontsDir: null }, () => undefined, { renderHere });
  const job = (lines: number): RenderJob => ({
    key: 'inv@1', templatePath: file, kind: 'json', delimiters: ['{{', '}}'], test: false, password: null, locale: null,
    output: 'pdf', editableCopy: false, allowPrivateNetwork: false,
    data: { number: String(lines), customer: { name: 'C' }, items: Array.from({ length: lines }, (_, i) => ({ description: `Line ${i}`, amount: i })) },
  });
  const seen: string[] = [];
  return {
    dir,
    pool,
    job,
    messages: () => {
      const out = [...seen];
      seen.length = 0;
      return out;
    },
    watch: () => {
      pool.threads()[0].on('message', (m: { type: string }) => seen.push(m.type));
    },
  };
}

function pdf(outcome: RenderOutcome): number | null {
  assert.equal(outcome.ok, true, JSON.stringify(outcome));
  if (!outcome.ok) return null;
  assert.equal(Buffer.from(outcome.bytes.subarray(0, 5)).toString('latin1'), '%PDF-');
  return outcome.pages;
}

test('renderHere: a small job asked for alone renders on the event loop once its template is known small; the rest go to the worker', async () => {
  const t = setup(true);
  try {
    await t.pool.ready(30_000);
    t.watch();
    // Not known yet: the worker renders it, and its size is kept.
    assert.equal(pdf(await t.pool.render(t.job(3), 'interactive', undefined, undefined, true)), 1);
    assert.deepEqual(t.messages(), ['result']);
    // Known small, alone: rendered here, not a message to the worker. onStart still runs (the document is processing).
    let started = 0;
    assert.equal(pdf(await t.pool.render(t.job(4), 'interactive', () => started++, undefined, true)), 1);
    assert.deepEqual(t.messages(), [], 'no worker message for a job rendered on the event loop');
    assert.equal(started, 1);
    // Not alone (another create in progress), or batch work: the worker.
    pdf(await t.pool.render(t.job(4), 'interactive', undefined, undefined, false));
    pdf(await t.pool.render(t.job(4), 'batch', undefined, undefined, true));
    assert.deepEqual(t.messages(), ['result', 'result']);
    // Data past the bounds (more than 2,000 values): the worker, whatever the template's last size.
    pdf(await t.pool.render(t.job(700), 'interactive', undefined, undefined, true));
    assert.deepEqual(t.messages(), ['result']);
    // That render was many pages: the template is big now, so even small data goes to the worker, once.
    pdf(await t.pool.render(t.job(2), 'interactive', undefined, undefined, true));
    assert.deepEqual(t.messages(), ['result']);
    pdf(await t.pool.render(t.job(2), 'interactive', undefined, undefined, true));
    assert.deepEqual(t.messages(), [], 'small again after a small render');
    // Two at once: the first renders here, the second finds the loop busy and goes to the worker.
    const both = await Promise.all([t.pool.render(t.job(2), 'interactive', undefined, undefined, true), t.pool.render(t.job(2), 'interactive', undefined, undefined, true)]);
    both.forEach(pdf);
    assert.deepEqual(t.messages(), ['result']);
  } finally {
    await t.pool.close();
    fs.rmSync(t.dir, { recursive: true, force: true });
  }
});

test('renderHere: a job waits for a worker that holds another job instead of rendering beside it', async () => {
  const t = setup(true);
  try {
    await t.pool.ready(30_000);
    t.watch();
    pdf(await t.pool.render(t.job(2), 'interactive', undefined, undefined, true));
    t.messages();
    const big = t.pool.render(t.job(400), 'batch');
    const small = t.pool.render(t.job(2), 'interactive', undefined, undefined, true);
    await Promise.all([big, small]).then((outcomes) => outcomes.forEach(pdf));
    assert.equal(t.messages().filter((m) => m === 'result').length, 2, 'both rendered by the worker');
  } finally {
    await t.pool.close();
    fs.rmSync(t.dir, { recursive: true, force: true });
  }
});

test('renderHere off (the pool class default): every job goes to the worker', async () => {
  const t = setup(false);
  try {
    await t.pool.ready(30_000);
    t.watch();
    for (let i = 0; i < 3; i++) pdf(await t.pool.render(t.job(2), 'interactive', undefined, undefined, true));
    assert.deepEqual(t.messages(), ['result', 'result', 'result']);
  } finally {
    await t.pool.close();
    fs.rmSync(t.dir, { recursive: true, force: true });
  }
});

test('smallData: bounded by values and characters, and safe on data nested 100,000 deep', () => {
  assert.equal(smallData({ items: Array.from({ length: 20 }, (_, i) => ({ a: `x${i}`, b: i })) }), true);
  assert.equal(smallData({ items: Array.from({ length: 2000 }, (_, i) => i) }), false);
  assert.equal(smallData({ text: 'x'.repeat(64 * 1024) }), true);
  assert.equal(smallData({ text: 'x'.repeat(64 * 1024 + 1) }), false);
  let deep: Record<string, unknown> = { a: 1 };
  for (let i = 0; i < 100_000; i++) deep = { a: deep };
  assert.equal(smallData(deep), false);
});
