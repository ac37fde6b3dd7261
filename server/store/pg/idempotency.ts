/**
 * Idempotency-Key outcomes in PostgreSQL: every instance answers a repeated key alike. A key being run is claimed in
 * `idempotency_claims` (schema 3) first, so a second request with it on any instance answers what a second request
 * on the same instance answers (409) — and a claim left by an instance that died lapses with its lease.
 */
import crypto from 'node:crypto';
import type pg from 'pg';
import type { IdempotencyEntry } from '../records.js';
import type { IdempotencyClaim, IdempotencyRepo } from '../repositories.js';
import { IDEMPOTENCY_TTL_MS } from '../idempotency.js';

/** How long after its lease ran out a claim nobody took again is pruned (claims are normally deleted on release). */
const STALE_CLAIM_MS = 60 * 60 * 1000;

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
      await pool.query(`DELETE FROM idempotency_claims WHERE lease_until < now() - $1 * interval '1 millisecond'`, [STALE_CLAIM_MS]);
    },
    async claim(key, leaseMs): Promise<IdempotencyClaim | undefined> {
      const claim = crypto.randomUUID();
      // One statement: a free key is inserted, a lapsed claim taken over, a live one left alone (no row returned).
      const { rowCount } = await pool.query(
        `INSERT INTO idempotency_claims (key, claim, lease_until) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
         ON CONFLICT (key) DO UPDATE SET claim = EXCLUDED.claim, lease_until = EXCLUDED.lease_until
         WHERE idempotency_claims.lease_until < now()`,
        [key, claim, leaseMs],
      );
      if (!rowCount) return undefined;
      const renew = setInterval(
        () =>
          void pool
            .query(`UPDATE idempotency_claims SET lease_until = now() + $3 * interval '1 millisecond' WHERE key = $1 AND claim = $2`, [key, claim, leaseMs])
            .catch(() => undefined),
        Math.max(10, Math.floor(leaseMs / 3)),
      );
      renew.unref();
      return {
        async release() {
          clearInterval(renew);
          await pool.query('DELETE FROM idempotency_claims WHERE key = $1 AND claim = $2', [key, claim]);
        },
      };
    },
  };
}
