/**
 * Issue #16's "Done when": two `docloom serve` processes (the built dist/, as deployed) on one PostgreSQL database
 * and one S3 bucket (this file's own throwaway cluster and s3rver on loopback). 8 clients create 500 documents
 * through both, sync and async=1; halfway, one instance is killed with SIGKILL while it holds claimed jobs. Then:
 * every acknowledged document (2xx answered) is `completed`, its record written completed exactly once (a trigger
 * counts the writes), readable and downloadable through the survivor, `cloud_url` the same bytes as
 * `download_url`, `cloud_id` an object in the bucket; the killed instance's claimed jobs were taken over once their
 * lease (DOCLOOM_QUEUE_LEASE_MS) ran out; after deleting every document, no row (documents, render_jobs) and no
 * object is left. Skipped, saying why, where dist/ is not built or PostgreSQL is absent.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import pg from 'pg';
import { BUILT, startServe, type ServeChild } from '../../scripts/lib/serve-child.js';
import { openPgRepositories } from '../../server/store/pg/index.js';
import { TokenAccess } from '../../server/services/token-access.js';
import { startPgCluster, type PgCluster } from '../helpers/pg-cluster.js';
import { startS3Server } from '../helpers/s3-server.js';
import { pdfText } from '../helpers/pdf.js';
import { INVOICE_LINES, jsonTemplate, type Body } from '../service/support.js';

const DOCUMENTS = 500;
const CLIENTS = 8;
const LEASE_MS = 1500;
const BUCKET = 'docloom-kill';

const cluster = BUILT ? await startPgCluster() : 'dist/server is not built (npm run build:server)';
const skip = typeof cluster === 'string' ? `not run: ${cluster}` : undefined;
const s3 = await startS3Server([BUCKET]);
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-kill-'));

after(async () => {
  if (typeof cluster !== 'string') await cluster.stop();
  await s3.stop();
  fs.rmSync(temp, { recursive: true, force: true });
});

/** Every object in the bucket. */
const objects = () => s3.objects(BUCKET);

async function bytes(url: string, headers: Record<string, string> = {}): Promise<Buffer> {
  const res = await fetch(url, { headers });
  assert.equal(res.status, 200, `GET ${url} → ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

it('2 instances, 500 documents from 8 clients, one killed -9 halfway: every acknowledged document completed once; nothing left after deleting', { skip, timeout: 300_000 }, async () => {
  const started = Date.now();
  const url = await (cluster as PgCluster).createDatabase();
  const env = {
    DOCLOOM_DATABASE_URL: url,
    ...s3.serveEnv(BUCKET),
    DOCLOOM_QUEUE_LEASE_MS: String(LEASE_MS),
  };
  const instances: ServeChild[] = await Promise.all(['a', 'b'].map((n) => startServe(path.join(temp, n), env)));
  const [survivor, victim] = instances;
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    // Every write that leaves a record `completed`, counted by the database itself.
    await db.query(`
      CREATE TABLE completions (id bigint NOT NULL);
      CREATE FUNCTION count_completion() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN INSERT INTO completions VALUES (NEW.id); RETURN NEW; END $$;
      CREATE TRIGGER count_completion AFTER UPDATE ON documents FOR EACH ROW
        WHEN (NEW.record->>'status' = 'completed') EXECUTE FUNCTION count_completion();`);
    const repos = await openPgRepositories(url, { cacheDir: path.join(temp, 'cache') });
    const { token } = await new TokenAccess(repos.tokens).create('kill test', false);
    await repos.close();
    const auth = { authorization: `Bearer ${token}` };
    const form = new FormData();
    form.append('file', new Blob([jsonTemplate(INVOICE_LINES)]), 'invoice.json');
    const upload = (await (await fetch(`${survivor.url}/api/template`, { method: 'POST', body: form, headers: auth })).json()) as Body;
    const uuid = upload.template.uuid as string;

    const acknowledged = new Map<number, { n: number; async: boolean; via: string }>();
    let next = 0;
    let killed = false;
    let refused = 0;
    const victimPid = victim.child.pid!;
    const client = async (c: number): Promise<void> => {
      for (let n = next++; n < DOCUMENTS; n = next++) {
        // Clients alternate between the instances; once one is dead, the survivor takes every request.
        const target = killed || (c + n) % 2 === 0 ? survivor : victim;
        const isAsync = n % 3 !== 0;
        const data = { number: `INV-${n}`, customer: { name: `Client ${c}` }, items: [{ description: 'Line', amount: n }] };
        try {
          const res = await fetch(`${target.url}/api/document`, {
            method: 'POST',
            headers: auth,
            body: new URLSearchParams({ template_id: uuid, data: JSON.stringify(data), ...(isAsync ? { async: '1' } : {}) }),
          });
          const body = (await res.json()) as Body;
          assert.equal(res.status, isAsync ? 202 : 201, JSON.stringify(body));
          if (!isAsync) assert.equal(body.document.status, 'completed', JSON.stringify(body));
          acknowledged.set(body.document.id as number, { n, async: isAsync, via: target === survivor ? 'survivor' : 'victim' });
        } catch (err) {
          // Only a request to the killed instance may go unanswered.
          if (target !== victim || !killed) throw err;
          refused++;
        }
      }
    };
    const killer = (async () => {
      while (acknowledged.size < DOCUMENTS / 2) await new Promise((r) => setTimeout(r, 5));
      // Killed while it holds claimed jobs (leased to it, rendering): those must be taken over.
      for (const until = Date.now() + 20_000; Date.now() < until; ) {
        const { rowCount } = await db.query(`SELECT 1 FROM render_jobs WHERE leased_by LIKE $1 AND lease_until > now()`, [`%:${victimPid}`]);
        if ((rowCount ?? 0) > 0) break;
        await new Promise((r) => setTimeout(r, 2));
      }
      killed = true;
      victim.child.kill('SIGKILL');
      await victim.exited;
      // Read once it is dead: a job it finished between the look above and the kill is its own, not held.
      return (await db.query<{ id: number }>(`SELECT document_id::int AS id FROM render_jobs WHERE leased_by LIKE $1`, [`%:${victimPid}`])).rows.map((r) => r.id);
    })();
    await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    const heldAtKill = await killer;
    const createdMs = Date.now() - started;

    // Everything accepted finishes: the victim's claimed jobs once their lease ran out.
    for (const until = Date.now() + 60_000; ; ) {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM render_jobs');
      if (rows[0].n === 0) break;
      assert.ok(Date.now() < until, `${rows[0].n} job(s) still queued 60 s after the last create`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const takenOver = () => survivor.lines.filter((l) => /queue: took over document \d+/.test(l)).map((l) => Number(/document (\d+)/.exec(l)![1]));
    // The survivor's log reaches this process through a pipe, maybe after the database already shows the outcome.
    for (const until = Date.now() + 5_000; heldAtKill.some((id) => !takenOver().includes(id)) && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
    const tookOver = takenOver();
    assert.ok(heldAtKill.length > 0, 'the victim held claimed jobs when it was killed');
    for (const id of heldAtKill) assert.ok(tookOver.includes(id), `document ${id}, claimed by the killed instance, taken over by the survivor: ${survivor.lines.join('\n')}`);

    assert.ok(acknowledged.size >= DOCUMENTS - CLIENTS, `${acknowledged.size} acknowledged`);
    const counts = new Map((await db.query<{ id: number; n: number }>('SELECT id::int AS id, count(*)::int AS n FROM completions GROUP BY id')).rows.map((r) => [r.id, r.n]));
    const inBucket = new Set(objects());
    for (const [id, made] of acknowledged) {
      const doc = ((await (await fetch(`${survivor.url}/api/document/${id}`, { headers: auth })).json()) as Body).document as Body;
      assert.equal(doc.status, 'completed', `document ${id} (${JSON.stringify(made)}): ${JSON.stringify(doc)}`);
      assert.equal(counts.get(id), 1, `document ${id} written completed ${counts.get(id)} times`);
      assert.equal(doc.cloud_id, `documents/${id}/output.pdf`);
      assert.ok(inBucket.has(doc.cloud_id as string), `object ${doc.cloud_id} in the bucket`);
      const viaService = await bytes(`${survivor.url}/api/document/${id}/download`, auth);
      assert.equal(viaService.length, doc.size);
      assert.deepEqual(await bytes(doc.cloud_url as string), viaService, `document ${id}: cloud_url and download_url`);
      if (tookOver.includes(id)) assert.match(pdfText(viaService), new RegExp(`Invoice INV-${made.n}\\b`));
    }
    // One object per document: no copy under another key, none for a document that is not there.
    const { rows: all } = await db.query<{ id: number }>('SELECT id::int AS id FROM documents ORDER BY id');
    assert.deepEqual([...inBucket].sort(), all.map((r) => `documents/${r.id}/output.pdf`).sort());

    // Deleting every document (the acknowledged ones and any the killed instance accepted without answering).
    for (const { id } of all) assert.equal((await fetch(`${survivor.url}/api/document/${id}`, { method: 'DELETE', headers: auth })).status, 200);
    const left = await db.query<{ documents: number; jobs: number }>('SELECT (SELECT count(*)::int FROM documents) AS documents, (SELECT count(*)::int FROM render_jobs) AS jobs');
    assert.deepEqual(left.rows[0], { documents: 0, jobs: 0 });
    assert.deepEqual(objects(), []);
    assert.deepEqual(survivor.lines.filter((l) => /error|Error/.test(l) && !/took over/.test(l)), []);
    console.log(
      `kill test: ${acknowledged.size} acknowledged (${refused} unanswered by the killed instance), ${heldAtKill.length} claimed jobs taken over; ` +
        `creates ${createdMs} ms, whole test ${Date.now() - started} ms; load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    );
  } finally {
    for (const s of instances) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    await Promise.all(instances.map((s) => s.exited));
    await db.end();
  }
});
