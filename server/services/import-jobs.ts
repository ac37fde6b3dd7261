/**
 * Template imports off the event loop (issue #10): a .docx with a 30 MB document.xml takes seconds to read and
 * compile, and while it does GET /api/info must still answer at once. One import worker thread, started on the
 * first upload and stopped when idle, takes the imports one at a time (they are rare; one at a time also bounds
 * their memory), with a heap limit and a time limit: an import past either answers 413/422, never takes the
 * service down. With renderWorkers = 0 (tests, the CLI) imports run inline, as renders do.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker, stopWorker } from './worker-start.js';
import { loadEngine } from './engine.js';
import { runImport, type ImportJob, type ImportOutcome } from './import-core.js';
import type { ImportReply, ImportRequest } from './import-worker.js';

export interface Importer {
  run(job: ImportJob): Promise<ImportOutcome>;
  close(): Promise<void>;
}

export interface ImporterOptions {
  /** Heap of the import worker, in MB (its young generation and code come on top). */
  heapMb?: number;
  /** Longest an import may take. */
  timeoutMs?: number;
  /** An idle worker is stopped after this long (its memory goes back to the system). */
  idleMs?: number;
}

export const IMPORT_HEAP_MB = 512;
export const IMPORT_TIMEOUT_MS = 120_000;
const IDLE_MS = 30_000;

export function createImporter(threaded: boolean, log: (line: string) => void, options: ImporterOptions = {}): Importer {
  return threaded ? new ThreadImporter(log, options) : new InlineImporter();
}

class InlineImporter implements Importer {
  async run(job: ImportJob): Promise<ImportOutcome> {
    return runImport(await loadEngine(), job);
  }

  async close(): Promise<void> {}
}

interface Queued {
  id: number;
  job: ImportJob;
  resolve: (outcome: ImportOutcome) => void;
  reject: (err: Error) => void;
}

class ThreadImporter implements Importer {
  readonly #log: (line: string) => void;
  readonly #heapMb: number;
  readonly #timeoutMs: number;
  readonly #idleMs: number;
  readonly #queue: Queued[] = [];
  #worker: Worker | null = null;
  #running: Queued | null = null;
  #timer: NodeJS.Timeout | null = null;
  #idleTimer: NodeJS.Timeout | null = null;
  #nextId = 1;
  #closed = false;

  constructor(log: (line: string) => void, options: ImporterOptions) {
    this.#log = log;
    this.#heapMb = options.heapMb ?? IMPORT_HEAP_MB;
    this.#timeoutMs = options.timeoutMs ?? IMPORT_TIMEOUT_MS;
    this.#idleMs = options.idleMs ?? IDLE_MS;
  }

  run(job: ImportJob): Promise<ImportOutcome> {
    if (this.#closed) return Promise.reject(new Error('The service is stopping.'));
    return new Promise((resolve, reject) => {
      this.#queue.push({ id: this.#nextId++, job, resolve, reject });
      this.#next();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const q of this.#queue.splice(0)) q.reject(new Error('The service is stopping.'));
    this.#running?.reject(new Error('The service is stopping.'));
    this.#running = null;
    await this.#stop();
  }

  #next(): void {
    if (this.#running || this.#queue.length === 0 || this.#closed) return;
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
    let worker: Worker;
    try {
      worker = this.#worker ?? this.#spawn();
    } catch (err) {
      this.#inline(err);
      return;
    }
    const job = this.#queue.shift()!;
    this.#running = job;
    worker.ref();
    this.#timer = setTimeout(() => {
      // The stuck worker goes first, so the next import gets a fresh one.
      this.#worker = null;
      void stopWorker(worker);
      this.#finish(job, { ok: false, failed: 'too_slow', message: `The template took longer than ${Math.round(this.#timeoutMs / 1000)} s to import; it is too large or too complex.` });
    }, this.#timeoutMs);
    worker.postMessage({ id: job.id, job: job.job } satisfies ImportRequest);
  }

  /** No thread can be started here (`new Worker` refused): the next import runs on the main thread, as renders then do. */
  #inline(err: unknown): void {
    this.#log(`import worker cannot be started (${err instanceof Error ? err.message : String(err)}): importing on the main thread`);
    const job = this.#queue.shift()!;
    this.#running = job;
    loadEngine()
      .then((engine) => runImport(engine, job.job))
      .then(
        (outcome) => this.#finish(job, outcome),
        (failure: unknown) => this.#finish(job, failure instanceof Error ? failure : new Error(String(failure))),
      );
  }

  #finish(job: Queued, outcome: ImportOutcome | Error): void {
    if (this.#running !== job) return;
    this.#running = null;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (outcome instanceof Error) job.reject(outcome);
    else job.resolve(outcome);
    this.#worker?.unref();
    if (this.#queue.length > 0) {
      this.#next();
    } else if (this.#worker && !this.#closed) {
      this.#idleTimer = setTimeout(() => void this.#stop(), this.#idleMs);
      this.#idleTimer.unref();
    }
  }

  #spawn(): Worker {
    const worker = startWorker(import.meta.url, 'import-worker', { resourceLimits: { maxOldGenerationSizeMb: this.#heapMb } });
    this.#worker = worker;
    worker.on('message', (msg: ImportReply) => {
      const job = this.#running;
      if (!job || job.id !== msg.id) return;
      if ('error' in msg) this.#finish(job, new Error(`template import failed: ${msg.error}`));
      else this.#finish(job, msg.outcome);
    });
    const lost = (err: Error): void => {
      if (this.#worker !== worker) return;
      this.#worker = null;
      const job = this.#running;
      if (!job) return;
      const oom = /ERR_WORKER_OUT_OF_MEMORY|out of memory/i.test(`${(err as NodeJS.ErrnoException).code ?? ''} ${err.message}`);
      if (!oom) this.#log(`import worker stopped: ${err.stack ?? err.message}`);
      this.#finish(
        job,
        oom
          ? { ok: false, failed: 'too_large', message: `The template needs more than the ${this.#heapMb} MB an import may use; split it into smaller templates.` }
          : new Error(`template import failed: ${err.message}`),
      );
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`import worker exited with code ${code}`)));
    worker.unref();
    return worker;
  }

  async #stop(): Promise<void> {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
    const worker = this.#worker;
    this.#worker = null;
    if (worker) await stopWorker(worker);
    // A job that was running when the worker was stopped (time limit) has been answered already.
    if (!this.#closed) this.#next();
  }
}
