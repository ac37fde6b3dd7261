/**
 * Runs renders off the event loop: a pool of worker threads (config.renderWorkers), or inline on the main thread
 * when that is 0. Interactive jobs (a synchronous POST /api/document, a preview) go before batch jobs
 * (async=1), so a large batch does not make the GUI wait.
 *
 * The worker file is render-worker.js beside this one in dist/; under `node --import tsx` (tests, dev) it is the
 * .ts file, and Node 20 does not pass tsx's loader on to workers, so a tiny bootstrap registers tsx first.
 */
import { Worker } from 'node:worker_threads';
import { RenderCore, type RenderJob, type RenderOutcome, type RenderSettings } from './render-core.js';
import type { WorkerMessage, WorkerRequest } from './render-worker.js';

export type Priority = 'interactive' | 'batch';

export interface Renderer {
  /** `onStart` runs when the job leaves the queue (the document becomes `processing`). */
  render(job: RenderJob, priority: Priority, onStart?: () => void): Promise<RenderOutcome>;
  close(): Promise<void>;
}

export function createRenderer(workers: number, settings: RenderSettings, log: (line: string) => void): Renderer {
  return workers > 0 ? new WorkerPool(workers, settings, log) : new InlineRenderer(settings);
}

class InlineRenderer implements Renderer {
  readonly #core: RenderCore;

  constructor(settings: RenderSettings) {
    this.#core = new RenderCore(settings);
  }

  async render(job: RenderJob, _priority: Priority, onStart?: () => void): Promise<RenderOutcome> {
    onStart?.();
    return this.#core.render(job);
  }

  async close(): Promise<void> {}
}

interface QueuedJob {
  id: number;
  job: RenderJob;
  onStart?: () => void;
  resolve: (outcome: RenderOutcome) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  running: Map<number, QueuedJob>;
}

/** Jobs one worker holds at once: the next is queued in the worker while the current one renders. */
const PER_WORKER = 2;
const RESPAWN_DELAY_MS = 1000;
const CLOSE_GRACE_MS = 5000;

export const STOPPED: RenderOutcome = {
  ok: false,
  code: 'interrupted',
  message: 'The service stopped before this document was rendered; create it again.',
};

function workerEntry(): { target: URL | string; eval: boolean } {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const file = new URL('./render-worker.ts', here).href;
    return {
      eval: true,
      target: `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(file)}); })`,
    };
  }
  return { eval: false, target: new URL('./render-worker.js', here) };
}

/**
 * The parent's Node flags, less those that only make sense for the main script: a worker inherits execArgv, and
 * `--input-type` (a host started as `node --input-type=module -e …` or from stdin) makes loading the worker's
 * file fail with ERR_INPUT_TYPE_NOT_ALLOWED.
 */
function workerExecArgv(): string[] {
  const out: string[] = [];
  for (let i = 0; i < process.execArgv.length; i++) {
    const arg = process.execArgv[i];
    if (arg === '--input-type') i++;
    else if (!arg.startsWith('--input-type=')) out.push(arg);
  }
  return out;
}

class WorkerPool implements Renderer {
  readonly #size: number;
  /** Sent to every worker as its workerData (fonts folder, image and data limits); the network policy goes per job. */
  readonly #settings: RenderSettings;
  readonly #log: (line: string) => void;
  readonly #slots = new Set<Slot>();
  readonly #interactive: QueuedJob[] = [];
  readonly #batch: QueuedJob[] = [];
  #nextId = 1;
  #closed = false;
  #spawnBlockedUntil = 0;
  #respawnTimer: NodeJS.Timeout | null = null;

  constructor(size: number, settings: RenderSettings, log: (line: string) => void) {
    this.#size = size;
    this.#settings = settings;
    this.#log = log;
    for (let i = 0; i < size; i++) this.#spawn();
  }

  render(job: RenderJob, priority: Priority, onStart?: () => void): Promise<RenderOutcome> {
    if (this.#closed) return Promise.resolve(STOPPED);
    return new Promise((resolve) => {
      const queued: QueuedJob = { id: this.#nextId++, job, onStart, resolve };
      (priority === 'interactive' ? this.#interactive : this.#batch).push(queued);
      this.#dispatch();
    });
  }

  /** Fails queued jobs, lets running ones finish (up to a few seconds), then stops the workers. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#respawnTimer) clearTimeout(this.#respawnTimer);
    for (const q of [...this.#interactive, ...this.#batch]) q.resolve(STOPPED);
    this.#interactive.length = 0;
    this.#batch.length = 0;
    const deadline = Date.now() + CLOSE_GRACE_MS;
    while (Date.now() < deadline && [...this.#slots].some((s) => s.running.size > 0)) {
      await new Promise((r) => setTimeout(r, 10));
    }
    for (const slot of this.#slots) for (const job of slot.running.values()) job.resolve(STOPPED);
    await Promise.all([...this.#slots].map((s) => s.worker.terminate()));
    this.#slots.clear();
  }

  #spawn(): void {
    const entry = workerEntry();
    const worker = new Worker(entry.target, { eval: entry.eval, workerData: this.#settings, execArgv: workerExecArgv() });
    const slot: Slot = { worker, ready: false, running: new Map() };
    this.#slots.add(slot);
    worker.on('message', (msg: WorkerMessage) => {
      if (msg.type === 'ready') {
        slot.ready = true;
        return;
      }
      const job = slot.running.get(msg.id);
      if (!job) return;
      slot.running.delete(msg.id);
      if (slot.running.size === 0) worker.unref();
      job.resolve(msg.outcome);
      this.#dispatch();
    });
    worker.on('error', (err) => this.#lost(slot, err));
    worker.on('exit', (code) => this.#lost(slot, new Error(`render worker exited with code ${code}`)));
    // An idle worker must not keep the process alive; a busy one does (ref'd while it holds jobs).
    worker.unref();
  }

  #lost(slot: Slot, err: Error): void {
    if (!this.#slots.delete(slot)) return;
    if (this.#closed) {
      for (const job of slot.running.values()) job.resolve(STOPPED);
      return;
    }
    this.#log(`render worker stopped: ${err.stack ?? err.message}`);
    for (const job of slot.running.values()) {
      job.resolve({ ok: false, code: 'render_crashed', message: 'The document could not be rendered.', internal: true, detail: err.message });
    }
    if (!slot.ready) this.#spawnBlockedUntil = Date.now() + RESPAWN_DELAY_MS;
    this.#dispatch();
  }

  #dispatch(): void {
    if (this.#closed) return;
    this.#refill();
    for (;;) {
      const queue = this.#interactive.length > 0 ? this.#interactive : this.#batch;
      if (queue.length === 0) return;
      let best: Slot | null = null;
      for (const slot of this.#slots) {
        if (slot.running.size < PER_WORKER && (!best || slot.running.size < best.running.size)) best = slot;
      }
      if (!best) return;
      const next = queue.shift()!;
      best.running.set(next.id, next);
      best.worker.ref();
      next.onStart?.();
      best.worker.postMessage({ id: next.id, job: next.job } satisfies WorkerRequest);
    }
  }

  /** Keeps the pool at its size; after a worker died before it was ready, waits a moment before trying again. */
  #refill(): void {
    if (this.#slots.size >= this.#size) return;
    const wait = this.#spawnBlockedUntil - Date.now();
    if (wait > 0) {
      this.#respawnTimer ??= setTimeout(() => {
        this.#respawnTimer = null;
        this.#dispatch();
      }, wait);
      this.#respawnTimer.unref();
      return;
    }
    while (this.#slots.size < this.#size) this.#spawn();
  }
}
