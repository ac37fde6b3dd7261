/**
 * A synchronous create rendered where it was accepted (docs/team-server.md, "Render queue"): two `docloom serve`
 * processes (dist/) on one throwaway PostgreSQL database and one s3rver bucket.
 * - On an idle instance the document's job row is born leased to the accepting instance (claim 1) and is never
 *   claimed — by it or by the other instance: triggers log every insert of a job and every change of its claim.
 * - An instance killed -9 while it renders such a document (held up by its image, a loopback server that answers
 *   only once told to): the other instance takes the job over once the lease runs out (claim 2) and the document
 *   is completed exactly once (a trigger counts the writes), its object in the bucket, its job gone.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import pg from 'pg';
import { BUILT, type ServeChild } from '../../scripts/lib/serve-child.js';
import { startPgCluster, type PgCluster } from '../helpers/pg-cluster.js';
import { startS3Server } from '../helpers/s3-server.js';
import { startTeamPair, stopTeamPair, type TeamPair } from '../helpers/team-pair.js';
import { pdfText } from '../helpers/pdf.js';
import { makePng } from '../net/images.js';

const BUCKET = 'docloom-local-render';
const LEASE_MS = 1_500;

const cluster = BUILT ? await startPgCluster() : 'dist/server is not built (npm run build:server)';
const skip = typeof cluster === 'string' ? `not run: ${cluster}` : undefined;
const s3 = await startS3Server([BUCKET]);
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-local-render-'));

// The image: answered at once, except `/held/…` requests, which wait until `letThrough` is called.
const png = makePng(40, 20);
let heldRequests = 0;
let waiting: (() => void)[] = [];
let gateOpen = false;
const letThrough = () => {
  gateOpen = true;
  for (const go of waiting) go();
  waiting = [];
};
const images = http.createServer((req, res) => {
  const answer = () => res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
  if (!req.url?.startsWith('/held/') || gateOpen) return answer();
  heldRequests++;
  waiting.push(answer);
});
await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
const imageBase = `http://127.0.0.1:${(images.address() as { port: number }).port}`;

const TEMPLATE = JSON.stringify({
  docloom: 1,
  page: { size: 'A4', margins: '20mm' },
  body: [{ type: 'paragraph', runs: ['Invoice {{number}}'] }, { type: 'image', src: '{{%logo}}' }],
});

let pair: TeamPair | undefined;
let db: pg.Client;
let a: ServeChild;
let b: ServeChild;
let auth: { authorization: string };
let uuid: string;

before(async () => {
  if (skip) return;
  pair = await startTeamPair({
    cluster: cluster as PgCluster, s3, bucket: BUCKET, temp, leaseMs: LEASE_MS, tokenName: 'local render test', template: { name: 'logo-invoice.json', json: TEMPLATE },
  });
  ({ a, b, auth, uuid, db } = pair);
  // Every job row inserted, and every change of a row's claim (attempt), as the database saw them.
  await db.query(`
    CREATE TABLE job_log (document_id bigint NOT NULL, op text NOT NULL, attempt integer NOT NULL, leased_by text, leased boolean NOT NULL);
    CREATE FUNCTION log_job() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN INSERT INTO job_log VALUES (NEW.document_id, TG_OP, NEW.attempt, NEW.leased_by, NEW.lease_until IS NOT NULL); RETURN NEW; END $$;
    CREATE TRIGGER log_job_insert AFTER INSERT ON render_jobs FOR EACH ROW EXECUTE FUNCTION log_job();
    CREATE TRIGGER log_job_claim AFTER UPDATE ON render_jobs FOR EACH ROW
      WHEN (OLD.attempt IS DISTINCT FROM NEW.attempt) EXECUTE FUNCTION log_job();
    CREATE TABLE completions (id bigint NOT NULL);
    CREATE FUNCTION count_completion() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN INSERT INTO completions VALUES (NEW.id); RETURN NEW; END $$;
    CREATE TRIGGER count_completion AFTER UPDATE ON documents FOR EACH ROW
      WHEN (NEW.record->>'status' = 'completed') EXECUTE FUNCTION count_completion();`);
});

after(async () => {
  letThrough();
  await stopTeamPair(pair);
  if (typeof cluster !== 'string') await cluster.stop();
  await s3.stop();
  images.close();
  fs.rmSync(temp, { recursive: true, force: true });
});

/** The name an instance gives itself in `leased_by` (services/index.ts: host and pid). */
const instanceName = (s: ServeChild): string => `${os.hostname()}:${s.child.pid}`;

function create(target: ServeChild, number: string, logo: string): Promise<Response> {
  return fetch(`${target.url}/api/document`, {
    method: 'POST',
    headers: auth,
    body: new URLSearchParams({ template_id: uuid, data: JSON.stringify({ number, logo }) }),
  });
}

const jobLog = async (id: number) =>
  (await db.query<{ op: string; attempt: number; leased_by: string | null; leased: boolean }>('SELECT op, attempt, leased_by, leased FROM job_log WHERE document_id = $1', [id])).rows;

async function until<T>(what: string, look: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const found = await look();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

it('an idle instance renders its synchronous documents itself: each job is born leased to it (claim 1) and never claimed', { skip, timeout: 120_000 }, async () => {
  for (let n = 1; n <= 5; n++) {
    const res = await create(a, `LOCAL-${n}`, `${imageBase}/logo-${n}.png`);
    const body = (await res.json()) as { document: { id: number; status: string; cloud_id: string } };
    assert.equal(res.status, 201, JSON.stringify(body));
    assert.equal(body.document.status, 'completed');
    assert.equal(body.document.cloud_id, `documents/${body.document.id}/output.pdf`);
    assert.deepEqual(await jobLog(body.document.id), [{ op: 'INSERT', attempt: 1, leased_by: instanceName(a), leased: true }], `document ${body.document.id}'s job`);
    const pdf = await fetch(`${b.url}/api/document/${body.document.id}/download`, { headers: auth });
    assert.equal(pdf.status, 200);
    assert.match(pdfText(Buffer.from(await pdf.arrayBuffer())), new RegExp(`Invoice LOCAL-${n}`));
  }
  assert.equal((await db.query('SELECT count(*)::int AS n FROM render_jobs')).rows[0].n, 0);
});

it('an instance killed -9 during a local render: the other takes the job over after the lease and completes it exactly once', { skip, timeout: 120_000 }, async () => {
  const answer = create(a, 'HELD-1', `${imageBase}/held/logo.png`).then(
    (res) => res.status,
    () => 'connection dropped',
  );
  // A's render is waiting for the image: its job is in the database, leased to A.
  await until('A to render the held document', async () => (heldRequests > 0 ? true : undefined));
  const id = await until('the held document', async () =>
    (await db.query<{ id: number }>(`SELECT id FROM documents WHERE record->>'output_filename' IS NOT NULL ORDER BY id DESC LIMIT 1`)).rows[0]?.id,
  );
  assert.deepEqual(await jobLog(id), [{ op: 'INSERT', attempt: 1, leased_by: instanceName(a), leased: true }]);
  a.child.kill('SIGKILL');
  await a.exited;
  assert.equal(await answer, 'connection dropped');
  letThrough();

  const status = await until('the document to complete on B', async () => {
    const s = (await db.query<{ status: string }>('SELECT status FROM documents WHERE id = $1', [id])).rows[0]?.status;
    return s === 'completed' || s === 'failed' ? s : undefined;
  });
  assert.equal(status, 'completed');
  assert.deepEqual(
    (await jobLog(id)).map((r) => [r.op, r.attempt, r.leased_by]),
    [['INSERT', 1, instanceName(a)], ['UPDATE', 2, instanceName(b)]],
    'claim 1 by A at the insert, claim 2 by B after the lease ran out',
  );
  assert.equal((await db.query('SELECT count(*)::int AS n FROM completions WHERE id = $1', [id])).rows[0].n, 1, 'completed exactly once');
  assert.equal((await db.query('SELECT count(*)::int AS n FROM render_jobs')).rows[0].n, 0);
  assert.ok(b.lines.some((l) => l.includes(`took over document ${id} (claim 2`)), b.lines.join('\n'));
  const pdf = await fetch(`${b.url}/api/document/${id}/download`, { headers: auth });
  assert.equal(pdf.status, 200);
  assert.match(pdfText(Buffer.from(await pdf.arrayBuffer())), /Invoice HELD-1/);
  assert.ok(fs.existsSync(path.join(s3.directory, BUCKET, 'documents', String(id), 'output.pdf._S3rver_object')), 'its object is in the bucket');
});
