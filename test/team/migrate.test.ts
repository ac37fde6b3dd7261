/**
 * `docloom migrate` (docs/team-server.md, "Moving up"), run as a person runs it (server/cli.ts through tsx, as a
 * child process) from a 10,000-document desktop data folder into this file's own throwaway PostgreSQL cluster and
 * s3rver bucket. The folder: a real desktop service's tokens, templates (a .json one replaced once, so two
 * versions of its file; a .docx one from docxtemplater's examples) and real renders (PDF, .docx output, an editable
 * copy), then 10,000 more records written through the store's own code (test/service/support.ts fillStore) —
 * completed with a file of their own, failed, expired, left pending — and the highest one deleted.
 *
 * Proven: a dry run counts and writes nothing; a run killed -9 halfway and run again ends with every id, token
 * hash, template record and file, document record and file equal to the folder's (full SQL and object comparison)
 * and no duplicate; a third run copies nothing; the served team instance takes the desktop's tokens, serves the
 * documents' bytes over HTTP and hands out ids past the folder's last one. Refusals: a database holding different
 * data under the same ids, a folder a running desktop holds, a malformed URL (its password never printed).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { PG_PASSWORD, startPgCluster, type PgCluster } from '../helpers/pg-cluster.js';
import { S3_KEY_ID, S3_SECRET, startS3Server } from '../helpers/s3-server.js';
import { runProcess } from '../helpers/process.js';
import { startTestServer } from '../helpers/server.js';
import { pdfText } from '../helpers/pdf.js';
import { INVOICE_DATA, INVOICE_LINES, createDocument, documentRecord, fillStore, json, jsonTemplate, uploadTemplate, type Body } from '../service/support.js';
import { openStore } from '../../server/store/index.js';
import { acquireLock } from '../../server/store/lock.js';
import { Layout } from '../../server/store/layout.js';
import { openPgRepositories } from '../../server/store/pg/index.js';
import type { DocumentRecord, TemplateRecord, TokenRecord } from '../../server/store/records.js';

const root = path.resolve(import.meta.dirname, '../..');
const BUCKET = 'docloom-migrate';
const SYNTHETIC = 10_000;
const cluster = await startPgCluster();
const skip = typeof cluster === 'string' ? `PostgreSQL not available: ${cluster}` : undefined;
const s3 = await startS3Server([BUCKET]);
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-migrate-'));
const dataDir = path.join(temp, 'desktop');

after(async () => {
  if (typeof cluster !== 'string') await cluster.stop();
  await s3.stop();
  fs.rmSync(temp, { recursive: true, force: true });
});

const s3Env = {
  DOCLOOM_S3_ENDPOINT: s3.endpoint,
  DOCLOOM_S3_FORCE_PATH_STYLE: 'true',
  DOCLOOM_S3_ACCESS_KEY_ID: S3_KEY_ID,
  DOCLOOM_S3_SECRET_ACCESS_KEY: S3_SECRET,
};

function migrateArgs(url: string, extra: string[] = []): string[] {
  return ['--import', 'tsx', path.join(root, 'server/cli.ts'), 'migrate', '--to', url, '--data', dataDir, '--s3-bucket', BUCKET, ...extra];
}

const childEnv = { ...process.env, ...s3Env, DOCLOOM_LOG_LEVEL: 'error', DOCLOOM_DATA_DIR: path.join(temp, 'unused') };

function migrate(url: string, extra: string[] = []) {
  return runProcess(process.execPath, migrateArgs(url, extra), { cwd: root, env: childEnv });
}

/** Every object in the bucket → its bytes (s3rver keeps each as `<key>._S3rver_object`). */
function objects(): Map<string, Buffer> {
  const dir = path.join(s3.directory, BUCKET);
  const out = new Map<string, Buffer>();
  if (!fs.existsSync(dir)) return out;
  for (const f of fs.readdirSync(dir, { recursive: true }) as string[]) {
    if (!f.endsWith('._S3rver_object')) continue;
    out.set(f.replace(/\._S3rver_object$/, '').split(path.sep).join('/'), fs.readFileSync(path.join(dir, f)));
  }
  return out;
}

/** What the folder holds, read through the store after the migrations (which must not have changed it). */
interface Folder {
  tokens: TokenRecord[];
  templates: TemplateRecord[];
  templateFiles: Map<string, Buffer>;
  documents: DocumentRecord[];
  files: Map<string, Buffer>;
  secret: string;
  lastId: number;
}

async function readFolder(): Promise<Folder> {
  const store = await openStore(dataDir);
  try {
    const layout = new Layout(dataDir);
    const templateFiles = new Map<string, Buffer>();
    for (const t of store.templates.all()) {
      for (const name of fs.readdirSync(layout.templateDir(t.uuid))) templateFiles.set(`${t.uuid}/${name.replace(/\.\w+$/, '').slice(1)}`, fs.readFileSync(path.join(layout.templateDir(t.uuid), name)));
    }
    const files = new Map<string, Buffer>();
    for (const d of store.documents.all()) {
      if (d.status !== 'completed' || d.expired === 1) continue;
      files.set(`documents/${d.id}/output.${d.output_type}`, fs.readFileSync(store.files.path(d.id, d.output_type)));
      if (d.has_editable) files.set(`documents/${d.id}/editable.docx`, fs.readFileSync(store.files.path(d.id, 'docx', 'editable')));
    }
    return {
      tokens: structuredClone([...store.tokens.list()]),
      templates: structuredClone([...store.templates.all()]),
      templateFiles,
      documents: structuredClone([...store.documents.all()]),
      files,
      secret: store.secret.toString('hex'),
      lastId: store.documents.lastId,
    };
  } finally {
    await store.close();
  }
}

/** A record as the team server must hold it: a render the desktop left unfinished is failed (`interrupted`). */
function expected(doc: DocumentRecord): DocumentRecord {
  if (doc.status !== 'pending' && doc.status !== 'processing') return doc;
  return { ...doc, status: 'failed', error: { code: 'interrupted', message: 'The service stopped before this document was rendered; create it again.' }, pages: null, size: null, has_editable: false };
}

describe('docloom migrate: a 10,000-document data folder into PostgreSQL + S3', { skip }, () => {
  let desktopToken = '';
  const rendered: Body[] = [];
  let folder: Folder;

  before(async () => {
    // The real desktop: tokens, templates and renders through its HTTP API.
    const desktop = await startTestServer({ dataDir });
    try {
      desktopToken = desktop.token;
      const invoice = await uploadTemplate(desktop, { name: 'invoice.json', bytes: jsonTemplate(INVOICE_LINES) }, { name: 'Invoice' });
      assert.equal(invoice.status, 201);
      // Replaced once: the folder keeps v1 and v2 of its file.
      const replaced = await uploadTemplate(desktop, { name: 'invoice.json', bytes: jsonTemplate(['Bill {{number}}', ...INVOICE_LINES.slice(1)]) }, {}, {
        method: 'PUT',
        path: `/api/template/${invoice.body.template.uuid}`,
      });
      assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
      const docx = await uploadTemplate(
        desktop,
        { name: 'tag-example.docx', bytes: fs.readFileSync(path.join(root, '../shared/fixtures/docxtemplater-examples/tag-example.docx')) },
        { name: 'Tag example', delimiters: '{ }' },
      );
      assert.equal(docx.status, 201, JSON.stringify(docx.body));
      const sample = JSON.stringify(docx.body.template.sample_data);
      const requests: Record<string, string>[] = [
        { template_id: invoice.body.template.uuid, data: JSON.stringify(INVOICE_DATA) },
        { template_id: invoice.body.template.uuid, data: JSON.stringify({ ...INVOICE_DATA, number: 'INV-7' }) },
        { template_id: docx.body.template.uuid, data: sample, editable: '1' },
        { template_id: docx.body.template.uuid, data: sample, output_type: 'docx' },
      ];
      for (const fields of requests) {
        const { status, body } = await createDocument(desktop, fields);
        assert.equal(status, 201, JSON.stringify(body));
        assert.equal(body.document.status, 'completed');
        rendered.push(body.document);
      }
    } finally {
      await desktop.close();
    }
    // 10,000 more through the store's own code; each completed one gets bytes of its own.
    const invoiceRecord = (await readFolder()).templates[0];
    await fillStore(dataDir, SYNTHETIC, (id) => ({
      template_id: invoiceRecord.id,
      template_uuid: invoiceRecord.uuid,
      ...(id % 20 === 0 ? { status: 'failed', error: { code: 'render_failed', message: `failed ${id}` }, pages: null, size: null } : {}),
      // A desktop used for a while: most documents are past their expiry (their files gone), a third are not.
      ...(id % 3 !== 0 ? { expired: 1, expires_at: new Date(Date.UTC(2026, 1, 1) + id * 1000).toISOString() } : {}),
      ...(id % 97 === 0 ? { status: 'processing', pages: null, size: null } : {}),
      ...(id % 7 === 0 ? { test: 1, locale: 'de-DE', output_filename: `Rechnung ${id} — ü.pdf` } : {}),
      // Rows of a batch 3 whose record is gone: the documents are copied, with batch_id.
      ...(id % 11 === 0 ? { batch_id: 3, batch_row: id / 11 } : {}),
    }));
    const store = await openStore(dataDir);
    for (const d of store.documents.all()) {
      if (d.id > rendered.length && d.status === 'completed' && d.expired === 0) fs.writeFileSync(store.files.path(d.id, 'pdf'), `%PDF-1.4 stand-in of document ${d.id}\n${crypto.randomBytes(64).toString('hex')}\n`);
    }
    // The highest id deleted: the database must not hand it out again.
    await store.documents.remove(store.documents.lastId);
    await store.close();
    folder = await readFolder();
    assert.equal(folder.documents.length, rendered.length + SYNTHETIC - 1);
    assert.ok([...folder.files.keys()].some((k) => k.endsWith('/editable.docx')), 'an editable copy among the renders');
    assert.ok([...folder.files.keys()].some((k) => k.endsWith('/output.docx')), 'a .docx output among the renders');
  });

  it('--dry-run counts and writes nothing (no schema, no object)', async () => {
    const url = await (cluster as PgCluster).createDatabase();
    const run = await migrate(url, ['--dry-run']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /Dry run \(nothing written\)/);
    assert.match(run.stdout, new RegExp(`documents +${folder.documents.length} in the data folder, 0 already there, ${folder.documents.length} to copy`));
    assert.match(run.stdout, new RegExp(`tokens +${folder.tokens.length} in the data folder`));
    assert.match(run.stdout, new RegExp(`files +${folder.files.size} to put`));
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      assert.equal((await db.query(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`)).rows[0].n, 0);
    } finally {
      await db.end();
    }
    assert.equal(objects().size, 0);
  });

  it('killed -9 halfway, run again: every id, token, template, document and file equal, nothing twice; a third run copies nothing', { timeout: 240_000 }, async () => {
    const url = await (cluster as PgCluster).createDatabase();
    // The interrupted run: killed once its progress says a few thousand documents are in (plain lines: not a TTY).
    const child = spawn(process.execPath, migrateArgs(url), { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let killedAt = 0;
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
      const m = [...stderr.matchAll(/migrate: documents → bucket "docloom-migrate" (\d+)\/(\d+)/g)].at(-1);
      if (m && !killedAt && Number(m[1]) >= 2500) {
        killedAt = Number(m[1]);
        child.kill('SIGKILL');
      }
    });
    const exit = await new Promise<NodeJS.Signals | number | null>((resolve) => child.on('close', (code, signal) => resolve(signal ?? code)));
    assert.equal(exit, 'SIGKILL', `the first run was to be killed mid-copy; it ended ${exit}:\n${stderr}`);
    assert.doesNotMatch(stderr, /\r/, 'plain lines when stderr is not a terminal');
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const partial = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM documents')).rows[0].n;
      assert.ok(partial >= killedAt && partial < folder.documents.length, `killed with ${partial} of ${folder.documents.length} documents in`);

      const again = await migrate(url);
      assert.equal(again.status, 0, again.stderr);
      assert.match(again.stdout, new RegExp(`documents +${folder.documents.length} in the data folder, ${partial} already there, ${folder.documents.length - partial} copied`));
      assert.doesNotMatch(again.stdout + again.stderr, new RegExp(PG_PASSWORD));

      // Tokens: the same ids and hashes (never a plaintext token: the folder has none).
      const tokens = (await db.query<{ id: number; record: TokenRecord }>('SELECT id::int AS id, record FROM tokens ORDER BY id')).rows;
      assert.deepEqual(tokens.map((r) => r.record), folder.tokens);
      assert.deepEqual(tokens.map((r) => r.id), folder.tokens.map((t) => t.id));
      // Templates: records, and every file version the folder keeps, byte for byte.
      assert.deepEqual((await db.query<{ record: TemplateRecord }>('SELECT record FROM templates ORDER BY id')).rows.map((r) => r.record), folder.templates);
      const files = (await db.query<{ uuid: string; version: number; bytes: Buffer }>('SELECT uuid, version, bytes FROM template_files ORDER BY uuid, version')).rows;
      assert.deepEqual(new Map(files.map((f) => [`${f.uuid}/${f.version}`, f.bytes])), folder.templateFiles);
      assert.ok(folder.templateFiles.size >= 2, 'the .json template and the .docx one');
      // Documents: every record, the unfinished one failed as `interrupted`; no id twice (nor missing).
      const docs = (await db.query<{ id: number; record: DocumentRecord }>('SELECT id::int AS id, record FROM documents ORDER BY id')).rows;
      assert.equal(docs.length, folder.documents.length);
      assert.deepEqual(docs.map((r) => r.record), folder.documents.map(expected));
      assert.ok(docs.some((r) => r.record.error?.code === 'interrupted'));
      // Objects: exactly the folder's files, byte for byte (each key once: one object per document file).
      const bucket = objects();
      assert.equal(bucket.size, folder.files.size);
      for (const [key, bytes] of folder.files) assert.ok(bucket.get(key)?.equals(bytes), `object ${key}`);
      // The signing secret and the sequence past the highest id ever handed out (the deleted one too).
      const meta = (await db.query<{ value: string }>(`SELECT value FROM docloom_meta WHERE key = 'secret'`)).rows[0];
      assert.equal(meta.value, folder.secret);
      // A batch made on the team server gets an id no copied document carries (its rows would pass for the new batch's).
      assert.ok((await db.query<{ id: number }>(`SELECT nextval('batches_id_seq')::int AS id`)).rows[0].id > 3);

      const third = await migrate(url);
      assert.equal(third.status, 0, third.stderr);
      assert.match(third.stdout, new RegExp(`documents +${folder.documents.length} in the data folder, ${folder.documents.length} already there, 0 copied`));
      assert.match(third.stdout, /files +0 put/);
      assert.equal((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM documents')).rows[0].n, folder.documents.length);
    } finally {
      await db.end();
    }

    // The team server on what was migrated, over real HTTP: the desktop's token works, documents read and download
    // the folder's bytes, a new document gets an id past the folder's last.
    const team = await startTestServer({}, { env: { DOCLOOM_DATABASE_URL: url, DOCLOOM_S3_BUCKET: BUCKET, ...s3Env } });
    try {
      const auth = { authorization: `Bearer ${desktopToken}` };
      assert.equal((await team.api('/api/document?per_page=1', { headers: auth })).status, 200);
      for (const id of [...rendered.map((d) => d.id as number), 6, 1234, 5001, folder.lastId - 1]) {
        const doc = folder.documents.find((d) => d.id === id)!;
        const body = await json(await team.api(`/api/document/${id}`, { headers: auth }));
        assert.equal(body.document.status, expected(doc).status, `document ${id}`);
        if (doc.status !== 'completed' || doc.expired === 1) continue;
        const res = await team.api(`/api/document/${id}/download`, { headers: auth });
        assert.equal(res.status, 200);
        assert.ok(Buffer.from(await res.arrayBuffer()).equals(folder.files.get(`documents/${id}/output.${doc.output_type}`)!), `download of ${id}`);
        assert.equal(body.document.cloud_id, `documents/${id}/output.${doc.output_type}`);
      }
      assert.match(pdfText(folder.files.get(`documents/${rendered[0].id}/output.pdf`)!), /Invoice INV-0042|Bill INV-0042/);
      const template = folder.templates.find((t) => t.kind === 'json')!;
      const made = await createDocument(team, { template_id: template.uuid, data: JSON.stringify(INVOICE_DATA) });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.equal(made.body.document.id, folder.lastId + 1);
    } finally {
      await team.close();
    }
  });

  it('refuses a database holding different data under the same ids, writing nothing', async () => {
    const url = await (cluster as PgCluster).createDatabase();
    const repos = await openPgRepositories(url, { cacheDir: path.join(temp, 'cache') });
    await repos.documents.insert(documentRecord(6, { output_filename: 'someone else.pdf' }));
    await repos.close();
    const run = await migrate(url);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stderr, /already holds different data under the ids of this data folder \(document 6\); nothing was written/);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const n = (await db.query<{ t: number; d: number }>('SELECT (SELECT count(*) FROM tokens)::int AS t, (SELECT count(*) FROM documents)::int AS d')).rows[0];
      assert.deepEqual(n, { t: 0, d: 1 });
    } finally {
      await db.end();
    }
  });

  it('refuses a folder a running desktop holds, a malformed URL and an unreachable database, never printing the password', async () => {
    const url = await (cluster as PgCluster).createDatabase();
    const release = acquireLock(new Layout(dataDir));
    let runs;
    try {
      // At once: each child's start (tsx, the AWS SDK) takes seconds on a busy machine.
      runs = await Promise.all([
        migrate(url),
        migrate('mysql://docloom:hunter2-secret@127.0.0.1/docloom'),
        migrate('postgres://docloom:hunter2-secret@127.0.0.1:1/docloom'),
      ]);
    } finally {
      release();
    }
    const [locked, bad, unreachable] = runs;
    assert.equal(locked.status, 1, locked.stderr);
    assert.match(locked.stderr, new RegExp(`another docloom service \\(pid ${process.pid}\\) is using the data dir .*stop the desktop app`));
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--to is not a valid PostgreSQL URL .*scheme must be postgres: or postgresql:/);
    assert.equal(unreachable.status, 1);
    assert.match(unreachable.stderr, /cannot connect to the PostgreSQL database "docloom" on 127\.0\.0\.1:1 \(--to\)/);
    for (const run of runs) assert.doesNotMatch(run.stdout + run.stderr, /hunter2|pw-Secret/);
  });
});
