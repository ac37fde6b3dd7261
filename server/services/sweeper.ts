/**
 * Every config.sweepIntervalSeconds: expire due documents (files deleted, `expired: 1`), then the housekeeping
 * passed as `extra` (old idempotency keys, idle sign-in tokens).
 */
import type { DocumentService } from './documents.js';

export interface Sweeper {
  /** One sweep now (also used by tests); resolves with the number of documents expired. */
  runOnce(): Promise<number>;
  stop(): void;
}

export function startSweeper(documents: DocumentService, extra: () => Promise<void>, intervalSeconds: number, log: (line: string) => void): Sweeper {
  let running: Promise<number> | null = null;
  const runOnce = (): Promise<number> => {
    running ??= (async () => {
      try {
        const n = await documents.sweep();
        await extra();
        if (n > 0) log(`sweeper: ${n} document${n === 1 ? '' : 's'} expired`);
        return n;
      } catch (err) {
        log(`sweeper: ${(err as Error).stack ?? String(err)}`);
        return 0;
      } finally {
        running = null;
      }
    })();
    return running;
  };
  const timer = setInterval(() => void runOnce(), intervalSeconds * 1000);
  timer.unref();
  return { runOnce, stop: () => clearInterval(timer) };
}
