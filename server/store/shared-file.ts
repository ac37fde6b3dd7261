/**
 * A small lowdb file that another process (the CLI) may change while the service runs: tokens.json and
 * templates.json. Reads call refresh(), which costs one stat() and re-reads the file only when its identity
 * (inode, size, mtime) changed; writes re-read first, apply the change and write atomically, so a token made
 * by `docloom token create` works at once and a revoked one stops at once.
 */
import fs from 'node:fs';
import { LowSync } from 'lowdb';
import { JsonFileSync } from './json-file.js';

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
  /** Called after the data was (re)loaded from disk, to rebuild indexes. */
  onLoad: (data: T) => void = () => undefined;

  constructor(file: string, empty: () => T) {
    this.#file = file;
    this.#empty = empty;
    this.#db = new LowSync<T>(new JsonFileSync<T>(file), empty());
  }

  /** The current data, re-read from disk if another process changed the file. Do not mutate it. */
  get data(): T {
    this.refresh();
    return this.#db.data;
  }

  refresh(): void {
    const sig = signature(this.#file);
    if (sig === this.#seen) return;
    this.#db.data = this.#empty();
    this.#db.read();
    this.#seen = sig;
    this.onLoad(this.#db.data);
  }

  /** Read-modify-write: re-reads the file, applies `change`, writes it back atomically. */
  update<R>(change: (data: T) => R): R {
    this.refresh();
    const result = change(this.#db.data);
    try {
      this.#db.write();
    } catch (err) {
      // Not written (a full disk…): forget the change in memory too, by reading the file again.
      this.#seen = null;
      this.refresh();
      throw err;
    }
    this.#seen = signature(this.#file);
    this.onLoad(this.#db.data);
    return result;
  }
}
