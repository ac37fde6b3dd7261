/**
 * Render worker thread: receives RenderJobs, answers RenderOutcomes (PDF bytes transferred, not copied).
 * A job posted to an idle worker costs two messages, the job and its result: the pool already counts it as started
 * (`started: true`; it starts here at once). A job that may wait behind others is announced when it starts. Each
 * message to the event loop is a wake-up of its own, which on this VM costs as much as a small phase of a request.
 * Loads the engine and renders a warm-up page at start, then says `ready`, so the first document does not pay for
 * either (the service waits for `ready` before it listens: WorkerPool.ready).
 *
 * A worker left with nothing to do waits for its next job on a doorbell (worker-bell.ts) for up to IDLE_WAIT_MS,
 * and takes it there without a turn of its event loop; after that, and whenever it is busy, jobs come as 'message'
 * events.
 */
import { parentPort } from 'node:worker_threads';
import { RenderCore, type RenderJob, type RenderOutcome, type RenderSettings } from './render-core.js';
import { loadEngine } from './engine.js';
import { workerInput } from './worker-start.js';
import { takeMessages } from './worker-bell.js';

/** The render worker's workerData: the settings, and the bell the pool rings after each message it posts. */
export interface RenderWorkerData {
  settings: RenderSettings;
  bell: SharedArrayBuffer;
  /** How long an idle worker waits on the bell (IDLE_WAIT_MS unless a test says otherwise). */
  idleWaitMs?: number;
}

export type WorkerRequest =
  /**
   * `started`: the pool posted the job to a worker holding nothing else, so it starts at once: the pool counts it as
   * started from the post (its time limit, the document's `processing`) and no `started` message comes back.
   */
  | { id: number; job: RenderJob; priority: 'interactive' | 'batch'; started?: boolean }
  /** The job is no longer wanted: answered `interrupted` if it has not started, else nothing changes. */
  | { withdraw: number };
export type WorkerMessage =
  | { type: 'ready' }
  /**
   * The job arrived: from now on it is this worker's. Sent only when it must be told apart from a message that could
   * not be read (just before `unreadable`); otherwise `started` or `result` says it.
   */
  | { type: 'received'; id: number }
  /** The job left this worker's queue and is rendering (its time limit runs from here); also says it arrived. */
  | { type: 'started'; id: number }
  /**
   * A message could not be read here (deserialising its data failed): the oldest job not yet confirmed (by
   * `received`, `started` or `result`) is lost. Every job that arrived before it is confirmed first.
   */
  | { type: 'unreadable'; detail: string }
  | { type: 'result'; id: number; outcome: RenderOutcome };

/**
 * Renders started and not ended at once: a second one starts only while the first waits on I/O (an image
 * fetched, a template file read), since a CPU-bound render runs to its end before the next turn of the loop.
 */
const MAX_ACTIVE = 2;

/**
 * How long a worker that has just become idle waits on its bell before it goes back to its event loop. Clients that
 * create documents one after another send the next within a few milliseconds of the last answer; a worker idle for
 * longer pays the event loop's way once.
 */
export const IDLE_WAIT_MS = 50;

type Job = Extract<WorkerRequest, { job: RenderJob }>;

const port = parentPort;
if (port) {
  const { settings, bell: bellBuffer, idleWaitMs = IDLE_WAIT_MS } = workerInput<RenderWorkerData>();
  const bell = new Int32Array(bellBuffer);
  // The core names the fonts folder (settings.fontsDir) for this thread before the engine loads below.
  const core = new RenderCore(settings);
  /** Jobs that arrived and that no message to the pool has named yet, in the order they came. */
  const unconfirmed = new Set<number>();
  const post = (msg: WorkerMessage, transfer?: ArrayBuffer[]): void => {
    if ('id' in msg) unconfirmed.delete(msg.id);
    port.postMessage(msg, transfer);
  };
  const unreadable = (err: Error): void => {
    // The pool tells which job was lost by order: every job that came before the unreadable one is named first.
    for (const id of unconfirmed) port.postMessage({ type: 'received', id } satisfies WorkerMessage);
    unconfirmed.clear();
    port.postMessage({ type: 'unreadable', detail: err.message } satisfies WorkerMessage);
  };
  port.on('messageerror', unreadable);
  /**
   * Jobs received and not started, interactive ones first. A render holds this thread until it ends, so a job
   * starts only once every message that arrived meanwhile is queued — from a fresh turn of the event loop, or after
   * the bell's wait has taken every message there is — and an interactive job waits for at most the render in
   * progress, never for batch jobs that arrived before it.
   */
  const waiting: Job[] = [];
  let active = 0;
  let pumping = false;
  const pump = (): void => {
    if (pumping || active >= MAX_ACTIVE || waiting.length === 0) return;
    pumping = true;
    setImmediate(() => {
      pumping = false;
      const next = waiting.shift();
      if (next) start(next);
      pump();
    });
  };
  let idling = false;
  /**
   * Called once this worker holds nothing: after one more turn of its event loop (its timers, I/O and V8's tasks
   * run there), waits on the bell for the next job and starts it at once.
   */
  const idle = (): void => {
    if (idling || active > 0 || waiting.length > 0) return;
    idling = true;
    setImmediate(() => {
      idling = false;
      // A message the event loop delivered meanwhile is already queued (or started).
      if (active > 0 || waiting.length > 0) return;
      if (takeMessages(port, bell, idleWaitMs, (msg) => take(msg as WorkerRequest), unreadable) === 0) return;
      const next = active < MAX_ACTIVE ? waiting.shift() : undefined;
      if (next) start(next);
      pump();
      idle();
    });
  };
  const start = (msg: Job): void => {
    active++;
    if (!msg.started) post({ type: 'started', id: msg.id });
    void core.render(msg.job).then((outcome) => {
      active--;
      const transfer: ArrayBuffer[] = [];
      if (outcome.ok) {
        for (const bytes of [outcome.bytes, outcome.editable]) {
          if (!bytes) continue;
          const { buffer, byteOffset, byteLength } = bytes;
          // Transfer only a buffer the bytes own outright (a pooled Buffer shares its ArrayBuffer).
          if (buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength && !transfer.includes(buffer)) transfer.push(buffer);
        }
      }
      try {
        post({ type: 'result', id: msg.id, outcome }, transfer);
      } catch (err) {
        // An outcome is plain data; should one still not copy, the job fails rather than waiting for ever.
        const failed: RenderOutcome = { ok: false, code: 'render_failed', message: 'The document could not be rendered.', internal: true, detail: `result not sent: ${err instanceof Error ? err.message : String(err)}` };
        post({ type: 'result', id: msg.id, outcome: failed });
      }
      pump();
      idle();
    });
  };
  /** A message from the pool: a job queued (interactive ones before batch ones), or a withdrawal. */
  const take = (msg: WorkerRequest): void => {
    if ('withdraw' in msg) {
      // A job the pool counts as started (`started: true`) is rendered whatever comes after it.
      const at = waiting.findIndex((w) => w.id === msg.withdraw && !w.started);
      if (at < 0) return;
      waiting.splice(at, 1);
      const outcome: RenderOutcome = { ok: false, code: 'interrupted', message: 'Withdrawn before it was rendered (the batch was cancelled).' };
      post({ type: 'result', id: msg.withdraw, outcome });
      return;
    }
    unconfirmed.add(msg.id);
    if (msg.priority === 'interactive') {
      const firstBatch = waiting.findIndex((w) => w.priority !== 'interactive');
      waiting.splice(firstBatch < 0 ? waiting.length : firstBatch, 0, msg);
    } else {
      waiting.push(msg);
    }
  };
  port.on('message', (msg: WorkerRequest) => {
    // A job the pool counts as started was posted to a worker it saw holding nothing (every result of this worker
    // already back there): nothing here can go before it, so it starts now, not from the next turn of the loop.
    if ('job' in msg && msg.started && active === 0 && waiting.length === 0) {
      unconfirmed.add(msg.id);
      start(msg);
      return;
    }
    take(msg);
    pump();
  });
  // Ready once the engine is loaded and warm (fonts, subsetter, hot paths); a failed warm-up render is not fatal.
  const ready = (): void => {
    port.postMessage({ type: 'ready' } satisfies WorkerMessage);
    idle();
  };
  loadEngine().then(
    () => core.warm().then(ready, ready),
    (err: unknown) => {
      // Without an engine this worker is useless; crash so the pool reports it.
      throw err;
    },
  );
}
