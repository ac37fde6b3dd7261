/**
 * Batches on the team server (docs/team-server.md, "Batches on the team server"). A batch is held by one instance
 * at a time (BatchRepo.hold, a lease renewed every third of DOCLOOM_QUEUE_LEASE_MS). The holder reads the rows,
 * names every row in row order, and feeds the rows without a document to the shared render queue a window at a
 * time (at QUEUE_PRIORITY.batchRow, after single documents and previews), so every instance's takers render them
 * and the queue's exactly-once finish completes each. Once every row has a document and none is waiting, the holder
 * writes the batch's final status and lets go.
 *
 * Every instance looks once a second at the unfinished batches and holds the ones nobody holds: a holder killed
 * mid-batch is replaced once its lease runs out, and the new holder skips the rows that have a document
 * (documents_batch_row, schema 5, makes a row reached by both a stored-once row). A cancel or delete on any
 * instance changes the batch in the database; the holder sees it at its next window and stops.
 */
import type { BatchRecord, BatchStatus, TemplateRecord } from '../store/index.js';
import type { BatchRepo, DocumentRepo } from '../store/repositories.js';
import { QUEUE_PRIORITY, type JobQueue } from '../store/queue.js';
import type { TemplateService } from '../services/templates.js';
import type { QueuedRequest } from '../services/documents.js';
import { nowIso } from '../services/datetime.js';
import { isDatabaseUnavailable } from '../errors/database.js';
import { readRows, type RowsLimits } from './rows/index.js';
import { outputNamesOf } from './naming.js';
import { rowDocument } from './row-document.js';

/** How often every instance looks for batches nobody holds (a new one, or a dead holder's). */
const LOOK_MS = 1_000;
/**
 * How long a holder whose window is full waits before it looks at the batch again (progress, status, its hold),
 * unless the oldest row it queued is finished before (the queue's notification, from any instance).
 */
const WINDOW_POLL_MS = 200;

export interface TeamFeederDeps {
  batches: BatchRepo;
  documents: DocumentRepo;
  queue: JobQueue;
  templates: TemplateService;
  /** This instance's name in `leased_by`. */
  instance: string;
  leaseMs: number;
  /** Rows of one batch waiting in the queue (pending or processing) at most: enough to keep the team's workers fed. */
  window: number;
  rowsLimits: RowsLimits;
  log: (line: string) => void;
  info: (line: string) => void;
}

const RUNNING: readonly BatchStatus[] = ['queued', 'processing'];
const running = (b: BatchRecord | undefined): b is BatchRecord => b !== undefined && RUNNING.includes(b.status);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A batch's hold, renewed in the background; `lost` once another instance took it over. */
class Hold {
  lost = false;
  readonly #renew: NodeJS.Timeout;
  /** The renewal under way: a renewal landing after the let-go would take the batch again. */
  #renewing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: TeamFeederDeps, private readonly id: number) {
    this.#renew = setInterval(() => {
      this.#renewing = deps.batches.hold!(id, deps.instance, deps.leaseMs).then(
        (held) => {
          if (!held) this.lost = true;
        },
        () => undefined, // the database away: the next renewal tries again; the lease may run out meanwhile
      );
    }, Math.max(10, Math.floor(deps.leaseMs / 3)));
    this.#renew.unref();
  }

  async letGo(): Promise<void> {
    clearInterval(this.#renew);
    await this.#renewing;
    if (!this.lost) await this.deps.batches.letGo!(this.id, this.deps.instance).catch(() => undefined);
  }
}

export class TeamBatchFeeder {
  /** The batches this instance holds and feeds now. */
  readonly #feeding = new Map<number, Promise<void>>();
  #timer: NodeJS.Timeout | null = null;
  #looking = false;
  #again = false;
  #closed = false;
  #failing = false;

  constructor(private readonly deps: TeamFeederDeps) {}

  start(): void {
    this.#timer = setInterval(() => void this.look(), LOOK_MS);
    this.#timer.unref();
    void this.look();
  }

  /** Holds and feeds every unfinished batch nobody holds (at once after a create, rather than at the next second). */
  async look(): Promise<void> {
    if (this.#looking) {
      this.#again = true;
      return;
    }
    this.#looking = true;
    try {
      do {
        this.#again = false;
        for (const b of await this.deps.batches.unfinished()) {
          if (this.#closed) return;
          if (this.#feeding.has(b.id) || !(await this.deps.batches.hold!(b.id, this.deps.instance, this.deps.leaseMs))) continue;
          const run = this.#feed(b.id)
            .catch((err: unknown) => this.#failed(b.id, err))
            .finally(() => this.#feeding.delete(b.id));
          this.#feeding.set(b.id, run);
        }
        this.#failing = false;
      } while (this.#again && !this.#closed);
    } catch (err) {
      // Said once per outage, not every second.
      if (!this.#failing) this.deps.log(`batches: looking for batches to feed failed: ${(err as Error).message}; trying again every second`);
      this.#failing = true;
    } finally {
      this.#looking = false;
    }
  }

  /**
   * The feeding stopped on an error. The database away: the batch is left as it is, and an instance holds it again
   * once the database is back (its rows with a document are skipped). Anything else (the rows file unreadable, say)
   * would stop every holder alike: the batch ends `failed`, as on the desktop.
   */
  async #failed(id: number, err: unknown): Promise<void> {
    this.deps.log(`batch ${id}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    if (this.#closed || isDatabaseUnavailable(err)) return;
    // Cancelled or deleted meanwhile (its rows file removed under the reader, say): nothing to say.
    if (!running(await this.deps.batches.get(id).catch(() => undefined))) return;
    await this.deps.batches
      .transition!(id, RUNNING, { status: 'failed', error: { code: 'render_failed', message: 'The batch stopped on an unexpected error (logged).' }, updated_at: nowIso() })
      .catch(() => undefined);
  }

  /** Stops feeding: the batches held here are let go (another instance goes on with them at once). */
  stop(): void {
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
  }

  async drain(): Promise<void> {
    while (this.#feeding.size > 0) await Promise.allSettled([...this.#feeding.values()]);
  }

  /** True while this instance should go on feeding the batch: still held here, and neither cancelled nor deleted. */
  async #stillMine(id: number, hold: Hold): Promise<boolean> {
    return !this.#closed && !hold.lost && running(await this.deps.batches.get(id));
  }

  async #feed(id: number): Promise<void> {
    const { batches, queue, templates } = this.deps;
    const hold = new Hold(this.deps, id);
    try {
      const b = await batches.get(id);
      if (!running(b)) return;
      const template = await templates.find(b.template_uuid);
      if (!template) {
        await batches.transition!(id, RUNNING, { status: 'failed', error: { code: 'template_missing', message: 'The template was deleted before the batch ran.' }, updated_at: nowIso() });
        return;
      }
      // Conditional: a cancel committed since the read above stays.
      if (b.status === 'queued') await batches.transition!(id, ['queued'], { status: 'processing', updated_at: nowIso() });
      else this.deps.info(`batch ${id}: held by this instance now (going on from the rows that have a document)`);
      // Rows that have a document are done or on their way; every row is still named, so names match a first run's.
      const made = new Set(await batches.madeRows!(id));
      const names = await outputNamesOf(b, template);
      let waiting = (await batches.progress!(id)).waiting;
      /** Rows this holder queued, oldest first, while they may still be waiting. */
      const queued: number[] = [];
      const rows = readRows(await batches.rowsFile(b), { limits: this.deps.rowsLimits, sheet: b.sheet ?? undefined, format: b.rows_format as 'csv' }, b.rows_filename);
      for await (const row of rows) {
        const name = names.unique(row.row, row.data);
        if (made.has(row.row)) continue;
        if (waiting >= this.deps.window) {
          do {
            await this.#oldestOrPoll(queued);
            if (!(await this.#stillMine(id, hold))) return;
            waiting = (await batches.progress!(id)).waiting;
          } while (waiting >= this.deps.window);
        } else if (this.#closed || hold.lost) return;
        const record = rowDocument(b, await this.deps.documents.nextId(), row.row, name);
        const stored = await queue.enqueueBatchRow(record, this.#request(b, template, row.data, name), QUEUE_PRIORITY.batchRow);
        // Not stored: the batch was cancelled or deleted, or another holder made the row (this one lost its lease).
        if (!stored && !(await this.#stillMine(id, hold))) return;
        if (stored) {
          waiting++;
          queued.push(record.id);
        }
      }
      // Every row has a document: the batch ends when none is waiting — counted and ended in one conditional
      // statement, so a cancel on any instance either comes first (and the batch stays cancelled) or finds it ended.
      for (;;) {
        if (!(await this.#stillMine(id, hold))) return;
        if (await batches.finish!(id, nowIso())) return;
        await sleep(WINDOW_POLL_MS);
      }
    } finally {
      await hold.letGo();
    }
  }

  /** Resolves when the oldest row queued is finished (then forgotten), or after WINDOW_POLL_MS. */
  async #oldestOrPoll(queued: number[]): Promise<void> {
    const oldest = queued[0];
    const finished = oldest === undefined ? sleep(WINDOW_POLL_MS) : this.deps.queue.settled(oldest).then(() => {
      if (queued[0] === oldest) queued.shift();
    });
    await Promise.race([finished, sleep(WINDOW_POLL_MS)]);
  }

  /** What any instance's taker renders the row from (DocumentService.renderClaimed), as for an `async=1` document. */
  #request(b: BatchRecord, template: TemplateRecord, data: Record<string, unknown>, name: string): QueuedRequest {
    return {
      template,
      data,
      outputType: b.output_type,
      outputFilename: name,
      test: b.test === 1,
      password: b.password,
      editable: false,
      expiration: b.expiration,
      locale: b.locale,
      async: true,
    };
  }
}
