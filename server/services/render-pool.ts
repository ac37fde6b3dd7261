/**
 * Runs renders off the event loop: a pool of worker threads (config.renderWorkers), or inline on the main thread
 * when that is 0. Interactive jobs (a synchronous POST /api/document, a preview) go before batch jobs
 * (async=1), so a large batch does not make the GUI wait.
 *
 * The pool cannot wedge: a job counts as running only once its worker said it has it (or, posted to a worker that
 * held nothing, from the post: it starts there at once, and its result is the only message back); a hand-over that fails
 * (data that cannot be copied or is nested too deeply for the structured clone, a message the worker cannot
 * read) fails that job alone; a worker that dies fails its jobs and is replaced; a render past limits.renderMs
 * (plus a grace period) has its worker stopped from outside. When no worker can be started at all, the pool
 * renders on the main thread instead (logged).
 *
 * The worker file is render-worker.js beside this one in dist/; under `node --import tsx` (tests, dev) it is the
 * .ts file, and Node 20 does not pass tsx's loader on to workers, so a tiny bootstrap registers tsx first.
 */
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { startWorker, stopWorker } from './worker-start.js';
import { RENDER_WORKER_LIMITS } from './render-worker-limits.js';
import { RenderCore, type RenderJob, type RenderOutcome, type RenderSettings } from './render-core.js';
import type { RenderWorkerData, WorkerMessage, WorkerRequest } from './render-worker.js';
import { newBell, ring } from './worker-bell.js';
import { hrnow } from './profile.js';
import { INTERRUPTED_ERROR } from '../store/records.js';

export type Priority = 'interactive' | 'batch';

export interface Renderer {
  /**
   * `onStart` runs when the job leaves the queue (the document becomes `processing`). `signal` withdraws a job
   * not yet rendering (a cancelled batch's rows), in the pool's queue or in a worker's: it answers `interrupted`.
   * A job already rendering is rendered to its end.
   */
  render(job: RenderJob, priority: Priority, onStart?: () => void, signal?: AbortSignal): Promise<RenderOutcome>;
  /**
   * Resolves once the renderer is warm — every worker started, its engine loaded and a warm-up page rendered — or
   * after `waitMs` at most (the workers keep warming; jobs queue meanwhile), whichever comes first. Never rejects.
   */
  ready(waitMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** `limits`: the workers' V8 heap limits (render-worker-limits.ts; `docloom batch` passes its own). */
export function createRenderer(workers: number, settings: RenderSettings, log: (line: string) => void, limits: ResourceLimits = RENDER_WORKER_LIMITS): Renderer {
  return workers > 0 ? new WorkerPool(workers, settings, log, { limits }) : new InlineRenderer(settings);
}

class InlineRenderer implements Renderer {
  readonly #core: RenderCore;

  constructor(settings: RenderSettings) {
    this.#core = new RenderCore(settings);
  }

  async render(job: RenderJob, _priority: Priority, onStart?: () => void, signal?: AbortSignal): Promise<RenderOutcome> {
    if (signal?.aborted) return WITHDRAWN;
    onStart?.();
    return this.#core.render(job);
  }

  ready(_waitMs?: number): Promise<void> {
    // On the main thread: warmed in the background (the event loop must answer meanwhile), not awaited.
    void this.#core.warm().catch(() => undefined);
    return Promise.resolve();
  }

  async close(): Promise<void> {}
}

interface QueuedJob {
  id: number;
  job: RenderJob;
  priority: Priority;
  onStart?: () => void;
  resolve: (outcome: RenderOutcome) => void;
  /** Set once the worker has it: the external time limit. */
  timer?: NodeJS.Timeout;
  /** Put back in the queue once already (its worker was stopped for another job's sake). */
  requeued?: boolean;
  /** Counted as rendering (onStart called): a cancelled batch no longer withdraws it. */
  started?: boolean;
}

interface Slot {
  worker: Worker;
  /** Rung after every message posted to the worker: an idle worker waits on it (worker-bell.ts). */
  bell: Int32Array;
  ready: boolean;
  /** Posted, not yet confirmed by the worker (`received`, `started` or a result), in the order sent. */
  sent: QueuedJob[];
  /** Confirmed by the worker, by id. */
  running: Map<number, QueuedJob>;
  /** The job whose time ran out and got this worker stopped. */
  overdue?: QueuedJob;
  /** Stops the worker if it is not ready in time (WARM_LIMIT_MS); cleared by `ready`. */
  warmTimer?: NodeJS.Timeout;
}

/**
 * Jobs of one priority one worker holds at once: the next is queued in the worker while the current one renders,
 * so the worker never waits for the main thread between two jobs. Interactive jobs have their own allowance and
 * go before the worker's queued batch jobs (render-worker.ts), so a preview or a single document waits for at most
 * the render in progress, not for the batch jobs already handed over.
 */
const PER_WORKER = 2;
const RESPAWN_DELAY_MS = 1000;
const CLOSE_GRACE_MS = 5000;
/** Time past limits.renderMs before a worker still busy with the job is stopped (its own checks come first). */
const OVERTIME_GRACE_MS = 2000;
/** Workers that die before they are ready, in a row, before the pool gives up on threads. */
const MAX_FAILED_STARTS = 3;
/**
 * How long a worker may take to load the engine and render its warm-up page before it is stopped as a failed start.
 * It gets no job before then, so a warm-up that never ended would keep the queue waiting; a normal one takes well
 * under a second, and seconds on a loaded machine.
 */
const WARM_LIMIT_MS = 60_000;

export const STOPPED: RenderOutcome = { ok: false, ...INTERRUPTED_ERROR };

/** A job withdrawn before any worker had it (its batch was cancelled). */
const WITHDRAWN: RenderOutcome = { ok: false, code: 'interrupted', message: 'Withdrawn before it was rendered (the batch was cancelled).' };

const CRASHED = (detail: string): RenderOutcome => ({ ok: false, code: 'render_crashed', message: 'The document could not be rendered.', internal: true, detail });

/** The job's data could not be handed to a render thread (structured clone failed). The caller's data, not a bug. */
export function handOverFailed(err: unknown): RenderOutcome {
  const reason = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return {
    ok: false,
    code: 'invalid_data',
    message: `The data cannot be rendered: it could not be copied to the renderer (nested too deeply, or holding values that are not plain data) (${reason}).`,
  };
}

function overtime(renderMs: number): RenderOutcome {
  return {
    ok: false,
    code: 'limit_exceeded',
    message: `The document took longer than ${renderMs.toLocaleString('en-US')} ms to render, the limit of render time (render_ms).`,
  };
}

export { workerExecArgv } from './worker-start.js';

export class WorkerPool implements Renderer {
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
  #failedStarts = 0;
  /** Set when worker threads cannot be had: every job renders on the main thread. */
  #inline: InlineRenderer | null = null;
  #readyResolve: (() => void) | null = null;
  readonly #ready = new Promise<void>((resolve) => {
    this.#readyResolve = resolve;
  });
  /** Tests only: how long an idle worker waits on its bell (render-worker.ts, IDLE_WAIT_MS). */
  readonly #idleWaitMs: number | undefined;
  /** WARM_LIMIT_MS unless a test says otherwise. */
  readonly #warmLimitMs: number;

  /** The workers' V8 heap limits. */
  readonly #limits: ResourceLimits;

  constructor(size: number, settings: RenderSettings, log: (line: string) => void, tuning: { idleWaitMs?: number; warmLimitMs?: number; limits?: ResourceLimits } = {}) {
    this.#size = size;
    this.#limits = tuning.limits ?? RENDER_WORKER_LIMITS;
    this.#settings = settings;
    this.#log = log;
    this.#idleWaitMs = tuning.idleWaitMs;
    this.#warmLimitMs = tuning.warmLimitMs ?? WARM_LIMIT_MS;
    this.#refill();
  }

  /** Never rejects: every way a job can fail ends in an outcome. */
  render(job: RenderJob, priority: Priority, onStart?: () => void, signal?: AbortSignal): Promise<RenderOutcome> {
    if (this.#closed) return Promise.resolve(STOPPED);
    if (signal?.aborted) return Promise.resolve(WITHDRAWN);
    if (this.#inline) return this.#inline.render(job, priority, onStart, signal);
    return new Promise((settle) => {
      // A batch passes one signal for all its rows: the listener goes when the job settles, or a 10,000-row batch
      // would hold 10,000 closures on it (Node's MaxListenersExceededWarning said so in bench/batch.ts).
      const resolve = (outcome: RenderOutcome): void => {
        signal?.removeEventListener('abort', onAbort);
        settle(outcome);
      };
      const queued: QueuedJob = { id: this.#nextId++, job, priority, onStart, resolve };
      const queue = priority === 'interactive' ? this.#interactive : this.#batch;
      queue.push(queued);
      const onAbort = (): void => {
        const at = queue.indexOf(queued);
        if (at >= 0) {
          queue.splice(at, 1);
          resolve(WITHDRAWN);
          return;
        }
        // Handed to a worker: withdrawn there too unless it has started (the worker answers it as withdrawn).
        if (queued.started) return;
        for (const slot of this.#slots) {
          if (slot.sent.includes(queued) || slot.running.has(queued.id)) this.#post(slot, { withdraw: queued.id });
        }
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#dispatch();
    });
  }

  ready(waitMs = Infinity): Promise<void> {
    if (!Number.isFinite(waitMs)) return this.#ready;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, waitMs));
      timer.unref();
    });
    return Promise.race([this.#ready, late]).finally(() => clearTimeout(timer));
  }

  #setReady(): void {
    this.#readyResolve?.();
    this.#readyResolve = null;
  }

  /** Workers that said `ready` (engine loaded, warm-up page rendered). */
  warmThreads(): number {
    return [...this.#slots].filter((s) => s.ready).length;
  }

  /** The worker threads now in the pool (tests stop one to see the pool recover; diagnostics). */
  threads(): Worker[] {
    return [...this.#slots].map((s) => s.worker);
  }

  /** Fails queued jobs, lets running ones finish (up to a few seconds), then stops the workers. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#setReady();
    if (this.#respawnTimer) clearTimeout(this.#respawnTimer);
    for (const q of [...this.#interactive, ...this.#batch]) q.resolve(STOPPED);
    this.#interactive.length = 0;
    this.#batch.length = 0;
    const deadline = Date.now() + CLOSE_GRACE_MS;
    while (Date.now() < deadline && [...this.#slots].some((s) => s.running.size + s.sent.length > 0)) {
      await new Promise((r) => setTimeout(r, 10));
    }
    for (const slot of this.#slots) for (const job of [...slot.sent, ...slot.running.values()]) this.#finish(job, STOPPED);
    await Promise.all([...this.#slots].map((s) => stopWorker(s.worker)));
    this.#slots.clear();
  }

  /** Starts one worker; false when `new Worker` itself throws (then nothing was added). */
  #spawn(): boolean {
    let worker: Worker;
    const bell = newBell();
    try {
      const workerData: RenderWorkerData = { settings: this.#settings, bell: bell.buffer as SharedArrayBuffer, ...(this.#idleWaitMs === undefined ? {} : { idleWaitMs: this.#idleWaitMs }) };
      worker = startWorker(import.meta.url, 'render-worker', { workerData, resourceLimits: this.#limits });
    } catch (err) {
      this.#log(`render worker cannot be started: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
    const slot: Slot = { worker, bell, ready: false, sent: [], running: new Map() };
    slot.warmTimer = setTimeout(() => {
      this.#log(`render worker not ready after ${this.#warmLimitMs.toLocaleString('en-US')} ms (loading the engine, the warm-up page): stopped`);
      void stopWorker(worker);
    }, this.#warmLimitMs);
    slot.warmTimer.unref();
    this.#slots.add(slot);
    worker.on('message', (msg: WorkerMessage) => this.#message(slot, msg));
    worker.on('error', (err) => this.#lost(slot, err));
    worker.on('exit', (code) => this.#lost(slot, new Error(`render worker exited with code ${code}`)));
    // An idle worker must not keep the process alive; a busy one does (ref'd while it holds jobs), and so does one
    // warming up (a start waits for it: ready()).
    return true;
  }

  #message(slot: Slot, msg: WorkerMessage): void {
    if (msg.type === 'ready') {
      slot.ready = true;
      clearTimeout(slot.warmTimer);
      this.#failedStarts = 0;
      if ([...this.#slots].filter((s) => s.ready).length >= this.#size) this.#setReady();
      this.#idle(slot);
      // Jobs that came while no worker was warm (a replacement warming up) go now.
      this.#dispatch();
      return;
    }
    if (msg.type === 'received') {
      this.#confirm(slot, msg.id);
      return;
    }
    if (msg.type === 'started') {
      const job = this.#confirm(slot, msg.id);
      if (!job) return;
      this.#started(slot, job);
      return;
    }
    if (msg.type === 'unreadable') {
      // Messages arrive in order: the one that could not be read is the oldest not yet confirmed.
      const job = slot.sent.shift();
      if (job) this.#finish(job, handOverFailed(new Error(msg.detail)));
      this.#idle(slot);
      this.#dispatch();
      return;
    }
    const job = this.#confirm(slot, msg.id);
    if (!job) return;
    if (msg.outcome.ok && msg.outcome.timings) msg.outcome.timings.returned = hrnow();
    slot.running.delete(msg.id);
    this.#finish(job, msg.outcome);
    this.#idle(slot);
    this.#dispatch();
  }

  /** The job the worker named, moved from `sent` to `running` if it was not there yet. */
  #confirm(slot: Slot, id: number): QueuedJob | undefined {
    const running = slot.running.get(id);
    if (running) return running;
    const at = slot.sent.findIndex((j) => j.id === id);
    if (at < 0) return undefined;
    const [job] = slot.sent.splice(at, 1);
    slot.running.set(job.id, job);
    return job;
  }

  /** The job is rendering: the document says so, and its time limit runs. */
  #started(slot: Slot, job: QueuedJob): void {
    job.started = true;
    job.onStart?.();
    this.#watch(slot, job);
  }

  /** The outside limit: a worker still busy with the job renderMs + grace after it got it is stopped. */
  #watch(slot: Slot, job: QueuedJob): void {
    const renderMs = this.#settings.limits.renderMs;
    job.timer = setTimeout(() => {
      if (!(slot.running.has(job.id) || slot.sent.includes(job)) || slot.overdue) return;
      slot.overdue = job;
      this.#log(`render worker stopped: a render went past render_ms (${renderMs} ms) without ending`);
      void stopWorker(slot.worker);
    }, renderMs + OVERTIME_GRACE_MS);
    job.timer.unref();
  }

  #finish(job: QueuedJob, outcome: RenderOutcome): void {
    if (job.timer) clearTimeout(job.timer);
    // A worker's 'started' can still arrive after the job ended (close() ends running jobs before their workers
    // are terminated): onStart would then open the document's temp file after its render's clean-up has run.
    job.onStart = undefined;
    job.resolve(outcome);
  }

  #idle(slot: Slot): void {
    if (slot.running.size === 0 && slot.sent.length === 0) slot.worker.unref();
  }

  #lost(slot: Slot, err: Error): void {
    if (!this.#slots.delete(slot)) return;
    clearTimeout(slot.warmTimer);
    const jobs = [...slot.sent, ...slot.running.values()];
    if (this.#closed) {
      for (const job of jobs) this.#finish(job, STOPPED);
      return;
    }
    const overdue = slot.overdue;
    if (overdue) {
      // Stopped from here for one job's time: that job fails; the others it held go back to the front of the queue.
      this.#finish(overdue, overtime(this.#settings.limits.renderMs));
      const innocent = jobs.filter((j) => j !== overdue);
      for (const job of innocent.reverse()) {
        if (job.timer) clearTimeout(job.timer);
        if (job.requeued) {
          this.#finish(job, CRASHED('its render worker was stopped twice for other renders'));
          continue;
        }
        job.requeued = true;
        job.started = false;
        job.onStart = undefined;
        job.priority = 'interactive';
        this.#interactive.unshift(job);
      }
    } else {
      this.#log(`render worker stopped: ${err.stack ?? err.message}`);
      for (const job of jobs) this.#finish(job, CRASHED(err.message));
    }
    if (!slot.ready && !overdue) {
      this.#spawnBlockedUntil = Date.now() + RESPAWN_DELAY_MS;
      if (++this.#failedStarts >= MAX_FAILED_STARTS) {
        this.#toInline(`${MAX_FAILED_STARTS} render workers in a row stopped before they were ready`);
        return;
      }
    }
    this.#dispatch();
  }

  /** No worker threads to be had: queued jobs and all later ones render on the main thread. */
  #toInline(reason: string): void {
    if (this.#inline) return;
    this.#log(`render workers unavailable (${reason}); rendering on the main thread instead`);
    this.#inline = new InlineRenderer(this.#settings);
    this.#setReady();
    if (this.#respawnTimer) clearTimeout(this.#respawnTimer);
    const queued = [...this.#interactive, ...this.#batch];
    this.#interactive.length = 0;
    this.#batch.length = 0;
    for (const q of queued) {
      void this.#inline.render(q.job, 'interactive', q.onStart).then(q.resolve, (err: unknown) => q.resolve(CRASHED(String(err))));
    }
  }

  #dispatch(): void {
    if (this.#closed || this.#inline) return;
    this.#refill();
    if (this.#inline) return;
    for (;;) {
      let queue = this.#interactive.length > 0 ? this.#interactive : this.#batch;
      let best = this.#freeSlot(queue === this.#interactive ? 'interactive' : 'batch');
      if (!best && queue === this.#interactive && this.#batch.length > 0) {
        // Every worker's interactive allowance is taken: a batch job may still use a free batch place.
        queue = this.#batch;
        best = this.#freeSlot('batch');
      }
      if (queue.length === 0 || !best) return;
      const next = queue.shift()!;
      if (next.job.timings) next.job.timings.posted = hrnow();
      // A worker holding nothing starts the job at once: it counts as started now, and only its result comes back.
      const started = best.sent.length === 0 && best.running.size === 0;
      try {
        this.#post(best, { id: next.id, job: next.job, priority: next.priority, started });
      } catch (err) {
        // Data the structured clone cannot copy (a DataCloneError; a stack overflow on deeply nested data): this
        // job fails alone, the slot stays free, the queue goes on.
        this.#finish(next, handOverFailed(err));
        continue;
      }
      best.sent.push(next);
      best.worker.ref();
      if (started) this.#started(best, next);
    }
  }

  /** Every message to a worker goes this way: posted, then its bell rung (an idle worker may wait on it). */
  #post(slot: Slot, msg: WorkerRequest): void {
    slot.worker.postMessage(msg);
    ring(slot.bell);
  }

  /** The least loaded worker with room for a job of this priority (interactive jobs count only their own kind). */
  #freeSlot(priority: Priority): Slot | null {
    let best: Slot | null = null;
    let bestLoad = Infinity;
    for (const slot of this.#slots) {
      // A worker still loading the engine and rendering its warm-up page gets nothing yet: a job posted there would
      // count as started (its render_ms running) through a warm-up that takes seconds on a loaded machine.
      if (slot.overdue || !slot.ready) continue;
      const held = [...slot.sent, ...slot.running.values()];
      const own = held.filter((j) => j.priority === priority).length;
      if (own < PER_WORKER && held.length < bestLoad) {
        best = slot;
        bestLoad = held.length;
      }
    }
    return best;
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
    while (this.#slots.size < this.#size) {
      if (!this.#spawn()) {
        // `new Worker` refused outright (no threads here, options it will not take): no use retrying.
        if (this.#slots.size === 0) this.#toInline('a worker thread cannot be created');
        return;
      }
    }
  }
}
