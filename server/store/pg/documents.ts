/**
 * Document records in PostgreSQL: the record as jsonb, the columns filters and the sweeper use generated from it;
 * ids from documents_id_seq (never reused). Every write is a statement of its own, committed before it resolves:
 * another instance sees it at once, so `persist: false` (a local-backend saving) writes all the same.
 */
import type pg from 'pg';
import type { DocumentRecord } from '../records.js';
import type { DocumentFilter, DocumentRepo } from '../repositories.js';

type Row = { record: DocumentRecord };

const FILTER_COLUMNS = ['template_id', 'status', 'test', 'expired', 'batch_id'] as const;

function whereOf(filter: DocumentFilter): { sql: string; args: unknown[] } {
  const clauses: string[] = [];
  const args: unknown[] = [];
  for (const column of FILTER_COLUMNS) {
    const value = filter[column];
    if (value === undefined) continue;
    args.push(value);
    clauses.push(`${column} = $${args.length}`);
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', args };
}

export function pgDocuments(pool: pg.Pool): DocumentRepo {
  const update = async (id: number, patch: object): Promise<DocumentRecord | undefined> =>
    (await pool.query<Row>('UPDATE documents SET record = record || $2::jsonb WHERE id = $1 RETURNING record', [id, JSON.stringify(patch)])).rows[0]?.record;
  return {
    async get(id) {
      return (await pool.query<Row>('SELECT record FROM documents WHERE id = $1', [id])).rows[0]?.record;
    },
    async nextId() {
      return (await pool.query<{ id: number }>(`SELECT nextval('documents_id_seq') AS id`)).rows[0].id;
    },
    async insert(record) {
      await pool.query('INSERT INTO documents (id, record) VALUES ($1, $2::jsonb)', [record.id, JSON.stringify(record)]);
    },
    update: (id, patch) => update(id, patch),
    async complete(id, patch, _sums, filesDurable) {
      // Files first, then the record in one commit: a `completed` row always has its files (no check at start).
      await filesDurable;
      return update(id, patch);
    },
    async remove(id) {
      return ((await pool.query('DELETE FROM documents WHERE id = $1', [id])).rowCount ?? 0) > 0;
    },
    async list(filter, offset, limit) {
      const where = whereOf(filter);
      const n = where.args.length;
      const items = await pool.query<Row>(`SELECT record FROM documents ${where.sql} ORDER BY id DESC OFFSET $${n + 1} LIMIT $${n + 2}`, [
        ...where.args,
        offset,
        limit,
      ]);
      const total = await pool.query<{ n: number }>(`SELECT count(*)::bigint AS n FROM documents ${where.sql}`, where.args);
      return { total: total.rows[0].n, items: items.rows.map((r) => r.record) };
    },
    async dueForExpiry(nowMs) {
      // ISO 8601 UTC strings of one format compare like the instants they name (as in the local backend).
      const { rows } = await pool.query<Row>('SELECT record FROM documents WHERE expired = 0 AND expires_at <= $1 ORDER BY id', [new Date(nowMs).toISOString()]);
      return rows.map((r) => r.record);
    },
    async unfinished() {
      const { rows } = await pool.query<Row>(`SELECT record FROM documents WHERE status IN ('pending', 'processing') ORDER BY id`);
      return rows.map((r) => r.record);
    },
    // Every write above resolved once committed: nothing waits.
    flush: async () => undefined,
  };
}
