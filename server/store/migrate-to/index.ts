/**
 * `docloom migrate` (docs/team-server.md, "Moving up"): copies a desktop data folder into a team server's
 * PostgreSQL database and file storage (an S3 bucket, or the files folder of a team instance without one). Ids,
 * token hashes, templates with their files, documents with their files, settings and — into a database that held
 * nothing — the signing secret are kept as they are.
 *
 * Batch records come last, each after its rows file and after every document of the folder: a batch the desktop left
 * unfinished goes on on the team server (its feeder skips the rows that have a document), so it must not be seen
 * before its rows' documents are in.
 *
 * Order and resumability: the schema is brought up to date first (store/pg/migrations.ts, under its advisory lock);
 * then the whole folder is compared with the database under the same ids, and a different record under any of them
 * refuses the migration before anything is written. Records go in with `ON CONFLICT DO NOTHING`; a document's files
 * are put before its record, so a record in the database means its files are there (as on a team server, where a
 * `completed` row always has its files). An interrupted run leaves whole records and perhaps files without a record;
 * the next run skips the records and puts those files again under the same keys — no duplicate row or object.
 */
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import type { DatabaseUrl } from '../pg/url.js';
import type { S3Settings } from '../files/s3-settings.js';
import type { FileStore } from '../files/file-store.js';
import { localFileStore } from '../files/local.js';
import { rowsKey } from '../pg/batches.js';
import { DocumentFiles } from '../document-files.js';
import { Layout } from '../layout.js';
import type { DocumentRecord } from '../records.js';
import { openSource, type MigrationSource } from './source.js';
import type { Progress } from './progress.js';
import * as target from './target.js';

/** Documents whose files are put at once. */
const UPLOADS_AT_ONCE = 16;
/** Conflicts named in a refusal (the count says how many more). */
const NAMED_CONFLICTS = 5;

export interface MigrateOptions {
  dataDir: string;
  database: DatabaseUrl;
  /** Where documents' files go: the bucket, or a team instance's data folder (its documents/files/). */
  files: { s3: S3Settings } | { dir: string };
  dryRun: boolean;
  progress: Progress;
}

export interface Counts {
  /** In the data folder. */
  source: number;
  /** Already in the database, equal (skipped). */
  present: number;
  /** Written by this run (a dry run: would be). */
  written: number;
}

export interface MigrateReport {
  dryRun: boolean;
  tokens: Counts;
  templates: Counts;
  templateFiles: number;
  documents: Counts;
  /** Batch records (their rows files are counted in `files`). */
  batches: Counts;
  /** Files put into the file storage (a dry run: would be). */
  files: number;
  /** Whether the data folder's signing secret was copied (a database that held nothing before). */
  secretCopied: boolean;
}

export class MigrationRefused extends Error {}

function describeFiles(files: MigrateOptions['files']): string {
  return 's3' in files ? `bucket "${files.s3.bucket}"` : `files folder ${files.dir}`;
}

async function openFileStore(files: MigrateOptions['files']): Promise<FileStore> {
  if ('s3' in files) return (await import('../files/s3.js')).s3FileStore(files.s3);
  return localFileStore(new DocumentFiles(new Layout(files.dir)));
}

async function openPool(options: MigrateOptions): Promise<{ pool: pg.Pool; close: () => Promise<void> }> {
  if (options.dryRun) {
    // Nothing is written, the schema included: a pool alone, checked by one connection.
    const { createPool, unreachable } = await import('../pg/pool.js');
    const pool = createPool(options.database, { max: 2 });
    await pool.query('SELECT 1').catch(async (err: unknown) => {
      await pool.end().catch(() => undefined);
      throw unreachable(err, options.database);
    });
    return { pool, close: () => pool.end() };
  }
  const { openPgRepositories } = await import('../pg/index.js');
  const repos = await openPgRepositories(options.database, {
    max: 4,
    // Never read here (template files are written to the database, not cached); required by the backend.
    cacheDir: path.join(os.tmpdir(), 'docloom-migrate-cache'),
    log: (line) => options.progress.say(line),
  });
  return { pool: repos.pool, close: () => repos.close() };
}

/** The advisory lock a running `docloom migrate` holds on its database (one number for "a migration into it"). */
const MIGRATE_LOCK = `hashtext('docloom.migrate-to')`;

/**
 * Holds MIGRATE_LOCK on a connection of its own for the whole run (a session lock: it goes with the connection, so
 * a killed migration frees it), or refuses at once naming the other migration. Answers how to let it go.
 */
async function lockMigration(pool: pg.Pool, database: string): Promise<() => Promise<void>> {
  const client = await pool.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${MIGRATE_LOCK}) AS locked`);
    if (!rows[0].locked) {
      throw new MigrationRefused(
        `docloom: another docloom migrate is running into the PostgreSQL ${database} (it holds the advisory lock docloom.migrate-to); nothing was written. Wait for it to finish, then run this one again.`,
      );
    }
  } catch (err) {
    client.release();
    throw err;
  }
  return async () => {
    await client.query(`SELECT pg_advisory_unlock(${MIGRATE_LOCK})`).catch(() => undefined);
    client.release();
  };
}

/** Runs `work` over `items`, at most `n` at once. */
async function eachAtMost<T>(items: readonly T[], n: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

async function putFiles(source: MigrationSource, files: FileStore, doc: DocumentRecord): Promise<number> {
  const bytes = await source.documentFiles(doc);
  let put = 0;
  if (bytes.output) {
    await (await files.place(doc.id, doc.output_type, bytes.output)).durable;
    put++;
  }
  if (bytes.editable) {
    await (await files.place(doc.id, 'docx', bytes.editable, 'editable')).durable;
    put++;
  }
  return put;
}

/**
 * Each batch not in the database yet: its rows file under the key the team server reads it from, then its record.
 * An interrupted run leaves at most a rows file without its record; the next one puts it again under the same key.
 */
async function copyBatches(source: MigrationSource, pool: pg.Pool, files: FileStore, report: MigrateReport, onBatch: (done: number) => void): Promise<void> {
  const there = await target.presentBatches(pool, source.batches.map((b) => b.id));
  let done = 0;
  onBatch(0);
  for (const batch of source.batches) {
    if (!there.has(batch.id)) {
      const rows = source.batchRowsFile(batch);
      if (rows) {
        await files.putKey(rowsKey(batch), rows);
        report.files++;
      }
      report.batches.written += await target.insertBatch(pool, batch);
    }
    onBatch(++done);
  }
}

function fileCount(doc: DocumentRecord): number {
  return doc.status === 'completed' && doc.expired === 0 ? (doc.has_editable ? 2 : 1) : 0;
}

export async function migrateDataFolder(options: MigrateOptions): Promise<MigrateReport> {
  const { progress } = options;
  // The database first (an unreachable one is said at once, the schema is brought up to date), then the bucket (a
  // missing one or an unwritable folder is said before anything is copied), then the folder, locked from here on.
  const { pool, close } = await openPool(options);
  let unlock: (() => Promise<void>) | undefined;
  try {
    // Two migrations into one database would compare, claim and copy over each other: the second is refused.
    if (!options.dryRun) unlock = await lockMigration(pool, options.database.describe);
    const files = await openFileStore(options.files);
    await files.ping();
    const source = await openSource(options.dataDir);
    try {
      const templateFiles = source.templateFiles();
      const sourceSet = { tokens: source.tokens, templates: source.templates, files: templateFiles, documents: source.documents, batches: source.batches };
      const total = source.documents.length;
      const schema = await target.hasSchema(pool);
      const comparison = schema
        ? await target.compare(pool, sourceSet, (done) => progress.update('comparing', done, total))
        : { conflicts: [], present: { tokens: 0, templates: 0, documents: 0, batches: 0 } };
      const { conflicts, present } = comparison;
      if (conflicts.length > 0) {
        const named = conflicts.slice(0, NAMED_CONFLICTS).map((c) => `${c.what} ${c.id}`).join(', ');
        const more = conflicts.length > NAMED_CONFLICTS ? ` and ${conflicts.length - NAMED_CONFLICTS} more` : '';
        throw new MigrationRefused(
          `docloom: the PostgreSQL ${options.database.describe} already holds different data under the ids of this data folder (${named}${more}); nothing was written. Migrate into an empty database (or the one an interrupted migration of this same folder started).`,
        );
      }
      const report: MigrateReport = {
        dryRun: options.dryRun,
        tokens: { source: source.tokens.length, present: present.tokens, written: 0 },
        templates: { source: source.templates.length, present: present.templates, written: 0 },
        templateFiles: templateFiles.length,
        documents: { source: total, present: present.documents, written: 0 },
        batches: { source: source.batches.length, present: present.batches, written: 0 },
        files: 0,
        secretCopied: false,
      };
      if (options.dryRun) {
        report.tokens.written = report.tokens.source - report.tokens.present;
        report.templates.written = report.templates.source - report.templates.present;
        report.documents.written = total - present.documents;
        report.batches.written = source.batches.length - present.batches;
        const present_ = schema ? await target.presentDocuments(pool, source.documents.map((d) => d.id)) : new Set<number>();
        report.files = source.documents.filter((d) => !present_.has(d.id)).reduce((n, d) => n + fileCount(d), 0);
        // A batch not there yet puts its rows file (present batches were compared, so the table exists).
        const batchesThere = present.batches > 0 ? await target.presentBatches(pool, source.batches.map((b) => b.id)) : new Set<number>();
        report.files += source.batches.filter((b) => !batchesThere.has(b.id) && source.batchRowsFile(b)).length;
        return report;
      }

      const marker = await target.readMarker(pool);
      const fresh = marker ? marker.source_created_at === source.createdAt : await target.isEmpty(pool);
      await target.claim(pool, { source_created_at: source.createdAt, data_dir: source.dataDir, started_at: new Date().toISOString() }, fresh, source.secret, source.samplesSeeded);
      report.secretCopied = fresh;
      report.tokens.written = await target.insertTokens(pool, source.tokens);
      report.templates.written = await target.insertTemplates(pool, source.templates, templateFiles);
      await target.insertSettings(pool, source.settings);

      let done = 0;
      progress.update(`documents → ${describeFiles(options.files)}`, 0, total);
      for (const chunk of target.chunks(source.documents)) {
        const there = await target.presentDocuments(pool, chunk.map((d) => d.id));
        const todo = chunk.filter((d) => !there.has(d.id));
        // Files first, then the records: a record in the database means its files are in place.
        await eachAtMost(todo, UPLOADS_AT_ONCE, async (doc) => {
          report.files += await putFiles(source, files, doc);
        });
        report.documents.written += await target.insertDocuments(pool, todo);
        done += chunk.length;
        progress.update(`documents → ${describeFiles(options.files)}`, done, total);
      }
      // Past every id first: a batch going on here (one the desktop left unfinished) makes documents at once.
      await target.advanceSequences(
        pool,
        {
          tokens: Math.max(0, ...source.tokens.map((t) => t.id)),
          templates: Math.max(0, ...source.templates.map((t) => t.id)),
          documents: source.lastDocumentId,
        },
        source.lastBatchId,
      );
      await copyBatches(source, pool, files, report, (done) => progress.update(`batches → ${describeFiles(options.files)}`, done, source.batches.length));
      return report;
    } finally {
      await source.close();
    }
  } finally {
    progress.end();
    await unlock?.();
    await close();
  }
}
