/**
 * The V8 heap limits every render worker is started with (render-pool.ts), and the big-document benchmark's render
 * with them (bench/big-table.ts), so a render's memory does not depend on the Node version running the service.
 *
 * Why the young generation is set: Node 24's V8 sizes it from the machine's memory, Node 20's capped it at 48 MB
 * (16 MB semi-spaces). On this 24 GB machine, left to Node 24, a render worker making one-page invoices held ~150 MB
 * more (process RSS 409 against 258 MB over 1,500 renders; Node 20: 222 MB) and a 10,000-row table peaked at 337 MB
 * against the 300 MB target (240 MB with the cap) — for no CPU gained per render within the noise
 * (docs/benchmarks.md, session 17). 48 MB is Node 20's own default, so Node 20 behaves as before.
 */
import type { ResourceLimits } from 'node:worker_threads';

export const RENDER_WORKER_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 48 };

/**
 * `docloom batch` (the CLI): the same, with each worker's old generation capped at 1,536 MB. V8 lets an old
 * generation grow to 4× what survived its last full collection when its limit is 2 GB or more (Node 24 here: ~4 GB)
 * and to 1.3–2× below that (v8/src/heap/heap-controller.cc, MaxGrowingFactor). A render worker keeps ~27–29 MB live,
 * so uncapped it collects at ~120 MB, capped at ~60: a 100,000-row certificate batch peaked at 516–519 MB against
 * 608–634 MB (1,000 rows: 374–375 against 418–425 MB), for a few per cent of its rate — and 100,000 rows stay within
 * 1.5× of 1,000 (issue 15's bound), which Node 24's headroom alone broke (1.46–1.62×; docs/benchmarks.md, session 19).
 * A batch run sits beside whatever else the desktop does, so it gives a little CPU for memory; the service keeps
 * the limits above, where the same cap took 6–12 % off the 8-client throughput. A render that needs more than the
 * cap (nothing near it in bench/hostile.ts) ends its worker: that row fails as a crashed render does, the batch goes on.
 */
export const BATCH_CLI_WORKER_LIMITS: ResourceLimits = { ...RENDER_WORKER_LIMITS, maxOldGenerationSizeMb: 1536 };
