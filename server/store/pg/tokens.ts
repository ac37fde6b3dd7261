/**
 * API tokens in PostgreSQL: one row per token, the record as jsonb (ids from tokens_id_seq). `cachedGet` answers
 * this instance's copy (store/pg/cache.ts), which any change committed on any instance drops through the tokens
 * table's trigger (schema 6); `get` always reads the database.
 */
import type pg from 'pg';
import type { TokenRecord } from '../records.js';
import type { TokenRepo } from '../repositories.js';
import type { RecordCache } from './cache.js';

export function pgTokens(pool: pg.Pool, cache: RecordCache<number, TokenRecord>): TokenRepo {
  const all = async (): Promise<TokenRecord[]> => (await pool.query<{ record: TokenRecord }>('SELECT record FROM tokens ORDER BY id')).rows.map((r) => r.record);
  const get = async (id: number): Promise<TokenRecord | undefined> => {
    const { rows } = await pool.query<{ record: TokenRecord }>('SELECT record FROM tokens WHERE id = $1', [id]);
    return rows[0]?.record;
  };
  return {
    get,
    cachedGet: (id) => cache.through(id, () => get(id)),
    list: all,
    async create(input) {
      const { rows } = await pool.query<{ record: TokenRecord }>(
        `WITH n AS (SELECT nextval('tokens_id_seq') AS id)
         INSERT INTO tokens (id, record) SELECT id, jsonb_build_object('id', id) || $1::jsonb FROM n RETURNING record`,
        [JSON.stringify(input)],
      );
      return rows[0].record;
    },
    // Each write drops this instance's copy once it is done, whatever its outcome (a lookup that read the record
    // while the write ran stores nothing: the drop moves the cache's epoch); the trigger's notification drops the
    // other instances'.
    async touch(id, at) {
      try {
        await pool.query(`UPDATE tokens SET record = jsonb_set(record, '{last_used_at}', to_jsonb($2::text)) WHERE id = $1`, [id, at]);
      } finally {
        cache.invalidate(id);
      }
    },
    async removeWhere(drop) {
      const current = await all();
      const ids = current.filter((t) => drop(t, current)).map((t) => t.id);
      if (ids.length === 0) return 0;
      try {
        return (await pool.query('DELETE FROM tokens WHERE id = ANY($1::bigint[])', [ids])).rowCount ?? 0;
      } finally {
        for (const id of ids) cache.invalidate(id);
      }
    },
    async remove(id) {
      try {
        return ((await pool.query('DELETE FROM tokens WHERE id = $1', [id])).rowCount ?? 0) > 0;
      } finally {
        cache.invalidate(id);
      }
    },
  };
}
