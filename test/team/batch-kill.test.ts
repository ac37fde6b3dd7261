/**
 * Batches on the team server (docs/team-server.md, "Batches on the team server"): two `docloom serve` processes (the
 * built dist/) on one throwaway PostgreSQL database and one s3rver bucket, the certificate CSV.
 * - A batch held by one instance is cancelled through the other: no row is queued or made once the cancel has
 *   settled, the rows made so far stay; deleting it through the other instance removes its documents, their objects
 *   and its rows file.
 * - A 200-row batch whose holder is killed -9 mid-batch: the other instance takes it over once the lease runs out
 *   and it ends `completed` with exactly one document per row (no duplicate batch_row in the database, one object
 *   per document in the bucket); the zip downloaded through the survivor holds every row.
 * Skipped, saying why, where dist/ is not built or PostgreSQL is absent.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BUILT, type ServeChild } from '../../scripts/lib/serve-child.js';
import { startPgCluster, type PgCluster } from '../helpers/pg-cluster.js';
import { startS3Server } from '../helpers/s3-server.js';
import { startTeamPair, stopTeamPair, type TeamPair } from '../helpers/team-pair.js';
import { certificateCsv, certificateId } from '../batch/fixtures.js';
import type { Body } from '../service/support.js';

const BUCKET = 'docloom-batch-kill';
const LEASE_MS = 1_500;
const ROWS = 200;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CERTIFICATE = fs.readFileSync(path.join(ROOT, 'resources', 'templates', 'certificate.json'), 'utf8');

const cluster = BUILT ? await startPgCluster() : 'dist/server is not built (npm run build:server)';
const skip = typeof cluster === 'string' ? `not run: ${cluster}` : undefined;
const s3 = await startS3Server([BUCKET]);
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-batch-kill-'));

let pair: TeamPair | undefined;

before(async () => {
  if (skip) return;
  pair = await startTeamPair({
    cluster: cluster as PgCluster,
    s3,
    bucket: BUCKET,
    temp,
    leaseMs: LEASE_MS,
    tokenName: 'batch test',
    template: { name: 'certificate.json', json: CERTIFICATE },
  });
});

after(async () => {
  await stopTeamPair(pair);
  if (typeof cluster !== 'string') await cluster.stop();
  await s3.stop();
  fs.rmSync(temp, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pidOf = (s: ServeChild) => s.child.pid!;

async function api(s: ServeChild, pathname: string, init: RequestInit = {}): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${s.url}${pathname}`, { ...init, headers: { ...pair!.auth, ...(init.headers as Record<string, string>) } });
  return { status: res.status, body: (await res.json()) as Body };
}

async function createBatch(via: ServeChild, rows: number): Promise<number> {
  const form = new FormData();
  form.append('template_id', pair!.uuid);
  form.append('output_filename', '{{certificate_id}}');
  form.append('file', new Blob([certificateCsv(rows)]), 'rows.csv');
  const { status, body } = await api(via, '/api/batch', { method: 'POST', body: form });
  assert.equal(status, 202, JSON.stringify(body));
  assert.equal(body.batch.total, rows);
  return body.batch.id as number;
}

/** The instance holding the batch now (its pid in `leased_by`), once one does. */
async function holderOf(id: number): Promise<ServeChild> {
  for (const until = Date.now() + 20_000; Date.now() < until; await sleep(10)) {
    const { rows } = await pair!.db.query<{ by: string | null }>('SELECT leased_by AS by FROM batches WHERE id = $1 AND lease_until > now()', [id]);
    const holder = [pair!.a, pair!.b].find((s) => rows[0]?.by?.endsWith(`:${pidOf(s)}`));
    if (holder) return holder;
  }
  throw new Error(`batch ${id} was never held`);
}

/** The batch's documents by state, from the database. */
async function rowsOf(id: number): Promise<{ made: number; completed: number; pending: number; waiting: number; jobs: number }> {
  const { rows } = await pair!.db.query<{ made: number; completed: number; pending: number; waiting: number; jobs: number }>(
    `SELECT count(*)::int AS made, (count(*) FILTER (WHERE status = 'completed'))::int AS completed,
            (count(*) FILTER (WHERE status = 'pending'))::int AS pending,
            (count(*) FILTER (WHERE status IN ('pending', 'processing')))::int AS waiting,
            (SELECT count(*)::int FROM render_jobs j JOIN documents d ON d.id = j.document_id WHERE d.batch_id = $1) AS jobs
     FROM documents WHERE batch_id = $1`,
    [id],
  );
  return rows[0];
}

async function until(what: string, ok: () => Promise<boolean>, ms = 60_000): Promise<void> {
  for (const end = Date.now() + ms; !(await ok()); await sleep(20)) assert.ok(Date.now() < end, `timed out waiting for ${what}`);
}

it('a batch held by one instance, cancelled through the other, stops; deleted through the other, nothing of it is left', { skip, timeout: 120_000 }, async () => {
  const id = await createBatch(pair!.a, ROWS);
  const holder = await holderOf(id);
  const other = holder === pair!.a ? pair!.b : pair!.a;
  await until('the first rows', async () => (await rowsOf(id)).completed >= 5);
  const cancelled = await api(other, `/api/batch/${id}/cancel`, { method: 'POST' });
  assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
  assert.equal(cancelled.body.batch.status, 'cancelled');
  // Answered: the rows queued and not yet taken are gone, and no row is queued any more (only those being rendered
  // finish).
  const atCancel = await rowsOf(id);
  assert.equal(atCancel.pending, 0, JSON.stringify(atCancel));

  // Settled: the rows being rendered when it came are finished, no row waits, no job is left.
  await until('the cancel to settle', async () => {
    const r = await rowsOf(id);
    return r.waiting === 0 && r.jobs === 0;
  }, 20_000);
  const settled = await rowsOf(id);
  // Longer than a lease and several of the holder's looks: nothing is made any more, and the holder let go.
  await sleep(LEASE_MS * 2);
  assert.deepEqual(await rowsOf(id), settled);
  assert.equal(settled.made, atCancel.made, 'no row made after the cancel was answered');
  assert.ok(settled.made < ROWS, `the batch stopped before its end (${settled.made} of ${ROWS} rows made)`);
  assert.equal(settled.made, settled.completed);
  const { rows: lease } = await pair!.db.query('SELECT leased_by FROM batches WHERE id = $1', [id]);
  assert.equal(lease[0].leased_by, null, 'the holder let the cancelled batch go');
  for (const via of [holder, other]) {
    const { body } = await api(via, `/api/batch/${id}`);
    assert.equal(body.batch.status, 'cancelled');
    assert.equal(body.batch.done, settled.completed);
  }

  // Deleted through the instance not holding it: its documents, their objects and its rows file go.
  const docKeys = (await pair!.db.query<{ id: number }>('SELECT id::int AS id FROM documents WHERE batch_id = $1', [id])).rows.map((r) => `documents/${r.id}/output.pdf`);
  const before = new Set(s3.objects(BUCKET));
  assert.ok(docKeys.every((k) => before.has(k)) && before.has(`batches/${id}/rows.csv`));
  const deleted = await api(other, `/api/batch/${id}`, { method: 'DELETE' });
  assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
  assert.equal((await rowsOf(id)).made, 0);
  assert.equal((await api(holder, `/api/batch/${id}`)).status, 404);
  const left = new Set(s3.objects(BUCKET));
  assert.deepEqual([...docKeys, `batches/${id}/rows.csv`].filter((k) => left.has(k)), []);
});

it(`a ${ROWS}-row batch whose holder is killed -9 mid-batch is taken over and completed: one document per row, a zip of every row`, { skip, timeout: 180_000 }, async () => {
  const id = await createBatch(pair!.a, ROWS);
  const victim = await holderOf(id);
  const survivor = victim === pair!.a ? pair!.b : pair!.a;
  await until('a fifth of the rows', async () => (await rowsOf(id)).completed >= ROWS / 5);
  victim.child.kill('SIGKILL');
  await victim.exited;
  const atKill = await rowsOf(id);
  assert.ok(atKill.made < ROWS, `killed mid-batch (${atKill.made} of ${ROWS} rows had a document)`);

  // Read through the survivor until it ends.
  let batch: Body = {};
  await until('the batch to end', async () => {
    batch = (await api(survivor, `/api/batch/${id}`)).body.batch as Body;
    return batch.status !== 'queued' && batch.status !== 'processing';
  }, 120_000);
  assert.equal(batch.status, 'completed', JSON.stringify(batch));
  assert.equal(batch.done, ROWS);
  assert.equal(batch.failed, 0);
  assert.ok(survivor.lines.some((l) => new RegExp(`batch ${id}: held by this instance now`).test(l)), survivor.lines.join('\n'));

  // Exactly one document per row, every one completed; one object per document.
  const { rows } = await pair!.db.query<{ id: number; row: number; status: string }>(
    `SELECT id::int AS id, (record->>'batch_row')::int AS row, status FROM documents WHERE batch_id = $1 ORDER BY 2`,
    [id],
  );
  assert.deepEqual(rows.map((r) => r.row), Array.from({ length: ROWS }, (_, i) => i + 1));
  assert.ok(rows.every((r) => r.status === 'completed'));
  // (Every document in the database, this batch's and any the first test left: none without its object, no other.)
  const all = (await pair!.db.query<{ id: number }>('SELECT id::int AS id FROM documents')).rows;
  const inBucket = s3.objects(BUCKET).filter((k) => k.startsWith('documents/'));
  assert.deepEqual(inBucket.sort(), all.map((r) => `documents/${r.id}/output.pdf`).sort());
  assert.equal((await rowsOf(id)).jobs, 0);

  // The zip through the survivor: every row, each the row's own certificate.
  const res = await fetch(`${survivor.url}/api/batch/${id}/download`, { headers: pair!.auth });
  assert.equal(res.status, 200);
  const zip = path.join(temp, `batch-${id}.zip`);
  fs.writeFileSync(zip, Buffer.from(await res.arrayBuffer()));
  const listing = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n');
  assert.deepEqual(listing.sort(), Array.from({ length: ROWS }, (_, i) => `${certificateId(i + 1)}.pdf`).sort());
  const out = path.join(temp, `unzipped-${id}`);
  execFileSync('unzip', ['-q', zip, '-d', out]);
  for (const i of [1, atKill.made + 1, ROWS]) {
    const text = execFileSync('pdftotext', [path.join(out, `${certificateId(i)}.pdf`), '-'], { encoding: 'utf8' });
    assert.ok(text.includes(`Person ${i}, Jr.`), `row ${i}: ${text}`);
  }
  assert.deepEqual(survivor.lines.filter((l) => /error|Error/.test(l)), []);
});
