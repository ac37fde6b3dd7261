/**
 * Batch records (POST /api/batch) and their rows files, in the data dir (docs/store.md, "Batches"):
 *
 *   batches/batches.json            {"last_id": N, "batches": [batch records]} — written like a document shard
 *                                   (temp file, fsync, rename, folder fsync; coalesced)
 *   batches/<id>/rows.<ext>         the rows file the batch reads (kept so a restart can go on where it stopped)
 *   batches/incoming/               uploads being received and checked; emptied at start
 *
 * Write order of a new batch: the rows file is renamed from incoming/ into its folder and the folder fsynced, then
 * the record is durable, then the 202 goes out; a folder without a record (a crash in between) is removed at start.
 * Progress counters are written with the next write (coalesced); after a restart they are counted again from the
 * batch's documents, which are the truth about which rows are done.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CoalescingJsonFile, syncDir } from './json-file.js';
import { Layout } from './layout.js';
import { isNoSpace } from '../errors/storage.js';
import type { ErrorCode } from '../errors/catalogue.js';

export type BatchStatus = 'queued' | 'processing' | 'completed' | 'completed_with_errors' | 'failed' | 'cancelled';

export interface BatchRecord {
  id: number;
  status: BatchStatus;
  /** Data rows in the file; rows done + failed = total when the batch has run through. */
  total: number;
  done: number;
  failed: number;
  template_id: number;
  template_uuid: string;
  /** The rows file's original name and format, and the sheet read (XLSX). */
  rows_filename: string;
  rows_format: string;
  sheet: string | null;
  output_type: string;
  /** Tag expression for each document's file name (null: the template's, else row number + template name). */
  output_filename: string | null;
  test: 0 | 1;
  password: string | null;
  /** Minutes each document is kept. */
  expiration: number;
  locale: string | null;
  /** Why the batch ended `failed` (a full disk, the template gone). */
  error: { code: ErrorCode; message: string } | null;
  created_at: string;
  updated_at: string;
}

interface BatchesFile {
  last_id: number;
  batches: BatchRecord[];
}

export class BatchRepository {
  readonly #dir: string;
  readonly #file: CoalescingJsonFile<BatchesFile>;
  #data: BatchesFile = { last_id: 0, batches: [] };
  readonly #byId = new Map<number, BatchRecord>();
  /** A write of progress counters waiting for its second (update with persist false). */
  #later: NodeJS.Timeout | null = null;
  /** A write failed: what is in memory is newer than the file. */
  #dirty = false;

  private constructor(readonly layout: Layout) {
    this.#dir = path.join(layout.dataDir, 'batches');
    this.#file = new CoalescingJsonFile<BatchesFile>(path.join(this.#dir, 'batches.json'), layout.tmp);
  }

  /** Loads the records; removes uploads a crash left in incoming/ and folders without a record. */
  static async open(dataDir: string, log: (line: string) => void = () => undefined): Promise<BatchRepository> {
    const repo = new BatchRepository(new Layout(dataDir));
    try {
      fs.mkdirSync(repo.incomingDir, { recursive: true });
    } catch (err) {
      // A data dir from before batches, opened on a full disk: the service starts; an upload makes the folder later.
      if (!isNoSpace(err)) throw err;
      return repo;
    }
    repo.#data = (await repo.#file.read()) ?? { last_id: 0, batches: [] };
    for (const b of repo.#data.batches) repo.#byId.set(b.id, b);
    for (const name of fs.readdirSync(repo.incomingDir)) fs.rmSync(path.join(repo.incomingDir, name), { force: true, recursive: true });
    for (const name of fs.readdirSync(repo.#dir)) {
      if (!/^\d+$/.test(name) || repo.#byId.has(Number(name))) continue;
      log(`store: batch folder ${name} without a record removed (a batch not accepted before a stop)`);
      fs.rmSync(path.join(repo.#dir, name), { recursive: true, force: true });
    }
    return repo;
  }

  /** Where uploads are received (same file system as their final place: the move is a rename). */
  get incomingDir(): string {
    return path.join(this.#dir, 'incoming');
  }

  rowsFile(record: Pick<BatchRecord, 'id' | 'rows_format'>): string {
    return path.join(this.#dir, String(record.id), `rows.${record.rows_format}`);
  }

  get(id: number): BatchRecord | undefined {
    return this.#byId.get(id);
  }

  nextId(): number {
    return ++this.#data.last_id;
  }

  /** The highest id handed out so far (deleted batches included). */
  get lastId(): number {
    return this.#data.last_id;
  }

  /** Newest first. */
  list(offset: number, limit: number): { total: number; items: BatchRecord[] } {
    const all = this.#data.batches;
    const items: BatchRecord[] = [];
    for (let i = all.length - 1 - offset; i >= 0 && items.length < limit; i--) items.push(all[i]);
    return { total: all.length, items };
  }

  /** Batches a stop left queued or processing, oldest first. */
  unfinished(): BatchRecord[] {
    return this.#data.batches.filter((b) => b.status === 'queued' || b.status === 'processing');
  }

  /** Moves the checked rows file into the batch's folder (durably), then writes the record (durably). */
  async create(record: BatchRecord, upload: string): Promise<void> {
    const dest = this.rowsFile(record);
    // The upload was written by the body parser without an fsync: its bytes are made durable before it counts.
    const handle = await fs.promises.open(upload, 'r+');
    try {
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await fs.promises.mkdir(path.dirname(dest), { recursive: true });
    await syncDir(this.#dir);
    await fs.promises.rename(upload, dest);
    await syncDir(path.dirname(dest));
    this.#data.batches.push(record);
    this.#byId.set(record.id, record);
    try {
      await this.#file.write(this.#data);
    } catch (err) {
      // Not on disk (a full disk): not accepted, so not kept in memory, and its folder goes.
      this.#data.batches = this.#data.batches.filter((b) => b !== record);
      this.#byId.delete(record.id);
      await fs.promises.rm(path.dirname(dest), { recursive: true, force: true });
      throw err;
    }
  }

  /**
   * Changes a record in place. `persist` true: the promise resolves once it is on disk; false (progress counters,
   * which a restart counts again anyway): written within a second, with whatever else changed by then — one
   * write per second however fast rows finish.
   */
  update(id: number, patch: Partial<Omit<BatchRecord, 'id'>>, persist = true): Promise<void> {
    const record = this.#byId.get(id);
    if (!record) return Promise.resolve();
    Object.assign(record, patch);
    if (persist) {
      return this.#file.write(this.#data).catch((err: unknown) => {
        // Not on disk (a full disk): flush() tries again, so a status reached on a full disk is kept once there is room.
        this.#dirty = true;
        throw err;
      });
    }
    this.#later ??= setTimeout(() => {
      this.#later = null;
      this.#file.write(this.#data).catch(() => undefined);
    }, 1000).unref();
    return Promise.resolve();
  }


  /** Removes the record (durably), then its folder. */
  async remove(id: number): Promise<void> {
    const record = this.#byId.get(id);
    if (!record) return;
    this.#byId.delete(id);
    this.#data.batches = this.#data.batches.filter((b) => b.id !== id);
    await this.#file.write(this.#data);
    await fs.promises.rm(path.dirname(this.rowsFile(record)), { recursive: true, force: true });
  }

  /** Writes what is waiting (progress counters) and resolves once everything is on disk. */
  async flush(): Promise<void> {
    if (this.#later || this.#dirty) {
      if (this.#later) clearTimeout(this.#later);
      this.#later = null;
      this.#dirty = false;
      await this.#file.write(this.#data).catch(() => {
        this.#dirty = true;
      });
    }
    await this.#file.flush().catch(() => undefined);
  }
}
