/** The connection pool: bigint columns read as numbers (ids), and connection failures said without the password. */
import pg from 'pg';
import type { DatabaseUrl } from './url.js';

const INT8 = 20;

/** Ids and counts are bigint in the schema; docloom's never approach 2^53, so they read as JavaScript numbers. */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 && format !== 'binary') return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

export interface PoolOptions {
  /** Connections this instance keeps at most. */
  max?: number;
  /** How long one connection attempt may take before the database counts as unreachable. */
  connectTimeoutMs?: number;
}

export function createPool(url: DatabaseUrl, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    types,
  });
  // An idle connection the server closed (a restart, a failover) is dropped and replaced; it must not crash the
  // process (node-postgres emits 'error' on the pool for it).
  pool.on('error', () => undefined);
  // A connection that breaks while checked out (a transaction, the sweeper's lock) emits 'error' on its client,
  // which has no listener then and would end the process. Its pending and later queries fail instead (a 503 for
  // the request: errors/database.ts), and the pool drops the client when it is released.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/** The client's message, with anything of the URL's secret part removed (a driver never prints it; be sure). */
export function safeMessage(err: unknown, url: DatabaseUrl): string {
  const e = err as NodeJS.ErrnoException & { errors?: unknown[] };
  // A refused connection to a name with several addresses is an AggregateError with an empty message.
  let message = e?.message || (Array.isArray(e?.errors) ? (e.errors as Error[]).map((x) => x.message).join('; ') : '') || String(e?.code ?? err);
  const password = (() => {
    try {
      return decodeURIComponent(new URL(url.connectionString).password);
    } catch {
      return '';
    }
  })();
  if (password) message = message.split(password).join('***');
  return message.split(url.connectionString).join('(DOCLOOM_DATABASE_URL)');
}

/** One line for a start that cannot reach the database: host and database named, never the password. */
export function unreachable(err: unknown, url: DatabaseUrl): Error {
  return new Error(`docloom: cannot connect to the PostgreSQL ${url.describe} (DOCLOOM_DATABASE_URL): ${safeMessage(err, url)}`, { cause: err });
}

/** Runs `work` in one transaction on one connection: committed whole, or rolled back and the error rethrown. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
