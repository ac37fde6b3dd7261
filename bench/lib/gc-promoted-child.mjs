// Child of bench/gc-promoted.ts, run with plain node (no tsx: the built engine as the service runs it) and
// --trace-gc-nvp: a render loop in a worker thread with the render workers' limits, over <root>/dist. Prints one
// line `RESULT {json}`; V8 prints its GC lines to the same stdout.
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { Worker, isMainThread, workerData, parentPort } from 'node:worker_threads';

if (isMainThread) {
  const [root, template, data, kind, n, warm] = process.argv.slice(2);
  const { RENDER_WORKER_LIMITS } = await import(path.join(root, 'dist/server/services/render-worker-limits.js'));
  const w = new Worker(new URL(import.meta.url), { workerData: { root, template, data, kind, n: Number(n), warm: Number(warm) }, resourceLimits: RENDER_WORKER_LIMITS });
  const r = await new Promise((resolve, reject) => {
    w.once('message', resolve);
    w.once('error', reject);
  });
  console.log('RESULT ' + JSON.stringify(r));
  process.exit(0);
} else {
  const { root, template, data, kind, n, warm } = workerData;
  const engine = await import(path.join(root, 'dist/server/engine/index.js'));
  const { useFontsDir } = await import(path.join(root, 'dist/server/services/engine.js'));
  useFontsDir(path.join(root, 'resources', 'fonts'));
  const compiled = engine.compileTemplate({ kind, bytes: fs.readFileSync(template), delimiters: ['{{', '}}'] });
  const sample = JSON.parse(fs.readFileSync(data, 'utf8'));
  // The job's data structured-cloned per render, as a render worker receives it.
  const one = (i) => engine.renderPdf(compiled.template, structuredClone({ ...sample, number: 'INV-' + (i % 100) }), {});
  let minor = 0;
  let major = 0;
  const { PerformanceObserver } = await import('node:perf_hooks');
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.detail.kind === 1) minor++; else major++;
  }).observe({ entryTypes: ['gc'] });
  const OLD = new Set(['old_space', 'code_space', 'large_object_space', 'code_large_object_space', 'trusted_space', 'trusted_large_object_space']);
  const oldUsed = () => v8.getHeapSpaceStatistics().reduce((a, s) => a + (OLD.has(s.space_name) ? s.space_used_size : 0), 0);
  for (let i = 0; i < warm; i++) await one(i);
  await new Promise((r) => setTimeout(r, 30));
  const warmGCs = minor + major;
  minor = major = 0;
  const process0 = process.cpuUsage();
  // process.threadCpuUsage: Node 23.9 and later (the render thread's own CPU); NaN before.
  const threadCpu = process.threadCpuUsage ?? (() => ({ user: NaN, system: NaN }));
  const thread0 = threadCpu();
  // The old generation's growth between mark-compacts: what scavenges promoted plus what was allocated there.
  let grown = 0;
  let last = oldUsed();
  for (let i = 0; i < n; i++) {
    await one(i);
    const now = oldUsed();
    if (now > last) grown += now - last;
    last = now;
  }
  const thread1 = threadCpu();
  const th = { user: thread1.user - thread0.user, system: thread1.system - thread0.system };
  const pr = process.cpuUsage(process0);
  await new Promise((r) => setTimeout(r, 30));
  parentPort.postMessage({ warmGCs, minor, major, grownKb: grown / n / 1024, threadMs: (th.user + th.system) / 1000 / n, processMs: (pr.user + pr.system) / 1000 / n });
}
