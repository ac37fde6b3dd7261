/**
 * Documents (CONTRACT.md §6): validate → template → render (worker pool) → write the file atomically → record
 * `completed` with pages and size, or `failed` with {code, message} and no file. Statuses pending → processing →
 * completed | failed; `expired` is a separate flag set by the sweeper (or on read, if the sweeper has not run yet).
 */
import type { Readable } from 'node:stream';
import type { DocumentFilter, DocumentRecord, DocumentStatus, TemplateRecord } from '../store/index.js';
import type { DocumentPatch, DocumentRepo, Page } from '../store/repositories.js';
import type { CloudCopy, FileStore, PreparedFile } from '../store/files/file-store.js';
import { QUEUE_PRIORITY, WriteRefused, type ClaimedJob, type JobQueue, type Lease, type WriteGuard } from '../store/queue.js';
import { addMinutes, nowIso } from './datetime.js';
import { ServiceError, Violations, notFound, validationError } from './errors.js';
import type { ErrorCode } from '../errors/catalogue.js';
import { isNoSpace } from '../errors/storage.js';
import { isDatabaseUnavailable } from '../errors/database.js';
import { INTERRUPTED_ERROR } from '../store/records.js';
import { loadEngine } from './engine.js';
import { Idempotency } from './idempotency.js';
import { safeOutputFilename } from './output-filename.js';
import { TemplateGrammarCheck } from './template-grammar.js';
import type { RenderJob } from './render-core.js';
import type { Priority, Renderer } from './render-pool.js';
import type { TemplateService } from './templates.js';
import { hrnow, type Profile } from './profile.js';
import {
  optionalExpiration,
  optionalFlag,
  optionalLocale,
  optionalString,
  requiredDataObject,
} from './validate.js';

/** A document that could not be saved because the disk is full (its error message). */
const NO_SPACE_DOCUMENT = "The document could not be saved: there is no space left for docloom's data. Free some space and create it again.";

export const STATUSES: readonly DocumentStatus[] = ['pending', 'processing', 'completed', 'failed'];

export const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

export interface DocumentServiceDeps {
  repo: DocumentRepo;
  files: FileStore;
  templates: TemplateService;
  renderer: Renderer;
  idempotency: Idempotency;
  /** The current "allow the local network" setting, read for every job (it can change while the service runs). */
  allowPrivateNetwork: () => boolean;
  log: (line: string) => void;
  /** limits.dataDepth: how deeply `data` may nest (default 64). */
  dataDepth?: number;
  /**
   * The team server's durable render queue (store/queue.ts): accepted documents become jobs any instance's workers
   * claim (services/queue-workers.ts). Absent on the desktop, which renders in this process.
   */
  queue?: JobQueue;
  /**
   * With a queue: a place on this instance's render pool for a synchronous document, given only while a worker is
   * free (QueueWorkers.reserve); call the answer to give it back. Without one every document is queued.
   */
  reserveRender?: () => (() => void) | undefined;
}

export interface CreateContext {
  tokenId: number;
  idempotencyKey?: string;
  /** DOCLOOM_PROFILE: the request's phases are recorded here. */
  profile?: Profile;
}

export interface ValidRequest {
  template: TemplateRecord;
  /** The template's file on this machine (TemplateService.filePath), read by the render workers. */
  templatePath: string;
  data: Record<string, unknown>;
  outputType: string;
  outputFilename?: string;
  test: boolean;
  password: string | null;
  editable: boolean;
  expiration: number;
  locale: string | null;
  async: boolean;
}

/** What a queued job keeps to be rendered on any instance: the request without this machine's template path. */
export type QueuedRequest = Omit<ValidRequest, 'templatePath'>;

export interface FileToSend {
  size: number;
  /** The file's bytes (from the data folder or the bucket). */
  open(): Promise<Readable>;
  filename: string;
  contentType: string;
}

export class DocumentService {
  /** Renders started and not yet recorded; close() waits for them. */
  readonly #running = new Set<Promise<void>>();
  readonly #grammar = new TemplateGrammarCheck();
  /** DOCLOOM_PROFILE on a team server: the profiles of synchronous requests waiting for their queued document. */
  readonly #profiles = new Map<number, Profile>();
  /** Records this service finished itself (a team server's local render): the create answers them as they are. */
  readonly #final = new WeakSet<DocumentRecord>();

  constructor(private readonly deps: DocumentServiceDeps) {}

  /** Marks documents a previous run left unfinished as failed (their data was only in memory). */
  async recoverInterrupted(): Promise<number> {
    const left = await this.deps.repo.unfinished();
    for (const doc of left) {
      // In memory at once; on a full disk the shard is written by a later write (the service still starts).
      await this.deps.repo.update(doc.id, {
        status: 'failed',
        error: { ...INTERRUPTED_ERROR },
        updated_at: nowIso(),
      }).catch((err: unknown) => {
        if (!isNoSpace(err)) throw err;
      });
    }
    return left.length;
  }

  /**
   * A team server looks the template up in its cache first (docs/team-server.md, "Caches"); the enqueue's statement
   * checks the token and that record (WriteGuard). Refused there: a revoked token answers 401, and a template
   * changed or deleted since it was cached is read again once — the request then sees exactly what a fresh
   * lookup would have.
   */
  async create(input: Record<string, unknown>, ctx: CreateContext): Promise<{ status: 201 | 202; document: DocumentRecord }> {
    for (const cached of [true, false]) {
      try {
        return await this.#create(input, ctx, cached);
      } catch (err) {
        if (!(err instanceof WriteRefused)) throw err;
        if (err.what === 'token') throw new ServiceError('unauthenticated', 'Unauthenticated.');
        // Read fresh and found gone by the write (exact: false checks only that): deleted meanwhile.
        if (!cached) throw validationError({ template_id: ['The selected template id is invalid.'] });
      }
    }
    throw new Error('unreachable');
  }

  async #create(input: Record<string, unknown>, ctx: CreateContext, cached: boolean): Promise<{ status: 201 | 202; document: DocumentRecord }> {
    const profile = ctx.profile;
    const req = await this.#validate(input, profile, cached);
    // Hashing a 10 MB body costs the event loop ~100 ms: only a request with an Idempotency-Key needs it.
    const bodyHash = ctx.idempotencyKey === undefined ? '' : Idempotency.hash({
      template: req.template.uuid,
      data: req.data,
      output_type: req.outputType,
      output_filename: req.outputFilename ?? null,
      test: req.test,
      password: req.password,
      editable: req.editable,
      expiration: req.expiration,
      locale: req.locale,
      async: req.async,
    });
    let accepted: DocumentRecord | undefined;
    let outcome;
    try {
      outcome = await this.deps.idempotency.run(ctx.tokenId, ctx.idempotencyKey, bodyHash, async () => {
        profile?.mark('idempotency');
        accepted = await this.#start(req, profile, { tokenId: ctx.tokenId, template: req.template, exact: cached });
        return { status: req.async ? 202 : 201, documentId: accepted.id };
      });
    } catch (err) {
      // The document was made but its Idempotency-Key could not be kept (a full disk): the request answers 507,
      // so nothing of it stays.
      if (accepted && isNoSpace(err)) await this.#forget(accepted.id, accepted.output_type);
      throw err;
    }
    // A new async document is answered as it was accepted (`pending`), even if a worker has picked it up since;
    // a repeat answers the record as it is now.
    // A document this instance finished itself is answered as it wrote it (no read back; a team server's local
    // render): like a read, it is expired if its time is already up.
    if (accepted && this.#final.has(accepted)) this.#expireIfDue(accepted);
    const document = accepted && (req.async || this.#final.has(accepted)) ? accepted : await this.get(outcome.documentId);
    profile?.mark('idempotency');
    return { status: outcome.status === 202 ? 202 : 201, document };
  }

  /** Renders without keeping anything (the GUI's live preview). */
  async preview(input: Record<string, unknown>): Promise<Uint8Array> {
    const v = new Violations();
    const template = await this.#template(v, input.template_id);
    const data = requiredDataObject(v, input.data, this.deps.dataDepth);
    const test = optionalFlag(v, 'test', input.test) ?? false;
    const locale = optionalLocale(v, input.locale) ?? null;
    v.throwIfAny();
    const templatePath = await this.deps.templates.filePath(template!);
    await this.#grammar.assertCompiles(template!, templatePath);
    const job = this.#job(template!, templatePath, data!, { test, password: null, locale, title: template!.name, output: 'pdf', editableCopy: false });
    const outcome = await this.deps.renderer.render(job, 'interactive');
    if (outcome.ok) return outcome.bytes;
    if (outcome.internal) {
      this.deps.log(`preview of template ${template!.uuid} failed: ${outcome.detail ?? outcome.message}`);
      throw new Error(outcome.message);
    }
    throw validationError({ [outcome.field ? `data.${outcome.field}` : 'data']: [outcome.message] });
  }

  async get(id: number): Promise<DocumentRecord> {
    const doc = await this.deps.repo.get(id);
    if (!doc) throw notFound('Document');
    this.#expireIfDue(doc);
    return doc;
  }

  list(filter: DocumentFilter, offset: number, limit: number): Promise<Page<DocumentRecord>> {
    return this.deps.repo.list(filter, offset, limit);
  }

  /** True when files are kept in object storage, so documents carry cloud fields (cloud()). */
  get hasCloud(): boolean {
    return this.deps.files.kind !== 'local';
  }

  /**
   * The interface's cloud fields (CONTRACT.md §cloud): the object's key and a GET address for a completed,
   * unexpired document whose files are in object storage; null otherwise (the data folder has no cloud copy).
   */
  async cloud(doc: DocumentRecord): Promise<CloudCopy | null> {
    if (!this.hasCloud || doc.status !== 'completed' || doc.expired === 1) return null;
    return this.deps.files.cloud(doc.id, doc.output_type, doc.expires_at);
  }

  async remove(id: number): Promise<void> {
    const doc = await this.deps.repo.get(id);
    if (!doc) throw notFound('Document');
    // The record's removal is durable before the files go (a crash in between leaves orphans, removed at start).
    try {
      await this.deps.repo.remove(id);
    } catch (err) {
      // Not written (a full disk): the record stays, in memory as on disk, and so do its files.
      if (!(await this.deps.repo.get(id))) await this.deps.repo.insert(doc, false);
      throw err;
    }
    await this.deps.files.remove(id, doc.output_type);
  }

  /** The file behind a download: 410 once expired, 409 while it is not (or never will be) there. */
  async file(id: number, variant: 'output' | 'editable'): Promise<FileToSend> {
    const doc = await this.get(id);
    if (doc.expired === 1) throw new ServiceError('gone', 'Document has expired.');
    if (doc.status === 'failed') throw new ServiceError('conflict', 'The document failed to render, so it has no file.');
    if (doc.status !== 'completed') throw new ServiceError('conflict', `The document is not ready yet (status: ${doc.status}).`);
    if (variant === 'editable' && !doc.has_editable) throw new ServiceError('not_found', 'The document has no editable copy.');
    const ext = variant === 'editable' ? 'docx' : doc.output_type;
    const found = await this.deps.files.open(id, ext, variant);
    if (!found) throw new ServiceError('gone', 'Document has expired.');
    const base = (doc.output_filename ?? `document-${doc.id}.${doc.output_type}`).replace(/\.[^.]+$/, '');
    return {
      size: found.size,
      open: () => found.stream(),
      filename: `${base}.${ext}`,
      contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream',
    };
  }

  /** Expires every due document: files deleted, `expired: 1`. Returns how many. */
  async sweep(now = Date.now()): Promise<number> {
    const due = await this.deps.repo.dueForExpiry(now);
    await Promise.all(due.map((doc) => this.#expire(doc)));
    return due.length;
  }

  /** Waits for renders in progress (async ones included) to be recorded. */
  async drain(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  #expireIfDue(doc: DocumentRecord): void {
    if (doc.expired === 0 && Date.parse(doc.expires_at) <= Date.now()) {
      void this.#expire(doc).catch((err: unknown) => this.deps.log(`document ${doc.id}: expiry not saved: ${(err as Error).message}`));
    }
  }

  async #expire(doc: DocumentRecord): Promise<void> {
    if (doc.expired === 1) return;
    // Marked in memory at once so a download in the same tick already answers 410. The record is on disk before
    // the files go: a crash in between leaves files without a live record, which the next start removes.
    doc.expired = 1;
    await this.deps.repo.update(doc.id, { expired: 1, updated_at: nowIso() });
    await this.deps.files.remove(doc.id, doc.output_type);
  }

  async #template(v: Violations, ref: unknown, cached = false): Promise<TemplateRecord | undefined> {
    if (ref === undefined || ref === null || ref === '') {
      v.add('template_id', 'The template id field is required.');
      return undefined;
    }
    const template = typeof ref === 'string' || typeof ref === 'number' ? await this.deps.templates.find(ref, { cached }) : undefined;
    if (!template) v.add('template_id', 'The selected template id is invalid.');
    return template;
  }

  async #validate(input: Record<string, unknown>, profile: Profile | undefined, cached: boolean): Promise<ValidRequest> {
    const v = new Violations();
    const template = await this.#template(v, input.template_id, cached);
    profile?.mark('template_lookup');
    // Rows per list, images and the like are the render's to check (a `failed` document naming the limit): it
    // knows which lists the template repeats, and the data's shape is all that is validated here.
    const data = requiredDataObject(v, input.data, this.deps.dataDepth);
    let outputType = template?.output_filetype ?? 'pdf';
    const requestedType = optionalString(v, 'output_type', input.output_type);
    if (requestedType !== undefined && requestedType !== '') outputType = requestedType.toLowerCase();
    if (template && !(outputType === 'pdf' || (outputType === 'docx' && template.kind === 'docx'))) {
      v.add('output_type', 'The selected output type is invalid.');
    }
    const outputFilename = optionalString(v, 'output_filename', input.output_filename);
    const test = optionalFlag(v, 'test', input.test);
    const password = optionalString(v, 'password', input.password);
    const editable = optionalFlag(v, 'editable', input.editable);
    const expiration = optionalExpiration(v, input.expiration);
    const locale = optionalLocale(v, input.locale);
    const isAsync = optionalFlag(v, 'async', input.async);
    v.throwIfAny();
    // A stored template whose tags the current template language refuses: 422 with each tag located.
    const templatePath = await this.deps.templates.filePath(template!);
    await this.#grammar.assertCompiles(template!, templatePath);
    profile?.mark('validate');
    return {
      template: template!,
      templatePath,
      data: data!,
      outputType,
      outputFilename: outputFilename?.trim() ? outputFilename : undefined,
      test: test ?? false,
      password: password ? password : template!.password,
      editable: editable ?? template!.editable ?? false,
      expiration: expiration ?? template!.expiration,
      locale: locale ?? null,
      async: isAsync ?? false,
    };
  }

  async #outputFilename(req: ValidRequest): Promise<string> {
    let raw = req.outputFilename;
    if (raw === undefined && req.template.output_filename) {
      const engine = await loadEngine();
      raw = engine.fillOutputText(req.template.output_filename, req.data, req.template.delimiters);
    }
    return safeOutputFilename(raw ?? req.template.name, req.outputType);
  }

  #job(
    template: TemplateRecord,
    templatePath: string,
    data: Record<string, unknown>,
    o: { test: boolean; password: string | null; locale: string | null; title: string; output: 'pdf' | 'docx'; editableCopy: boolean; profile?: Profile },
  ): RenderJob {
    const job: RenderJob = {
      key: `${template.uuid}@${template.version}`,
      templatePath,
      kind: template.kind,
      delimiters: template.delimiters,
      data,
      test: o.test,
      password: o.password,
      locale: o.locale,
      metadata: { title: o.title, creator: 'docloom' },
      output: o.output,
      editableCopy: o.editableCopy,
      allowPrivateNetwork: this.deps.allowPrivateNetwork(),
    };
    if (o.profile) job.timings = { submitted: hrnow() };
    return job;
  }

  /** `guard`: what a team server's enqueue checks as it stores (the desktop's one process needs none). */
  async #start(req: ValidRequest, profile: Profile | undefined, guard: WriteGuard): Promise<DocumentRecord> {
    const now = nowIso();
    const filename = await this.#outputFilename(req);
    profile?.mark('filename');
    const doc: DocumentRecord = {
      // The team server takes the id from its sequence in the enqueue's own statement (JobQueue.enqueue, 0 = next).
      id: this.deps.queue ? 0 : await this.deps.repo.nextId(),
      status: req.async ? 'pending' : 'processing',
      output_filename: filename,
      output_type: req.outputType,
      template_id: req.template.id,
      template_uuid: req.template.uuid,
      editable: req.editable ? 1 : 0,
      password: req.password,
      test: req.test ? 1 : 0,
      locale: req.locale,
      expires_at: addMinutes(now, req.expiration),
      expired: 0,
      error: null,
      pages: null,
      size: null,
      has_editable: false,
      created_at: now,
      updated_at: now,
    };
    if (this.deps.queue) return this.#enqueue(this.deps.queue, doc, req, guard, req.async ? undefined : profile);
    // A synchronous document is written once, when finished; an async one is on disk before the 202.
    try {
      await this.deps.repo.insert(doc, req.async);
    } catch (err) {
      // Not on disk (a full disk): not accepted, so not kept in memory either.
      await this.#forget(doc.id, doc.output_type);
      throw err;
    }
    profile?.mark('store_insert');
    // An async document's phases end at the 202: its render is not part of the request.
    const work = this.#render(doc, req, req.async ? 'batch' : 'interactive', req.async ? undefined : profile);
    this.#running.add(work);
    void work.finally(() => this.#running.delete(work)).catch(() => undefined);
    if (!req.async) {
      await work;
      return doc;
    }
    return { ...doc, status: 'pending' };
  }

  /**
   * The team server: the record and its job are stored in one commit; any instance's worker renders it. A
   * synchronous request waits until the document is completed or failed, wherever it was rendered.
   */
  async #enqueue(queue: JobQueue, doc: DocumentRecord, req: ValidRequest, guard: WriteGuard, profile?: Profile): Promise<DocumentRecord> {
    const record = { ...doc, status: 'pending' as const };
    const { templatePath: _local, ...request } = req;
    profile?.mark('id');
    const release = req.async ? undefined : this.deps.reserveRender?.();
    if (release) {
      try {
        return await this.#renderHere(queue, doc, req, request, guard, profile);
      } finally {
        release();
      }
    }
    doc.id = await queue.enqueue(record, request satisfies QueuedRequest, req.async ? QUEUE_PRIORITY.batch : QUEUE_PRIORITY.interactive, guard);
    profile?.mark('queue_enqueue');
    if (!req.async) {
      // DOCLOOM_PROFILE: a job this instance's own taker claims records its phases in the request's profile.
      if (profile) this.#profiles.set(doc.id, profile);
      try {
        await queue.settled(doc.id);
      } finally {
        this.#profiles.delete(doc.id);
      }
      profile?.mark('queue_done_notified');
    }
    return record;
  }

  /**
   * A synchronous document rendered where it was accepted, a render worker here being free: its job is stored
   * already leased to this instance (one statement, no wake-up, no claim) and handed straight to the local pool; the
   * outcome is written through the lease as a claimed job's. If this instance dies, the lease runs out and another
   * takes the job over. If the database drops while the outcome is written, the job stays queued and the request
   * waits for it like a queued one's.
   */
  async #renderHere(queue: JobQueue, doc: DocumentRecord, req: ValidRequest, request: QueuedRequest, guard: WriteGuard, profile?: Profile): Promise<DocumentRecord> {
    const record: DocumentRecord = { ...doc, status: 'processing' };
    const lease = await queue.enqueueLeased(record, request, QUEUE_PRIORITY.interactive, guard);
    doc.id = record.id;
    profile?.mark('queue_enqueue');
    const work = this.#render(record, req, 'interactive', profile, lease);
    this.#running.add(work);
    try {
      await work;
    } catch {
      // Logged by #render: the database dropped as the outcome was written (nothing was). The job is the queue's.
      lease.release();
      await queue.settled(doc.id);
    } finally {
      lease.release();
      this.#running.delete(work);
    }
    return record;
  }

  /** Renders a job this instance claimed from the queue; its outcome is written only while the lease holds. */
  async renderClaimed(job: ClaimedJob): Promise<void> {
    const request = job.request as QueuedRequest;
    const doc = job.record;
    const profile = this.#profiles.get(doc.id);
    profile?.mark('queue_wake_claim');
    let req: ValidRequest;
    try {
      req = { ...request, templatePath: await this.deps.templates.filePath(request.template) };
    } catch (err) {
      this.deps.log(`document ${doc.id}: template file unavailable: ${(err as Error).message}`);
      await this.#fail(doc, 'render_failed', 'The document could not be rendered: its template file could not be read.', job.lease);
      return;
    }
    profile?.mark('template_path');
    const work = this.#render(doc, req, job.priority === QUEUE_PRIORITY.interactive ? 'interactive' : 'batch', profile, job.lease);
    this.#running.add(work);
    try {
      await work;
    } finally {
      this.#running.delete(work);
    }
  }

  async #render(doc: DocumentRecord, req: ValidRequest, priority: Priority, profile?: Profile, lease?: Lease): Promise<void> {
    const title = doc.output_filename!.replace(/\.[^.]+$/, '');
    let prepared: PreparedFile | undefined;
    try {
      const job = this.#job(req.template, req.templatePath, req.data, {
        test: req.test,
        password: req.password,
        locale: req.locale,
        title,
        output: req.outputType === 'docx' ? 'docx' : 'pdf',
        editableCopy: req.editable && req.outputType === 'pdf' && req.template.kind === 'docx',
        profile,
      });
      // An async document says `processing` once a worker takes it. With a shared database that write is a round
      // trip of its own: the outcome waits for it, so a late `processing` can never overwrite `completed`.
      let started: Promise<unknown> | undefined;
      const outcome = await this.deps.renderer.render(job, priority, () => {
        if (doc.status === 'pending') started = this.deps.repo.update(doc.id, { status: 'processing', updated_at: nowIso() }, false).catch(() => undefined);
        // The output's temp file is opened while the document renders (the event loop only waits then), not after;
        // opened when the render starts, so queued batch rows hold no descriptors. A queued job's file is placed
        // under its lease only (#completeLeased).
        if (!lease) prepared ??= this.deps.files.prepare(doc.id, doc.output_type);
      });
      if (started) await started;
      profile?.markRender(outcome.ok ? outcome.timings : undefined);
      if (!outcome.ok) {
        if (outcome.internal) this.deps.log(`document ${doc.id}: render failed: ${outcome.detail ?? outcome.message}`);
        await this.#fail(doc, outcome.code, outcome.message, lease, outcome.field);
        return;
      }
      if (outcome.editableError) this.deps.log(`document ${doc.id}: editable copy failed: ${outcome.editableError}`);
      await this.#complete(doc, outcome.bytes, outcome.pages, outcome.editable, profile, lease, prepared);
    } catch (err) {
      if (lease && isDatabaseUnavailable(err)) {
        // The database dropped while the outcome was written: nothing was (the finish is one statement). The job
        // stays in the queue, claimed again once its lease runs out and the database is back — never left
        // `processing`, and a file already put is put again under the same key.
        this.deps.log(`document ${doc.id}: database unavailable, left to the queue: ${(err as Error).message}`);
        throw err;
      }
      this.deps.log(`document ${doc.id}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      const full = isNoSpace(err);
      if (full && priority === 'interactive' && !lease) {
        // A synchronous create answers 507 and keeps nothing: no record, no file.
        await this.#forget(doc.id, doc.output_type);
        throw err;
      }
      await this.#fail(doc, full ? 'insufficient_storage' : 'render_failed', full ? NO_SPACE_DOCUMENT : 'The document could not be saved.', lease).catch(() => undefined);
    } finally {
      // A render that failed, or a document deleted meanwhile: its temp file goes (a no-op once placed). Awaited, so
      // a stop that drains the renders (drain()) leaves no temp file whose open was still under way.
      await prepared?.discard();
    }
  }

  /**
   * One durable round (docs/store.md, "Write order"): the files are put in place and their fsyncs run together with
   * the append of the record's `completed` line, which carries the files' SHA-256. The record says `completed` (in
   * memory, in answers, in snapshots) only once all of it is on disk; a crash before that leaves a line that the
   * next start checks against the files, and files without a completed record, removed at start.
   */
  async #complete(
    doc: DocumentRecord,
    bytes: Uint8Array,
    pages: number | null,
    editable?: Uint8Array,
    profile?: Profile,
    lease?: Lease,
    prepared?: PreparedFile,
  ): Promise<void> {
    if (lease) return this.#completeLeased(lease, doc, bytes, pages, editable, profile);
    if (!(await this.deps.repo.get(doc.id))) return; // deleted while rendering
    const output = await (prepared ? prepared.place(bytes) : this.deps.files.place(doc.id, doc.output_type, bytes));
    const copy = editable ? await this.deps.files.place(doc.id, 'docx', editable, 'editable').catch((err: unknown) => {
      output.durable.catch(() => undefined);
      throw err;
    }) : undefined;
    profile?.mark('write_file');
    const filesDurable = copy ? Promise.all([output.durable, copy.durable]).then(() => undefined) : output.durable;
    const patch = { status: 'completed' as const, pages, size: bytes.byteLength, has_editable: copy !== undefined, updated_at: nowIso() };
    const done = await this.deps.repo.complete(doc.id, patch, { output: output.sha256, ...(copy ? { editable: copy.sha256 } : {}) }, filesDurable);
    // Deleted while its files were written: they are orphans now.
    if (!done) await this.deps.files.remove(doc.id, doc.output_type);
    profile?.mark('store_update');
  }

  /**
   * A queued job's completion: the files are placed only while the lease holds (a claim whose lease ran out and
   * was taken over leaves the key to the new claim), and the record is written with the job's removal, only if
   * this claim is still the job's — one record, one object, whichever instance finishes first or last.
   */
  async #completeLeased(lease: Lease, doc: DocumentRecord, bytes: Uint8Array, pages: number | null, editable?: Uint8Array, profile?: Profile): Promise<void> {
    if (!(await lease.confirm())) return;
    profile?.mark('lease_check');
    const output = await this.deps.files.place(doc.id, doc.output_type, bytes);
    const copy = editable ? await this.deps.files.place(doc.id, 'docx', editable, 'editable') : undefined;
    await output.durable;
    await copy?.durable;
    profile?.mark('write_file');
    const patch = { status: 'completed' as const, pages, size: bytes.byteLength, has_editable: copy !== undefined, updated_at: nowIso() };
    const outcome = await lease.finish(patch);
    profile?.mark('queue_finish');
    if (outcome === 'done') this.#finished(doc, patch);
    if (outcome === 'deleted') await this.deps.files.remove(doc.id, doc.output_type);
    if (outcome === 'lost') this.deps.log(`document ${doc.id}: another instance took its job over (lease ran out); this render is dropped`);
  }

  /** This claim wrote the record's final patch: the local copy is the stored record now (no read back needed). */
  #finished(doc: DocumentRecord, patch: DocumentPatch): void {
    Object.assign(doc, patch);
    this.#final.add(doc);
  }

  /** Drops a document that was never acknowledged: record (best effort on disk) and files. */
  async #forget(id: number, outputType: string): Promise<void> {
    await this.deps.repo.remove(id).catch(() => undefined);
    await this.deps.files.remove(id, outputType).catch(() => undefined);
  }

  async #fail(doc: DocumentRecord, code: ErrorCode, message: string, lease?: Lease, field?: string): Promise<void> {
    if (lease) {
      // The files under this key may be a newer claim's: only the record is this claim's to write. A batch row's
      // error names the data field that failed, as the desktop's batch does (GET /api/batch/:id/errors).
      const error = { code, message, ...(field && doc.batch_id != null ? { field } : {}) };
      const patch = { status: 'failed' as const, error, updated_at: nowIso() };
      if ((await lease.finish(patch)) === 'done') this.#finished(doc, patch);
      return;
    }
    // A file that cannot be removed (its folder is not one) must not leave the record `processing` for ever: it is
    // an orphan once the record says `failed`, and the next start removes orphans.
    await this.deps.files.remove(doc.id, doc.output_type).catch((err: unknown) => {
      this.deps.log(`document ${doc.id}: files not removed: ${err instanceof Error ? err.message : String(err)}`);
    });
    if (!(await this.deps.repo.get(doc.id))) return;
    await this.deps.repo.update(doc.id, { status: 'failed', error: { code, message }, updated_at: nowIso() });
  }
}
