/**
 * The start of an instance on DOCLOOM_DATABASE_URL (docs/team-server.md): connect, run the schema migrations under
 * the advisory lock, refuse a schema newer than this docloom. Shared by `docloom serve` and `docloom db migrate`.
 */
import path from 'node:path';
import type { Config } from '../config.js';
import type { PgRepositories } from './pg/index.js';

export async function openDatabase(config: Config, log: (line: string) => void): Promise<PgRepositories> {
  if (!config.database) throw new Error('docloom: DOCLOOM_DATABASE_URL is not set (docs/configuration.md)');
  // Loaded only here: a desktop start (no database) never loads the PostgreSQL client.
  const { openPgRepositories } = await import('./pg/index.js');
  return openPgRepositories(config.database, { cacheDir: path.join(config.dataDir, 'cache'), log });
}

/**
 * What `docloom serve` says with DOCLOOM_DATABASE_URL set, after the database was reached and migrated: the
 * services still run on the data folder's store only (issue #16 is being built in steps; docs/team-server.md).
 */
export const DATABASE_NOT_SERVED =
  'docloom: DOCLOOM_DATABASE_URL is set, but the service does not run on PostgreSQL yet: the database was reached and its schema is up to date (see docs/team-server.md, "What exists so far"). Unset DOCLOOM_DATABASE_URL to serve from the data folder.';
