/**
 * The render worker's doorbell (services/worker-bell.ts): an idle worker waits on a shared Int32 for its next job
 * and takes it with receiveMessageOnPort, without a turn of its event loop. What must hold: messages are taken in
 * order, a ring wakes the wait at once, a message is never lost whether rung or not, the wait ends when its time
 * runs out, and a worker waiting on its bell still renders every job, can be stopped, and is replaced when it dies.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { newBell, ring, takeMessages } from '../../server/services/worker-bell.js';
import { WorkerPool } from '../../server/services/render-pool.js';
import type { RenderJob } from '../../server/services/render-core.js';
import { DEFAULT_LIMITS } from '../../server/config.js';
import { jsonTemplate, tempDir } from './support.js';

const noUnreadable = (err: Error): void => assert.fail(`no message is unreadable here: ${err.message}`);

/** A thread that posts `message` to `port` after `afterMs`, ringing `bell` unless told not to. */
function lateSender(port: MessagePort, bell: Int32Array, afterMs: number, rings: boolean): Worker {
  const code = `
    const { workerData } = require('node:worker_threads');
    setTimeout(() => {
      workerData.port.postMessage('late');
      if (workerData.rings) { const bell = new Int32Array(workerData.bell); Atomics.add(bell, 0, 1); Atomics.notify(bell, 0, 1); }
    }, workerData.afterMs);`;
  return new Worker(code, { eval: true, workerData: { port, bell: bell.buffer, afterMs, rings }, transferList: [port] });
}

test('takeMessages: what is queued is taken at once, in the order sent; with nothing queued it returns 0 once its time has run out', () => {
  const { port1, port2 } = new MessageChannel();
  const bell = newBell();
  try {
    port1.postMessage({ n: 1 });
    port1.postMessage({ n: 2 });
    ring(bell);
    port1.postMessage({ n: 3 });
    const got: unknown[] = [] as unknown[];
    assert.equal(takeMessages(port2, bell, 60_000, (m) => got.push(m), noUnreadable), 3);
    assert.deepEqual(got, [{ n: 1 }, { n: 2 }, { n: 3 }] as unknown[]);
    const started = performance.now();
    assert.equal(takeMessages(port2, bell, 40, (m) => got.push(m), noUnreadable), 0);
    assert.ok(performance.now() - started >= 35, `waited ${performance.now() - started} ms of its 40`);
    assert.equal(got.length, 3);
  } finally {
    port1.close();
  }
});

test('takeMessages: a message posted and rung from another thread ends the wait long before its time; one posted without a ring is still taken when the time runs out', async () => {
  for (const rings of [true, false]) {
    const { port1, port2 } = new MessageChannel();
    const bell = newBell();
    const sender = lateSender(port1, bell, 100, rings);
    await new Promise((resolve) => sender.once('online', resolve));
    const got: unknown[] = [];
    const started = performance.now();
    // Rung: woken by the ring (the 30 s would fail the test's own timeout). Not rung: found after the 1.5 s wait.
    const taken = takeMessages(port2, bell, rings ? 30_000 : 1500, (m) => got.push(m), noUnreadable);
    const waited = performance.now() - started;
    assert.equal(taken, 1, `rings: ${rings}`);
    assert.deepEqual(got, ['late'] as unknown[]);
    if (rings) assert.ok(waited < 15_000, `woken by the ring after ${waited} ms`);
    else assert.ok(waited >= 1400, `found when the wait ended, after ${waited} ms`);
    await sender.terminate();
    port2.close();
  }
});

function pool(idleWaitMs: number): { dir: string; pool: WorkerPool; logs: string[]; job: (name: string) => RenderJob } {
  const dir = tempDir();
  const file = path.join(dir, 't.json');
  fs.writeFileSync(file, jsonTemplate(['Hello {{name}}']));
  const logs: string[] = [];
  const p = new WorkerPool(1, { limits: DEFAULT_LIMITS, fontsDir: null }, (line) => logs.push(line), { idleWaitMs });
  const job = (name: string): RenderJob => ({
    key: 't@1', templatePath: file, kind: 'json', delimiters: ['{{', '}}'], data: { name }, test: false, password: null, locale: null,
    output: 'pdf', editableCopy: false, allowPrivateNetwork: false,
  });
  return { dir, pool: p, logs, job };
}

test('the pool: a worker waiting on its bell (for 10 minutes) takes every job it is given at once, then stops at once when the pool closes', { timeout: 60_000 }, async () => {
  const { dir, pool: p, job } = pool(600_000);
  try {
    await p.ready(30_000);
    // Each job comes while the worker waits on its bell (after `ready`, then after each result): without the ring
    // every one of them would wait the 10 minutes, past this test's timeout.
    for (const name of ['Ada', 'Grace', 'Edsger', 'Barbara', 'Donald']) {
      const outcome = await p.render(job(name), 'interactive');
      assert.equal(outcome.ok, true, JSON.stringify(outcome));
    }
    const two = await Promise.all([p.render(job('A'), 'batch'), p.render(job('B'), 'interactive')]);
    assert.ok(two.every((o) => o.ok), JSON.stringify(two));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = Date.now();
    await p.close();
    assert.ok(Date.now() - closing < 20_000, `closed in ${Date.now() - closing} ms`);
    assert.equal(p.threads().length, 0);
  } finally {
    await p.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the pool: jobs that come after the bell\'s wait ran out come through the worker\'s event loop, mixed with ones that come during it', { timeout: 60_000 }, async () => {
  const { dir, pool: p, job } = pool(10);
  try {
    await p.ready(30_000);
    const names: string[] = [];
    for (let i = 0; i < 8; i++) {
      // Every other job after a pause longer than the wait (the worker is back in its event loop), the rest at once.
      if (i % 2 === 0) await new Promise((resolve) => setTimeout(resolve, 60));
      const outcome = await p.render(job(`N${i}`), 'interactive');
      assert.equal(outcome.ok, true, JSON.stringify(outcome));
      names.push(`N${i}`);
    }
    assert.equal(names.length, 8);
  } finally {
    await p.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the pool: a worker that dies while it waits on its bell is replaced, and the next job renders in the new one', { timeout: 60_000 }, async () => {
  const { dir, pool: p, job, logs } = pool(600_000);
  try {
    await p.ready(30_000);
    assert.equal((await p.render(job('before'), 'interactive')).ok, true);
    const [worker] = p.threads();
    // Waiting on its bell now: terminate() interrupts Atomics.wait.
    await worker.terminate();
    const next = await p.render(job('after'), 'interactive');
    assert.equal(next.ok, true, JSON.stringify(next));
    assert.notEqual(p.threads()[0], worker, 'a new worker');
    assert.ok(logs.some((l) => /render worker stopped/.test(l)), logs.join('\n'));
  } finally {
    await p.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
