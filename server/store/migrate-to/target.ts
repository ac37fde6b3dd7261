/**
 * The PostgreSQL side of `docloom migrate`: bulk statements over the schema the team server uses (records as jsonb,
 * store/pg/migrations.ts), so 10,000 documents take a few dozen round trips rather than 10,000. Every write is
 * keyed by the record's own id (`ON CONFLICT DO NOTHING`): a re-run after an interruption skips what is there.
 * Before anything is written the whole source is compared with what the database holds under the same ids: a
 * different record under one of them is refused (store/migrate-to/index.ts), never overwritten.
 */
import crypto from 'node:crypto';
import type pg from 'pg';
import type { DocumentRecord, TemplateRecord, TokenRecord } from '../records.js';
import type { BatchRecord } from '../batches.js';
import type { StoredSettings } from '../settings.js';
import type { TemplateFile } from './source.js';
import { inTransaction } from '../pg/pool.js';

/** Records per statement: large enough to make round trips rare, small enough for one bind parameter. */
export const CHUNK = 500;

/** What the migration records in docloom_meta: which data folder this database was filled from. */
export const MARKER_KEY = 'migrated_from';

export interface Marker {
  /** The data folder's meta.json created_at: it names the folder even when it was moved. */
  source_created_at: string;
  data_dir: string;
  started_at: string;
}

export function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Whether the database has docloom's schema (a dry run does not create it). */
export async function hasSchema(db: pg.ClientBase | pg.Pool): Promise<boolean> {
  const { rows } = await db.query<{ t: string | null }>(`SELECT to_regclass('public.documents')::text AS t`);
  return rows[0].t !== null;
}

export async function readMarker(db: pg.Pool): Promise<Marker | undefined> {
  const { rows } = await db.query<{ value: Marker }>('SELECT value FROM docloom_meta WHERE key = $1', [MARKER_KEY]);
  return rows[0]?.value;
}

/** True when the database holds no tokens, templates or documents yet. */
export async function isEmpty(db: pg.Pool): Promise<boolean> {
  const { rows } = await db.query<{ any: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM tokens) OR EXISTS (SELECT 1 FROM templates) OR EXISTS (SELECT 1 FROM documents) AS any',
  );
  return !rows[0].any;
}

/** One difference found: what, which id, and why (for the refusal's message). */
export interface Conflict {
  what: 'token' | 'template' | 'template file' | 'document' | 'batch';
  id: string;
}

const json = (items: readonly unknown[]) => JSON.stringify(items);

/** Ids of `table` whose stored record differs from the one given under the same id; and how many are equal. */
async function compareById(db: pg.Pool, table: 'tokens' | 'documents', records: readonly { id: number }[]): Promise<{ differ: number[]; same: number }> {
  const { rows } = await db.query<{ id: number; same: boolean }>(
    `SELECT t.id, t.record = x AS same FROM jsonb_array_elements($1::jsonb) x JOIN ${table} t ON t.id = (x->>'id')::bigint`,
    [json(records)],
  );
  return { differ: rows.filter((r) => !r.same).map((r) => r.id), same: rows.filter((r) => r.same).length };
}

export interface Comparison {
  conflicts: Conflict[];
  /** Records (and template files) already in the database, equal to the source's: a re-run skips them. */
  present: { tokens: number; templates: number; documents: number; batches: number };
}

/**
 * What names a batch: the fields that never change once it is accepted. The rest (status, counters, updated_at)
 * moves on when the team server goes on with a batch the desktop left unfinished, and a re-run must not take that
 * for someone else's batch.
 */
const BATCH_IDENTITY = ['created_at', 'template_uuid', 'rows_filename', 'rows_format', 'total'] as const;

/** Ids of batches stored with a different identity than the source's under the same id; and how many match. */
async function compareBatches(db: pg.Pool, batches: readonly BatchRecord[]): Promise<{ differ: number[]; same: number }> {
  // A dry run into a database at a schema from before batches (4): none there.
  const { rows: table } = await db.query<{ t: string | null }>(`SELECT to_regclass('public.batches')::text AS t`);
  if (table[0].t === null) return { differ: [], same: 0 };
  const same = BATCH_IDENTITY.map((k) => `t.record->'${k}' = x->'${k}'`).join(' AND ');
  const { rows } = await db.query<{ id: number; same: boolean }>(
    `SELECT t.id, (${same}) AS same FROM jsonb_array_elements($1::jsonb) x JOIN batches t ON t.id = (x->>'id')::bigint`,
    [json(batches)],
  );
  return { differ: rows.filter((r) => !r.same).map((r) => r.id), same: rows.filter((r) => r.same).length };
}

/**
 * Compares the source with the database under the same keys (ids, template uuids, template file versions).
 * Read-only: a dry run uses it too. `onChunk` reports documents compared so far.
 */
export async function compare(
  db: pg.Pool,
  source: {
    tokens: readonly TokenRecord[];
    templates: readonly TemplateRecord[];
    files: readonly TemplateFile[];
    documents: readonly DocumentRecord[];
    batches: readonly BatchRecord[];
  },
  onChunk: (done: number) => void = () => undefined,
): Promise<Comparison> {
  const conflicts: Conflict[] = [];
  const tokens = await compareById(db, 'tokens', source.tokens);
  conflicts.push(...tokens.differ.map((id) => ({ what: 'token' as const, id: String(id) })));
  // A template is the same only if id, uuid and record all match (the uuid is unique on its own too).
  const { rows: templates } = await db.query<{ id: number; uuid: string; same: boolean }>(
    `SELECT t.id, t.uuid, (t.id = (x->>'id')::bigint AND t.uuid = x->>'uuid' AND t.record = x) AS same
     FROM jsonb_array_elements($1::jsonb) x JOIN templates t ON t.id = (x->>'id')::bigint OR t.uuid = x->>'uuid'`,
    [json(source.templates)],
  );
  conflicts.push(...templates.filter((r) => !r.same).map((r) => ({ what: 'template' as const, id: `${r.id} (${r.uuid})` })));
  const { rows: files } = await db.query<{ uuid: string; version: number }>(
    `SELECT f.uuid, f.version FROM jsonb_array_elements($1::jsonb) x
     JOIN template_files f ON f.uuid = x->>'uuid' AND f.version = (x->>'version')::int
     WHERE f.kind <> x->>'kind' OR encode(sha256(f.bytes), 'hex') <> x->>'sha256'`,
    [json(source.files.map((f) => ({ uuid: f.uuid, version: f.version, kind: f.kind, sha256: crypto.createHash('sha256').update(f.bytes).digest('hex') })))],
  );
  conflicts.push(...files.map((r) => ({ what: 'template file' as const, id: `${r.uuid} v${r.version}` })));
  let documents = 0;
  let done = 0;
  for (const chunk of chunks(source.documents)) {
    const found = await compareById(db, 'documents', chunk);
    conflicts.push(...found.differ.map((id) => ({ what: 'document' as const, id: String(id) })));
    documents += found.same;
    done += chunk.length;
    onChunk(done);
  }
  const batches = await compareBatches(db, source.batches);
  conflicts.push(...batches.differ.map((id) => ({ what: 'batch' as const, id: String(id) })));
  return { conflicts, present: { tokens: tokens.same, templates: templates.filter((r) => r.same).length, documents, batches: batches.same } };
}

/**
 * Writes the marker and, on a database that held nothing before this migration, the data folder's signing secret
 * (signed download links the desktop handed out keep working) and whether its samples were offered (so a team
 * instance does not offer them again). On a database that already served, both stay as they are. One transaction.
 */
export function claim(db: pg.Pool, marker: Marker, fresh: boolean, secret: Buffer, samplesSeeded: boolean): Promise<void> {
  return inTransaction(db, async (client) => {
    await client.query('INSERT INTO docloom_meta (key, value) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO NOTHING', [MARKER_KEY, JSON.stringify(marker)]);
    if (fresh) {
      await client.query(`UPDATE docloom_meta SET value = to_jsonb($1::text) WHERE key = 'secret'`, [secret.toString('hex')]);
      if (samplesSeeded) await client.query(`UPDATE docloom_meta SET value = 'true' WHERE key = 'samples_seeded'`);
    }
  });
}

export async function insertTokens(db: pg.Pool, tokens: readonly TokenRecord[]): Promise<number> {
  const { rowCount } = await db.query(
    `INSERT INTO tokens (id, record) SELECT (x->>'id')::bigint, x FROM jsonb_array_elements($1::jsonb) x ON CONFLICT (id) DO NOTHING`,
    [json(tokens)],
  );
  return rowCount ?? 0;
}

/** Template records and their files in one transaction (a record never names a missing file). */
export function insertTemplates(db: pg.Pool, templates: readonly TemplateRecord[], files: readonly TemplateFile[]): Promise<number> {
  return inTransaction(db, async (client) => {
    const { rowCount } = await client.query(
      `INSERT INTO templates (id, uuid, record) SELECT (x->>'id')::bigint, x->>'uuid', x FROM jsonb_array_elements($1::jsonb) x ON CONFLICT DO NOTHING`,
      [json(templates)],
    );
    for (const f of files) {
      await client.query('INSERT INTO template_files (uuid, version, kind, bytes) VALUES ($1, $2, $3, $4) ON CONFLICT (uuid, version) DO NOTHING', [
        f.uuid,
        f.version,
        f.kind,
        f.bytes,
      ]);
    }
    return rowCount ?? 0;
  });
}

/** The ids among `ids` that have a record in the database. */
export async function presentDocuments(db: pg.Pool, ids: readonly number[]): Promise<Set<number>> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM documents WHERE id = ANY($1::bigint[])', [ids]);
  return new Set(rows.map((r) => r.id));
}

export async function insertDocuments(db: pg.Pool, documents: readonly DocumentRecord[]): Promise<number> {
  if (documents.length === 0) return 0;
  const { rowCount } = await db.query(
    `INSERT INTO documents (id, record) SELECT (x->>'id')::bigint, x FROM jsonb_array_elements($1::jsonb) x ON CONFLICT (id) DO NOTHING`,
    [json(documents)],
  );
  return rowCount ?? 0;
}

/** The ids among `ids` that have a batch record in the database. */
export async function presentBatches(db: pg.Pool, ids: readonly number[]): Promise<Set<number>> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM batches WHERE id = ANY($1::bigint[])', [ids]);
  return new Set(rows.map((r) => r.id));
}

/** One batch record (its rows file is put first: a record always has its rows, as on the team server). */
export async function insertBatch(db: pg.Pool, batch: BatchRecord): Promise<number> {
  const { rowCount } = await db.query('INSERT INTO batches (id, record) VALUES ($1, $2::jsonb) ON CONFLICT (id) DO NOTHING', [batch.id, JSON.stringify(batch)]);
  return rowCount ?? 0;
}

/** Settings the database does not have yet (a key set on the team server already stays). */
export async function insertSettings(db: pg.Pool, settings: Readonly<StoredSettings>): Promise<void> {
  const entries = Object.entries(settings).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return;
  await db.query(`INSERT INTO settings (key, value) SELECT k, v FROM jsonb_each($1::jsonb) AS e(k, v) ON CONFLICT (key) DO NOTHING`, [
    JSON.stringify(Object.fromEntries(entries)),
  ]);
}

/**
 * Moves each id sequence past the highest id it must never hand out again: the copied ones, and for documents the
 * highest the desktop ever handed out (a deleted document's id is not reused either). Never moved back.
 */
export async function advanceSequences(db: pg.Pool, lastIds: { tokens: number; templates: number; documents: number }, lastBatchId: number): Promise<void> {
  for (const [table, last] of Object.entries(lastIds)) {
    const seq = `${table}_id_seq`;
    await db.query(
      `SELECT setval('${seq}', v) FROM (
         SELECT GREATEST($1::bigint, (SELECT COALESCE(max(id), 0) FROM ${table}), (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM ${seq})) AS v
       ) s WHERE v > 0`,
      [last],
    );
  }
  // Past the highest batch id the desktop handed out, and past every batch_id a copied document carries (a deleted
  // batch's rows may outlive it): a batch made on the team server must never get one of those ids, or the copied
  // rows would pass for its own (documents_batch_row, schema 5).
  await db.query(
    `SELECT setval('batches_id_seq', v) FROM (
       SELECT GREATEST($1::bigint, (SELECT COALESCE(max(batch_id), 0) FROM documents), (SELECT COALESCE(max(id), 0) FROM batches),
                       (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM batches_id_seq)) AS v
     ) s WHERE v > 0`,
    [lastBatchId],
  );
}
