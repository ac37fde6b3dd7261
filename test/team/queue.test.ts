/**
 * The team server's shared work (docs/team-server.md, "Render queue" and "Sweeper"), against a real PostgreSQL
 * cluster and s3rver on loopback:
 * - the queue's lease: a claim whose lease ran out is taken over, and the late claim's finish writes nothing;
 * - the expiry sweeper of two instances run at the same moment: each expired document is expired once, by one.
 * The kill -9 test of two served instances is test/team/kill.test.ts.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { loadConfig } from '../../server/config.js';
import { createServices, type Services } from '../../server/services/index.js';
import { openPgRepositories, type PgRepositories } from '../../server/store/pg/index.js';
import { s3FileStore } from '../../server/store/files/s3.js';
import { QUEUE_PRIORITY, type JobQueue } from '../../server/store/queue.js';
import { startPgCluster, type PgCluster } from '../helpers/pg-cluster.js';
import { S3_KEY_ID, S3_SECRET, startS3Server } from '../helpers/s3-server.js';
import { startTestServer } from '../helpers/server.js';
import { INVOICE_DATA, createDocument, createInvoiceTemplate, documentRecord, uploadTemplate, type Body } from '../service/support.js';

const cluster = await startPgCluster();
const skip = typeof cluster === 'string' ? `PostgreSQL not available: ${cluster}` : undefined;
const s3 = await startS3Server(['docloom-queue']);
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-queue-cache-'));

/** A service on database `url` and this file's s3rver bucket: the team server. */
function teamEnv(url: string): Record<string, string> {
  return {
    DOCLOOM_DATABASE_URL: url,
    DOCLOOM_S3_BUCKET: 'docloom-queue',
    DOCLOOM_S3_ENDPOINT: s3.endpoint,
    DOCLOOM_S3_FORCE_PATH_STYLE: 'true',
    DOCLOOM_S3_ACCESS_KEY_ID: S3_KEY_ID,
    DOCLOOM_S3_SECRET_ACCESS_KEY: S3_SECRET,
  };
}

after(async () => {
  if (typeof cluster !== 'string') await cluster.stop();
  await s3.stop();
  fs.rmSync(cacheDir, { recursive: true, force: true });
});

describe('the render queue: leases', { skip }, () => {
  it('an enqueue with id 0 takes the next id of the sequence in its own statement, stored in the record too', async () => {
    const url = await (cluster as PgCluster).createDatabase();
    const repos = await openPgRepositories(url, { cacheDir });
    const q = await repos.openQueue!({ instance: 'a', leaseMs: 30_000, log: () => undefined });
    try {
      const before = await repos.documents.nextId();
      const queued = documentRecord(0, { status: 'pending' });
      const id = await q.enqueue(queued, {}, 1);
      assert.equal(id, before + 1, 'the id after the one taken before');
      assert.equal(queued.id, id, 'written into the caller\'s record');
      const leased = documentRecord(0, { status: 'processing' });
      const lease = await q.enqueueLeased(leased, {}, 0);
      lease.release();
      assert.equal(leased.id, id + 1);
      assert.equal(lease.documentId, id + 1);
      for (const n of [id, id + 1]) assert.equal((await repos.documents.get(n))?.id, n, `document ${n} stored with its id in the record`);
      const jobs = await repos.pool.query<{ document_id: number }>('SELECT document_id FROM render_jobs ORDER BY document_id');
      assert.deepEqual(jobs.rows.map((r) => Number(r.document_id)), [id, id + 1]);
      assert.equal(await repos.documents.nextId(), id + 2, 'the sequence moved past both');
    } finally {
      await q.close();
      await repos.close();
    }
  });

  it('a claim whose lease ran out is taken over; the late finish writes nothing, the new one completes once', async () => {
    const url = await (cluster as PgCluster).createDatabase();
    const repos = await openPgRepositories(url, { cacheDir });
    const queues: JobQueue[] = [];
    try {
      const open = async (instance: string) => {
        const q = await repos.openQueue!({ instance, leaseMs: 300, log: () => undefined });
        queues.push(q);
        return q;
      };
      const [a, b] = [await open('a'), await open('b')];
      const id = await repos.documents.nextId();
      await a.enqueue(documentRecord(id, { status: 'pending' }), { what: 'test' }, 1);
      const first = await a.claim();
      assert.equal(first?.record.id, id);
      assert.equal(first.record.status, 'processing');
      assert.equal(first.lease.attempt, 1);
      // Held: nobody else gets it.
      assert.equal(await b.claim(), undefined);
      // A's instance "dies": no renewal. Once the lease ran out, B takes the job over.
      first.lease.release();
      await new Promise((r) => setTimeout(r, 450));
      const second = await b.claim();
      assert.equal(second?.record.id, id);
      assert.equal(second.lease.attempt, 2);
      // A comes back and finishes late: nothing is written.
      assert.equal(await first.lease.hold(), false);
      assert.equal(await first.lease.finish({ status: 'completed', size: 1 }), 'lost');
      assert.equal((await repos.documents.get(id))?.status, 'processing');
      assert.equal(await second.lease.finish({ status: 'completed', size: 2 }), 'done');
      second.lease.release();
      await b.settled(id);
      const doc = await repos.documents.get(id);
      assert.equal(doc?.status, 'completed');
      assert.equal(doc?.size, 2);
      assert.equal((await repos.pool.query('SELECT 1 FROM render_jobs')).rowCount, 0);
      assert.equal(await second.lease.finish({ status: 'failed' }), 'lost', 'finished once: a second finish of the same claim writes nothing');
    } finally {
      for (const q of queues) await q.close();
      await repos.close();
    }
  });

  it('interactive jobs are claimed before async ones, and those before batch rows; deleting a document deletes its job', async () => {
    const url = await (cluster as PgCluster).createDatabase();
    const repos = await openPgRepositories(url, { cacheDir });
    const q = await repos.openQueue!({ instance: 'a', leaseMs: 5_000, log: () => undefined });
    try {
      // A batch row enqueued first still waits for the others (QUEUE_PRIORITY.batchRow).
      const rowId = await repos.documents.nextId();
      await q.enqueue(documentRecord(rowId, { status: 'pending', batch_id: 1, batch_row: 1 }), {}, QUEUE_PRIORITY.batchRow);
      const batchId = await repos.documents.nextId();
      await q.enqueue(documentRecord(batchId, { status: 'pending' }), {}, QUEUE_PRIORITY.batch);
      const syncId = await repos.documents.nextId();
      await q.enqueue(documentRecord(syncId, { status: 'pending' }), {}, 0);
      const goneId = await repos.documents.nextId();
      await q.enqueue(documentRecord(goneId, { status: 'pending' }), {}, 0);
      await repos.documents.remove(goneId);
      const claimed = [(await q.claim())!, (await q.claim())!, (await q.claim())!];
      assert.deepEqual(claimed.map((c) => c.record.id), [syncId, batchId, rowId]);
      assert.equal(await q.claim(), undefined);
      await repos.documents.remove(batchId);
      assert.equal(await claimed[1].lease.finish({ status: 'completed' }), 'deleted');
      for (const c of claimed) c.lease.release();
    } finally {
      await q.close();
      await repos.close();
    }
  });
});

describe('batch rows in the queue', { skip }, () => {
  it('a row is stored once however often it is enqueued (schema 5), and none once its batch is cancelled', async () => {
    const url = await (cluster as PgCluster).createDatabase();
    const repos = await openPgRepositories(url, { cacheDir });
    const q = await repos.openQueue!({ instance: 'a', leaseMs: 5_000, log: () => undefined });
    try {
      await repos.pool.query(`INSERT INTO batches (id, record) VALUES (7, '{"status": "processing"}'), (8, '{"status": "processing"}')`);
      const row = async (batch: number, n: number) => q.enqueueBatchRow(documentRecord(await repos.documents.nextId(), { status: 'pending', batch_id: batch, batch_row: n }), {}, QUEUE_PRIORITY.batchRow);
      // Two holders reaching row 1 of batch 7 (one that lost its lease, and the one that took the batch over).
      assert.equal(await row(7, 1), true);
      assert.equal(await row(7, 1), false);
      assert.equal(await row(7, 2), true);
      // The same row number in another batch is another row.
      assert.equal(await row(8, 1), true);
      await repos.pool.query(`UPDATE batches SET record = record || '{"status": "cancelled"}' WHERE id = 8`);
      assert.equal(await row(8, 2), false);
      assert.equal(await row(9, 1), false, 'no such batch');
      const { rows } = await repos.pool.query<{ batch: number; row: number }>(
        `SELECT batch_id::int AS batch, (record->>'batch_row')::int AS row FROM documents d JOIN render_jobs j ON j.document_id = d.id ORDER BY 1, 2`,
      );
      assert.deepEqual(rows, [{ batch: 7, row: 1 }, { batch: 7, row: 2 }, { batch: 8, row: 1 }]);
    } finally {
      await q.close();
      await repos.close();
    }
  });
});

describe('a batch on the team server', { skip }, () => {
  it('a failing row\'s error names its field, as on the desktop (JSON and CSV)', async () => {
    const url = await (cluster as PgCluster).createDatabase();
    const server = await startTestServer({}, { env: teamEnv(url) });
    try {
      const certificate = fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'resources', 'templates', 'certificate.json'));
      const made = await uploadTemplate(server, { name: 'certificate.json', bytes: certificate }, { name: 'Certificate' });
      assert.equal(made.status, 201);
      const form = new FormData();
      form.append('template_id', made.body.template.uuid as string);
      form.append('file', new Blob(['recipient,logo\nAda,\nBob,not-an-image\nCy,\n']), 'rows.csv');
      const posted = (await (await server.api('/api/batch', { method: 'POST', body: form })).json()) as Body;
      const id = posted.batch.id as number;
      let batch: Body = posted.batch;
      for (const end = Date.now() + 60_000; batch.status === 'queued' || batch.status === 'processing'; await new Promise((r) => setTimeout(r, 20))) {
        assert.ok(Date.now() < end, 'the batch did not finish');
        batch = ((await (await server.api(`/api/batch/${id}`)).json()) as Body).batch;
      }
      assert.equal(batch.status, 'completed_with_errors');
      const errors = ((await (await server.api(`/api/batch/${id}/errors`)).json()) as Body).errors;
      assert.equal(errors.total, 1);
      assert.deepEqual([errors.data[0].row, errors.data[0].field, errors.data[0].code], [2, 'logo', 'invalid_image']);
      const csv = await (await server.api(`/api/batch/${id}/errors?format=csv`)).text();
      assert.match(csv, /^row,field,code,message\r\n2,logo,invalid_image,/);
    } finally {
      await server.close();
    }
  });
});

describe('the expiry sweeper on two instances', { skip }, () => {
  it('run at the same moment, one sweeps: each expired document expired once, its object removed, no error', async () => {
    const url = await (cluster as PgCluster).createDatabase();
    const server = await startTestServer({}, { env: teamEnv(url) });
    const instances: { services: Services; repos: PgRepositories; lines: string[] }[] = [];
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const template = await createInvoiceTemplate(server);
      const ids: number[] = [];
      for (let i = 0; i < 12; i++) {
        const { status, body } = await createDocument(server, { template_id: template.uuid, data: JSON.stringify(INVOICE_DATA) });
        assert.equal(status, 201);
        ids.push(body.document.id as number);
      }
      // Their time has come (as if the minutes had passed).
      await db.query(`UPDATE documents SET record = jsonb_set(record, '{expires_at}', to_jsonb($1::text))`, [new Date(Date.now() - 1000).toISOString()]);
      // Two more instances on the same database and bucket, their sweepers run together.
      for (let i = 0; i < 2; i++) {
        const config = loadConfig(teamEnv(url), { dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-sweep-')), renderWorkers: 0, seedSamples: false });
        const repos = await openPgRepositories(url, { cacheDir });
        const lines: string[] = [];
        const logger = { error: (l: string) => lines.push(`error: ${l}`), info: (l: string) => lines.push(l), debug: () => undefined };
        const services = await createServices({ config, team: { repos, files: s3FileStore(config.s3!) }, logger, baseUrl: () => 'http://127.0.0.1:1' });
        instances.push({ services, repos, lines });
      }
      const swept = await Promise.all(instances.map((x) => x.services.sweeper.runOnce()));
      assert.deepEqual([...swept].sort((x, y) => x - y), [0, ids.length], `swept ${JSON.stringify(swept)}`);
      const { rows } = await db.query<{ expired: number }>('SELECT expired FROM documents ORDER BY id');
      assert.deepEqual(rows.map((r) => r.expired), ids.map(() => 1));
      const left = fs.existsSync(path.join(s3.directory, 'docloom-queue', 'documents'))
        ? fs.readdirSync(path.join(s3.directory, 'docloom-queue', 'documents'), { recursive: true }).filter((f) => String(f).includes('output.pdf') && !String(f).includes('._S3rver'))
        : [];
      assert.deepEqual(left, []);
      for (const x of instances) assert.deepEqual(x.lines.filter((l) => l.startsWith('error') || l.includes('sweeper: Error')), []);
      // The next round, nothing is due any more: neither sweeps anything.
      assert.deepEqual(await Promise.all(instances.map((x) => x.services.sweeper.runOnce())), [0, 0]);
    } finally {
      for (const x of instances) {
        await x.services.close();
        await x.repos.close();
      }
      await db.end();
      await server.close();
    }
  });
});
