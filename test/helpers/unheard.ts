/**
 * For the tests of the team server's caches (docs/team-server.md, "Caches"): a change nobody is told of, and a wait
 * for what a notification should bring.
 */
import assert from 'node:assert/strict';
import type pg from 'pg';

/**
 * Runs `sql` on `db` with the tables' triggers off (session_replication_role = replica; the cluster's user is a
 * superuser): the change is committed and no instance is notified — what a lost notification leaves behind.
 */
export async function unheard(db: pg.ClientBase, sql: string, args: unknown[]): Promise<void> {
  await db.query('SET session_replication_role = replica');
  try {
    await db.query(sql, args);
  } finally {
    await db.query('SET session_replication_role = DEFAULT');
  }
}

/** Polls `check` until true; answers the milliseconds it took, or fails after `withinMs`. */
export async function within(withinMs: number, what: string, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > withinMs) assert.fail(`${what}: not within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
