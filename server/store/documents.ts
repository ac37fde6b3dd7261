/**
 * Document records, sharded by id range so the cost of a write does not grow with the number of documents:
 * shard n (documents/records/shard-<n>.json) holds ids n*1000+1 … (n+1)*1000, so a write rewrites at most
 * 1,000 records (~4 ms) whether the store holds 1,000 or 1,000,000. All records live in memory too: a Map by
 * id and the ids in ascending order (= creation order) serve get, list, filters and the sweeper without I/O.
 */
import fs from 'node:fs';
import { Low } from 'lowdb';
import { CoalescingJsonFile } from './json-file.js';
import type { Layout } from './layout.js';
import { shardOf } from './layout.js';
import type { DocumentRecord, DocumentStatus } from './records.js';

interface ShardFile {
  shard: number;
  /** Highest id handed out when this shard was written (ids are never reused). */
  last_id: number;
  documents: DocumentRecord[];
}

interface Shard {
  db: Low<ShardFile>;
  adapter: CoalescingJsonFile<ShardFile>;
}

export interface DocumentFilter {
  template_id?: number;
  status?: DocumentStatus;
  test?: 0 | 1;
  expired?: 0 | 1;
  batch_id?: number;
}

function matches(doc: DocumentRecord, f: DocumentFilter): boolean {
  return (
    (f.template_id === undefined || doc.template_id === f.template_id) &&
    (f.status === undefined || doc.status === f.status) &&
    (f.test === undefined || doc.test === f.test) &&
    (f.expired === undefined || doc.expired === f.expired) &&
    (f.batch_id === undefined || doc.batch_id === f.batch_id)
  );
}

/** Index of the record with `id` in an array sorted by id, or -1. */
function indexOfId(docs: readonly DocumentRecord[], id: number): number {
  let lo = 0;
  let hi = docs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = docs[mid].id;
    if (v === id) return mid;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

export class DocumentRepository {
  readonly #layout: Layout;
  readonly #shards = new Map<number, Shard>();
  readonly #byId = new Map<number, DocumentRecord>();
  /** All records in ascending id order (= creation order); new ids are the largest, so appending keeps it sorted. */
  readonly #ordered: DocumentRecord[] = [];
  #lastId = 0;

  private constructor(layout: Layout) {
    this.#layout = layout;
  }

  static async open(layout: Layout): Promise<DocumentRepository> {
    const repo = new DocumentRepository(layout);
    fs.mkdirSync(layout.documentRecordsDir, { recursive: true });
    const names = fs.readdirSync(layout.documentRecordsDir).filter((n) => /^shard-\d+\.json$/.test(n)).sort();
    const loaded: DocumentRecord[][] = [];
    for (const name of names) {
      const shardNo = Number(name.slice(6, -5));
      const shard = repo.#shard(shardNo);
      await shard.db.read();
      repo.#lastId = Math.max(repo.#lastId, shard.db.data.last_id);
      loaded.push(shard.db.data.documents);
    }
    // Shard files sort by number and records inside a shard are kept in id order.
    for (const docs of loaded) {
      for (const doc of docs) {
        repo.#byId.set(doc.id, doc);
        repo.#ordered.push(doc);
        if (doc.id > repo.#lastId) repo.#lastId = doc.id;
      }
    }
    return repo;
  }

  get count(): number {
    return this.#ordered.length;
  }

  get(id: number): DocumentRecord | undefined {
    return this.#byId.get(id);
  }

  /** Hands out the next id (ids are never reused, even after deletes). */
  nextId(): number {
    return ++this.#lastId;
  }

  /**
   * Adds a record in memory; with `persist` also writes its shard (the promise resolves once it is on disk).
   * Without `persist` the record is written with the next write of its shard.
   */
  insert(record: DocumentRecord, persist = true): Promise<void> {
    const shard = this.#shard(shardOf(record.id));
    const docs = shard.db.data.documents;
    // Ids are handed out in order but may be inserted slightly out of order by concurrent requests.
    let at = docs.length;
    while (at > 0 && docs[at - 1].id > record.id) at--;
    docs.splice(at, 0, record);
    shard.db.data.last_id = Math.max(shard.db.data.last_id, this.#lastId);
    this.#byId.set(record.id, record);
    let pos = this.#ordered.length;
    while (pos > 0 && this.#ordered[pos - 1].id > record.id) pos--;
    this.#ordered.splice(pos, 0, record);
    return persist ? shard.db.write() : Promise.resolve();
  }

  /** Changes a record in place; with `persist` writes its shard. */
  update(id: number, patch: Partial<Omit<DocumentRecord, 'id'>>, persist = true): Promise<DocumentRecord | undefined> {
    const doc = this.#byId.get(id);
    if (!doc) return Promise.resolve(undefined);
    Object.assign(doc, patch);
    if (!persist) return Promise.resolve(doc);
    const shard = this.#shard(shardOf(id));
    shard.db.data.last_id = Math.max(shard.db.data.last_id, this.#lastId);
    return shard.db.write().then(() => doc);
  }

  async remove(id: number): Promise<boolean> {
    const doc = this.#byId.get(id);
    if (!doc) return false;
    this.#byId.delete(id);
    const pos = indexOfId(this.#ordered, id);
    if (pos >= 0) this.#ordered.splice(pos, 1);
    const shard = this.#shard(shardOf(id));
    const docs = shard.db.data.documents;
    const at = indexOfId(docs, id);
    if (at >= 0) docs.splice(at, 1);
    shard.db.data.last_id = Math.max(shard.db.data.last_id, this.#lastId);
    await shard.db.write();
    return true;
  }

  /** Newest first, with the total of matching records. */
  list(filter: DocumentFilter, offset: number, limit: number): { total: number; items: DocumentRecord[] } {
    const docs = this.#ordered;
    const unfiltered = filter.template_id === undefined && filter.status === undefined && filter.test === undefined && filter.expired === undefined && filter.batch_id === undefined;
    if (unfiltered) {
      const items: DocumentRecord[] = [];
      for (let i = docs.length - 1 - offset; i >= 0 && items.length < limit; i--) items.push(docs[i]);
      return { total: docs.length, items };
    }
    // One pass over the records in memory (~1 ms for 50,000): counts every match, keeps the page's.
    const items: DocumentRecord[] = [];
    let total = 0;
    for (let i = docs.length - 1; i >= 0; i--) {
      const doc = docs[i];
      if (!matches(doc, filter)) continue;
      if (total >= offset && items.length < limit) items.push(doc);
      total++;
    }
    return { total, items };
  }

  /** Records whose expires_at has passed and that are not yet marked expired. */
  dueForExpiry(nowMs: number): DocumentRecord[] {
    const due: DocumentRecord[] = [];
    // ISO 8601 UTC strings of one format compare like the instants they name.
    const now = new Date(nowMs).toISOString();
    for (const doc of this.#ordered) if (doc.expired === 0 && doc.expires_at <= now) due.push(doc);
    return due;
  }

  /** Every record, in id order (reconcile at start). Do not mutate it. */
  all(): readonly DocumentRecord[] {
    return this.#ordered;
  }

  /** Records left pending/processing by a previous run that stopped. */
  unfinished(): DocumentRecord[] {
    const out: DocumentRecord[] = [];
    for (const doc of this.#ordered) if (doc.status === 'pending' || doc.status === 'processing') out.push(doc);
    return out;
  }

  /** Writes every shard (after bulk inserts made without `persist`). */
  async writeAll(): Promise<void> {
    await Promise.all([...this.#shards.values()].map((s) => s.db.write()));
  }

  async flush(): Promise<void> {
    await Promise.all([...this.#shards.values()].map((s) => s.adapter.flush()));
  }

  #shard(n: number): Shard {
    let shard = this.#shards.get(n);
    if (!shard) {
      const adapter = new CoalescingJsonFile<ShardFile>(this.#layout.shardFile(n), this.#layout.tmp);
      shard = { adapter, db: new Low<ShardFile>(adapter, { shard: n, last_id: 0, documents: [] }) };
      this.#shards.set(n, shard);
    }
    return shard;
  }
}
