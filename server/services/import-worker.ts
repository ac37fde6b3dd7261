/** Import worker thread: receives ImportJobs, answers ImportOutcomes (a rewritten file transferred, not copied). */
import { parentPort } from 'node:worker_threads';
import { loadEngine } from './engine.js';
import { runImport, type ImportJob, type ImportOutcome } from './import-core.js';
import { workerInput } from './worker-start.js';

export type ImportRequest = { id: number; job: ImportJob };
export type ImportReply = { id: number; outcome: ImportOutcome } | { id: number; error: string };

const port = parentPort;
if (port) {
  // Only the zlib gate (no data of its own): imports inflate the .docx's entries.
  workerInput();
  port.on('message', (msg: ImportRequest) => {
    loadEngine().then(
      (engine) => {
        let outcome: ImportOutcome;
        try {
          outcome = runImport(engine, msg.job);
        } catch (err) {
          port.postMessage({ id: msg.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies ImportReply);
          return;
        }
        const transfer: ArrayBuffer[] = [];
        if (outcome.ok && outcome.bytes && outcome.bytes.buffer instanceof ArrayBuffer && outcome.bytes.byteOffset === 0) transfer.push(outcome.bytes.buffer);
        port.postMessage({ id: msg.id, outcome } satisfies ImportReply, transfer);
      },
      (err: unknown) => port.postMessage({ id: msg.id, error: String(err) } satisfies ImportReply),
    );
  });
}
