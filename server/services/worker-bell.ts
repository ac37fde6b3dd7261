/**
 * A doorbell beside a worker's message port, so that an idle worker takes its next job without going through its
 * event loop (docs/benchmarks.md, session 17, branch loop20).
 *
 * Why: a job posted to a worker asleep in its event loop wakes the thread (an eventfd write), then Node's loop
 * runs the port's async handle, builds a MessageEvent and dispatches it, and the job started from a fresh turn
 * (setImmediate). A worker that has just finished a job and has nothing else to do can instead block in
 * Atomics.wait on a shared Int32 that the sender increments after each postMessage, and take the messages
 * synchronously with receiveMessageOnPort: one futex wake, no dispatch.
 *
 * A worker waits so only for a bounded time after its last job and only when it holds nothing (no render, no I/O
 * of its own in flight): its event loop does not run meanwhile, so timers and V8's foreground tasks wait until the
 * next job or the end of the wait. worker.terminate() ends an Atomics.wait at once (V8 interrupts it).
 */
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

/** A new bell for one worker: pass its buffer in the worker's workerData, ring it after each postMessage. */
export function newBell(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
}

/** From the sending thread, after postMessage: wakes the worker if it waits on the bell (else costs no system call). */
export function ring(bell: Int32Array): void {
  Atomics.add(bell, 0, 1);
  Atomics.notify(bell, 0, 1);
}

/**
 * In the worker: takes every message already queued on `port` (each passed to `take` in the order sent), waiting on
 * the bell for the first one for at most `waitMs`. A message that cannot be read (deserialising it failed: the
 * 'messageerror' of the event path) is passed to `unreadable` and counts as taken. Returns the number taken; 0
 * means the time ran out — the port's 'message' event takes the next one.
 */
export function takeMessages(port: MessagePort, bell: Int32Array, waitMs: number, take: (msg: unknown) => void, unreadable: (err: Error) => void): number {
  const until = performance.now() + waitMs;
  for (;;) {
    // The bell is read before the port: a message posted after this read rings after it, so the wait below
    // returns at once instead of missing it.
    const rung = Atomics.load(bell, 0);
    const taken = drain(port, take, unreadable);
    if (taken > 0) return taken;
    const left = until - performance.now();
    if (left <= 0) return 0;
    Atomics.wait(bell, 0, rung, left);
  }
}

function drain(port: MessagePort, take: (msg: unknown) => void, unreadable: (err: Error) => void): number {
  let taken = 0;
  for (;;) {
    let got: { message: unknown } | undefined;
    try {
      got = receiveMessageOnPort(port);
    } catch (err) {
      // Node's own argument errors (ERR_*: not a port) are bugs, not a message: thrown, or this would loop.
      const code = (err as { code?: unknown } | null)?.code;
      if (typeof code === 'string') throw err;
      unreadable(err instanceof Error ? err : new Error(String(err)));
      taken++;
      continue;
    }
    if (!got) return taken;
    take(got.message);
    taken++;
  }
}
