/**
 * Results of requests sent with an Idempotency-Key, kept 24 hours across restarts. An append-only JSON-lines
 * file: one short append per keyed request (no rewrite that grows with the number of keys); compacted on start.
 */
import fs from 'node:fs';
import type { IdempotencyEntry } from './records.js';
import { writeFileAtomicSync } from './json-file.js';
import { isNoSpace } from '../errors/storage.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export class IdempotencyLog {
  readonly #file: string;
  readonly #entries = new Map<string, IdempotencyEntry>();
  /** The last append failed and may have left part of a line: the next one starts on a line of its own. */
  #torn = false;

  constructor(file: string) {
    this.#file = file;
    let text = '';
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const cutoff = Date.now() - IDEMPOTENCY_TTL_MS;
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const entry = JSON.parse(line) as IdempotencyEntry;
        if (entry.at > cutoff) this.#entries.set(entry.key, entry);
      } catch {
        // A torn last line after a crash: skip it.
      }
    }
    const compacted = [...this.#entries.values()].map((e) => JSON.stringify(e) + '\n').join('');
    try {
      writeFileAtomicSync(file, compacted);
    } catch (err) {
      // A full disk: keep the file as it is (compacted on a later start); the service still starts.
      if (!isNoSpace(err)) throw err;
    }
  }

  get(key: string): IdempotencyEntry | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.at <= Date.now() - IDEMPOTENCY_TTL_MS) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Kept once it is on disk; a failed append (a full disk) keeps nothing and may leave a torn line, skipped. */
  async put(entry: IdempotencyEntry): Promise<void> {
    const line = JSON.stringify(entry) + '\n';
    try {
      await fs.promises.appendFile(this.#file, this.#torn ? '\n' + line : line);
    } catch (err) {
      this.#torn = true;
      throw err;
    }
    this.#torn = false;
    this.#entries.set(entry.key, entry);
  }

  /** Forgets entries older than 24 h (the file is compacted on the next start). */
  prune(): void {
    const cutoff = Date.now() - IDEMPOTENCY_TTL_MS;
    for (const [key, entry] of this.#entries) if (entry.at <= cutoff) this.#entries.delete(key);
  }
}
