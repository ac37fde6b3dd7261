/**
 * The team server's caches of tokens and templates as a client sees them (docs/team-server.md, "Caches"): two
 * `docloom serve` processes (dist/) on one throwaway PostgreSQL database and one s3rver bucket.
 * - a token revoked through A is refused by B: at once for a document's create, within the notification's delay
 *   for a read;
 * - a token deleted with nobody notified (the trigger off: what a lost notification leaves) still reads on B until
 *   the TTL, but B refuses every write with it at once — a document's create (checked in its enqueue statement) and
 *   a template upload (checked on a fresh read);
 * - a template updated through A renders its new version on B at once; one changed unheard is read again by B's
 *   create (its output file name follows the new name); one deleted through A, or unheard, is 422 on B.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import pg from 'pg';
import { BUILT, type ServeChild } from '../../scripts/lib/serve-child.js';
import { unheard, within } from '../helpers/unheard.js';
import { startPgCluster, type PgCluster } from '../helpers/pg-cluster.js';
import { startS3Server } from '../helpers/s3-server.js';
import { startTeamPair, stopTeamPair, type TeamPair } from '../helpers/team-pair.js';
import { pdfText } from '../helpers/pdf.js';

const BUCKET = 'docloom-caches';
/** store/pg/caches.ts CACHE_TTL_MS, with room for a loaded machine. */
const TTL_BOUND_MS = 5_000 + 3_000;

const cluster = BUILT ? await startPgCluster() : 'dist/server is not built (npm run build:server)';
const skip = typeof cluster === 'string' ? `not run: ${cluster}` : undefined;
const s3 = await startS3Server([BUCKET]);
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-caches-serve-'));

const template = (text: string): string =>
  JSON.stringify({ docloom: 1, page: { size: 'A4', margins: '20mm' }, body: [{ type: 'paragraph', runs: [`${text} {{number}}`] }] });

let pair: TeamPair | undefined;
let db: pg.Client;
let a: ServeChild;
let b: ServeChild;
let admin: { authorization: string };
let uuid: string;

before(async () => {
  if (skip) return;
  pair = await startTeamPair({
    cluster: cluster as PgCluster, s3, bucket: BUCKET, temp, leaseMs: 30_000, tokenName: 'caches test', template: { name: 'invoice.json', json: template('Invoice') },
  });
  ({ a, b, db, uuid } = pair);
  admin = pair.auth;
});

after(async () => {
  await stopTeamPair(pair);
  if (typeof cluster !== 'string') await cluster.stop();
  await s3.stop();
  fs.rmSync(temp, { recursive: true, force: true });
});

/** A new API token made through A: its bearer and id. */
async function newToken(name: string): Promise<{ auth: { authorization: string }; id: number }> {
  const res = await fetch(`${a.url}/api/tokens`, { method: 'POST', headers: admin, body: new URLSearchParams({ name }) });
  const body = (await res.json()) as { token: string; id: number };
  assert.equal(res.status, 201, JSON.stringify(body));
  return { auth: { authorization: `Bearer ${body.token}` }, id: body.id };
}

function create(target: ServeChild, auth: { authorization: string }, number: string, templateId = uuid): Promise<Response> {
  return fetch(`${target.url}/api/document`, { method: 'POST', headers: auth, body: new URLSearchParams({ template_id: templateId, data: JSON.stringify({ number }) }) });
}

async function created(target: ServeChild, auth: { authorization: string }, number: string, templateId = uuid): Promise<{ id: number; output_filename: string; pdf: string }> {
  const res = await create(target, auth, number, templateId);
  const body = (await res.json()) as { document: { id: number; status: string; output_filename: string } };
  assert.equal(res.status, 201, JSON.stringify(body));
  assert.equal(body.document.status, 'completed');
  const pdf = await fetch(`${target.url}/api/document/${body.document.id}/download`, { headers: admin });
  assert.equal(pdf.status, 200);
  return { id: body.document.id, output_filename: body.document.output_filename, pdf: pdfText(Buffer.from(await pdf.arrayBuffer())) };
}

const read = (target: ServeChild, auth: { authorization: string }) => fetch(`${target.url}/api/document?per_page=1`, { headers: auth }).then((r) => r.status);



it('a token revoked through A: B refuses its create at once and its reads once notified', { skip, timeout: 60_000 }, async (ctx) => {
  const victim = await newToken('revoked through A');
  // B knows the token (kept in its cache by these).
  await created(b, victim.auth, 'WARM-1');
  assert.equal(await read(b, victim.auth), 200);
  const revoke = await fetch(`${a.url}/api/tokens/${victim.id}`, { method: 'DELETE', headers: admin });
  assert.equal(revoke.status, 200);
  const res = await create(b, victim.auth, 'AFTER-REVOKE');
  assert.equal(res.status, 401, await res.text());
  const ms = await within(2_000, 'B still reads with the revoked token', async () => (await read(b, victim.auth)) === 401);
  ctx.diagnostic(`reads refused on B ${ms.toFixed(1)} ms after the create was`);
});

it('a token deleted with nobody notified: B reads with it until the TTL, but refuses every write at once', { skip, timeout: 60_000 }, async () => {
  const victim = await newToken('deleted unheard');
  await created(b, victim.auth, 'WARM-2');
  assert.equal(await read(b, victim.auth), 200);
  const before = (await db.query('SELECT count(*)::int AS n FROM documents')).rows[0].n as number;
  await unheard(db, 'DELETE FROM tokens WHERE id = $1', [victim.id]);
  // The read side's window: answered from B's copy.
  assert.equal(await read(b, victim.auth), 200, 'B answers the read from its cache (the window the TTL bounds)');
  const res = await create(b, victim.auth, 'UNHEARD');
  assert.equal(res.status, 401, await res.text());
  assert.equal(res.headers.get('www-authenticate'), 'Bearer');
  const form = new FormData();
  form.append('file', new Blob([template('Other')]), 'other.json');
  const upload = await fetch(`${b.url}/api/template`, { method: 'POST', body: form, headers: victim.auth });
  assert.equal(upload.status, 401, 'a template upload reads the token fresh');
  assert.equal((await db.query('SELECT count(*)::int AS n FROM documents')).rows[0].n, before, 'nothing stored');
  await within(TTL_BOUND_MS, 'B still reads past the TTL', async () => (await read(b, victim.auth)) === 401);
});

it('a template updated through A renders its new version on B at once; deleted, it is refused', { skip, timeout: 60_000 }, async () => {
  assert.match((await created(b, admin, 'T-1')).pdf, /Invoice T-1/);
  const form = new FormData();
  form.append('file', new Blob([template('Bill')]), 'invoice.json');
  const put = await fetch(`${a.url}/api/template/${uuid}`, { method: 'PUT', body: form, headers: admin });
  assert.equal(put.status, 200, await put.text());
  assert.match((await created(b, admin, 'T-2')).pdf, /Bill T-2/, 'the version the update answered, not the cached one');

  // Renamed with nobody notified: B's cached record is refused by the enqueue's guard and read again.
  await unheard(db, `UPDATE templates SET record = jsonb_set(record, '{name}', '"Renamed unheard"') WHERE uuid = $1`, [uuid]);
  assert.equal((await created(b, admin, 'T-3')).output_filename, 'Renamed unheard.pdf');

  // A second template, deleted through A, and a third deleted unheard: 422 on B, nothing stored.
  const upload = async (name: string) => {
    const f = new FormData();
    f.append('file', new Blob([template(name)]), `${name}.json`);
    const res = await fetch(`${a.url}/api/template`, { method: 'POST', body: f, headers: admin });
    return ((await res.json()) as { template: { uuid: string } }).template.uuid;
  };
  const before = (await db.query('SELECT count(*)::int AS n FROM documents')).rows[0].n as number;
  for (const how of ['through A', 'unheard']) {
    const doomed = await upload(`Doomed-${how.replace(' ', '-')}`);
    await created(b, admin, 'D-1', doomed);
    if (how === 'through A') assert.equal((await fetch(`${a.url}/api/template/${doomed}`, { method: 'DELETE', headers: admin })).status, 200);
    else await unheard(db, 'DELETE FROM templates WHERE uuid = $1', [doomed]);
    const res = await create(b, admin, 'D-2', doomed);
    const body = (await res.json()) as { errors?: Record<string, string[]> };
    assert.equal(res.status, 422, JSON.stringify(body));
    assert.deepEqual(body.errors?.template_id, ['The selected template id is invalid.']);
  }
  assert.equal((await db.query('SELECT count(*)::int AS n FROM documents')).rows[0].n, before + 2, 'only the two warm-up documents');
});
