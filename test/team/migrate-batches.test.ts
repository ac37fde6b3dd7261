/**
 * `docloom migrate` copies batch records (docs/team-server.md, "Moving up"). A real desktop service makes two batches
 * of the certificate template: one that ends `completed_with_errors` (a row with a bad image), and one that is then
 * made to look as a desktop stopped mid-batch leaves it — `processing`, only its first rows with a document. The
 * folder is migrated (the CLI, as a person runs it) into a fresh PostgreSQL and s3rver bucket.
 *
 * Proven: both batch records are in the database under their ids with their rows files in the bucket; a team server
 * over the result answers the finished batch with the same id, status, counters, rows (its documents, same ids) and
 * failures as the desktop did; it goes on with the unfinished one from where the desktop stopped (the desktop's row
 * documents kept under their ids, the other rows made once) to `completed`; a second migrate run — before and after
 * the team server moved the unfinished batch on — copies nothing and refuses nothing.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import pg from 'pg';
import { startPgCluster, type PgCluster } from '../helpers/pg-cluster.js';
import { startS3Server } from '../helpers/s3-server.js';
import { runProcess } from '../helpers/process.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { certificateCsv } from '../batch/fixtures.js';
import { uploadTemplate, type Body } from '../service/support.js';
import { openStore } from '../../server/store/index.js';

const root = path.resolve(import.meta.dirname, '../..');
const BUCKET = 'docloom-migrate-batches';
const ROWS = 12;
/** Rows of the unfinished batch that keep their document (the desktop stopped after them). */
const MADE_BEFORE_STOP = 5;
const CERTIFICATE = fs.readFileSync(path.join(root, 'resources', 'templates', 'certificate.json'));
const cluster = await startPgCluster();
const skip = typeof cluster === 'string' ? `PostgreSQL not available: ${cluster}` : undefined;
const s3 = await startS3Server([BUCKET]);
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-migrate-batches-'));
const dataDir = path.join(temp, 'desktop');

after(async () => {
  if (typeof cluster !== 'string') await cluster.stop();
  await s3.stop();
  fs.rmSync(temp, { recursive: true, force: true });
});

const childEnv = { ...process.env, ...s3.serveEnv(BUCKET), DOCLOOM_LOG_LEVEL: 'error', DOCLOOM_DATA_DIR: path.join(temp, 'unused') };

function migrate(url: string) {
  const args = ['--import', 'tsx', path.join(root, 'server/cli.ts'), 'migrate', '--to', url, '--data', dataDir, '--s3-bucket', BUCKET];
  return runProcess(process.execPath, args, { cwd: root, env: childEnv });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function get(s: TestServer, pathname: string, token?: string): Promise<Body> {
  const res = await s.api(pathname, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  assert.equal(res.status, 200, pathname);
  return (await res.json()) as Body;
}

async function settle(s: TestServer, id: number, token?: string): Promise<Body> {
  for (const end = Date.now() + 60_000; ; await sleep(20)) {
    const { batch } = await get(s, `/api/batch/${id}`, token);
    if (batch.status !== 'queued' && batch.status !== 'processing') return batch;
    assert.ok(Date.now() < end, `batch ${id} never ended`);
  }
}

/** What the API says of a batch: its record, its documents (id, file name, status, result) in id order, its failures. */
async function view(s: TestServer, id: number, token?: string): Promise<{ batch: Body; rows: Body[]; errors: Body[] }> {
  const { batch } = await get(s, `/api/batch/${id}`, token);
  const { documents } = await get(s, `/api/document?batch_id=${id}&per_page=100`, token);
  const rows = (documents.data as Body[])
    .map((d) => ({ id: d.id, name: d.output_filename, status: d.status, error: d.error, pages: d.pages, size: d.size }))
    .sort((a, b) => a.id - b.id);
  const { errors } = await get(s, `/api/batch/${id}/errors`, token);
  return { batch, rows, errors: errors.data as Body[] };
}

async function postBatch(s: TestServer, uuid: string, csv: string): Promise<number> {
  const form = new FormData();
  form.append('template_id', uuid);
  form.append('output_filename', '{{recipient}}');
  form.append('file', new Blob([csv]), 'rows.csv');
  const res = await s.api('/api/batch', { method: 'POST', body: form });
  const body = (await res.json()) as Body;
  assert.equal(res.status, 202, JSON.stringify(body));
  return body.batch.id as number;
}

it('a finished and an unfinished desktop batch are migrated with their ids, rows and results; the team server goes on with the unfinished one; a re-run copies nothing', { skip, timeout: 240_000 }, async () => {
  // The desktop: two batches through its HTTP API.
  const desktop = await startTestServer({ dataDir, renderWorkers: 1 });
  let token: string;
  let finished: { batch: Body; rows: Body[]; errors: Body[] };
  let unfinishedId = 0;
  let keptRows: Body[];
  /** The unfinished batch's file name of each row, as the desktop named them (row 1 first). */
  let names: string[];
  try {
    token = desktop.token;
    const template = await uploadTemplate(desktop, { name: 'certificate.json', bytes: CERTIFICATE }, { name: 'Certificate' });
    assert.equal(template.status, 201);
    const uuid = template.body.template.uuid as string;
    const finishedId = await postBatch(desktop, uuid, 'recipient,logo\nAda,\nBob,not-an-image\nCy,\n');
    await settle(desktop, finishedId);
    finished = await view(desktop, finishedId);
    assert.equal(finished.batch.status, 'completed_with_errors');
    assert.deepEqual(finished.errors.map((e) => [e.row, e.field, e.code]), [[2, 'logo', 'invalid_image']]);
    unfinishedId = await postBatch(desktop, uuid, certificateCsv(ROWS));
    await settle(desktop, unfinishedId);
  } finally {
    await desktop.close();
  }
  // The unfinished one, as a desktop stopped mid-batch leaves it: `processing`, only its first rows with a document
  // (a row's document is written once its file is; the others are rendered again after a restart).
  const store = await openStore(dataDir);
  try {
    const docs = store.documents.all().filter((d) => d.batch_id === unfinishedId);
    assert.equal(docs.length, ROWS);
    for (const d of docs) {
      if ((d.batch_row ?? 0) <= MADE_BEFORE_STOP) continue;
      await store.documents.remove(d.id);
      await store.files.remove(d.id, d.output_type);
    }
    await store.batches.update(unfinishedId, { status: 'processing', done: MADE_BEFORE_STOP - 1 });
    docs.sort((a, b) => a.batch_row! - b.batch_row!);
    names = docs.map((d) => d.output_filename!);
    assert.equal(new Set(names).size, ROWS, 'a name of its own for every row');
    keptRows = docs.slice(0, MADE_BEFORE_STOP).map((d) => ({ id: d.id, name: d.output_filename }));
  } finally {
    await store.close();
  }

  const url = await (cluster as PgCluster).createDatabase();
  const first = await migrate(url);
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stdout, /batches +2 in the data folder, 0 already there, 2 copied/);
  assert.match(first.stderr, new RegExp(`migrate: batches → bucket "${BUCKET}" 2/2 \\(100 %\\)`));
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const stored = (await db.query<{ id: number; status: string }>('SELECT id::int AS id, status FROM batches ORDER BY id')).rows;
    assert.deepEqual(stored, [
      { id: finished.batch.id, status: 'completed_with_errors' },
      { id: unfinishedId, status: 'processing' },
    ]);
    const objects = new Set(s3.objects(BUCKET));
    for (const id of [finished.batch.id, unfinishedId]) assert.ok(objects.has(`batches/${id}/rows.csv`), `rows file of batch ${id}`);

    // Run again before any team server: nothing copied twice.
    const second = await migrate(url);
    assert.equal(second.status, 0, second.stderr);
    assert.match(second.stdout, /batches +2 in the data folder, 2 already there, 0 copied/);
    assert.match(second.stdout, /files +0 put/);

    // The team server over the result, with the desktop's token.
    const team = await startTestServer({}, { env: { DOCLOOM_DATABASE_URL: url, ...s3.serveEnv(BUCKET) } });
    try {
      const again = await view(team, finished.batch.id, token);
      assert.deepEqual(again.rows, finished.rows);
      assert.deepEqual(again.errors, finished.errors);
      for (const key of ['id', 'status', 'total', 'done', 'failed', 'template_id', 'created_at', 'updated_at']) assert.deepEqual(again.batch[key], finished.batch[key], key);
      // Gone on with from where the desktop stopped: its row documents kept, every other row made once.
      const resumed = await settle(team, unfinishedId, token);
      assert.equal(resumed.status, 'completed', JSON.stringify(resumed));
      assert.equal(resumed.done, ROWS);
      // One document per row, named as the desktop named that row; the desktop's row documents under their ids.
      const rows = (await view(team, unfinishedId, token)).rows;
      assert.deepEqual(rows.map((r) => r.name).sort(), [...names!].sort());
      assert.ok(rows.every((r) => r.status === 'completed'));
      const idOf = new Map(rows.map((r) => [r.name, r.id]));
      assert.deepEqual(keptRows!.map((r) => ({ id: idOf.get(r.name), name: r.name })), keptRows!);
      const zip = await team.api(`/api/batch/${unfinishedId}/download`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(zip.status, 200);
    } finally {
      await team.close();
    }

    // And after the team server moved the unfinished batch on: still the same batches, nothing copied or refused.
    const third = await migrate(url);
    assert.equal(third.status, 0, third.stderr);
    assert.match(third.stdout, /batches +2 in the data folder, 2 already there, 0 copied/);
    assert.equal((await db.query<{ status: string }>('SELECT status FROM batches WHERE id = $1', [unfinishedId])).rows[0].status, 'completed');
  } finally {
    await db.end();
  }
});
