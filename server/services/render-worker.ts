/**
 * Render worker thread: receives RenderJobs, answers RenderOutcomes (PDF bytes transferred, not copied).
 * Loads the engine and renders a warm-up page at start, then says `ready`, so the first document does not pay for
 * either (the service waits for `ready` before it listens: WorkerPool.ready).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RenderCore, type RenderJob, type RenderOutcome, type RenderSettings } from './render-core.js';
import { loadEngine } from './engine.js';

export type WorkerRequest = { id: number; job: RenderJob };
export type WorkerMessage =
  | { type: 'ready' }
  /** The job arrived: from now on it is this worker's (the pool counts it as running). */
  | { type: 'received'; id: number }
  /** A message could not be read here (deserialising its data failed): the oldest job not yet received is lost. */
  | { type: 'unreadable'; detail: string }
  | { type: 'result'; id: number; outcome: RenderOutcome };

const port = parentPort;
if (port) {
  // The core names the fonts folder (settings.fontsDir) for this thread before the engine loads below.
  const core = new RenderCore(workerData as RenderSettings);
  port.on('messageerror', (err: Error) => {
    port.postMessage({ type: 'unreadable', detail: err.message } satisfies WorkerMessage);
  });
  port.on('message', (msg: WorkerRequest) => {
    port.postMessage({ type: 'received', id: msg.id } satisfies WorkerMessage);
    void core.render(msg.job).then((outcome) => {
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
    });
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
