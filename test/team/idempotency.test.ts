/**
 * An Idempotency-Key running on one instance is running on every instance (issue #16): two `docloom serve`
 * processes (the built dist/) on one throwaway PostgreSQL database and one s3rver bucket. A document's render is
 * held up by its image (a loopback server answering it after a pause), so two requests with one key really run
 * at the same time. Then:
 *
 * - the same key sent to both instances at once makes exactly one document, and the two answers are those of the
 *   same key sent twice at once to one instance (CONTRACT.md §6): one 201, one 409 `conflict`; the key sent again to
 *   either instance answers the first document again;
 * - a key whose instance is killed -9 while running it answers 409 on the other instance until the dead claim's
 *   lease (DOCLOOM_QUEUE_LEASE_MS) runs out, and then is run there — it does not block forever.
 *
 * Skipped, saying why, where dist/ is not built or PostgreSQL is absent.
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
import { makePng } from '../net/images.js';

const BUCKET = 'docloom-idempotency';
/** Long enough for two requests sent together to overlap however busy the machine is. */
const IMAGE_PAUSE_MS = 2_000;
const LEASE_MS = 3_000;

const cluster = BUILT ? await startPgCluster() : 'dist/server is not built (npm run build:server)';
const skip = typeof cluster === 'string' ? `not run: ${cluster}` : undefined;
const s3 = await startS3Server([BUCKET]);
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-idem-'));

// The slow image: every request answered with a PNG after IMAGE_PAUSE_MS.
const png = makePng(40, 20);
const images = http.createServer((req, res) => {
  setTimeout(() => res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png), IMAGE_PAUSE_MS).unref();
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
/** The 409 body of a key running on the same instance (the contract), as the first test received it. */
const singleConflictBody = { success: false, message: 'A request with this Idempotency-Key is still being processed; retry when it has finished.' };

before(async () => {
  if (skip) return;
  pair = await startTeamPair({
    cluster: cluster as PgCluster, s3, bucket: BUCKET, temp, leaseMs: LEASE_MS, tokenName: 'idempotency test', template: { name: 'slow-image.json', json: TEMPLATE },
  });
  ({ a, b, auth, uuid, db } = pair);
});

after(async () => {
  await stopTeamPair(pair);
  if (typeof cluster !== 'string') await cluster.stop();
  await s3.stop();
  images.close();
  fs.rmSync(temp, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: { success?: boolean; message?: string; document?: { id: number; status: string } } & Record<string, unknown>;
}

/** A synchronous create with an Idempotency-Key; the image URL is new per `n` (no render thread has it cached). */
async function create(target: ServeChild, key: string, n: number): Promise<Answer> {
  const res = await fetch(`${target.url}/api/document`, {
    method: 'POST',
    headers: { ...auth, 'idempotency-key': key },
    body: new URLSearchParams({ template_id: uuid, data: JSON.stringify({ number: `INV-${n}`, logo: `${imageBase}/logo-${n}.png` }) }),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

const documentCount = async (): Promise<number> => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM documents')).rows[0].n;

/** Two answers to one key sent twice at once: the 201 first, then the other. */
function ordered(answers: Answer[]): [Answer, Answer] {
  const sorted = [...answers].sort((x, y) => x.status - y.status);
  return [sorted[0], sorted[1]];
}

it('the same key to both instances at once: one document, and the answers one instance gives (201 + 409), then the first document again from either', { skip, timeout: 120_000 }, async () => {
  // What one instance answers to the same key sent twice at once: the contract to match.
  const before1 = await documentCount();
  const [single, singleConflict] = ordered(await Promise.all([create(a, 'one-instance', 1), create(a, 'one-instance', 1)]));
  assert.equal(single.status, 201, JSON.stringify(single.body));
  assert.equal(singleConflict.status, 409, JSON.stringify(singleConflict.body));
  assert.deepEqual(singleConflict.body, singleConflictBody);
  assert.equal((await documentCount()) - before1, 1);

  // The same through two instances.
  const before2 = await documentCount();
  const [first, conflict] = ordered(await Promise.all([create(a, 'two-instances', 2), create(b, 'two-instances', 2)]));
  assert.equal(first.status, single.status, JSON.stringify(first.body));
  assert.equal(first.body.document?.status, 'completed');
  assert.equal(conflict.status, singleConflict.status, JSON.stringify(conflict.body));
  assert.deepEqual(conflict.body, singleConflict.body);
  assert.equal((await documentCount()) - before2, 1, 'exactly one document for the key');

  // Once it finished, the key answers the first document again on either instance, making none.
  for (const target of [a, b]) {
    const again = await create(target, 'two-instances', 2);
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.equal(again.body.document?.id, first.body.document?.id);
  }
  assert.equal((await documentCount()) - before2, 1);
  const { rowCount } = await db.query('SELECT 1 FROM idempotency_claims');
  assert.equal(rowCount, 0, 'no claim is left once the requests have answered');
});

it('a key whose instance is killed -9 while running it: 409 on the other instance until the dead claim lapses, then run there', { skip, timeout: 120_000 }, async () => {
  const running = create(a, 'killed', 3).catch(() => undefined);
  // Killed while it holds the key's claim (its render waits on the image).
  for (const until = Date.now() + 20_000; ; ) {
    const { rowCount } = await db.query(`SELECT 1 FROM idempotency_claims WHERE key LIKE '%:killed'`);
    if (rowCount) break;
    assert.ok(Date.now() < until, 'the key was never claimed');
    await new Promise((r) => setTimeout(r, 10));
  }
  a.child.kill('SIGKILL');
  await a.exited;
  await running;

  const blocked = await create(b, 'killed', 3);
  assert.equal(blocked.status, 409, `the dead instance's claim still holds: ${JSON.stringify(blocked.body)}`);
  assert.deepEqual(blocked.body, singleConflictBody);

  let answer = blocked;
  for (const until = Date.now() + 60_000; answer.status === 409; ) {
    assert.ok(Date.now() < until, 'the key stayed blocked 60 s after its instance died');
    await new Promise((r) => setTimeout(r, 200));
    answer = await create(b, 'killed', 3);
  }
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  assert.equal(answer.body.document?.status, 'completed');
  // And it is now the key's outcome.
  const again = await create(b, 'killed', 3);
  assert.equal(again.body.document?.id, answer.body.document?.id);
});
