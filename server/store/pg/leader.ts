/**
 * Work one instance at a time on a shared database (the expiry sweeper: docs/team-server.md, "Sweeper"): a
 * session-level `pg_try_advisory_lock` on a connection held for the work's length. Another instance trying
 * meanwhile does not wait: it skips this round. The lock goes with the connection if the instance dies.
 */
import type pg from 'pg';

export async function exclusively<T>(pool: pg.Pool, name: string, work: () => Promise<T>): Promise<T | undefined> {
  const client = await pool.connect();
  let broken = false;
  try {
    const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [`docloom.${name}`]);
    if (!rows[0].ok) return undefined;
    try {
      return await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`docloom.${name}`]).catch(() => {
        // A connection that cannot unlock is not handed back to the pool holding the lock.
        broken = true;
      });
    }
  } finally {
    client.release(broken || undefined);
  }
}
