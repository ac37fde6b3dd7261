/**
 * Batches through the API (docs/api.md, "Batches"): a rows file (or a JSON array) is checked whole, kept in the
 * data dir with a `queued` record, and its rows are rendered one batch at a time at batch priority (the render
 * pool serves previews and single documents first). Every row becomes an ordinary document carrying `batch_id`
 * and `batch_row`: `completed` with its file, or `failed` with the reason.
 *
 * Exactly once across restarts: a row's document record is written only after its file is durable, and never
 * before the render is done, so after a stop the rows that have a record are done and the others are rendered
 * again (a file written for a row whose record never made it is an orphan the store removes at start). A render
 * the stop cut short (the pool answers `interrupted`) records nothing.
 *
 * The records of a batch's rows are not written one by one: a shard write serialises its 1,000 records, and a
 * write per row would cost the event loop more than the row's render. They are written once a second (and when
 * the batch ends, before it says `completed`). A crash loses at most that second's records — their rows are
 * rendered again after the restart, their files removed as orphans — so no row is lost or made twice; a row's
 * document is acknowledged by nothing but the batch's progress.
 */
import { setMaxListeners } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { SHARD_SIZE, type BatchRecord, type DocumentRecord, type DocumentRepository, type TemplateRecord } from '../store/index.js';
import type { BatchRepo, DocumentRepo } from '../store/repositories.js';
import type { TeamBatchFeeder } from './team-feeder.js';
import type { DocumentFiles } from '../store/document-files.js';
import type { FileStore } from '../store/files/file-store.js';
import type { Limits } from '../config.js';
import type { Renderer } from '../services/render-pool.js';
import type { RenderJob, RenderOutcome } from '../services/render-core.js';
import type { TemplateService } from '../services/templates.js';
import { nowIso } from '../services/datetime.js';
import { ServiceError, Violations } from '../services/errors.js';
import { optionalExpiration, optionalFlag, optionalLocale, optionalString } from '../services/validate.js';
import { isNoSpace } from '../errors/storage.js';
import { readRows, scanRows, type RowsLimits } from './rows/index.js';
import { outputNamesOf } from './naming.js';
import { rowDocument } from './row-document.js';

export interface BatchServiceDeps {
  batches: BatchRepo;
  /** The desktop: the data folder's documents and files; its batches are rendered here (#run). */
  local?: { documents: DocumentRepository; files: DocumentFiles };
  /**
   * The team server: the batch's rows go through the shared render queue, fed by whichever instance holds the
   * batch (team-feeder.ts); its documents are read through the repository.
   */
  team?: { feeder: TeamBatchFeeder; documents: DocumentRepo };
  /** Where the rows' outputs are read from (the data folder's files as a FileStore on the desktop). */
  outputs: FileStore;
  templates: TemplateService;
  renderer: Renderer;
  limits: Limits;
  /** Rows rendering at once: enough to keep every render worker fed. */
  inFlight: number;
  allowPrivateNetwork: () => boolean;
  log: (line: string) => void;
}

/** The rows: an uploaded file already on disk (in the store's incoming/ folder), or `data` as a JSON array. */
export interface RowsInput {
  path?: string;
  filename?: string;
}

export type RowFailure = { row: number; field: string | null; code: string; message: string; document_id: number };

export class BatchService {
  /** Batches waiting for their turn, in order. */
  readonly #queue: number[] = [];
  #running: Promise<void> | null = null;
  /** Batch ids being cancelled or deleted: their rows stop being dispatched at once. */
  readonly #stopping = new Set<number>();
  #closed = false;
  /** Records of rows inserted in memory and not yet written: one id per shard is enough to write that shard. */
  readonly #unsaved = new Map<number, number>();
  #saveTimer: NodeJS.Timeout | null = null;
  /**
   * Output files being written at once. A durable write holds a libuv thread through its fsyncs, and Node has four:
   * rows writing without a bound would keep a single document's write (and every other file operation of the
   * service) queued behind theirs.
   */
  readonly #writes = new Limit(2);
  /** The run of each batch under way, and what withdraws its rows still queued in the render pool. */
  readonly #runs = new Map<number, { done: Promise<void>; abort: AbortController }>();

  constructor(private readonly deps: BatchServiceDeps) {}

  /** Queues the batches a stop left unfinished (they go on where they stopped). */
  async resume(): Promise<number> {
    // The team server: every instance looks for unfinished batches nobody holds, now and every second.
    if (this.deps.team) {
      this.deps.team.feeder.start();
      return 0;
    }
    const left = await this.deps.batches.unfinished();
    for (const b of left) this.#enqueue(b.id);
    return left.length;
  }

  async get(id: number): Promise<BatchRecord> {
    const b = await this.deps.batches.get(id);
    if (!b) throw new ServiceError('not_found', 'Batch not found.');
    return this.#counted(b);
  }

  async list(offset: number, limit: number): Promise<{ total: number; items: BatchRecord[] }> {
    const page = await this.deps.batches.list(offset, limit);
    return { total: page.total, items: await Promise.all(page.items.map((b) => this.#counted(b))) };
  }

  /**
   * The team server: a batch under way (or cancelled, its last rows maybe still finishing) says how many rows are
   * done and failed as its documents do — its rows are rendered on every instance, none of which writes counters.
   */
  async #counted(b: BatchRecord): Promise<BatchRecord> {
    if (!this.deps.team || !(b.status === 'queued' || b.status === 'processing' || b.status === 'cancelled')) return b;
    const { done, failed } = await this.deps.batches.progress!(b.id);
    return { ...b, done, failed };
  }

  get incomingDir(): string {
    return this.deps.batches.incomingDir;
  }

  get rowsLimits(): RowsLimits {
    return { rows: this.deps.limits.batchRows, bytes: this.deps.limits.batchBytes };
  }

  /**
   * Validates the fields, checks the rows file whole (a RowsError names the row and column; nothing is kept),
   * stores it and queues the batch. `input.data` (a JSON array, as text or parsed) stands in for a file.
   */
  async create(input: Record<string, unknown>, upload: RowsInput): Promise<BatchRecord> {
    let file = upload.path;
    try {
      const v = new Violations();
      const template = await this.#template(v, input.template_id);
      if (!file) file = await this.#dataFile(v, input.data);
      let outputType = template?.output_filetype ?? 'pdf';
      const requested = optionalString(v, 'output_type', input.output_type);
      if (requested) outputType = requested.toLowerCase();
      if (template && !(outputType === 'pdf' || (outputType === 'docx' && template.kind === 'docx'))) v.add('output_type', 'The selected output type is invalid.');
      const outputFilename = optionalString(v, 'output_filename', input.output_filename);
      const test = optionalFlag(v, 'test', input.test);
      const password = optionalString(v, 'password', input.password);
      const expiration = optionalExpiration(v, input.expiration);
      const locale = optionalLocale(v, input.locale);
      const sheet = optionalString(v, 'sheet', input.sheet);
      v.throwIfAny();
      const scan = await scanRows(file!, { limits: this.rowsLimits, sheet: sheet || undefined }, upload.filename ?? 'data.json');
      const now = nowIso();
      const record: BatchRecord = {
        id: await this.deps.batches.nextId(),
        status: 'queued',
        total: scan.total,
        done: 0,
        failed: 0,
        template_id: template!.id,
        template_uuid: template!.uuid,
        rows_filename: upload.filename ?? 'data.json',
        rows_format: scan.format,
        sheet: sheet || null,
        output_type: outputType,
        output_filename: outputFilename?.trim() ? outputFilename : null,
        test: test ? 1 : 0,
        password: password ? password : template!.password,
        expiration: expiration ?? template!.expiration,
        locale: locale ?? null,
        error: null,
        created_at: now,
        updated_at: now,
      };
      await this.deps.batches.create(record, file!);
      file = undefined;
      // Answered as accepted (`queued`), even if it starts at once.
      const accepted = { ...record };
      this.#enqueue(record.id);
      return accepted;
    } finally {
      if (file) await fs.promises.rm(file, { force: true });
    }
  }

  /**
   * One row's data as the batch would use it (the GUI previews it with POST /api/preview before starting): the
   * file is read up to that row, streamed, and removed. A bad file is a RowsError as for a batch.
   */
  async row(input: Record<string, unknown>, upload: RowsInput): Promise<{ row: number; data: Record<string, unknown> }> {
    const file = upload.path;
    try {
      const v = new Violations();
      if (!file) v.add('file', 'The file field is required.');
      const raw = input.row ?? '1';
      const wanted = typeof raw === 'string' && /^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : typeof raw === 'number' && Number.isInteger(raw) && raw > 0 ? raw : 0;
      if (!wanted) v.add('row', 'The row field must be a whole number of at least 1.');
      const sheet = optionalString(v, 'sheet', input.sheet);
      v.throwIfAny();
      let last = 0;
      for await (const r of readRows(file!, { limits: this.rowsLimits, sheet: sheet || undefined }, upload.filename ?? 'rows')) {
        if (r.row === wanted) return r;
        last = r.row;
      }
      throw new ServiceError('validation', `The file has ${last} row${last === 1 ? '' : 's'}.`, { errors: { row: [`The file has ${last} row${last === 1 ? '' : 's'}.`] } });
    } finally {
      if (file) await fs.promises.rm(file, { force: true });
    }
  }

  /** Cancels what is left; the documents made so far stay. */
  async cancel(id: number): Promise<BatchRecord> {
    const b = await this.get(id);
    if (this.deps.team && (b.status === 'queued' || b.status === 'processing')) {
      // One transaction under the batch's row lock (BatchRepo.cancel): the rows queued but not yet taken go, no row
      // is queued once it is committed (JobQueue.enqueueBatchRow), and the holder (on any instance) sees it at its
      // next window. Rows being rendered finish. A batch whose every row already has a document has nothing left
      // to stop and is not cancelled: it completes (never `cancelled` over every row done, nor `completed` with rows
      // a cancel dropped — the completion is conditional too, BatchRepo.finish).
      await this.deps.batches.cancel!(id, nowIso());
    } else if (b.status === 'queued' || b.status === 'processing') {
      this.#stopping.add(id);
      const at = this.#queue.indexOf(id);
      if (at >= 0) this.#queue.splice(at, 1);
      // Rows waiting in the render pool are withdrawn; those a worker has end without a document; the record says
      // so at once.
      this.#runs.get(id)?.abort.abort();
      await this.deps.batches.update(id, { status: 'cancelled', updated_at: nowIso() });
    }
    return await this.get(id);
  }

  /** Cancels what is left, then deletes the batch's documents (records, then files) and the batch itself. */
  async remove(id: number, removeDocument: (doc: DocumentRecord) => Promise<void>): Promise<void> {
    await this.cancel(id);
    // Rows already past their render when it was cancelled still write their document: wait for them, so none is
    // left behind by the deletion.
    await this.#runs.get(id)?.done;
    if (this.deps.team) {
      // Page by page from the first: no row is added once cancelled; a row still rendering when its record goes
      // finds it deleted and removes its own file (the queue's finish).
      for (;;) {
        const { items } = await this.deps.team.documents.list({ batch_id: id }, 0, 100);
        if (items.length === 0) break;
        await Promise.all(items.map((doc) => removeDocument(doc).catch((err: unknown) => {
          // Deleted meanwhile (through the documents API, on any instance): gone all the same.
          if (!(err instanceof ServiceError && err.kind === 'not_found')) throw err;
        })));
      }
    } else {
      // A few at a time: their shard writes share fsyncs (group commit), and one failure (a full disk) stops the rest.
      const docs = this.#localDocumentsOf(id);
      for (let i = 0; i < docs.length; i += 32) await Promise.all(docs.slice(i, i + 32).map(removeDocument));
    }
    await this.deps.batches.remove(id);
  }

  /** The batch's documents in row order (the team server's read through the repository, page by page). */
  async documentsOf(id: number): Promise<DocumentRecord[]> {
    if (!this.deps.team) return this.#localDocumentsOf(id);
    const docs: DocumentRecord[] = [];
    for (let offset = 0; ; offset += 500) {
      const { items } = await this.deps.team.documents.list({ batch_id: id }, offset, 500);
      docs.push(...items);
      if (items.length < 500) break;
    }
    return docs.sort((a, b) => (a.batch_row ?? 0) - (b.batch_row ?? 0));
  }

  #localDocumentsOf(id: number): DocumentRecord[] {
    const docs: DocumentRecord[] = [];
    for (const doc of this.#local.documents.all()) if (doc.batch_id === id) docs.push(doc);
    return docs.sort((a, b) => (a.batch_row ?? 0) - (b.batch_row ?? 0));
  }

  get #local(): { documents: DocumentRepository; files: DocumentFiles } {
    if (!this.deps.local) throw new Error('the batch runner of the data folder has no data folder');
    return this.deps.local;
  }

  /**
   * The output of one of the batch's documents, whole (one document at a time: the zip and the merged PDF take
   * them one by one), read from the file storage as a stream; undefined when it is no longer there.
   */
  async output(doc: DocumentRecord): Promise<Buffer | undefined> {
    const found = await this.deps.outputs.open(doc.id, doc.output_type);
    if (!found) return undefined;
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of await found.stream()) chunks.push(chunk as Buffer);
    } catch (err) {
      // Removed between the look and the read (expired, deleted): left out, as a missing one.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    return Buffer.concat(chunks);
  }

  async failures(id: number): Promise<RowFailure[]> {
    await this.get(id);
    return (await this.documentsOf(id))
      .filter((d) => d.status === 'failed' && d.error)
      .map((d) => ({ row: d.batch_row ?? 0, field: d.error!.field ?? null, code: d.error!.code, message: d.error!.message, document_id: d.id }));
  }

  /** Stops dispatching rows; the rows in flight end (the pool, closed next, answers `interrupted` for the rest). */
  stop(): void {
    this.#closed = true;
    this.deps.team?.feeder.stop();
  }

  async drain(): Promise<void> {
    await this.deps.team?.feeder.drain();
    await this.#running;
    await this.#save();
  }

  /** Writes the shards holding rows' records not yet on disk. */
  async #save(): Promise<void> {
    if (this.#saveTimer) clearTimeout(this.#saveTimer);
    this.#saveTimer = null;
    const ids = [...this.#unsaved.values()];
    this.#unsaved.clear();
    // An empty patch: the repository writes the shard the id is in (with every change made to it so far).
    await Promise.all(ids.map((id) => this.#local.documents.update(id, {}, true)));
  }

  #saveSoon(id: number): void {
    this.#unsaved.set(Math.floor((id - 1) / SHARD_SIZE), id);
    this.#saveTimer ??= setTimeout(() => {
      this.#saveTimer = null;
      this.#save().catch((err: unknown) => this.deps.log(`batches: document records not written: ${err instanceof Error ? err.message : String(err)}`));
    }, 1000);
  }

  async #template(v: Violations, ref: unknown): Promise<TemplateRecord | undefined> {
    if (ref === undefined || ref === null || ref === '') {
      v.add('template_id', 'The template id field is required.');
      return undefined;
    }
    const t = typeof ref === 'string' || typeof ref === 'number' ? await this.deps.templates.find(ref) : undefined;
    if (!t) v.add('template_id', 'The selected template id is invalid.');
    return t;
  }

  /** `data` (a JSON array) written to incoming/ so it is read like any rows file; the file field is needed otherwise. */
  async #dataFile(v: Violations, data: unknown): Promise<string | undefined> {
    if (data === undefined || data === null || data === '') {
      v.add('file', 'The file field is required (or send data: a JSON array of rows).');
      return undefined;
    }
    let text: string;
    if (typeof data === 'string') text = data;
    else if (Array.isArray(data)) text = JSON.stringify(data);
    else {
      v.add('data', 'The data field must be a JSON array of row objects.');
      return undefined;
    }
    if (!text.trimStart().startsWith('[')) {
      v.add('data', 'The data field must be a JSON array of row objects.');
      return undefined;
    }
    const file = path.join(this.incomingDir, `data-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
    // A team instance's incoming folder is in its cache folder, made by the first upload: `data` may come first.
    await fs.promises.mkdir(this.incomingDir, { recursive: true });
    await fs.promises.writeFile(file, text);
    return file;
  }

  #enqueue(id: number): void {
    if (this.deps.team) {
      void this.deps.team.feeder.look();
      return;
    }
    this.#queue.push(id);
    this.#running ??= this.#loop().finally(() => {
      this.#running = null;
    });
  }

  async #loop(): Promise<void> {
    while (!this.#closed && this.#queue.length > 0) {
      const id = this.#queue.shift()!;
      const b = await this.deps.batches.get(id);
      if (!b || this.#stopping.has(id)) continue;
      const abort = new AbortController();
      // Every row in flight listens on this one signal until it settles (render-pool.ts removes the listener then):
      // up to inFlight at once is expected, not the leak Node's default warning at 11 suspects.
      setMaxListeners(this.deps.inFlight + 1, abort.signal);
      const run = this.#run(b, abort.signal);
      this.#runs.set(id, { done: run.then(() => undefined, () => undefined), abort });
      try {
        await run;
      } catch (err) {
        this.deps.log(`batch ${id}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        const full = isNoSpace(err);
        if (!this.#closed && (await this.deps.batches.get(id).catch(() => undefined))) {
          await this.deps.batches
            .update(id, {
              status: 'failed',
              error: full
                ? { code: 'insufficient_storage', message: "There is no space left for docloom's data. Free some space and start the batch again." }
                : { code: 'render_failed', message: 'The batch stopped on an unexpected error (logged).' },
              updated_at: nowIso(),
            })
            .catch(() => undefined);
        }
      } finally {
        this.#runs.delete(id);
      }
    }
  }

  async #run(b: BatchRecord, signal: AbortSignal): Promise<void> {
    const template = await this.deps.templates.find(b.template_uuid);
    if (!template) {
      await this.deps.batches.update(b.id, { status: 'failed', error: { code: 'template_missing', message: 'The template was deleted before the batch ran.' }, updated_at: nowIso() });
      return;
    }
    // Rows that have a document are done (a restart goes on after them); the counters are counted again.
    const doneRows = new Set<number>();
    let done = 0;
    let failed = 0;
    for (const doc of this.#localDocumentsOf(b.id)) {
      doneRows.add(doc.batch_row ?? 0);
      if (doc.status === 'completed') done++;
      else failed++;
    }
    await this.deps.batches.update(b.id, { status: 'processing', done, failed, updated_at: nowIso() });
    // Once per batch, not per row: every row renders the same template version.
    const templatePath = await this.deps.templates.filePath(template);
    const names = await outputNamesOf(b, template);
    let fatal: unknown = null;
    const running = new Set<Promise<void>>();
    const one = async (row: number, data: Record<string, unknown>, name: string): Promise<void> => {
      const outcome = await this.deps.renderer.render(this.#job(b, template, templatePath, data, name), 'batch', undefined, signal);
      if (this.#stopping.has(b.id) || !(await this.deps.batches.get(b.id))) return;
      if (!outcome.ok && outcome.code === 'interrupted') return; // the service is stopping: rendered again after the restart
      const ok = await this.#record(b, row, name, outcome);
      // A recorded document is counted even when a cancel came while it was being recorded: it stays. Counted here,
      // not read back from the record: rows finish concurrently. Written within a second (coalesced): after a
      // restart the counters are counted again from the documents.
      if (ok) done++;
      else failed++;
      void this.deps.batches.update(b.id, ok ? { done, updated_at: nowIso() } : { failed, updated_at: nowIso() }, false).catch(() => undefined);
    };
    for await (const row of readRows(await this.deps.batches.rowsFile(b), { limits: this.rowsLimits, sheet: b.sheet ?? undefined, format: b.rows_format as 'csv' }, b.rows_filename)) {
      // Names are claimed in row order for every row, done or not, so a restart gives each row the same name.
      const name = names.unique(row.row, row.data);
      if (doneRows.has(row.row)) continue;
      if (this.#closed || this.#stopping.has(b.id) || fatal) break;
      const p = one(row.row, row.data, name).catch((err: unknown) => {
        fatal ??= err;
      });
      running.add(p);
      void p.finally(() => running.delete(p));
      if (running.size >= this.deps.inFlight) await Promise.race(running);
    }
    await Promise.all(running);
    if (fatal) throw fatal;
    // Every row's record on disk before the batch says it is finished.
    await this.#save();
    const current = await this.deps.batches.get(b.id);
    if (this.#closed || !current || this.#stopping.has(b.id)) return;
    await this.deps.batches.update(b.id, { status: failed > 0 ? 'completed_with_errors' : 'completed', done, failed, updated_at: nowIso() });
  }

  #job(b: BatchRecord, template: TemplateRecord, templatePath: string, data: Record<string, unknown>, name: string): RenderJob {
    return {
      key: `${template.uuid}@${template.version}`,
      templatePath,
      kind: template.kind,
      delimiters: template.delimiters,
      data,
      test: b.test === 1,
      password: b.password,
      locale: b.locale,
      metadata: { title: name.replace(/\.[^.]+$/, ''), creator: 'docloom' },
      output: b.output_type === 'docx' ? 'docx' : 'pdf',
      editableCopy: false,
      allowPrivateNetwork: this.deps.allowPrivateNetwork(),
    };
  }

  /** The row's document: file durable first, then the record (docs/store.md, "Write order"). True when completed. */
  async #record(b: BatchRecord, row: number, name: string, outcome: RenderOutcome): Promise<boolean> {
    const id = this.#local.documents.nextId();
    const doc: DocumentRecord = {
      ...rowDocument(b, id, row, name),
      status: outcome.ok ? 'completed' : 'failed',
      error: outcome.ok ? null : { code: outcome.code, message: outcome.message, ...(outcome.field ? { field: outcome.field } : {}) },
      pages: outcome.ok ? outcome.pages : null,
      size: outcome.ok ? outcome.bytes.byteLength : null,
    };
    if (!outcome.ok && outcome.internal) this.deps.log(`batch ${b.id} row ${row}: render failed: ${outcome.detail ?? outcome.message}`);
    if (outcome.ok) await this.#writes.run(() => this.#local.files.write(id, b.output_type, outcome.bytes));
    await this.#local.documents.insert(doc, false);
    this.#saveSoon(id);
    return outcome.ok;
  }
}


/** At most `max` of the functions given run at once; the others wait their turn in order. */
class Limit {
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(private readonly max: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#active >= this.max) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#active++;
    try {
      return await fn();
    } finally {
      this.#active--;
      this.#waiting.shift()?.();
    }
  }
}
