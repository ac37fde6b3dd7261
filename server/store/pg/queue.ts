/**
 * The render queue in PostgreSQL (store/queue.ts; docs/team-server.md, "Render queue"). One row per accepted
 * document in `render_jobs`, claimed with `SELECT … FOR UPDATE SKIP LOCKED` (two instances never claim the same
 * row), leased (`leased_by`, `lease_until`) and renewed while rendering. A row whose lease ran out is claimable
 * again, with `attempt` one higher: the finish of the earlier claim then matches no row and writes nothing, so a
 * document is completed once however late a revived instance finishes.
 *
 * Wake-ups: `NOTIFY docloom_jobs` on every enqueue (idle workers of every instance claim at once) and
 * `NOTIFY docloom_done, '<id>'` in the statement that completes a document (a synchronous request waiting on
 * another instance answers at once). One connection per instance LISTENs; a poll every second covers what a
 * notification cannot (a lease running out) and what a dropped listening connection would miss.
 *
 * A synchronous create on an instance with a free render worker skips all of that (enqueueLeased): its job is born
 * leased to that instance, which renders it at once; only a takeover after its death goes through a claim.
 */
import type pg from 'pg';
import type { DocumentRecord } from '../records.js';
import type { ClaimedJob, FinishOutcome, JobQueue, Lease, QueueOptions } from '../queue.js';

const JOBS_CHANNEL = 'docloom_jobs';
const DONE_CHANNEL = 'docloom_done';
/** How often idle workers look for jobs whose lease ran out, and waiters re-read records (missed notifications). */
/**
 * The record's insert, as a CTE named `doc` answering its id: `$1` the id, or 0 for the next of documents_id_seq
 * (NULLIF → COALESCE: nextval runs only then), written into the stored record too — one round trip instead of a
 * `SELECT nextval` before the insert.
 */
const NEW_DOCUMENT = `next AS (SELECT COALESCE(NULLIF($1::bigint, 0), nextval('documents_id_seq')) AS id),
              doc AS (INSERT INTO documents (id, record) SELECT id, $2::jsonb || jsonb_build_object('id', id) FROM next RETURNING id)`;

const POLL_MS = 1_000;
const RELISTEN_MS = 1_000;

type ClaimRow = { document_id: number; attempt: number; priority: number; request: unknown; record: DocumentRecord };

export async function openPgQueue(pool: pg.Pool, options: QueueOptions): Promise<JobQueue> {
  const { instance, leaseMs, log } = options;
  const wakers: (() => void)[] = [];
  const waiting = new Map<number, (() => void)[]>();
  let listener: pg.PoolClient | undefined;
  let closed = false;

  const wakeAll = () => {
    for (const wake of wakers) wake();
  };
  const settle = (id: number) => {
    const waiters = waiting.get(id);
    if (!waiters) return;
    waiting.delete(id);
    for (const resolve of waiters) resolve();
  };

  const listen = async (): Promise<void> => {
    if (closed) return;
    try {
      const client = await pool.connect();
      client.on('notification', (msg) => {
        if (msg.channel === JOBS_CHANNEL) wakeAll();
        else if (msg.channel === DONE_CHANNEL) settle(Number(msg.payload));
      });
      const lost = (err?: Error) => {
        if (listener !== client) return;
        listener = undefined;
        client.release(err ?? true);
        if (!closed) {
          log(`queue: the listening connection dropped${err ? ` (${err.message})` : ''}; listening again`);
          setTimeout(() => void listen(), RELISTEN_MS).unref();
        }
      };
      client.on('error', lost);
      client.on('end', () => lost());
      await client.query(`LISTEN ${JOBS_CHANNEL}; LISTEN ${DONE_CHANNEL}`);
      listener = client;
      if (closed) {
        listener = undefined;
        client.release(true);
      }
    } catch (err) {
      if (!closed) setTimeout(() => void listen(), RELISTEN_MS).unref();
      void err;
    }
  };
  await listen();

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
        const { rowCount } = await pool.query(
          `WITH gone AS (DELETE FROM render_jobs WHERE document_id = $1 AND attempt = $2 RETURNING document_id)
           UPDATE documents d SET record = d.record || $3::jsonb FROM gone WHERE d.id = gone.document_id
           RETURNING pg_notify('${DONE_CHANNEL}', d.id::text)`,
          [documentId, attempt, JSON.stringify(patch)],
        );
        if ((rowCount ?? 0) > 0) return 'done' satisfies FinishOutcome;
        const exists = (await pool.query('SELECT 1 FROM documents WHERE id = $1', [documentId])).rowCount ?? 0;
        return exists > 0 ? 'lost' : 'deleted';
      },
      release: () => clearInterval(renew),
    };
  };

  return {
    async enqueue(record, request, priority) {
      // One statement, so one round trip and its own transaction: the record, its job and the wake-up (delivered at
      // commit) all happen or none does. The job's foreign key is checked at the statement's end, after both inserts.
      const { rows } = await pool.query<{ id: string }>(
        `WITH ${NEW_DOCUMENT},
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
    async enqueueLeased(record, request, priority) {
      // The enqueue's one statement, with the job born leased to this instance (claim 1) and no wake-up: nobody
      // else is to claim it while the lease holds, and this instance renders it now.
      const sentAt = performance.now();
      const { rows } = await pool.query<{ id: string }>(
        `WITH ${NEW_DOCUMENT}
         INSERT INTO render_jobs (document_id, priority, request, attempt, leased_by, lease_until)
         SELECT id, $3, $4::jsonb, 1, $5, now() + $6 * interval '1 millisecond' FROM doc
         RETURNING document_id AS id`,
        [record.id, JSON.stringify(record), priority, JSON.stringify(request), instance, leaseMs],
      );
      record.id = Number(rows[0].id);
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
    listening: () => !closed && listener !== undefined,
    async close() {
      closed = true;
      clearInterval(poll);
      const client = listener;
      listener = undefined;
      client?.release(true);
    },
  };
}
