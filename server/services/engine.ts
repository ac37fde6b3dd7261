/**
 * The engine, loaded on first use rather than at import time: jsPDF and friends take a few hundred
 * milliseconds to load, and with render workers the main thread may never need the PDF half at all, so the
 * service listens before the engine is in memory (start ≤ 1.5 s). startServer() warms it in the background.
 *
 * It also carries the one process-wide engine setting, the folder of the bundled fonts: the engine falls back to
 * <project>/resources/fonts, which a packaged app does not have, so every thread that renders (the main thread,
 * each render worker, the CLI) names the configured folder with useFontsDir() before its first render.
 */
import path from 'node:path';

export type Engine = typeof import('../engine/index.js');

let loading: Promise<Engine> | null = null;
let fontsDir: string | null = null;
let appliedFontsDir: string | null = null;

/** Names the folder of the bundled TTF fonts for this thread's renders (applied when the engine is loaded). */
export function useFontsDir(dir: string): void {
  fontsDir = path.resolve(dir);
}

/** The fonts folder named with useFontsDir(), if any. */
export function configuredFontsDir(): string | null {
  return fontsDir;
}

export async function loadEngine(): Promise<Engine> {
  loading ??= import('../engine/index.js').catch((err: unknown) => {
      loading = null;
      throw err;
    });
  const engine = await loading;
  // Applied here rather than in useFontsDir() so naming the folder never loads the engine; only a change is
  // passed on, since the engine drops its font caches whenever the folder is set.
  if (fontsDir !== null && fontsDir !== appliedFontsDir) {
    engine.setFontsDir(fontsDir);
    appliedFontsDir = fontsDir;
  }
  return engine;
}
