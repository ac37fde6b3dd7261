/**
 * Starting a worker thread the same way for every pool (renders, template imports). The worker file sits beside
 * this one in dist/; under `node --import tsx` (tests, dev) it is the .ts file, and Node 20 does not pass tsx's
 * loader on to workers, so a tiny bootstrap registers tsx first.
 */
import { Worker, workerData, type WorkerOptions } from 'node:worker_threads';
import { closeZlibGate, newZlibGate, useZlibGate } from '../engine/zlib-gate.js';

/** Node options a worker accepts and may need (loaders, conditions, experimental features, warnings). */
const WORKER_OPTIONS = /^(--import|--require|-r|--loader|--experimental-loader|--conditions|-C|--experimental-[\w-]+|--no-experimental-[\w-]+|--enable-source-maps|--no-warnings|--no-deprecation|--disable-warning|--trace-warnings|--trace-deprecation|--pending-deprecation|--preserve-symlinks|--preserve-symlinks-main)$/;

/**
 * The parent's Node options that a worker accepts. `new Worker` refuses V8 options (--stack-trace-limit,
 * --max-old-space-size, as test runners and Electron set them) and per-process ones (--title, --input-type
 * makes loading the worker's file fail) with ERR_WORKER_INVALID_EXEC_ARGV: only the known-good ones are passed.
 * In execArgv, an element that does not start with "-" is the value of the option before it.
 */
export function workerExecArgv(execArgv: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i];
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const value = eq < 0 && i + 1 < execArgv.length && !execArgv[i + 1].startsWith('-') ? execArgv[++i] : null;
    if (!WORKER_OPTIONS.test(name)) continue;
    out.push(arg);
    if (value !== null) out.push(value);
  }
  return out;
}

/** `name` is the worker module's base name beside the caller (`render-worker`, `import-worker`). */
function workerEntry(callerUrl: string, name: string): { target: URL | string; eval: boolean } {
  if (callerUrl.endsWith('.ts')) {
    const file = new URL(`./${name}.ts`, callerUrl).href;
    return {
      eval: true,
      target: `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(file)}); })`,
    };
  }
  return { eval: false, target: new URL(`./${name}.js`, callerUrl) };
}

/**
 * Starts the worker with the parent's options it accepts; should those still be refused, with none (tsx comes via
 * the bootstrap). Throws only when `new Worker` refuses outright (no threads here): callers fall back to inline.
 */
export function startWorker(callerUrl: string, name: string, options: Omit<WorkerOptions, 'eval' | 'execArgv'> = {}): Worker {
  const entry = workerEntry(callerUrl, name);
  const gate = newZlibGate();
  const data: WorkerInput = { gate: gate.buffer as SharedArrayBuffer, data: options.workerData };
  const base = { ...options, workerData: data, eval: entry.eval };
  let worker: Worker;
  try {
    worker = new Worker(entry.target, { ...base, execArgv: workerExecArgv() });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw err;
    worker = new Worker(entry.target, { ...base, execArgv: [] });
  }
  gates.set(worker, gate);
  return worker;
}

/** What startWorker passes as workerData: the zlib gate shared with this thread, and the caller's own data. */
interface WorkerInput {
  gate: SharedArrayBuffer;
  data: unknown;
}

/** Each started worker's zlib gate (engine/zlib-gate.ts), for stopWorker. */
const gates = new WeakMap<Worker, Int32Array>();

/**
 * In a worker started by startWorker, before the engine runs: makes this thread honour its zlib gate and returns
 * the workerData its starter gave.
 */
export function workerInput<T>(): T {
  const input = workerData as WorkerInput | undefined;
  if (input?.gate instanceof SharedArrayBuffer) useZlibGate(new Int32Array(input.gate));
  return input?.data as T;
}

/** Longest stopWorker waits for a zlib call to end (one call takes milliseconds; this is only a backstop). */
const GATE_WAIT_MS = 5000;

/**
 * Terminates a worker started by startWorker, never while it is inside a node:zlib call (terminated there, it can
 * abort the whole process: engine/zlib-gate.ts): closes its zlib gate first, retrying every millisecond while the
 * worker is inside. Use this instead of worker.terminate(). Resolves with the number of times it found the worker
 * inside (diagnostics, tests).
 */
export async function stopWorker(worker: Worker): Promise<number> {
  const gate = gates.get(worker);
  let inside = 0;
  if (gate) {
    const deadline = Date.now() + GATE_WAIT_MS;
    // threadId is -1 once the thread has ended: nothing left to wait for.
    while (!closeZlibGate(gate) && worker.threadId !== -1 && Date.now() < deadline) {
      inside++;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
  await worker.terminate();
  return inside;
}
