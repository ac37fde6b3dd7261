/**
 * A small lowdb file that another process (the CLI) may change while the service runs: tokens.json and
 * templates.json. Reads call refresh(), which costs one stat() and re-reads the file only when its identity
 * (inode, size, mtime) changed, so a token made by `docloom token create` works at once and a revoked one stops at
 * once. Writes take the data dir's write.lock (lock.ts), re-read the file under it, apply the change and write
 * atomically: changes made by several processes at once are all kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import { LowSync } from 'lowdb';
import { JsonFileSync } from './json-file.js';
import { writeLockFor, type WriteLock } from './lock.js';

function signature(file: string): string | null {
  try {
    const st = fs.statSync(file, { bigint: true });
    return `${st.ino}:${st.size}:${st.mtimeNs}`;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export class SharedJsonFile<T> {
  readonly #db: LowSync<T>;
  readonly #file: string;
  readonly #empty: () => T;
  #seen: string | null = null;
  /** The data dir's write.lock (the file's folder); every change runs under it. */
  readonly lock: WriteLock;
  /** Called after the data was (re)loaded from disk, to rebuild indexes. */
  onLoad: (data: T) => void = () => undefined;

  constructor(file: string, empty: () => T) {
    this.#file = file;
    this.#empty = empty;
    this.#db = new LowSync<T>(new JsonFileSync<T>(file), empty());
    this.lock = writeLockFor(path.dirname(file));
  }

  /** The current data, re-read from disk if another process changed the file. Do not mutate it. */
  get data(): T {
    this.refresh();
    return this.#db.data;
  }

  refresh(): void {
    const sig = signature(this.#file);
    if (sig === this.#seen) return;
    this.#load(sig);
  }

  /** `index`: rebuild the indexes now (update() does it once, after its change). */
  #load(sig: string | null, index = true): void {
    this.#db.data = this.#empty();
    this.#db.read();
    this.#seen = sig;
    if (index) this.onLoad(this.#db.data);
  }

  /**
   * Read-modify-write under write.lock: re-reads the file (always: a stat signature can repeat when inodes are
   * reused within the file system's timestamp granularity), applies `change`, writes it back atomically.
   */
  update<R>(change: (data: T) => R): R {
    return this.lock.run(() => {
      this.#load(signature(this.#file), false);
      let result: R;
      try {
        result = change(this.#db.data);
        this.#db.write();
      } catch (err) {
        // The copy in memory may hold a half-made change (and its indexes are not rebuilt): read the file again
        // next time.
        this.#seen = null;
        throw err;
      }
      this.#seen = signature(this.#file);
      this.onLoad(this.#db.data);
      return result;
    });
  }
}
