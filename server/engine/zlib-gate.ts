/**
 * A critical section around every node:zlib call, so that a worker thread is never stopped inside one.
 *
 * Why: a worker terminated (Worker.terminate(): the render pool's render_ms limit, its shutdown, the import
 * worker's time limit) while inside node:zlib — after the native handle was created and before its init, or in
 * the JS error callback that runs while a write is still marked in progress — leaves a handle whose destructor
 * fails a CHECK in node_zlib.cc ("close before init") when the thread's environment is torn down, and that aborts
 * the whole process (seen on Node 24 in a CI run: commit c2f14e3, when the engine went back to fflate for it).
 *
 * How: each worker shares one Int32 with the thread that starts it (a SharedArrayBuffer in its workerData:
 * services/worker-start.ts). The worker enters a zlib call by swapping it OPEN → INSIDE and leaves by storing
 * OPEN. The thread that wants to stop the worker swaps it OPEN → STOPPING first and retries while it reads INSIDE
 * (a zlib call is short), then terminates. Once STOPPING, the worker never enters zlib again: it waits to be
 * terminated. On a thread without a gate (the main thread, the CLI, the tests, the fidelity child) nothing is
 * checked: nobody terminates those from outside.
 *
 * Reusing one initialised zlib handle per thread would avoid the window without a gate, but node:zlib's sync
 * functions close their handle after each call (Z_FINISH): only Node's internals could keep one open.
 */

/** The gate's values (index 0 of the shared Int32Array). */
export const ZLIB_OPEN = 0;
export const ZLIB_INSIDE = 1;
export const ZLIB_STOPPING = 2;

/** How long a worker that found the gate closed waits for its termination before it throws instead. */
const STOPPING_WAIT_MS = 10_000;

let gate: Int32Array | null = null;

/** Makes this thread honour `flag` (called once by a worker's entry, before the engine runs); null: no gate. */
export function useZlibGate(flag: Int32Array | null): void {
  gate = flag;
}

/** A new gate for a worker about to be started: pass its buffer to the worker, keep the view to stop it. */
export function newZlibGate(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
}

/**
 * From the thread that will stop the worker: closes the gate unless the worker is inside a zlib call. True when
 * closed (now or before): the worker may be terminated. False: it is inside; try again in a moment.
 */
export function closeZlibGate(flag: Int32Array): boolean {
  return Atomics.compareExchange(flag, 0, ZLIB_OPEN, ZLIB_STOPPING) !== ZLIB_INSIDE;
}

/** Runs `call` (one node:zlib call) inside this thread's critical section. */
export function insideZlibGate<T>(call: () => T): T {
  const flag = gate;
  if (!flag) return call();
  const was = Atomics.compareExchange(flag, 0, ZLIB_OPEN, ZLIB_INSIDE);
  // INSIDE can only have been set by this thread: a nested call, which the outer one covers.
  if (was === ZLIB_INSIDE) return call();
  if (was === ZLIB_STOPPING) {
    // Being terminated: wait for it here rather than fail the render and post a result the pool would take for
    // the job's (Atomics.wait ends at once when the thread is terminated).
    Atomics.wait(flag, 0, ZLIB_STOPPING, STOPPING_WAIT_MS);
    throw new Error('This thread is being stopped.');
  }
  try {
    return call();
  } finally {
    Atomics.store(flag, 0, ZLIB_OPEN);
  }
}
