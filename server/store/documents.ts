/**
 * Document records, sharded by id range: shard n holds ids n*1000+1 … (n+1)*1000. A change is one line appended
 * to the shard's record log (documents/records/shard-<n>.g<gen>.jsonl) and fdatasynced — group-committed with the
 * changes made meanwhile — so a write costs the same short append whatever the store holds. The shard file
 * (shard-<n>.json) is a snapshot of the shard, rewritten in the background every COMPACT_AT lines ("compaction"),
 * after which the logs it folded in are removed. A start reads each snapshot and replays the logs after it
 * (docs/store.md, "Record logs"). All records live in memory too: a Map by id and the ids in ascending order
 * (= creation order) serve get, list, filters and the sweeper without I/O.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { CoalescingJsonFile } from './json-file.js';
import type { Layout } from './layout.js';
import { shardOf } from './layout.js';
import type { DocumentRecord, DocumentStatus } from './records.js';
import { AppendLog, readLog } from './record-log.js';

/** Log lines per generation before the shard file is rewritten and the log dropped. */
const COMPACT_AT = 500;

interface ShardFile {
  shard: number;
  /** Highest id handed out when this shard was written (ids are never reused). */
  last_id: number;
  /** The first log generation not folded into this file (absent in files written before record logs: 0). */
  log_gen?: number;
  documents: DocumentRecord[];
}

/** SHA-256 (hex) of a completed document's files, as written in the round that completed it. */
export interface FileChecks {
  output: string;
  editable?: string;
}

/** One line of a record log: a record as it now is (with its files' checks when it was just completed), or a removal. */
type LogLine = { put: DocumentRecord; sha256?: FileChecks } | { del: number };

interface Shard {
  n: number;
  /** The snapshot (shard-<n>.json). */
  file: CoalescingJsonFile<ShardFile>;
  /** The shard's records in id order (the objects in the repository's Map). */
  docs: DocumentRecord[];
  /** The generation appended to; a start never appends to a log written before it (its last line may be torn). */
  gen: number;
  log: AppendLog;
  /** Lines appended to `gen`. */
  lines: number;
  /** Writes appended to `gen` and not yet settled: a compaction waits for them before taking its snapshot. */
  rounds: Set<Promise<unknown>>;
  /** Earlier generations still on disk, to fold into the snapshot. */
  older: Set<number>;
  compacting: Promise<void> | null;
}

/** What a start found in the record logs, for the reconcile's log lines. */
export interface ReplayReport {
  /** Completed lines whose files did not match (the round that wrote them never finished): now failed. */
  unsaved: number[];
  /** Lines that did not parse (an append cut short), per log file. */
  torn: Array<{ file: string; lines: number }>;
}

const UNSAVED_ERROR = { code: 'interrupted', message: 'The service stopped before this document was saved; create it again.' } as const;

function sha256Of(file: string): string | null {
  try {
    return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
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
  /** The store's log: a compaction that failed is said there (the next one tries again; the logs stay until then). */
  readonly #log: (line: string) => void;
  readonly replay: ReplayReport = { unsaved: [], torn: [] };

  private constructor(layout: Layout, log: (line: string) => void) {
    this.#layout = layout;
    this.#log = log;
  }

  /**
   * Reads every snapshot and replays the logs after it. A completed line's files are checked against the SHA-256
   * it carries: the line may have reached the disk while its files had not (the round that wrote both was cut
   * short, so the create was never answered), and such a record becomes failed (`interrupted`). Shards that had
   * logs are compacted before the service answers, so new lines never follow a torn one.
   */
  static async open(layout: Layout, log: (line: string) => void = () => undefined): Promise<DocumentRepository> {
    const repo = new DocumentRepository(layout, log);
    const dir = layout.documentRecordsDir;
    fs.mkdirSync(dir, { recursive: true });
    const found = new Map<number, { snapshot: boolean; gens: number[] }>();
    for (const name of fs.readdirSync(dir)) {
      const m = /^shard-(\d+)(?:\.json|\.g(\d+)\.jsonl)$/.exec(name);
      if (!m) continue;
      const entry = found.get(Number(m[1])) ?? { snapshot: false, gens: [] };
      if (m[2] === undefined) entry.snapshot = true;
      else entry.gens.push(Number(m[2]));
      found.set(Number(m[1]), entry);
    }
    const replayed: Shard[] = [];
    for (const n of [...found.keys()].sort((a, b) => a - b)) {
      const { snapshot, gens } = found.get(n)!;
      const shard = repo.#shard(n);
      const data = snapshot ? await shard.file.read() : null;
      const logGen = data?.log_gen ?? 0;
      repo.#lastId = Math.max(repo.#lastId, data?.last_id ?? 0);
      let docs = data?.documents ?? [];
      const live = gens.filter((g) => g >= logGen).sort((a, b) => a - b);
      // Logs a finished compaction folded in (its removal of them was cut short).
      for (const g of gens) if (g < logGen) fs.rmSync(layout.shardLog(n, g), { force: true });
      if (live.length > 0) {
        docs = repo.#replay(n, docs, live);
        for (const g of live) shard.older.add(g);
        shard.gen = live.at(-1)! + 1;
        replayed.push(shard);
      } else {
        shard.gen = logGen;
      }
      shard.log = new AppendLog(layout.shardLog(n, shard.gen));
      shard.docs = docs;
      for (const doc of docs) {
        repo.#byId.set(doc.id, doc);
        repo.#ordered.push(doc);
        if (doc.id > repo.#lastId) repo.#lastId = doc.id;
      }
    }
    for (const shard of replayed) {
      // On a full disk the logs stay and are replayed again next time; the service still starts.
      await repo.#compact(shard).catch((err: unknown) => log(`store: documents shard ${shard.n} not compacted: ${(err as Error).message}`));
    }
    return repo;
  }

  /** Applies the logs `gens` of shard `n` to its snapshot's records; returns them in id order. */
  #replay(n: number, snapshot: DocumentRecord[], gens: number[]): DocumentRecord[] {
    const byId = new Map(snapshot.map((d) => [d.id, d]));
    const checks = new Map<number, FileChecks>();
    for (const g of gens) {
      const file = this.#layout.shardLog(n, g);
      const { lines, torn } = readLog<LogLine>(file);
      if (torn > 0) this.replay.torn.push({ file: path.relative(this.#layout.dataDir, file), lines: torn });
      for (const line of lines) {
        if ('del' in line) {
          byId.delete(line.del);
          checks.delete(line.del);
          this.#lastId = Math.max(this.#lastId, line.del);
          continue;
        }
        const doc = line.put;
        byId.set(doc.id, doc);
        if (line.sha256) checks.set(doc.id, line.sha256);
        else if (doc.status !== 'completed') checks.delete(doc.id);
      }
    }
    for (const [id, sums] of checks) {
      const doc = byId.get(id);
      if (!doc || doc.status !== 'completed' || doc.expired === 1) continue;
      const output = sha256Of(this.#layout.documentFile(id, doc.output_type));
      const editable = sums.editable === undefined || !doc.has_editable ? sums.editable : sha256Of(this.#layout.documentFile(id, 'docx', 'editable'));
      if (output !== sums.output || editable !== sums.editable) {
        Object.assign(doc, { status: 'failed', error: { ...UNSAVED_ERROR }, pages: null, size: null, has_editable: false });
        this.replay.unsaved.push(id);
      }
    }
    return [...byId.values()].sort((a, b) => a.id - b.id);
  }

  get count(): number {
    return this.#ordered.length;
  }

  get(id: number): DocumentRecord | undefined {
    return this.#byId.get(id);
  }

  /** The highest id handed out so far (deleted ones included): `docloom migrate` starts the database's ids past it. */
  get lastId(): number {
    return this.#lastId;
  }

  /** Hands out the next id (ids are never reused, even after deletes). */
  nextId(): number {
    return ++this.#lastId;
  }

  /**
   * Adds a record in memory; with `persist` also appends it to its shard's log (the promise resolves once it is
   * on disk). Without `persist` the record reaches the disk with its next change or the next compaction.
   */
  insert(record: DocumentRecord, persist = true): Promise<void> {
    const shard = this.#shard(shardOf(record.id));
    const docs = shard.docs;
    // Ids are handed out in order but may be inserted slightly out of order by concurrent requests.
    let at = docs.length;
    while (at > 0 && docs[at - 1].id > record.id) at--;
    docs.splice(at, 0, record);
    this.#byId.set(record.id, record);
    let pos = this.#ordered.length;
    while (pos > 0 && this.#ordered[pos - 1].id > record.id) pos--;
    this.#ordered.splice(pos, 0, record);
    return persist ? this.#append(shard, { put: record }) : Promise.resolve();
  }

  /** Changes a record in place; with `persist` appends it to its shard's log. */
  update(id: number, patch: Partial<Omit<DocumentRecord, 'id'>>, persist = true): Promise<DocumentRecord | undefined> {
    const doc = this.#byId.get(id);
    if (!doc) return Promise.resolve(undefined);
    Object.assign(doc, patch);
    if (!persist) return Promise.resolve(doc);
    return this.#append(this.#shard(shardOf(id)), { put: doc }).then(() => doc);
  }

  /**
   * Completes a document in one durable round with its files: the record's line, carrying the files' SHA-256, is
   * appended while `filesDurable` (their fdatasync and folder fsync) runs. Only when both are on disk does the
   * record say `completed` in memory, and so in a snapshot; a line that reached the disk without its files is
   * found out by the check at the next start (open). Rejects when either failed (the record is then unchanged).
   */
  async complete(id: number, patch: Partial<Omit<DocumentRecord, 'id'>>, sums: FileChecks, filesDurable: Promise<void>): Promise<DocumentRecord | undefined> {
    const doc = this.#byId.get(id);
    if (!doc) {
      await filesDurable;
      return undefined;
    }
    const shard = this.#shard(shardOf(id));
    // A compaction waits for the whole round — files, line, and the record in memory saying `completed` — before it
    // snapshots. Tracked before the append, which may itself start a compaction: that one must wait for this round,
    // or its snapshot (still `processing`) would replace the log holding the completed line (a crash run found it).
    let settled!: () => void;
    this.#track(shard, new Promise<void>((resolve) => (settled = resolve)));
    const round = Promise.all([this.#append(shard, { put: { ...doc, ...patch }, sha256: sums }), filesDurable]).then(() => {
      Object.assign(doc, patch);
    });
    round.then(settled, settled);
    await round;
    return doc;
  }

  async remove(id: number): Promise<boolean> {
    const doc = this.#byId.get(id);
    if (!doc) return false;
    this.#byId.delete(id);
    const pos = indexOfId(this.#ordered, id);
    if (pos >= 0) this.#ordered.splice(pos, 1);
    const shard = this.#shard(shardOf(id));
    const at = indexOfId(shard.docs, id);
    if (at >= 0) shard.docs.splice(at, 1);
    await this.#append(shard, { del: id });
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

  /** Writes every shard's snapshot (after bulk inserts made without `persist`). */
  async writeAll(): Promise<void> {
    await Promise.all([...this.#shards.values()].map((s) => this.#compact(s)));
  }

  /** Waits for every write asked for so far; shards with log lines are compacted (a clean stop leaves snapshots only). */
  async flush(): Promise<void> {
    await Promise.all(
      [...this.#shards.values()].map(async (s) => {
        await Promise.allSettled([...s.rounds, s.compacting]);
        if (s.lines > 0 || s.older.size > 0) await this.#compact(s).catch((err: unknown) => this.#log(`store: documents shard ${s.n} not compacted: ${(err as Error).message}`));
        await s.log.close();
      }),
    );
  }

  #append(shard: Shard, line: LogLine): Promise<void> {
    const written = shard.log.append(JSON.stringify(line));
    shard.lines++;
    this.#track(shard, written);
    if (shard.lines >= COMPACT_AT && !shard.compacting) {
      void this.#compact(shard).catch((err: unknown) => this.#log(`store: documents shard ${shard.n} not compacted: ${(err as Error).message}`));
    }
    return written;
  }

  #track(shard: Shard, write: Promise<unknown>): void {
    const rounds = shard.rounds;
    rounds.add(write);
    const done = () => rounds.delete(write);
    write.then(done, done);
  }

  /**
   * Folds the logs into a new snapshot: appends move to a new generation at once; once every write of the older
   * ones has settled (so memory holds all they said), the records are written as shard-<n>.json (durable, atomic)
   * naming the new generation as the first not folded in, and the older logs are removed. A crash before the
   * snapshot is durable replays the older logs as before; after it, they are skipped (and removed). Lines of the
   * new generation that the snapshot already shows replay to the same records (each line is a whole record).
   */
  #compact(shard: Shard): Promise<void> {
    if (shard.compacting) return shard.compacting.then(() => (shard.lines > 0 || shard.older.size > 0 ? this.#compact(shard) : undefined));
    const waiting = [...shard.rounds];
    const folded = shard.log;
    shard.older.add(shard.gen);
    shard.gen++;
    shard.log = new AppendLog(this.#layout.shardLog(shard.n, shard.gen));
    shard.rounds = new Set();
    shard.lines = 0;
    const gen = shard.gen;
    const run = (async () => {
      await Promise.allSettled(waiting);
      await folded.close();
      await shard.file.write({ shard: shard.n, last_id: this.#lastId, log_gen: gen, documents: shard.docs });
      for (const g of [...shard.older]) {
        if (g >= gen) continue;
        // In the thread pool: unlinking a log of 500 fdatasync'ed lines waits for the file system's journal (2–100 ms
        // measured here while other fsyncs run), which the event loop must not.
        await fs.promises.rm(this.#layout.shardLog(shard.n, g), { force: true });
        shard.older.delete(g);
      }
    })();
    shard.compacting = run.finally(() => {
      shard.compacting = null;
    });
    return shard.compacting;
  }

  #shard(n: number): Shard {
    let shard = this.#shards.get(n);
    if (!shard) {
      shard = {
        n,
        file: new CoalescingJsonFile<ShardFile>(this.#layout.shardFile(n), this.#layout.tmp),
        docs: [],
        gen: 0,
        log: new AppendLog(this.#layout.shardLog(n, 0)),
        lines: 0,
        rounds: new Set(),
        older: new Set(),
        compacting: null,
      };
      this.#shards.set(n, shard);
    }
    return shard;
  }
}
