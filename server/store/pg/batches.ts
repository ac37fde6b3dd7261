/**
 * Batch records in PostgreSQL (schema 4): the record as jsonb with a generated `status`, ids from batches_id_seq
 * (never reused). The rows file is kept in the file storage under `batches/<id>/rows.<ext>` (the bucket with S3,
 * else this instance's data folder), put before the record is inserted, so a record always has its rows. An
 * instance reads it through a copy streamed once into its cache folder: the rows readers need a file (XLSX is a
 * zip read from its end), and no rows file is ever held whole in memory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import type { BatchRecord } from '../batches.js';
import type { BatchRepo } from '../repositories.js';
import type { FileStore } from '../files/file-store.js';
import { inTransaction } from './pool.js';

/** Runs `attempt` (one whole transaction) again when PostgreSQL aborted it as a deadlock victim, a few times. */
async function retryOnDeadlock<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (err) {
      if ((err as { code?: string }).code !== '40P01' || tries >= 5) throw err;
    }
  }
}

type Row = { record: BatchRecord };

/** The rows file's key in the file storage (the same path the data folder keeps it at). */
export function rowsKey(record: Pick<BatchRecord, 'id' | 'rows_format'>): string {
  return `batches/${record.id}/rows.${record.rows_format}`;
}

export function pgBatches(pool: pg.Pool, files: FileStore, cacheDir: string): BatchRepo {
  const dir = path.join(cacheDir, 'batches');
  const incomingDir = path.join(dir, 'incoming');
  /** Copies being made now, so two readers of one batch on this instance share one download. */
  const copying = new Map<string, Promise<string>>();
  const copyOf = (record: Pick<BatchRecord, 'id' | 'rows_format'>): string => path.join(dir, String(record.id), `rows.${record.rows_format}`);

  async function download(record: Pick<BatchRecord, 'id' | 'rows_format'>): Promise<string> {
    const file = copyOf(record);
    if (fs.existsSync(file)) return file;
    const stored = await files.openKey(rowsKey(record));
    if (!stored) throw new Error(`the rows file of batch ${record.id} (${rowsKey(record)}) is missing from the file storage`);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    // A temp name, then a rename: a copy carrying its final name is whole (a cache, so no fsync).
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.part`;
    try {
      await pipeline(await stored.stream(), fs.createWriteStream(tmp));
      await fs.promises.rename(tmp, file);
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      throw err;
    }
    return file;
  }

  return {
    incomingDir,
    async get(id) {
      return (await pool.query<Row>('SELECT record FROM batches WHERE id = $1', [id])).rows[0]?.record;
    },
    async nextId() {
      return (await pool.query<{ id: number }>(`SELECT nextval('batches_id_seq') AS id`)).rows[0].id;
    },
    async list(offset, limit) {
      const items = await pool.query<Row>('SELECT record FROM batches ORDER BY id DESC OFFSET $1 LIMIT $2', [offset, limit]);
      const total = await pool.query<{ n: number }>('SELECT count(*)::bigint AS n FROM batches');
      return { total: total.rows[0].n, items: items.rows.map((r) => r.record) };
    },
    async unfinished() {
      const { rows } = await pool.query<Row>(`SELECT record FROM batches WHERE status IN ('queued', 'processing') ORDER BY id`);
      return rows.map((r) => r.record);
    },
    async create(record, rowsFile) {
      const key = rowsKey(record);
      await files.putKey(key, rowsFile);
      try {
        await pool.query('INSERT INTO batches (id, record) VALUES ($1, $2::jsonb)', [record.id, JSON.stringify(record)]);
      } catch (err) {
        // Not accepted: its rows file goes too (best effort; an orphan object is harmless).
        await files.removeKey(key).catch(() => undefined);
        throw err;
      }
      await fs.promises.rm(rowsFile, { force: true });
    },
    async update(id, patch) {
      await pool.query('UPDATE batches SET record = record || $2::jsonb WHERE id = $1', [id, JSON.stringify(patch)]);
    },
    async remove(id) {
      const { rows } = await pool.query<Row>('DELETE FROM batches WHERE id = $1 RETURNING record', [id]);
      if (!rows[0]) return;
      await files.removeKey(rowsKey(rows[0].record));
      await fs.promises.rm(path.dirname(copyOf(rows[0].record)), { recursive: true, force: true });
    },
    async hold(id, instance, leaseMs) {
      const { rowCount } = await pool.query(
        `UPDATE batches SET leased_by = $2, lease_until = now() + $3 * interval '1 millisecond'
         WHERE id = $1 AND (lease_until IS NULL OR lease_until < now() OR leased_by = $2)`,
        [id, instance, leaseMs],
      );
      return (rowCount ?? 0) > 0;
    },
    async letGo(id, instance) {
      await pool.query('UPDATE batches SET leased_by = NULL, lease_until = NULL WHERE id = $1 AND leased_by = $2', [id, instance]);
    },
    async progress(id) {
      // documents_by_batch (schema 1) serves this: one index range per batch.
      const { rows } = await pool.query<{ done: number; failed: number; waiting: number }>(
        `SELECT count(*) FILTER (WHERE status = 'completed') AS done, count(*) FILTER (WHERE status = 'failed') AS failed,
                count(*) FILTER (WHERE status IN ('pending', 'processing')) AS waiting
         FROM documents WHERE batch_id = $1`,
        [id],
      );
      return rows[0];
    },
    async madeRows(id) {
      const { rows } = await pool.query<{ row: number }>(
        `SELECT (record->>'batch_row')::integer AS row FROM documents WHERE batch_id = $1 ORDER BY 1`,
        [id],
      );
      return rows.map((r) => r.row);
    },
    async transition(id, from, patch) {
      const { rows } = await pool.query<Row>('UPDATE batches SET record = record || $2::jsonb WHERE id = $1 AND status = ANY($3::text[]) RETURNING record', [
        id,
        JSON.stringify(patch),
        from,
      ]);
      return rows[0]?.record;
    },
    cancel(id, at) {
      // Deadlock-retried: the holder's own statements on the batch's documents can take their locks in the other
      // order, and PostgreSQL then aborts one side (40P01); the cancel, rolled back whole, is simply run again.
      return retryOnDeadlock(() => inTransaction(pool, async (client) => {
        // The batch's row lock orders this against the completion (finish, a conditional UPDATE of the same row) and
        // against every row the holder queues (enqueueBatchRow locks it FOR SHARE): once it is held, no row is queued
        // and the batch cannot end until this commits.
        const { rows } = await client.query<Row>(`SELECT record FROM batches WHERE id = $1 AND status IN ('queued', 'processing') FOR UPDATE`, [id]);
        const b = rows[0]?.record;
        if (!b) return undefined;
        // render_jobs rows go by cascade. A row claimed meanwhile is `processing` (the claim's statement changed it
        // before this one reached it) and left to finish.
        const dropped = (await client.query(`DELETE FROM documents WHERE batch_id = $1 AND status = 'pending'`, [id])).rowCount ?? 0;
        // Every row has a document and none was dropped: the rows left are rendering and will all finish, so the
        // batch will be complete; cancelling it would say `cancelled` over every row done.
        if (dropped === 0) {
          const made = (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM documents WHERE batch_id = $1', [id])).rows[0].n;
          if (made >= b.total) return undefined;
        }
        const after = await client.query<Row>('UPDATE batches SET record = record || $2::jsonb WHERE id = $1 RETURNING record', [
          id,
          JSON.stringify({ status: 'cancelled', updated_at: at }),
        ]);
        return after.rows[0].record;
      }));
    },
    async finish(id, at) {
      // One statement: counted and ended together. A cancel holding the row makes this wait, then re-check the status
      // on the row it committed (READ COMMITTED): a cancelled batch is left as it is.
      const { rows } = await pool.query<Row>(
        `WITH c AS (
           SELECT count(*) FILTER (WHERE status = 'completed') AS done, count(*) FILTER (WHERE status = 'failed') AS failed,
                  count(*) FILTER (WHERE status IN ('pending', 'processing')) AS waiting
           FROM documents WHERE batch_id = $1
         )
         UPDATE batches b SET record = b.record || jsonb_build_object(
           'status', CASE WHEN c.failed > 0 THEN 'completed_with_errors' ELSE 'completed' END, 'done', c.done, 'failed', c.failed, 'updated_at', $2::text)
         FROM c WHERE b.id = $1 AND b.status IN ('queued', 'processing') AND c.waiting = 0
         RETURNING b.record`,
        [id, at],
      );
      return rows[0]?.record;
    },
    rowsFile(record) {
      const key = rowsKey(record);
      let copy = copying.get(key);
      if (!copy) {
        copy = download(record).finally(() => copying.delete(key));
        copying.set(key, copy);
      }
      return copy;
    },
  };
}
