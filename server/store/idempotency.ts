/**
 * Results of requests sent with an Idempotency-Key, kept 24 hours across restarts. An append-only JSON-lines
 * file: one short append per keyed request (no rewrite that grows with the number of keys); compacted on start.
 * Appends are fsynced before put() resolves (the response that the key replays goes out only then); appends made
 * while an fsync runs are written and synced together by the next one (group commit).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { IdempotencyEntry } from './records.js';
import { writeFileAtomicSync } from './json-file.js';
import { isNoSpace } from '../errors/storage.js';
import { GroupCommit } from './group-commit.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export class IdempotencyLog {
  readonly #file: string;
  readonly #entries = new Map<string, IdempotencyEntry>();
  #handle: Promise<fs.promises.FileHandle> | null = null;
  /** Entries waiting for the next append (one group commit). */
  #pending: IdempotencyEntry[] = [];
  readonly #commit = new GroupCommit(() => this.#appendPending());
  /** The last append failed and may have left part of a line: the next one starts on a line of its own. */
  #torn = false;

  constructor(file: string, log: (line: string) => void = () => undefined) {
    this.#file = file;
    let text = '';
    let existed = true;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      existed = false;
    }
    const cutoff = Date.now() - IDEMPOTENCY_TTL_MS;
    const lines = text.split('\n');
    let dropped = 0;
    for (const line of lines) {
      if (!line) continue;
      try {
        const entry = JSON.parse(line) as IdempotencyEntry;
        if (entry.at > cutoff) this.#entries.set(entry.key, entry);
      } catch {
        // A torn last line after a crash (an append cut short): the request it was for was never answered.
        dropped++;
      }
    }
    if (dropped > 0) log(`store: reconcile: dropped ${dropped} torn line(s) of ${path.basename(file)} (the file is rewritten)`);
    const compacted = [...this.#entries.values()].map((e) => JSON.stringify(e) + '\n').join('');
    // Written (durably, with its folder entry) when anything changed, or to create it before the first append.
    try {
      if (compacted !== text || !existed) writeFileAtomicSync(file, compacted);
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

  /**
   * Resolves once the entry is on disk (appended and fsynced); only then is it kept. A failed append (a full
   * disk) keeps none of its entries and may leave a torn line, which the next append starts after.
   */
  put(entry: IdempotencyEntry): Promise<void> {
    this.#pending.push(entry);
    return this.#commit.run();
  }

  /** One group commit: the entries put since the last one, appended and synced together. */
  async #appendPending(): Promise<void> {
    const batch = this.#pending;
    this.#pending = [];
    const text = batch.map((e) => JSON.stringify(e) + '\n').join('');
    try {
      await this.#append(this.#torn ? '\n' + text : text);
    } catch (err) {
      this.#torn = true;
      throw err;
    }
    this.#torn = false;
    for (const e of batch) this.#entries.set(e.key, e);
  }

  async #append(text: string): Promise<void> {
    this.#handle ??= fs.promises.open(this.#file, 'a');
    const handle = await this.#handle;
    await handle.appendFile(text);
    await handle.datasync();
  }

  /** Waits for appends in progress and closes the file. */
  async close(): Promise<void> {
    await this.#commit.drain();
    const handle = this.#handle;
    this.#handle = null;
    if (handle) await (await handle).close();
  }

  /** Forgets entries older than 24 h (the file is compacted on the next start). */
  prune(): void {
    const cutoff = Date.now() - IDEMPOTENCY_TTL_MS;
    for (const [key, entry] of this.#entries) if (entry.at <= cutoff) this.#entries.delete(key);
  }
}
