/** API tokens in PostgreSQL: one row per token, the record as jsonb (ids from tokens_id_seq). */
import type pg from 'pg';
import type { TokenRecord } from '../records.js';
import type { TokenRepo } from '../repositories.js';

export function pgTokens(pool: pg.Pool): TokenRepo {
  const all = async (): Promise<TokenRecord[]> => (await pool.query<{ record: TokenRecord }>('SELECT record FROM tokens ORDER BY id')).rows.map((r) => r.record);
  return {
    async get(id) {
      const { rows } = await pool.query<{ record: TokenRecord }>('SELECT record FROM tokens WHERE id = $1', [id]);
      return rows[0]?.record;
    },
    list: all,
    async create(input) {
      const { rows } = await pool.query<{ record: TokenRecord }>(
        `WITH n AS (SELECT nextval('tokens_id_seq') AS id)
         INSERT INTO tokens (id, record) SELECT id, jsonb_build_object('id', id) || $1::jsonb FROM n RETURNING record`,
        [JSON.stringify(input)],
      );
      return rows[0].record;
    },
    async touch(id, at) {
      await pool.query(`UPDATE tokens SET record = jsonb_set(record, '{last_used_at}', to_jsonb($2::text)) WHERE id = $1`, [id, at]);
    },
    async removeWhere(drop) {
      const current = await all();
      const ids = current.filter((t) => drop(t, current)).map((t) => t.id);
      if (ids.length === 0) return 0;
      return (await pool.query('DELETE FROM tokens WHERE id = ANY($1::bigint[])', [ids])).rowCount ?? 0;
    },
    async remove(id) {
      return ((await pool.query('DELETE FROM tokens WHERE id = $1', [id])).rowCount ?? 0) > 0;
    },
  };
}
