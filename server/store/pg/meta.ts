/** Facts about the database store (docloom_meta), read once at open. */
import type pg from 'pg';
import type { MetaRepo } from '../repositories.js';

export async function pgMeta(pool: pg.Pool, schemaVersion: number): Promise<MetaRepo> {
  const { rows } = await pool.query<{ key: string; value: unknown }>('SELECT key, value FROM docloom_meta');
  const values = new Map(rows.map((r) => [r.key, r.value]));
  return {
    schemaVersion,
    createdAt: String(values.get('created_at')),
    secret: Buffer.from(String(values.get('secret')), 'hex'),
    async samplesSeeded() {
      const { rows: seeded } = await pool.query<{ value: boolean }>(`SELECT value FROM docloom_meta WHERE key = 'samples_seeded'`);
      return seeded[0]?.value === true;
    },
    async markSamplesSeeded() {
      await pool.query(`UPDATE docloom_meta SET value = 'true' WHERE key = 'samples_seeded'`);
    },
  };
}
