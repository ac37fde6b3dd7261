/**
 * This instance's copies of records several instances share (tokens, templates: docs/team-server.md, "Caches").
 * An entry is kept only while the listening connection (store/pg/listener.ts) hears the invalidations: a change
 * committed anywhere is notified (the tables' triggers, schema 6) and drops the entry here; a lost connection drops
 * them all, and nothing is kept until it listens again. `ttlMs` bounds what a notification that never came (a
 * connection silently cut, no error seen) could leave behind.
 *
 * A lookup that misses reads the database and stores the answer only if nothing was invalidated meanwhile (the
 * epoch): a notification for a change committed after that read began may arrive before its answer does.
 * Absences are never kept (a record made on another instance is found at once).
 */
import type { PgListener } from './listener.js';

/** The most entries kept; past it the cache starts over (a bound against memory, not a working-set policy). */
const MAX_ENTRIES = 10_000;

export class RecordCache<K, V> {
  readonly #entries = new Map<K, { value: V; until: number }>();
  #epoch = 0;

  constructor(
    private readonly listener: PgListener,
    private readonly ttlMs: number,
  ) {
    listener.onReset(() => this.clear());
  }

  /** The kept value, or undefined (absent, too old, or the listener not listening). */
  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= performance.now() || !this.listener.listening()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** The value for `key`: kept, or read by `load` (and kept if nothing was invalidated while it read). */
  async through(key: K, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const kept = this.get(key);
    if (kept !== undefined) return kept;
    if (!this.listener.listening()) {
      void this.listener.start();
      return load();
    }
    const epoch = this.#epoch;
    const generation = this.listener.generation();
    const value = await load();
    if (value !== undefined && epoch === this.#epoch && generation === this.listener.generation() && this.listener.listening()) {
      if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
      this.#entries.set(key, { value, until: performance.now() + this.ttlMs });
    }
    return value;
  }

  invalidate(key: K): void {
    this.#epoch++;
    this.#entries.delete(key);
  }

  clear(): void {
    this.#epoch++;
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}
