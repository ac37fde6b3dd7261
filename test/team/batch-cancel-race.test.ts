/**
 * A cancel racing a batch's completion on the team server (docs/team-server.md, "Batches on the team server"). Two
 * in-process instances on one throwaway PostgreSQL database and one s3rver bucket; many 2-row batches made through
 * one, each cancelled through the other at a moment picked by watching the database: while its last row renders,
 * once every row is done but before the holder ends the batch, or earlier while rows are still to come.
 *
 * The invariant, checked on the records once each batch has settled: a batch is either completed or cancelled,
 * never a mix — `cancelled` leaves at least one row without a document (a cancel that finds every row with one has
 * nothing to stop, and the batch completes); `completed` has a finished document for every row and counters that
 * add up to the total; the cancel's answer says `cancelled` exactly when the batch ends cancelled. Before the
 * cancel and the completion were conditional statements under the batch's row lock, a cancel landing after the last
 * row was made left `cancelled` over every row done.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import pg from 'pg';
import { startPgCluster, type PgCluster } from '../helpers/pg-cluster.js';
import { startS3Server } from '../helpers/s3-server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { INVOICE_DATA, INVOICE_LINES, jsonTemplate, uploadTemplate, type Body } from '../service/support.js';

const BUCKET = 'docloom-cancel-race';
const ITERATIONS = 36;
const ROWS = 2;
const cluster = await startPgCluster();
const skip = typeof cluster === 'string' ? `PostgreSQL not available: ${cluster}` : undefined;
const s3 = await startS3Server([BUCKET]);
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-cancel-race-'));

after(async () => {
  if (typeof cluster !== 'string') await cluster.stop();
  await s3.stop();
  fs.rmSync(temp, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** When the cancel is fired, by what the database shows of the batch. */
type Moment = 'last row rendering' | 'every row done, batch not ended' | 'rows still to come';
const MOMENTS: Moment[] = ['last row rendering', 'every row done, batch not ended', 'rows still to come'];

interface Snapshot {
  status: string;
  total: number;
  done: number;
  failed: number;
  /** Documents of the batch by state. */
  made: number;
  finished: number;
  waiting: number;
}

async function snapshot(db: pg.Client, id: number): Promise<Snapshot> {
  const { rows } = await db.query<Snapshot>(
    `SELECT b.status, (b.record->>'total')::int AS total, (b.record->>'done')::int AS done, (b.record->>'failed')::int AS failed,
            (SELECT count(*)::int FROM documents d WHERE d.batch_id = b.id) AS made,
            (SELECT count(*)::int FROM documents d WHERE d.batch_id = b.id AND d.status IN ('completed', 'failed')) AS finished,
            (SELECT count(*)::int FROM documents d WHERE d.batch_id = b.id AND d.status IN ('pending', 'processing')) AS waiting
     FROM batches b WHERE b.id = $1`,
    [id],
  );
  return rows[0];
}

function reached(moment: Moment, s: Snapshot): boolean {
  if (s.status !== 'processing') return false;
  if (moment === 'last row rendering') return s.made === s.total && s.waiting > 0 && s.finished === s.total - 1;
  if (moment === 'every row done, batch not ended') return s.finished === s.total;
  return s.made < s.total;
}

it(`${ITERATIONS} batches each cancelled through another instance as its last row completes: completed or cancelled, never a mix`, { skip, timeout: 300_000 }, async () => {
  const url = await (cluster as PgCluster).createDatabase();
  const env = { DOCLOOM_DATABASE_URL: url, ...s3.serveEnv(BUCKET), DOCLOOM_QUEUE_LEASE_MS: '2000' };
  const a: TestServer = await startTestServer({ dataDir: path.join(temp, 'a') }, { env });
  const b: TestServer = await startTestServer({ dataDir: path.join(temp, 'b') }, { env });
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const seen = new Map<string, number>();
  try {
    const template = await uploadTemplate(a, { name: 'invoice.json', bytes: jsonTemplate(INVOICE_LINES) }, { name: 'Invoice' });
    assert.equal(template.status, 201);
    const data = JSON.stringify(Array.from({ length: ROWS }, (_, i) => ({ ...INVOICE_DATA, number: `INV-${i}` })));
    for (let i = 0; i < ITERATIONS; i++) {
      const moment = MOMENTS[i % MOMENTS.length];
      const made = await a.api('/api/batch', { method: 'POST', body: new URLSearchParams({ template_id: template.body.template.uuid, data }) });
      const body = (await made.json()) as Body;
      assert.equal(made.status, 202, JSON.stringify(body) + a.logs.join("\n"));
      const id = body.batch.id as number;
      // Watch the database until the moment (or the batch ended without it: a cancel then finds nothing to stop).
      let at: Snapshot;
      for (const end = Date.now() + 20_000; ; ) {
        at = await snapshot(db, id);
        if (reached(moment, at) || (at.status !== 'queued' && at.status !== 'processing')) break;
        assert.ok(Date.now() < end, `batch ${id} never reached "${moment}": ${JSON.stringify(at)}`);
      }
      const hit = reached(moment, at);
      const cancel = await b.api(`/api/batch/${id}/cancel`, { method: 'POST' });
      assert.equal(cancel.status, 200);
      const answered = ((await cancel.json()) as Body).batch.status as string;
      // Settled: ended, no row waiting (rows rendering when a cancel came finish), the holder gone.
      let final: Snapshot;
      for (const end = Date.now() + 20_000; ; await sleep(20)) {
        final = await snapshot(db, id);
        if (final.status !== 'queued' && final.status !== 'processing' && final.waiting === 0) break;
        assert.ok(Date.now() < end, `batch ${id} never settled: ${JSON.stringify(final)}`);
      }
      const label = `batch ${id}, cancel at "${moment}" (${hit ? 'reached' : 'ended before'}), answered ${answered}: ${JSON.stringify(final)}`;
      assert.ok(final.status === 'completed' || final.status === 'cancelled', label);
      if (final.status === 'cancelled') {
        assert.ok(final.made < final.total, `cancelled over every row made — ${label}`);
        assert.equal(answered, 'cancelled', label);
      } else {
        assert.equal(final.finished, final.total, `completed with rows a cancel dropped — ${label}`);
        assert.equal(final.done + final.failed, final.total, label);
        assert.notEqual(answered, 'cancelled', `answered cancelled, ended completed — ${label}`);
      }
      const key = `${moment}${hit ? '' : ' (missed)'} → ${final.status}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
  } finally {
    await db.end();
    await Promise.all([a.close(), b.close()]);
  }
  // The race was run, not only the easy cases: cancels landed after every row was made yet before the batch ended.
  const raced = (seen.get('last row rendering → completed') ?? 0) + (seen.get('every row done, batch not ended → completed') ?? 0);
  assert.ok(raced >= ITERATIONS / 6, `cancels at the completion: ${JSON.stringify([...seen])}`);
  assert.ok((seen.get('rows still to come → cancelled') ?? 0) >= 1, `a cancel with rows to stop still cancels: ${JSON.stringify([...seen])}`);
  console.log(`moments: ${JSON.stringify(Object.fromEntries(seen))}`);
});
