/**
 * The engine, loaded on first use rather than at import time: jsPDF and friends take a few hundred
 * milliseconds to load, and with render workers the main thread may never need the PDF half at all, so the
 * service listens before the engine is in memory (start ≤ 1.5 s). startServer() warms it in the background.
 */
export type Engine = typeof import('../engine/index.js');

let engine: Promise<Engine> | null = null;

export function loadEngine(): Promise<Engine> {
  engine ??= import('../engine/index.js').catch((err: unknown) => {
    engine = null;
    throw err;
  });
  return engine;
}
