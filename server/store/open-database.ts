/**
 * The start of an instance on DOCLOOM_DATABASE_URL (docs/team-server.md): connect, run the schema migrations under
 * the advisory lock, refuse a schema newer than this docloom. Shared by `docloom serve` and `docloom db migrate`.
 */
import path from 'node:path';
import type { Config } from '../config.js';
import type { PgRepositories } from './pg/index.js';
import type { FileStore } from './files/file-store.js';

/** `files`: where batches' rows files are kept (a served instance's FileStore); `db migrate` needs none. */
export async function openDatabase(config: Config, log: (line: string) => void, files?: FileStore): Promise<PgRepositories> {
  if (!config.database) throw new Error('docloom: DOCLOOM_DATABASE_URL is not set (docs/configuration.md)');
  // Loaded only here: a desktop start (no database) never loads the PostgreSQL client.
  const { openPgRepositories } = await import('./pg/index.js');
  return openPgRepositories(config.database, { cacheDir: path.join(config.dataDir, 'cache'), log, files });
}
