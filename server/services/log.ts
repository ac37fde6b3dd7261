/** A tiny levelled logger over one line sink (stdout for the CLI, Electron's log, or a test's array). */
import type { Config } from '../config.js';

export interface Logger {
  error(line: string): void;
  info(line: string): void;
  debug(line: string): void;
  /**
   * False when debug() prints nothing, so a caller can skip building its line and whatever it takes to measure it
   * (the request log's timing of every request). Absent: treated as true.
   */
  readonly debugEnabled?: boolean;
}

const RANK: Record<Config['logLevel'], number> = { silent: 0, error: 1, info: 2, debug: 3 };

export function createLogger(level: Config['logLevel'], sink: (line: string) => void): Logger {
  const rank = RANK[level];
  const at = (min: number) => (line: string) => {
    if (rank >= min) sink(line);
  };
  return { error: at(1), info: at(2), debug: at(3), debugEnabled: rank >= 3 };
}
