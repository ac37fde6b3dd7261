/**
 * `docloom migrate`'s progress on stderr. On a terminal: one line redrawn in place (at most 10 times a second) with
 * a bar; elsewhere (a log, a pipe, CI): a plain line per step a log can keep, never carriage returns.
 */
const WIDTH = 24;
const REDRAW_MS = 100;

export interface Progress {
  /** `done` of `total` items of `phase` copied (or compared). */
  update(phase: string, done: number, total: number): void;
  /** A line of its own (the bar, if any, is ended first). */
  say(line: string): void;
  end(): void;
}

export function progressOn(stream: NodeJS.WriteStream): Progress {
  const tty = stream.isTTY === true;
  let drawn = false;
  let last = 0;
  const clear = () => {
    if (drawn) stream.write('\n');
    drawn = false;
  };
  return {
    update(phase, done, total) {
      const pct = total === 0 ? 100 : Math.floor((done / total) * 100);
      if (!tty) {
        stream.write(`migrate: ${phase} ${done}/${total} (${pct} %)\n`);
        return;
      }
      const now = Date.now();
      if (done < total && now - last < REDRAW_MS) return;
      last = now;
      const filled = Math.round((pct / 100) * WIDTH);
      stream.write(`\r\x1b[K${phase.padEnd(20)} [${'#'.repeat(filled)}${' '.repeat(WIDTH - filled)}] ${done}/${total}`);
      drawn = true;
    },
    say(line) {
      clear();
      stream.write(`${line}\n`);
    },
    end: clear,
  };
}
