/**
 * The PostgreSQL backend (DOCLOOM_DATABASE_URL): connects, runs the schema migrations under the advisory lock and
 * answers the repositories. A start that cannot connect fails with one line naming host and database; one against
 * a schema newer than this docloom refuses (store/pg/migrations.ts).
 */
import type pg from 'pg';
import type { Repositories } from '../repositories.js';
import { createPool, unreachable, type PoolOptions } from './pool.js';
import { parseDatabaseUrl, type DatabaseUrl } from './url.js';
import { migrate, MIGRATIONS, type Migration } from './migrations.js';
import { pgMeta } from './meta.js';
import { pgTokens } from './tokens.js';
import { pgTemplates } from './templates.js';
import { pgDocuments } from './documents.js';
import { pgIdempotency } from './idempotency.js';
import { pgSettings } from './settings.js';
import { DONE_CHANNEL, JOBS_CHANNEL, openPgQueue } from './queue.js';
import { pgListener } from './listener.js';
import { CACHE_CHANNEL, CACHE_TTL_MS, openCaches } from './caches.js';
import { exclusively } from './leader.js';
import { pgBatches } from './batches.js';
import type { FileStore } from '../files/file-store.js';

export { parseDatabaseUrl, DATABASE_URL_VARIABLE, type DatabaseUrl } from './url.js';
export { LATEST_SCHEMA, MIGRATIONS, type Migration } from './migrations.js';

export interface OpenPgOptions extends PoolOptions {
  /** This instance's folder for copies of template files the render workers read by path. */
  cacheDir: string;
  log?: (line: string) => void;
  /** Where batches' rows files are kept (the instance's FileStore); without it the repositories have no batches. */
  files?: FileStore;
  /** How long a cached token or template record may be answered at most (store/pg/caches.ts; tests shorten it). */
  cacheTtlMs?: number;
  /** The migrations to run (tests of upgrades and of refusals pass their own list). */
  migrations?: readonly Migration[];
}

export interface PgRepositories extends Repositories {
  readonly backend: 'postgres';
  readonly pool: pg.Pool;
  readonly url: DatabaseUrl;
}

export async function openPgRepositories(databaseUrl: string | DatabaseUrl, options: OpenPgOptions): Promise<PgRepositories> {
  const url = typeof databaseUrl === 'string' ? parseDatabaseUrl(databaseUrl) : databaseUrl;
  const log = options.log ?? (() => undefined);
  const pool = createPool(url, options);
  try {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      throw unreachable(err, url);
    }
    let schema: number;
    try {
      schema = (await migrate(client, `PostgreSQL ${url.describe}`, log, options.migrations ?? MIGRATIONS)).to;
    } finally {
      client.release();
    }
    // One listening connection for the instance: the queue's wake-ups and the caches' invalidations.
    const listener = pgListener(pool, [JOBS_CHANNEL, DONE_CHANNEL, CACHE_CHANNEL], log);
    const caches = openCaches(listener, options.cacheTtlMs ?? CACHE_TTL_MS);
    return {
      backend: 'postgres',
      pool,
      url,
      meta: await pgMeta(pool, schema),
      tokens: pgTokens(pool, caches.tokens),
      templates: pgTemplates(pool, options.cacheDir, caches.templates),
      documents: pgDocuments(pool),
      idempotency: pgIdempotency(pool),
      settings: pgSettings(pool),
      ...(options.files ? { batches: pgBatches(pool, options.files, options.cacheDir) } : {}),
      openQueue: (queueOptions) => openPgQueue(pool, listener, queueOptions),
      exclusively: (name, work) => exclusively(pool, name, work),
      ping: async () => {
        await pool.query('SELECT 1');
      },
      close: async () => {
        await listener.close();
        await pool.end();
      },
    };
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err;
  }
}
