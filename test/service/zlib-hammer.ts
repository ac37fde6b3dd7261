/**
 * A worker for zlib-stop.test.ts, started with the service's startWorker: it honours its zlib gate (workerInput)
 * and then does nothing but the engine's zlib calls on tiny inputs, so that a fair share of its time is in the
 * dangerous window (from a zlib handle's creation to its init: JS code, where a termination lands). Without the
 * gate (this file with workerInput() left out), zlib-stop.test.ts's storm of 80 aborted Node 20 and Node 24
 * ("close before init") in each of 5 runs.
 */
import { parentPort } from 'node:worker_threads';
import { workerInput } from '../../server/services/worker-start.js';
import { inflateSized, zlibDeflate } from '../../server/engine/flate.js';

workerInput();
const text = Buffer.from('hello world hello', 'latin1');
const deflated = zlibDeflate(text, 6);
const damaged = Buffer.from(deflated);
damaged[2] ^= 0xff;
parentPort?.postMessage('running');
for (let i = 0; ; i++) {
  inflateSized(deflated, text.length, 'zlib');
  if (i % 64 === 0) zlibDeflate(text, 1);
  if (i % 64 === 32) {
    // Damaged data: node:zlib's error callback runs JS while its write is still marked in progress.
    try {
      inflateSized(damaged, text.length, 'zlib');
    } catch {
      // expected
    }
  }
}
