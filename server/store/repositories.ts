/**
 * The store's repositories as the services need them: narrow and async, so that one service runs over either
 * backend (docs/team-server.md). Two implementations:
 *
 * - local (store/local.ts): the data folder as the desktop has always had it — lowdb JSON files, the documents'
 *   per-shard record logs — wrapped without changing what they do, how safely or how fast;
 * - PostgreSQL (store/pg/), chosen by DOCLOOM_DATABASE_URL, for several instances sharing one database.
 *
 * test/store-contract/ runs one suite against both. What an implementation must keep:
 * - ids are integers handed out in ascending order and never reused, even after deletes;
 * - `list` is newest first (descending id) and counts every match in `total`;
 * - records returned are snapshots the caller must not mutate (the local backend returns the live objects;
 *   PostgreSQL returns copies): a change goes through `update`.
 */
import type { DocumentRecord, IdempotencyEntry, TemplateRecord, TokenRecord } from './records.js';
import type { DocumentFilter, FileChecks } from './documents.js';
import type { TemplateListQuery } from './templates.js';
import type { StoredSettings } from './settings.js';
import type { JobQueue, QueueOptions } from './queue.js';
import type { BatchRecord, BatchStatus } from './batches.js';

export type { DocumentFilter, FileChecks, TemplateListQuery, StoredSettings };

export interface Page<T> {
  total: number;
  items: T[];
}

/** API tokens (only SHA-256 hashes of their secret parts). */
export interface TokenRepo {
  get(id: number): Promise<TokenRecord | undefined>;
  /**
   * A shared database only: get, possibly answered from this instance's copy, which a revoke on another instance
   * drops within the bound docs/team-server.md ("Caches") gives. For reads, and for writes that check the token
   * again in their own statement (JobQueue's WriteGuard); never for a write that does not.
   */
  cachedGet?(id: number): Promise<TokenRecord | undefined>;
  /** Oldest first. */
  list(): Promise<readonly TokenRecord[]>;
  create(input: Omit<TokenRecord, 'id'>): Promise<TokenRecord>;
  /** Records a token's last use. */
  touch(id: number, at: string): Promise<void>;
  /** Removes every token `drop` picks (it sees each token and all of them); returns how many. */
  removeWhere(drop: (token: TokenRecord, all: readonly TokenRecord[]) => boolean): Promise<number>;
  /** False when there was no such token. */
  remove(id: number): Promise<boolean>;
}

export type TemplatePatch = Partial<Omit<TemplateRecord, 'id' | 'uuid' | 'created_at'>>;
export type TemplateFileRef = Pick<TemplateRecord, 'uuid' | 'version' | 'kind'>;

/** Template records and their files (the current version and the one before it are kept). */
export interface TemplateRepo {
  getByUuid(uuid: string): Promise<TemplateRecord | undefined>;
  getById(id: number): Promise<TemplateRecord | undefined>;
  /**
   * A shared database only: getByUuid/getById, possibly answered from this instance's copy (docs/team-server.md,
   * "Caches"). Only for a document's create, whose enqueue checks in its own statement that the record is still
   * the template's current one (JobQueue's WriteGuard).
   */
  cachedGetByUuid?(uuid: string): Promise<TemplateRecord | undefined>;
  cachedGetById?(id: number): Promise<TemplateRecord | undefined>;
  count(): Promise<number>;
  /** Newest first; `name` is a case-insensitive substring. */
  list(query: TemplateListQuery): Promise<Page<TemplateRecord>>;
  /** The file first, then the record: a record never names a missing file. */
  create(input: Omit<TemplateRecord, 'id' | 'version'>, file: Uint8Array): Promise<TemplateRecord>;
  /** With `file`, stored as version `patch.version`. Undefined when there is no such template. */
  update(uuid: string, patch: TemplatePatch, file?: Uint8Array): Promise<TemplateRecord | undefined>;
  /** Record and files; false when there was no such template. */
  remove(uuid: string): Promise<boolean>;
  readFile(record: TemplateFileRef): Promise<Buffer>;
  /**
   * A path on this machine holding the version's file, for the render workers (which read and cache it by
   * path). Local: the file in the data folder. PostgreSQL: a copy written once into a cache folder.
   */
  localFile(record: TemplateFileRef): Promise<string>;
}

export type DocumentPatch = Partial<Omit<DocumentRecord, 'id'>>;

/** Document records (their files are the file storage's). */
export interface DocumentRepo {
  get(id: number): Promise<DocumentRecord | undefined>;
  /** The next id (never reused, even after deletes). */
  nextId(): Promise<number>;
  /**
   * Adds a record. `persist` false lets the local backend keep it in memory until its next change (a sync
   * render answered in the same request); a shared database always writes it.
   */
  insert(record: DocumentRecord, persist?: boolean): Promise<void>;
  /** Undefined when there is no such record. `persist` as for insert. */
  update(id: number, patch: DocumentPatch, persist?: boolean): Promise<DocumentRecord | undefined>;
  /**
   * Completes a document once its files are durable (`filesDurable`): the record says `completed` only when both
   * the files and the record are stored. `sums` are the files' SHA-256 (the local backend checks them at start).
   * Rejects (record unchanged) when either failed; undefined when the record was deleted meanwhile.
   */
  complete(id: number, patch: DocumentPatch, sums: FileChecks, filesDurable: Promise<void>): Promise<DocumentRecord | undefined>;
  remove(id: number): Promise<boolean>;
  /** Newest first, with the total of matching records. */
  list(filter: DocumentFilter, offset: number, limit: number): Promise<Page<DocumentRecord>>;
  /** Records whose expires_at has passed and that are not yet marked expired, oldest first. */
  dueForExpiry(nowMs: number): Promise<DocumentRecord[]>;
  /** Records left pending/processing, oldest first. */
  unfinished(): Promise<DocumentRecord[]>;
  /** Resolves once every write asked for so far is stored. */
  flush(): Promise<void>;
}

/** Idempotency-Key outcomes, kept IDEMPOTENCY_TTL_MS. */
export interface IdempotencyRepo {
  /** Undefined when absent or older than the TTL. */
  get(key: string): Promise<IdempotencyEntry | undefined>;
  /** Resolves once stored; the same key again replaces it. */
  put(entry: IdempotencyEntry): Promise<void>;
  /** Forgets entries older than the TTL (and shared claims whose lease ran out long ago). */
  prune(): Promise<void>;
  /**
   * A shared database only (the data folder's one process keeps its running keys in memory): marks `key` running
   * on every instance for this caller, held `leaseMs` and renewed by the claim until released — so an instance that
   * dies while running a key blocks it only until its lease runs out. Undefined when another request holds it.
   */
  claim?(key: string, leaseMs: number): Promise<IdempotencyClaim | undefined>;
}

/** A key marked running by claim(); release() once the outcome is stored (or the request failed). */
export interface IdempotencyClaim {
  release(): Promise<void>;
}

/** The GUI's run-time switches; a key never set is absent. */
export interface SettingsRepo {
  get(): Promise<Readonly<StoredSettings>>;
  update(patch: StoredSettings): Promise<Readonly<StoredSettings>>;
}

export type BatchPatch = Partial<Omit<BatchRecord, 'id'>>;

/**
 * Batch records (POST /api/batch) and their rows files. The rows file is taken over by `create` and read back
 * through `rowsFile`, a path on this machine (the rows readers need a file: XLSX is a zip read from its end).
 */
export interface BatchRepo {
  /** A folder on this machine where uploads are received before `create` takes them over. */
  readonly incomingDir: string;
  get(id: number): Promise<BatchRecord | undefined>;
  /** The next id (never reused, even after deletes). */
  nextId(): Promise<number>;
  /** Newest first, with the total. */
  list(offset: number, limit: number): Promise<Page<BatchRecord>>;
  /** Batches left queued or processing, oldest first. */
  unfinished(): Promise<BatchRecord[]>;
  /** Stores the rows file (taking over `rowsFile`, a file in incomingDir), then the record: a record always has its rows. */
  create(record: BatchRecord, rowsFile: string): Promise<void>;
  /**
   * Changes a record. `persist` false (progress counters, which a restart counts again from the documents) lets the
   * local backend write it within a second with whatever else changed; a shared database always writes it.
   */
  update(id: number, patch: BatchPatch, persist?: boolean): Promise<void>;
  /** The record, then its rows file; absent ones are no error. */
  remove(id: number): Promise<void>;
  /** A path on this machine holding the batch's rows file (the data folder's own; a shared store's copied there once). */
  rowsFile(record: Pick<BatchRecord, 'id' | 'rows_format'>): Promise<string>;
  /**
   * A shared database only (the data folder's one process runs every batch it holds): takes the batch for
   * `instance`, or renews its hold, for `leaseMs` — true when this instance holds it now. Free, held by this
   * instance, or its holder's lease ran out (the holder died): taken. Held by another live instance: false.
   */
  hold?(id: number, instance: string, leaseMs: number): Promise<boolean>;
  /** A shared database only: lets go of a batch this instance holds (another may take it at once). */
  letGo?(id: number, instance: string): Promise<void>;
  /** A shared database only: the batch's rows counted from its documents (`batch_id`), the truth about progress. */
  progress?(id: number): Promise<BatchProgress>;
  /** A shared database only: the rows of the batch that have a document (in any state), in row order. */
  madeRows?(id: number): Promise<number[]>;
  /**
   * A shared database only: changes a record only while its status is one of `from` (one conditional statement), so
   * two instances moving one batch on never overwrite each other's ending. The record after, or undefined when it
   * was not in one of those states (or is gone).
   */
  transition?(id: number, from: readonly BatchStatus[], patch: BatchPatch): Promise<BatchRecord | undefined>;
  /**
   * A shared database only: cancels a queued or processing batch that still has rows to stop, in one transaction
   * under the batch's row lock: its rows no worker has taken yet (`pending`) are deleted with their jobs, and the
   * status becomes `cancelled` only if a row is then left without a document. A batch whose every row has a
   * document (the last ones rendering) has nothing left to stop: it is left to complete. The record after, or
   * undefined when nothing changed.
   */
  cancel?(id: number, at: string): Promise<BatchRecord | undefined>;
  /**
   * A shared database only: ends a queued or processing batch none of whose rows is waiting, with counters counted
   * from its documents in the same statement (`completed`, or `completed_with_errors` when a row failed). Undefined
   * when it was not running any more (a cancel came first) or a row still waits.
   */
  finish?(id: number, at: string): Promise<BatchRecord | undefined>;
}

/** A batch's documents by state: made, failed, and accepted but not yet rendered (pending or processing). */
export interface BatchProgress {
  done: number;
  failed: number;
  waiting: number;
}

/** Facts about the store itself. */
export interface MetaRepo {
  /** The schema version the store is at (the data folder's meta.json, or the database's last migration). */
  readonly schemaVersion: number;
  readonly createdAt: string;
  /** The HMAC secret of signed download links: shared by every instance on one store. */
  readonly secret: Buffer;
  samplesSeeded(): Promise<boolean>;
  markSamplesSeeded(): Promise<void>;
}

export interface Repositories {
  readonly backend: 'local' | 'postgres';
  readonly meta: MetaRepo;
  readonly tokens: TokenRepo;
  readonly templates: TemplateRepo;
  readonly documents: DocumentRepo;
  readonly idempotency: IdempotencyRepo;
  readonly settings: SettingsRepo;
  /** Absent on a shared database opened without a file storage for the rows files (`docloom migrate`'s). */
  readonly batches?: BatchRepo;
  /**
   * A shared database's durable render queue (store/queue.ts); absent on the data folder, whose one process renders
   * what it accepts.
   */
  openQueue?(options: QueueOptions): Promise<JobQueue>;
  /**
   * Runs `work` only if no other instance on the shared database runs work under the same `name` now (an advisory
   * lock); answers undefined when another does. Absent on the data folder (one process).
   */
  exclusively?<T>(name: string, work: () => Promise<T>): Promise<T | undefined>;
  /** Resolves when the store answers (GET /api/health): the data folder is writable, the database answers a query. */
  ping(): Promise<void>;
  /** Waits for pending writes and releases the store (the data folder's lock, the database's connections). */
  close(): Promise<void>;
}
