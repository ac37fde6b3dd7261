/**
 * Template records and files in PostgreSQL. The files (a few MB at most: DOCLOOM_LIMIT_TEMPLATE_UPLOAD_BYTES) are
 * kept in the database beside their record, written in the same transaction — so a record never names a missing
 * file on any instance, with or without object storage. Render workers read templates by path: localFile()
 * writes a version once into this instance's cache folder (a version's bytes never change once stored).
 *
 * Every record read here carries its row's `xmin` as a stamp (templateStamp): the id of the transaction that last
 * wrote the row, different after any update. A document's enqueue checks it in its own statement
 * (store/pg/queue.ts), so a record kept in this instance's cache (cachedGetByUuid/ById, store/pg/cache.ts) is never
 * rendered once the template it copies was updated or deleted.
 */
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { TemplateRecord } from '../records.js';
import type { TemplateFileRef, TemplateRepo } from '../repositories.js';
import { writeFileAtomic } from '../json-file.js';
import { inTransaction } from './pool.js';
import type { RecordCache } from './cache.js';

/** The `xmin` of the row each record was read from (a record is the caller's snapshot: it is never changed). */
const stamps = new WeakMap<TemplateRecord, string>();

/** The row version `record` was read at; undefined for a record not read from PostgreSQL. */
export function templateStamp(record: TemplateRecord): string | undefined {
  return stamps.get(record);
}

type StampedRow = { record: TemplateRecord; stamp: string };

function stamped(row: StampedRow | undefined): TemplateRecord | undefined {
  if (row) stamps.set(row.record, row.stamp);
  return row?.record;
}

async function putFile(client: pg.ClientBase, ref: TemplateFileRef, bytes: Uint8Array): Promise<void> {
  await client.query(
    `INSERT INTO template_files (uuid, version, kind, bytes) VALUES ($1, $2, $3, $4)
     ON CONFLICT (uuid, version) DO UPDATE SET kind = EXCLUDED.kind, bytes = EXCLUDED.bytes`,
    [ref.uuid, ref.version, ref.kind, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)],
  );
}

export function pgTemplates(pool: pg.Pool, cacheDir: string, cache: RecordCache<string, TemplateRecord>): TemplateRepo {
  const one = async (where: string, value: unknown): Promise<TemplateRecord | undefined> =>
    stamped((await pool.query<StampedRow>(`SELECT record, xmin::text AS stamp FROM templates WHERE ${where} = $1`, [value])).rows[0]);
  /** This instance's copies go before and after each write here (the trigger's notification drops the others'). */
  const writing = async <T>(write: () => Promise<T>): Promise<T> => {
    cache.clear();
    try {
      return await write();
    } finally {
      cache.clear();
    }
  };
  const readFile = async (ref: TemplateFileRef): Promise<Buffer> => {
    const { rows } = await pool.query<{ bytes: Buffer }>('SELECT bytes FROM template_files WHERE uuid = $1 AND version = $2', [ref.uuid, ref.version]);
    if (!rows[0]) throw Object.assign(new Error(`template ${ref.uuid} has no file for version ${ref.version}`), { code: 'ENOENT' });
    return rows[0].bytes;
  };
  return {
    getByUuid: (uuid) => one('uuid', uuid),
    getById: (id) => one('id', id),
    cachedGetByUuid: (uuid) => cache.through(`uuid:${uuid}`, () => one('uuid', uuid)),
    cachedGetById: (id) => cache.through(`id:${id}`, () => one('id', id)),
    async count() {
      return (await pool.query<{ n: number }>('SELECT count(*)::bigint AS n FROM templates')).rows[0].n;
    },
    async list(query) {
      // strpos on lower(): a substring, as the local backend matches (no LIKE wildcards to escape).
      const where = query.name === undefined ? '' : 'WHERE strpos(lower(name), lower($3)) > 0';
      const args: unknown[] = [query.offset, query.limit, ...(query.name === undefined ? [] : [query.name])];
      const items = await pool.query<{ record: TemplateRecord }>(`SELECT record FROM templates ${where} ORDER BY id DESC OFFSET $1 LIMIT $2`, args);
      const total = await pool.query<{ n: number }>(
        `SELECT count(*)::bigint AS n FROM templates ${where.replace('$3', '$1')}`,
        query.name === undefined ? [] : [query.name],
      );
      return { total: total.rows[0].n, items: items.rows.map((r) => r.record) };
    },
    create(input, file) {
      return inTransaction(pool, async (client) => {
        const { rows } = await client.query<StampedRow>(
          `WITH n AS (SELECT nextval('templates_id_seq') AS id)
           INSERT INTO templates (id, uuid, record) SELECT id, $1, $2::jsonb || jsonb_build_object('id', id, 'version', 1) FROM n RETURNING record, xmin::text AS stamp`,
          [input.uuid, JSON.stringify(input)],
        );
        await putFile(client, { uuid: input.uuid, version: 1, kind: input.kind }, file);
        return stamped(rows[0])!;
      });
    },
    update(uuid, patch, file) {
      return writing(() => inTransaction(pool, async (client) => {
        const { rows } = await client.query<{ record: TemplateRecord }>('SELECT record FROM templates WHERE uuid = $1 FOR UPDATE', [uuid]);
        const current = rows[0]?.record;
        if (!current) return undefined;
        const updated: TemplateRecord = { ...current, ...patch };
        await client.query('UPDATE templates SET record = $2::jsonb WHERE uuid = $1', [uuid, JSON.stringify(updated)]);
        if (file) {
          await putFile(client, updated, file);
          // The version before stays (a queued render may still read it), older ones go.
          await client.query('DELETE FROM template_files WHERE uuid = $1 AND version < $2', [uuid, updated.version - 1]);
        }
        return stamped((await client.query<StampedRow>('SELECT record, xmin::text AS stamp FROM templates WHERE uuid = $1', [uuid])).rows[0]);
      }));
    },
    remove(uuid) {
      return writing(async () => ((await pool.query('DELETE FROM templates WHERE uuid = $1', [uuid])).rowCount ?? 0) > 0);
    },
    readFile,
    async localFile(ref) {
      const file = path.join(cacheDir, 'templates', ref.uuid, `v${ref.version}.${ref.kind}`);
      if (fs.existsSync(file)) return file;
      const bytes = await readFile(ref);
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      await writeFileAtomic(file, bytes);
      return file;
    },
  };
}
