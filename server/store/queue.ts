/**
 * The durable render queue of a team server (docs/team-server.md, "Render queue"): accepted documents wait as job
 * rows in the shared database; any instance's render workers claim them under a lease they renew while rendering;
 * a job whose lease ran out (its instance died) is claimed again by another. Only the PostgreSQL backend has one:
 * the desktop renders in its own process as it always has (services/documents.ts).
 */
import type { DocumentRecord, TemplateRecord } from './records.js';
import type { DocumentPatch } from './repositories.js';

/**
 * Interactive work (a synchronous create) before batch work (async=1), as in the render pool; a batch's rows after
 * both (`batchRow`, docs/team-server.md, "Batches on the team server"), so previews and single documents keep
 * going first on every instance while a batch runs.
 */
export const QUEUE_PRIORITY = { interactive: 0, batch: 1, batchRow: 2 } as const;

/** A job claimed this many times without finishing (its render takes the instance down each time) fails. */
export const MAX_ATTEMPTS = 3;

/** What finishing a leased job found. */
export type FinishOutcome =
  /** The record was written (exactly once: the job row went in the same statement). */
  | 'done'
  /** Another instance took the job over (this lease ran out): nothing written, its files are the other's. */
  | 'lost'
  /** The document was deleted meanwhile: nothing written, any file placed is an orphan to remove. */
  | 'deleted';

export interface Lease {
  readonly documentId: number;
  /** Which claim of the job this is (1 the first; each takeover adds one). */
  readonly attempt: number;
  /** Renews the lease now: false once another instance holds the job (or it is gone). */
  hold(): Promise<boolean>;
  /**
   * True while the lease holds, asking the database only when needed: a lease taken or renewed less than a third of
   * its length ago (on this process's monotonic clock, counted from before the statement was sent) cannot have run
   * out, so that is known without a round trip; an older one is renewed now (hold()).
   */
  confirm(): Promise<boolean>;
  /** Writes the record's final patch and removes the job, only if this claim still holds it. */
  finish(patch: DocumentPatch): Promise<FinishOutcome>;
  /** Stops renewing (the lease then runs out by itself if finish was never reached). */
  release(): void;
}

export interface ClaimedJob {
  /** The record as the claim left it (`processing`). */
  record: DocumentRecord;
  /** What the accepting instance stored to render it (services/queue-workers.ts reads it). */
  request: unknown;
  priority: number;
  lease: Lease;
}

/**
 * What a document's enqueue checks in its own statement before it stores anything (docs/team-server.md, "Caches"):
 * the caller's token still exists, and the template still exists — when `exact`, still at the row version
 * `template` was read at. The token and the template may have come from this instance's caches; this makes the
 * write as safe as a fresh read would: a token revoked, or a template deleted or changed, before the statement
 * runs stores nothing (WriteRefused).
 */
export interface WriteGuard {
  tokenId: number;
  template: TemplateRecord;
  exact: boolean;
}

/** A WriteGuard's check failed: nothing was stored. */
export class WriteRefused extends Error {
  constructor(readonly what: 'token' | 'template') {
    super(what === 'token' ? 'the token was revoked' : 'the template was changed or deleted');
    this.name = 'WriteRefused';
  }
}

export interface JobQueue {
  /**
   * Stores the record and its job in one commit, and wakes the workers of every instance. Answers the document's
   * id: `record.id`, or — when it is 0 (ids start at 1) — the next id of the documents' sequence, taken in the same
   * statement (one round trip fewer than asking for the id first) and written into `record.id`. With `guard`, checked
   * in the same statement: throws WriteRefused, storing nothing, when it fails.
   */
  enqueue(record: DocumentRecord, request: object, priority: number, guard?: WriteGuard): Promise<number>;
  /**
   * Stores the record (`processing`) and its job already leased to this instance (claim 1), in one commit and
   * waking no one: the caller renders it at once on its own render pool and finishes it through the lease. Should
   * this instance die, the lease runs out and another instance claims the job as any other (claim 2). A `record.id`
   * of 0 takes the next id in the same statement, as enqueue() does (the lease's documentId). `guard` as enqueue's.
   */
  enqueueLeased(record: DocumentRecord, request: object, priority: number, guard?: WriteGuard): Promise<Lease>;
  /**
   * A batch row's record (carrying `batch_id` and `batch_row`) and its job, stored as enqueue() does, only while the
   * batch is queued or processing and the row has no document yet: true when stored. A row reached twice (a holder
   * that lost its lease and the one that took the batch over) is stored once; none is stored after a cancel commits.
   */
  enqueueBatchRow(record: DocumentRecord, request: object, priority: number): Promise<boolean>;
  /** The next job no live lease holds (highest priority, oldest first), leased to this instance; or none. */
  claim(): Promise<ClaimedJob | undefined>;
  /** Resolves once the stored document is completed or failed (on whichever instance), or deleted. Call after enqueue. */
  settled(documentId: number): Promise<void>;
  /** Calls `wake` when work may be waiting (a job enqueued anywhere, or the periodic look for expired leases). */
  onWork(wake: () => void): void;
  /** True while this instance hears the database's notifications (GET /api/health). */
  listening(): boolean;
  close(): Promise<void>;
}

export interface QueueOptions {
  /** This instance's name in `leased_by` (host and pid: who holds a job is readable in the table). */
  instance: string;
  /** How long a claim holds a job without renewal; it is renewed every third of it while rendering. */
  leaseMs: number;
  log: (line: string) => void;
}
