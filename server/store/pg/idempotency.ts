/** Idempotency-Key outcomes in PostgreSQL: every instance answers a repeated key alike. */
import type pg from 'pg';
import type { IdempotencyEntry } from '../records.js';
import type { IdempotencyRepo } from '../repositories.js';
import { IDEMPOTENCY_TTL_MS } from '../idempotency.js';

export function pgIdempotency(pool: pg.Pool): IdempotencyRepo {
  return {
    async get(key) {
      const { rows } = await pool.query<{ entry: IdempotencyEntry }>('SELECT entry FROM idempotency_keys WHERE key = $1 AND at > $2', [
        key,
        Date.now() - IDEMPOTENCY_TTL_MS,
      ]);
      return rows[0]?.entry;
    },
    async put(entry) {
      await pool.query(
        'INSERT INTO idempotency_keys (key, at, entry) VALUES ($1, $2, $3) ON CONFLICT (key) DO UPDATE SET at = EXCLUDED.at, entry = EXCLUDED.entry',
        [entry.key, entry.at, JSON.stringify(entry)],
      );
    },
    async prune() {
      await pool.query('DELETE FROM idempotency_keys WHERE at <= $1', [Date.now() - IDEMPOTENCY_TTL_MS]);
    },
  };
}
