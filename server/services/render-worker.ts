/**
 * Render worker thread: receives RenderJobs, answers RenderOutcomes (PDF bytes transferred, not copied).
 * Loads the engine and renders a warm-up page at start, then says `ready`, so the first document does not pay for
 * either (the service waits for `ready` before it listens: WorkerPool.ready).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RenderCore, type RenderJob, type RenderOutcome, type RenderSettings } from './render-core.js';
import { loadEngine } from './engine.js';

export type WorkerRequest =
  | { id: number; job: RenderJob; priority: 'interactive' | 'batch' }
  /** The job is no longer wanted: answered `interrupted` if it has not started, else nothing changes. */
  | { withdraw: number };
export type WorkerMessage =
  | { type: 'ready' }
  /** The job arrived: from now on it is this worker's (the pool counts it as running). */
  | { type: 'received'; id: number }
  /** The job left this worker's queue and is rendering (its time limit runs from here). */
  | { type: 'started'; id: number }
  /** A message could not be read here (deserialising its data failed): the oldest job not yet received is lost. */
  | { type: 'unreadable'; detail: string }
  | { type: 'result'; id: number; outcome: RenderOutcome };

/**
 * Renders started and not ended at once: a second one starts only while the first waits on I/O (an image
 * fetched, a template file read), since a CPU-bound render runs to its end before the next turn of the loop.
 */
const MAX_ACTIVE = 2;

type Job = Extract<WorkerRequest, { job: RenderJob }>;

const port = parentPort;
if (port) {
  // The core names the fonts folder (settings.fontsDir) for this thread before the engine loads below.
  const core = new RenderCore(workerData as RenderSettings);
  port.on('messageerror', (err: Error) => {
    port.postMessage({ type: 'unreadable', detail: err.message } satisfies WorkerMessage);
  });
  /**
   * Jobs received and not started, interactive ones first. A render holds this thread until it ends, so a job
   * starts only from a fresh turn of the event loop: every message that arrived meanwhile is queued by then, and an
   * interactive job waits for at most the render in progress, never for batch jobs that arrived before it.
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
  const start = (msg: Job): void => {
    active++;
    port.postMessage({ type: 'started', id: msg.id } satisfies WorkerMessage);
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
        port.postMessage({ type: 'result', id: msg.id, outcome } satisfies WorkerMessage, transfer);
      } catch (err) {
        // An outcome is plain data; should one still not copy, the job fails rather than waiting for ever.
        const failed: RenderOutcome = { ok: false, code: 'render_failed', message: 'The document could not be rendered.', internal: true, detail: `result not sent: ${err instanceof Error ? err.message : String(err)}` };
        port.postMessage({ type: 'result', id: msg.id, outcome: failed } satisfies WorkerMessage);
      }
      pump();
    });
  };
  port.on('message', (msg: WorkerRequest) => {
    if ('withdraw' in msg) {
      const at = waiting.findIndex((w) => w.id === msg.withdraw);
      if (at < 0) return;
      waiting.splice(at, 1);
      const outcome: RenderOutcome = { ok: false, code: 'interrupted', message: 'Withdrawn before it was rendered (the batch was cancelled).' };
      port.postMessage({ type: 'result', id: msg.withdraw, outcome } satisfies WorkerMessage);
      return;
    }
    port.postMessage({ type: 'received', id: msg.id } satisfies WorkerMessage);
    if (msg.priority === 'interactive') {
      const firstBatch = waiting.findIndex((w) => w.priority !== 'interactive');
      waiting.splice(firstBatch < 0 ? waiting.length : firstBatch, 0, msg);
    } else {
      waiting.push(msg);
    }
    pump();
  });
  // Ready once the engine is loaded and warm (fonts, subsetter, hot paths); a failed warm-up render is not fatal.
  loadEngine().then(
    () =>
      core.warm().then(
        () => port.postMessage({ type: 'ready' } satisfies WorkerMessage),
        () => port.postMessage({ type: 'ready' } satisfies WorkerMessage),
      ),
    (err: unknown) => {
      // Without an engine this worker is useless; crash so the pool reports it.
      throw err;
    },
  );
}
