/**
 * Starting a worker thread the same way for every pool (renders, template imports). The worker file sits beside
 * this one in dist/; under `node --import tsx` (tests, dev) it is the .ts file, and Node 20 does not pass tsx's
 * loader on to workers, so a tiny bootstrap registers tsx first.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

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
  const base = { ...options, eval: entry.eval };
  try {
    return new Worker(entry.target, { ...base, execArgv: workerExecArgv() });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw err;
    return new Worker(entry.target, { ...base, execArgv: [] });
  }
}
