/**
 * The render queue in PostgreSQL (store/queue.ts; docs/team-server.md, "Render queue"). One row per accepted
 * document in `render_jobs`, claimed with `SELECT … FOR UPDATE SKIP LOCKED` (two instances never claim the same
 * row), leased (`leased_by`, `lease_until`) and renewed while rendering. A row whose lease ran out is claimable
 * again, with `attempt` one higher: the finish of the earlier claim then matches no row and writes nothing, so a
 * document is completed once however late a revived instance finishes.
 *
 * Wake-ups: `NOTIFY docloom_jobs` on every enqueue (idle workers of every instance claim at once) and
 * `NOTIFY docloom_done, '<id>'` in the statement that completes a document (a synchronous request waiting on
 * another instance answers at once). They arrive on the instance's one listening connection (store/pg/listener.ts,
 * shared with the caches); a poll every second covers what a notification cannot (a lease running out) and what a
 * dropped listening connection would miss.
 *
 * A synchronous create on an instance with a free render worker skips all of that (enqueueLeased): its job is born
 * leased to that instance, which renders it at once; only a takeover after its death goes through a claim.
 */
import type pg from 'pg';
import type { DocumentRecord } from '../records.js';
import { WriteRefused, type ClaimedJob, type FinishOutcome, type JobQueue, type Lease, type QueueOptions, type WriteGuard } from '../queue.js';
import type { PgListener } from './listener.js';
import { templateStamp } from './templates.js';

export const JOBS_CHANNEL = 'docloom_jobs';
export const DONE_CHANNEL = 'docloom_done';
/**
 * The record's insert, as a CTE named `doc` answering its id: `$1` the id, or 0 for the next of documents_id_seq
 * (NULLIF → COALESCE: nextval runs only then), written into the stored record too — one round trip instead of a
 * `SELECT nextval` before the insert. `from`: where its one row comes from (a guard's `allowed`, or nothing).
 */
const newDocument = (from = ''): string => `next AS (SELECT COALESCE(NULLIF($1::bigint, 0), nextval('documents_id_seq')) AS id ${from}),
              doc AS (INSERT INTO documents (id, record) SELECT id, $2::jsonb || jsonb_build_object('id', id) FROM next RETURNING id)`;
/**
 * A WriteGuard as a CTE named `allowed` (one row: does the token exist, is the template current), its parameters
 * from `$n`: the token's id, the template's uuid, the row version to match or null. Read in the statement's own
 * snapshot, so a revoke or a template change committed before the statement began is seen.
 */
const guardCte = (n: number): string => `allowed AS (SELECT
                EXISTS (SELECT 1 FROM tokens WHERE id = $${n}) AS token,
                EXISTS (SELECT 1 FROM templates WHERE uuid = $${n + 1} AND ($${n + 2}::xid IS NULL OR xmin = $${n + 2}::xid)) AS template)`;
const GUARDED = 'FROM allowed WHERE allowed.token AND allowed.template';
const guardArgs = (guard: WriteGuard): unknown[] => [guard.tokenId, guard.template.uuid, (guard.exact && templateStamp(guard.template)) || null];
type GuardedRow = { token: boolean; template: boolean; id: string | null };
/** The id a guarded statement stored, or WriteRefused naming what its guard found gone. */
const guardedId = (row: GuardedRow): number => {
  if (!row.token) throw new WriteRefused('token');
  if (!row.template || row.id === null) throw new WriteRefused('template');
  return Number(row.id);
};

/** How often idle workers look for jobs whose lease ran out, and waiters re-read records (missed notifications). */
const POLL_MS = 1_000;

type ClaimRow = { document_id: number; attempt: number; priority: number; request: unknown; record: DocumentRecord };

/** The queue over `listener`, which must LISTEN on JOBS_CHANNEL and DONE_CHANNEL (store/pg/index.ts makes it). */
export async function openPgQueue(pool: pg.Pool, listener: PgListener, options: QueueOptions): Promise<JobQueue> {
  const { instance, leaseMs } = options;
  const wakers: (() => void)[] = [];
  const waiting = new Map<number, (() => void)[]>();
  let closed = false;

  const wakeAll = () => {
    if (closed) return;
    for (const wake of wakers) wake();
  };
  const settle = (id: number) => {
    const waiters = waiting.get(id);
    if (!waiters) return;
    waiting.delete(id);
    for (const resolve of waiters) resolve();
  };

  listener.on(JOBS_CHANNEL, wakeAll);
  listener.on(DONE_CHANNEL, (payload) => settle(Number(payload)));
  await listener.start();

  // Leases run out without a notification, and a notification sent while the listener was away is lost.
  const poll = setInterval(() => {
    wakeAll();
    const ids = [...waiting.keys()];
    if (ids.length === 0) return;
    pool
      .query<{ id: number }>(`SELECT id FROM unnest($1::bigint[]) AS w (id) WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.id = w.id AND d.status IN ('pending', 'processing'))`, [ids])
      .then(({ rows }) => rows.forEach((r) => settle(r.id)), () => undefined);
  }, Math.min(POLL_MS, Math.max(50, Math.floor(leaseMs / 2))));
  poll.unref();

  /** `confirmedAt`: performance.now() taken before the statement that took the lease was sent. */
  const lease = (documentId: number, attempt: number, confirmedAt: number): Lease => {
    const hold = async () => {
      const sentAt = performance.now();
      const held = ((await pool.query(
        `UPDATE render_jobs SET lease_until = now() + $3 * interval '1 millisecond' WHERE document_id = $1 AND attempt = $2`,
        [documentId, attempt, leaseMs],
      )).rowCount ?? 0) > 0;
      if (held) confirmedAt = Math.max(confirmedAt, sentAt);
      return held;
    };
    const renew = setInterval(() => void hold().catch(() => undefined), Math.max(10, Math.floor(leaseMs / 3)));
    renew.unref();
    return {
      documentId,
      attempt,
      hold,
      // The database's now() that set lease_until came after the statement was sent, so sentAt + leaseMs is never
      // later than lease_until; a third of the lease is the margin (clock rates, a pause before the caller's write).
      confirm: async () => performance.now() - confirmedAt < leaseMs / 3 || hold(),
      async finish(patch) {
        // The job's row goes and the record is written in one statement, only if this claim is still the job's.
        // Named, as the enqueue's: every document ends with it, so it is planned once per connection.
        const { rowCount } = await pool.query({
          name: 'docloom_finish',
          text: `WITH gone AS (DELETE FROM render_jobs WHERE document_id = $1 AND attempt = $2 RETURNING document_id)
           UPDATE documents d SET record = d.record || $3::jsonb FROM gone WHERE d.id = gone.document_id
           RETURNING pg_notify('${DONE_CHANNEL}', d.id::text)`,
          values: [documentId, attempt, JSON.stringify(patch)],
        });
        if ((rowCount ?? 0) > 0) return 'done' satisfies FinishOutcome;
        const exists = (await pool.query('SELECT 1 FROM documents WHERE id = $1', [documentId])).rowCount ?? 0;
        return exists > 0 ? 'lost' : 'deleted';
      },
      release: () => clearInterval(renew),
    };
  };

  return {
    async enqueue(record, request, priority, guard) {
      // One statement, so one round trip and its own transaction: the record, its job and the wake-up (delivered at
      // commit) all happen or none does. The job's foreign key is checked at the statement's end, after both inserts.
      // Named (prepared once per connection): the guard's subqueries would otherwise be planned on every create.
      if (guard) {
        const { rows } = await pool.query<GuardedRow>({
          name: 'docloom_enqueue_guarded',
          text: `WITH ${guardCte(5)}, ${newDocument(GUARDED)},
                job AS (INSERT INTO render_jobs (document_id, priority, request) SELECT id, $3, $4::jsonb FROM doc RETURNING document_id)
           SELECT allowed.token, allowed.template, job.document_id AS id,
                  CASE WHEN job.document_id IS NOT NULL THEN pg_notify('${JOBS_CHANNEL}', '') END AS woke
           FROM allowed LEFT JOIN job ON true`,
          values: [record.id, JSON.stringify(record), priority, JSON.stringify(request), ...guardArgs(guard)],
        });
        record.id = guardedId(rows[0]);
        return record.id;
      }
      const { rows } = await pool.query<{ id: string }>(
        `WITH ${newDocument()},
              job AS (INSERT INTO render_jobs (document_id, priority, request) SELECT id, $3, $4::jsonb FROM doc RETURNING document_id)
         SELECT document_id AS id, pg_notify('${JOBS_CHANNEL}', '') FROM job`,
        [record.id, JSON.stringify(record), priority, JSON.stringify(request)],
      );
      record.id = Number(rows[0].id);
      return record.id;
    },
    async enqueueBatchRow(record, request, priority) {
      // The batch's row is locked FOR SHARE: a cancel's UPDATE waits for this insert to commit (and then deletes it
      // with the batch's other pending rows), or commits first and this statement sees `cancelled` and stores
      // nothing. documents_batch_row (schema 5) turns a second insert of the row into nothing.
      const { rowCount } = await pool.query(
        `WITH running AS (SELECT id FROM batches WHERE id = $5 AND status IN ('queued', 'processing') FOR SHARE),
              doc AS (INSERT INTO documents (id, record) SELECT $1, $2::jsonb FROM running ON CONFLICT DO NOTHING RETURNING id),
              job AS (INSERT INTO render_jobs (document_id, priority, request) SELECT id, $3, $4::jsonb FROM doc RETURNING document_id)
         SELECT pg_notify('${JOBS_CHANNEL}', '') FROM job`,
        [record.id, JSON.stringify(record), priority, JSON.stringify(request), record.batch_id],
      );
      return (rowCount ?? 0) > 0;
    },
    async enqueueLeased(record, request, priority, guard) {
      // The enqueue's one statement, with the job born leased to this instance (claim 1) and no wake-up: nobody
      // else is to claim it while the lease holds, and this instance renders it now.
      const sentAt = performance.now();
      const job = `INSERT INTO render_jobs (document_id, priority, request, attempt, leased_by, lease_until)
         SELECT id, $3, $4::jsonb, 1, $5, now() + $6 * interval '1 millisecond' FROM doc
         RETURNING document_id`;
      const args = [record.id, JSON.stringify(record), priority, JSON.stringify(request), instance, leaseMs];
      if (guard) {
        // Named, as enqueue's.
        const { rows } = await pool.query<GuardedRow>({
          name: 'docloom_enqueue_leased_guarded',
          text: `WITH ${guardCte(7)}, ${newDocument(GUARDED)}, job AS (${job})
           SELECT allowed.token, allowed.template, job.document_id AS id FROM allowed LEFT JOIN job ON true`,
          values: [...args, ...guardArgs(guard)],
        });
        record.id = guardedId(rows[0]);
      } else {
        const { rows } = await pool.query<{ document_id: string }>(`WITH ${newDocument()} ${job}`, args);
        record.id = Number(rows[0].document_id);
      }
      return lease(record.id, 1, sentAt);
    },
    async claim(): Promise<ClaimedJob | undefined> {
      // One statement: pick the next free row (skipping rows another claim has locked), lease it, and mark its
      // document `processing`.
      const sentAt = performance.now();
      const { rows } = await pool.query<ClaimRow>(
        `WITH next AS (
           SELECT document_id FROM render_jobs
           WHERE lease_until IS NULL OR lease_until < now()
           ORDER BY priority, document_id
           LIMIT 1 FOR UPDATE SKIP LOCKED
         ), claimed AS (
           UPDATE render_jobs j SET leased_by = $1, lease_until = now() + $2 * interval '1 millisecond', attempt = j.attempt + 1
           FROM next WHERE j.document_id = next.document_id
           RETURNING j.document_id, j.attempt, j.priority, j.request
         ), doc AS (
           UPDATE documents d SET record = d.record || jsonb_build_object('status', 'processing', 'updated_at', $3::text)
           FROM claimed WHERE d.id = claimed.document_id
           RETURNING d.record
         )
         SELECT claimed.*, doc.record FROM claimed, doc`,
        [instance, leaseMs, new Date().toISOString()],
      );
      const row = rows[0];
      if (!row) return undefined;
      return { record: row.record, request: row.request, priority: row.priority, lease: lease(row.document_id, row.attempt, sentAt) };
    },
    async settled(documentId) {
      // Listening first, then one look: a completion notified in between is heard, one before is seen.
      const done = new Promise<void>((resolve) => {
        const list = waiting.get(documentId) ?? [];
        list.push(resolve);
        waiting.set(documentId, list);
      });
      // A look that fails (the database dropped after the enqueue committed) is left to the poll: the document is
      // accepted, so the request waits for it rather than answering an error its retry would duplicate.
      const look = await pool.query(`SELECT 1 FROM documents WHERE id = $1 AND status IN ('pending', 'processing')`, [documentId]).catch(() => undefined);
      if (look && !look.rowCount) settle(documentId);
      return done;
    },
    onWork(wake) {
      wakers.push(wake);
    },
    listening: () => !closed && listener.listening(),
    async close() {
      // The listening connection is the repositories' (the caches use it too): closed with them.
      closed = true;
      clearInterval(poll);
    },
  };
}
