/**
 * Group commit: one write on its way to disk, at most one more waiting. Every call made while a write runs shares
 * the next one, which starts when the running one ends and writes whatever is newest then — so a burst of N
 * changes costs two writes (and two fsyncs), not N. Used for shard files, folder fsyncs and the idempotency log.
 */
export class GroupCommit {
  readonly #work: () => Promise<void>;
  #running: Promise<void> | null = null;
  #next: Promise<void> | null = null;

  /** `work` writes what is newest when it is called; its promise settles every caller that shared it. */
  constructor(work: () => Promise<void>) {
    this.#work = work;
  }

  /** Resolves once a write that started after this call has ended (rejects with its error). */
  run(): Promise<void> {
    if (this.#next) return this.#next;
    const previous = this.#running ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(() => {
        this.#next = null;
        const current = this.#work();
        this.#running = current;
        return current.finally(() => {
          if (this.#running === current) this.#running = null;
        });
      });
    this.#next = next;
    return next;
  }

  /** Resolves once every write asked for so far has ended (whatever its outcome). */
  async drain(): Promise<void> {
    while (this.#next || this.#running) await (this.#next ?? this.#running)?.catch(() => undefined);
  }
}
