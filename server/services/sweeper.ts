/**
 * Every config.sweepIntervalSeconds: expire due documents (files deleted, `expired: 1`), then the housekeeping
 * passed as `extra` (old idempotency keys, idle sign-in tokens). On a shared database (`exclusively`, an advisory
 * lock) one instance sweeps at a time; one finding another sweeping skips that round.
 */
import type { DocumentService } from './documents.js';

export interface Sweeper {
  /** One sweep now (also used by tests); resolves with the number of documents expired (0 when skipped). */
  runOnce(): Promise<number>;
  stop(): void;
}

/** Runs work unless another instance runs work of that name now (Repositories.exclusively). */
export type Exclusively = <T>(name: string, work: () => Promise<T>) => Promise<T | undefined>;

export function startSweeper(
  documents: DocumentService,
  extra: () => Promise<void>,
  intervalSeconds: number,
  log: (line: string) => void,
  exclusively?: Exclusively,
): Sweeper {
  let running: Promise<number> | null = null;
  const sweep = async (): Promise<number> => {
    const n = await documents.sweep();
    await extra();
    return n;
  };
  const runOnce = (): Promise<number> => {
    running ??= (async () => {
      try {
        const n = exclusively ? ((await exclusively('sweeper', sweep)) ?? 0) : await sweep();
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
