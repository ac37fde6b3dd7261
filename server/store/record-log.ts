/**
 * An append-only log of JSON lines, made durable with one fdatasync per batch (docs/store.md, "Record logs").
 * Appends made while a batch is on its way to disk wait and go together in the next one (group commit), so a
 * burst of N changes costs two appends and two fdatasyncs, not N. A document shard keeps one log per generation
 * (documents.ts); the log is never appended to after a start, so a line torn by a crash is always the last one.
 */
import fs from 'node:fs';
import { GroupCommit } from './group-commit.js';

export class AppendLog {
  #fd: number | null = null;
  #queue: string[] = [];
  /** Bytes known to be whole lines; a failed append is cut back to it so the next line starts clean. */
  #size = 0;
  readonly #commit = new GroupCommit(() => this.#flushQueue());

  constructor(readonly file: string) {}

  /** Appends one line (no newline inside); resolves once it is on disk, rejects when it could not be written. */
  append(line: string): Promise<void> {
    this.#queue.push(line + '\n');
    return this.#commit.run();
  }

  async #flushQueue(): Promise<void> {
    if (this.#queue.length === 0) return;
    const text = Buffer.from(this.#queue.join(''));
    this.#queue = [];
    try {
      // Opening and appending (into the page cache) take microseconds: done directly, they cost the event loop less
      // than a round trip to the thread pool each; only the fdatasync, which waits for the disk, goes there.
      this.#fd ??= fs.openSync(this.file, 'a');
      fs.writeFileSync(this.#fd, text);
      await datasync(this.#fd);
      this.#size += text.byteLength;
    } catch (err) {
      // Cut a half-written batch off (best effort; a start skips a line that does not parse anyway). A log that
      // never held a whole line is removed again (a full disk leaves nothing behind).
      const fd = this.#fd;
      if (fd === null) throw err;
      if (this.#size === 0) {
        this.#fd = null;
        try {
          fs.closeSync(fd);
        } catch {
          // the write's error is the one reported
        }
        fs.rmSync(this.file, { force: true });
      } else {
        try {
          fs.ftruncateSync(fd, this.#size);
        } catch {
          // best effort, as above
        }
      }
      throw err;
    }
  }

  /** Waits for every append asked for so far, then closes the file. */
  async close(): Promise<void> {
    await this.#commit.drain();
    const fd = this.#fd;
    this.#fd = null;
    if (fd !== null) fs.closeSync(fd);
  }
}

function datasync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fs.fdatasync(fd, (err) => (err ? reject(err) : resolve())));
}

/**
 * The whole lines of a log, parsed. A line that does not parse (an append cut short by a crash, or cut back after
 * a failed write) is skipped and counted; it was never acknowledged.
 */
export function readLog<T>(file: string): { lines: T[]; torn: number } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], torn: 0 };
    throw err;
  }
  const lines: T[] = [];
  let torn = 0;
  const parts = text.split('\n');
  // The part after the last newline is an unfinished line (or empty).
  if (parts.at(-1) !== '') torn++;
  for (const part of parts.slice(0, -1)) {
    if (part === '') continue;
    try {
      lines.push(JSON.parse(part) as T);
    } catch {
      torn++;
    }
  }
  return { lines, torn };
}
