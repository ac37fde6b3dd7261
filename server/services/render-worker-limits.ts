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
