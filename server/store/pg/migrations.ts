/**
 * The database schema, as ordered, versioned migrations (docs/team-server.md, "Schema and upgrades"). Every
 * start runs the ones not yet applied, each in its own transaction, under one advisory lock: instances started
 * together wait for each other instead of racing to create the same tables. An instance older than the schema
 * (a newer docloom migrated it) refuses to start: it would not understand what the newer one writes.
 *
 * A migration is never edited once released: a change is a new one at the end.
 */
import crypto from 'node:crypto';
import type pg from 'pg';

export interface Migration {
  version: number;
  describe: string;
  up(client: pg.ClientBase): Promise<void>;
}

/**
 * Records are stored whole as jsonb (the same shape as the local backend's files, so the two read alike and a
 * data folder moves over unchanged); the columns queries filter and sort on are generated from them, so the two
 * can never disagree.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    describe: 'tokens, templates and their files, documents, idempotency keys, settings, meta',
    async up(client) {
      await client.query(`
        CREATE TABLE docloom_meta (key text PRIMARY KEY, value jsonb NOT NULL);
        CREATE SEQUENCE tokens_id_seq AS bigint;
        CREATE TABLE tokens (id bigint PRIMARY KEY, record jsonb NOT NULL);
        CREATE SEQUENCE templates_id_seq AS bigint;
        CREATE TABLE templates (
          id bigint PRIMARY KEY,
          uuid text NOT NULL UNIQUE,
          name text GENERATED ALWAYS AS (record->>'name') STORED,
          record jsonb NOT NULL
        );
        CREATE TABLE template_files (
          uuid text NOT NULL REFERENCES templates (uuid) ON DELETE CASCADE,
          version integer NOT NULL,
          kind text NOT NULL,
          bytes bytea NOT NULL,
          PRIMARY KEY (uuid, version)
        );
        CREATE SEQUENCE documents_id_seq AS bigint;
        CREATE TABLE documents (
          id bigint PRIMARY KEY,
          status text GENERATED ALWAYS AS (record->>'status') STORED,
          template_id bigint GENERATED ALWAYS AS ((record->>'template_id')::bigint) STORED,
          test smallint GENERATED ALWAYS AS ((record->>'test')::smallint) STORED,
          expired smallint GENERATED ALWAYS AS ((record->>'expired')::smallint) STORED,
          batch_id bigint GENERATED ALWAYS AS ((record->>'batch_id')::bigint) STORED,
          expires_at text GENERATED ALWAYS AS (record->>'expires_at') STORED,
          record jsonb NOT NULL
        );
        CREATE INDEX documents_unfinished ON documents (id) WHERE status IN ('pending', 'processing');
        CREATE INDEX documents_due ON documents (expires_at) WHERE expired = 0;
        CREATE INDEX documents_by_template ON documents (template_id, id);
        CREATE INDEX documents_by_batch ON documents (batch_id, id) WHERE batch_id IS NOT NULL;
        CREATE TABLE idempotency_keys (key text PRIMARY KEY, at bigint NOT NULL, entry jsonb NOT NULL);
        CREATE INDEX idempotency_keys_at ON idempotency_keys (at);
        CREATE TABLE settings (key text PRIMARY KEY, value jsonb NOT NULL);
      `);
      // The signed links' secret, made once for the whole database: every instance signs and checks alike.
      await client.query(
        `INSERT INTO docloom_meta (key, value) VALUES ('created_at', to_jsonb($1::text)), ('samples_seeded', 'false'), ('secret', to_jsonb($2::text))`,
        [new Date().toISOString(), crypto.randomBytes(32).toString('hex')],
      );
    },
  },
  {
    version: 2,
    describe: 'render_jobs: the durable render queue (leases, takeover)',
    async up(client) {
      // One row per accepted document until its record is completed or failed (store/pg/queue.ts). Deleting the
      // document deletes its job. `attempt` counts claims: a finish names the claim it belongs to.
      await client.query(`
        CREATE TABLE render_jobs (
          document_id bigint PRIMARY KEY REFERENCES documents (id) ON DELETE CASCADE,
          priority smallint NOT NULL,
          request jsonb NOT NULL,
          attempt integer NOT NULL DEFAULT 0,
          leased_by text,
          lease_until timestamptz,
          created_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX render_jobs_next ON render_jobs (priority, document_id);
      `);
    },
  },
  {
    version: 3,
    describe: 'idempotency_claims: an Idempotency-Key running on one instance is running on all (leases)',
    async up(client) {
      // One row per keyed request while it runs (store/pg/idempotency.ts); `claim` names the request holding it. A
      // row whose lease ran out (its instance died) may be claimed again.
      await client.query(`
        CREATE TABLE idempotency_claims (
          key text PRIMARY KEY,
          claim uuid NOT NULL,
          lease_until timestamptz NOT NULL
        );
      `);
    },
  },
  {
    version: 4,
    describe: 'batches: batch records (their rows files are in the file storage)',
    async up(client) {
      // One row per batch (store/pg/batches.ts), as the data folder's batches.json holds them. `leased_by` and
      // `lease_until` name the instance feeding the batch's rows to the render queue; another takes the batch over
      // once the lease runs out (its instance died), as a render job's.
      await client.query(`
        CREATE SEQUENCE batches_id_seq AS bigint;
        CREATE TABLE batches (
          id bigint PRIMARY KEY,
          status text GENERATED ALWAYS AS (record->>'status') STORED,
          record jsonb NOT NULL,
          leased_by text,
          lease_until timestamptz
        );
        CREATE INDEX batches_unfinished ON batches (id) WHERE status IN ('queued', 'processing');
      `);
    },
  },
  {
    version: 5,
    describe: 'documents: one document per batch row (a batch taken over never makes a row twice)',
    async up(client) {
      // The instance feeding a batch's rows inserts each row's record with ON CONFLICT DO NOTHING
      // (store/pg/queue.ts, enqueueBatchRow): a holder that lost its lease (killed, or paused past it) and the one
      // that took the batch over can both reach a row; the second insert then stores nothing. Partial: documents
      // outside batches have no batch_row.
      await client.query(`
        CREATE UNIQUE INDEX documents_batch_row ON documents (batch_id, ((record->>'batch_row')::integer)) WHERE batch_id IS NOT NULL;
      `);
    },
  },
  {
    version: 6,
    describe: 'tokens, templates: a notification on every change (the instances\' caches drop their copies)',
    async up(client) {
      // store/pg/caches.ts: each instance keeps copies of token and template records and drops them when told. A
      // trigger rather than the repositories' own statements: a change made any way (another docloom, `docloom
      // migrate`, an administrator's DELETE in psql) is told. Inserts need none: absences are never cached. The
      // notification is delivered when the change commits, in commit order, to every listening connection.
      await client.query(`
        CREATE FUNCTION docloom_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'TRUNCATE' THEN
            PERFORM pg_notify('docloom_cache', TG_TABLE_NAME || ':*');
          ELSE
            PERFORM pg_notify('docloom_cache', TG_TABLE_NAME || ':' || OLD.id);
          END IF;
          RETURN NULL;
        END $$;
        CREATE TRIGGER tokens_cache AFTER UPDATE OR DELETE ON tokens FOR EACH ROW EXECUTE FUNCTION docloom_cache_notify();
        CREATE TRIGGER tokens_cache_truncate AFTER TRUNCATE ON tokens FOR EACH STATEMENT EXECUTE FUNCTION docloom_cache_notify();
        CREATE TRIGGER templates_cache AFTER UPDATE OR DELETE ON templates FOR EACH ROW EXECUTE FUNCTION docloom_cache_notify();
        CREATE TRIGGER templates_cache_truncate AFTER TRUNCATE ON templates FOR EACH STATEMENT EXECUTE FUNCTION docloom_cache_notify();
      `);
    },
  },
];

export const LATEST_SCHEMA = MIGRATIONS.at(-1)!.version;

/** The advisory lock every instance's migration step takes (one number for "docloom's schema"). */
const MIGRATION_LOCK = "hashtext('docloom.migrations')";

/** What a start found and did. */
export interface MigrationReport {
  from: number;
  to: number;
  applied: number[];
}

/**
 * Brings the schema to LATEST_SCHEMA (or `target`, for tests of upgrades), under the advisory lock. Throws when the
 * database is at a version this docloom does not know. `where` names the database in messages.
 */
export async function migrate(
  client: pg.ClientBase,
  where: string,
  log: (line: string) => void,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrationReport> {
  const known = migrations.at(-1)!.version;
  await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
  try {
    await client.query(`CREATE TABLE IF NOT EXISTS docloom_schema_migrations (
      version integer PRIMARY KEY, describe text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM docloom_schema_migrations');
    const from = rows[0].version ?? 0;
    if (from > known) {
      throw new Error(
        `docloom: the ${where} is at schema version ${from}, newer than this docloom understands (${known}); a newer docloom upgraded it. Run the same (or a newer) docloom on every instance sharing this database.`,
      );
    }
    const applied: number[] = [];
    for (const step of migrations) {
      if (step.version <= from) continue;
      log(`store: database schema ${step.version - 1} → ${step.version}: ${step.describe}`);
      await client.query('BEGIN');
      try {
        await step.up(client);
        await client.query('INSERT INTO docloom_schema_migrations (version, describe) VALUES ($1, $2)', [step.version, step.describe]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new Error(`docloom: schema migration ${step.version} (${step.describe}) failed on the ${where}: ${(err as Error).message}`, { cause: err });
      }
      applied.push(step.version);
    }
    return { from, to: Math.max(from, known), applied };
  } finally {
    await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => undefined);
  }
}
