/** The GUI's run-time switches in PostgreSQL: one row per key set (a key never set has no row). */
import type pg from 'pg';
import type { SettingsRepo, StoredSettings } from '../repositories.js';

export function pgSettings(pool: pg.Pool): SettingsRepo {
  const get = async (): Promise<StoredSettings> => {
    const { rows } = await pool.query<{ key: string; value: unknown }>('SELECT key, value FROM settings ORDER BY key');
    return Object.fromEntries(rows.map((r) => [r.key, r.value])) as StoredSettings;
  };
  return {
    get,
    async update(patch) {
      const entries = Object.entries(patch).filter(([, value]) => value !== undefined);
      if (entries.length > 0) {
        await pool.query(
          `INSERT INTO settings (key, value) SELECT k, v FROM jsonb_each($1::jsonb) AS e(k, v)
           ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
          [JSON.stringify(Object.fromEntries(entries))],
        );
      }
      return get();
    },
  };
}
