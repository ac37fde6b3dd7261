/**
 * Progress of a CLI batch on stderr: on a terminal a bar redrawn in place (done/total, rate, ETA); otherwise (a
 * log, CI) one plain line every few seconds, so a log is readable and not flooded. The summary line at the end is
 * the same either way: `300/300 done, 0 failed, 1.1 s, 270 doc/s`.
 */
export interface ProgressOptions {
  total: number;
  stream: NodeJS.WriteStream;
  /** Seconds between two lines when not on a terminal. */
  lineSeconds?: number;
}

function seconds(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - m * 60)} s`;
}

export class Progress {
  readonly #started = Date.now();
  readonly #tty: boolean;
  readonly #timer: NodeJS.Timeout;
  #done = 0;
  #failed = 0;
  #drawn = false;

  constructor(private readonly o: ProgressOptions) {
    this.#tty = o.stream.isTTY === true;
    this.#timer = setInterval(() => this.#draw(), this.#tty ? 100 : (o.lineSeconds ?? 3) * 1000);
    this.#timer.unref();
  }

  tick(ok: boolean): void {
    if (ok) this.#done++;
    else this.#failed++;
  }

  /** Prints a line above the bar (a failed row), without tearing the bar. */
  note(line: string): void {
    if (this.#tty && this.#drawn) this.o.stream.write('\r\x1b[K');
    this.o.stream.write(`${line}\n`);
    if (this.#tty && this.#drawn) this.#draw();
  }

  /** Stops the updates and prints the summary; returns it. */
  finish(): string {
    clearInterval(this.#timer);
    const ms = Date.now() - this.#started;
    const rate = ms > 0 ? Math.round(((this.#done + this.#failed) * 1000) / ms) : 0;
    const summary = `${this.#done}/${this.o.total} done, ${this.#failed} failed, ${seconds(ms)}, ${rate} doc/s`;
    if (this.#tty && this.#drawn) this.o.stream.write('\r\x1b[K');
    this.o.stream.write(`${summary}\n`);
    return summary;
  }

  #draw(): void {
    const { total } = this.o;
    const finished = this.#done + this.#failed;
    const ms = Date.now() - this.#started;
    const rate = ms > 0 ? (finished * 1000) / ms : 0;
    const eta = rate > 0 ? seconds(((total - finished) / rate) * 1000) : '?';
    const failed = this.#failed ? `, ${this.#failed} failed` : '';
    if (this.#tty) {
      const width = 30;
      const full = total > 0 ? Math.round((finished / total) * width) : width;
      const bar = '█'.repeat(full) + '░'.repeat(width - full);
      this.o.stream.write(`\r\x1b[K${bar} ${finished}/${total}${failed}  ${Math.round(rate)} doc/s  ETA ${eta}`);
      this.#drawn = true;
    } else {
      this.o.stream.write(`batch: ${finished}/${total}${failed}, ${Math.round(rate)} doc/s, ETA ${eta}\n`);
    }
  }
}
