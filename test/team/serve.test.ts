/**
 * `docloom serve` as a team server (docs/team-server.md): records in PostgreSQL (this file's own throwaway cluster,
 * test/helpers/pg-cluster.ts), files in S3-compatible storage (s3rver on loopback, test/helpers/s3-server.ts), the
 * real service over real HTTP. Templates uploaded; documents created (sync and async=1), listed, read, downloaded
 * and deleted; `cloud_id` the object key and `cloud_url` a presigned GET fetching the same bytes as `download_url`;
 * expiry and DELETE remove the object. Then two instances on one database and one bucket behaving as one service.
 * Skipped, saying why, only where the PostgreSQL binaries are absent.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { PG_PASSWORD, startPgCluster, type PgCluster } from '../helpers/pg-cluster.js';
import { S3_SECRET, startS3Server } from '../helpers/s3-server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { pdfText } from '../helpers/pdf.js';
import { INVOICE_DATA, createDocument, createInvoiceTemplate, json, type Body } from '../service/support.js';

const cluster = await startPgCluster();
const skip = typeof cluster === 'string' ? `PostgreSQL not available: ${cluster}` : undefined;
const s3 = await startS3Server(['docloom-team']);

after(async () => {
  if (typeof cluster !== 'string') await cluster.stop();
  await s3.stop();
});

/** The variables a team instance is started with (as `docloom serve` reads them). */
function teamEnv(databaseUrl: string, withS3: boolean): NodeJS.ProcessEnv {
  return {
    DOCLOOM_DATABASE_URL: databaseUrl,
    ...(withS3
      ? {
          DOCLOOM_S3_BUCKET: 'docloom-team',
          DOCLOOM_S3_ENDPOINT: s3.endpoint,
          DOCLOOM_S3_FORCE_PATH_STYLE: 'true',
          DOCLOOM_S3_ACCESS_KEY_ID: 'S3RVER',
          DOCLOOM_S3_SECRET_ACCESS_KEY: S3_SECRET,
        }
      : {}),
  };
}

async function bytesOf(res: Response): Promise<Buffer> {
  assert.equal(res.status, 200, `GET ${res.url} → ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/** Every object s3rver holds in the bucket (it keeps them as files under its directory). */
function objectsInBucket(): string[] {
  const dir = path.join(s3.directory, 'docloom-team');
  if (!fs.existsSync(dir)) return [];
  const walk = (d: string): string[] => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
  return walk(dir).filter((f) => !f.endsWith('._S3rver_metadata.json') && !f.endsWith('._S3rver_object.md5'));
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function completed(s: TestServer, id: number): Promise<Body> {
  return waitFor(`document ${id} completed`, async () => {
    const doc = (await json(await s.api(`/api/document/${id}`))).document as Body;
    return doc.status === 'completed' ? doc : undefined;
  });
}

describe('one team instance: PostgreSQL and S3', { skip }, () => {
  let s: TestServer;
  let db: pg.Client;
  let template: Body;

  before(async () => {
    const url = await (cluster as PgCluster).createDatabase();
    db = new pg.Client({ connectionString: url });
    await db.connect();
    s = await startTestServer({ logLevel: 'info' }, { env: teamEnv(url, true) });
    template = await createInvoiceTemplate(s);
  });
  after(async () => {
    await s?.close();
    await db?.end();
  });

  it('a sync document: 201 completed, cloud_id the object key, cloud_url the same bytes as download_url', async () => {
    const { status, body } = await createDocument(s, { template_id: template.uuid, data: JSON.stringify(INVOICE_DATA) });
    assert.equal(status, 201, JSON.stringify(body));
    const doc = body.document as Body;
    assert.equal(doc.status, 'completed');
    assert.equal(doc.cloud_id, `documents/${doc.id}/output.pdf`);
    assert.ok(doc.cloud_url.startsWith(`${s3.endpoint}/docloom-team/documents/${doc.id}/output.pdf?`), doc.cloud_url);
    assert.match(doc.cloud_url, /X-Amz-Signature=/);
    const viaService = await bytesOf(await fetch(doc.download_url));
    const viaBucket = await bytesOf(await fetch(doc.cloud_url));
    assert.deepEqual(viaBucket, viaService);
    assert.equal(viaService.length, doc.size);
    assert.match(pdfText(viaService), /Invoice INV-0042[\s\S]*Ada Lovelace[\s\S]*Punched cards: 35\.50/);
    // The record is the database's: a row with the document as answered.
    const row = await db.query<{ record: Body }>('SELECT record FROM documents WHERE id = $1', [doc.id]);
    assert.equal(row.rows[0].record.status, 'completed');
    assert.equal(row.rows[0].record.size, doc.size);
    // And the file is the bucket's, not the data folder's.
    assert.ok(objectsInBucket().some((f) => f.includes(`documents/${doc.id}/output.pdf`)), objectsInBucket().join('\n'));
    assert.equal(fs.existsSync(path.join(s.dataDir, 'documents')) && fs.readdirSync(path.join(s.dataDir, 'documents')).length > 0, false);
  });

  it('async=1: 202 pending with no cloud copy yet, then completed with one; listed with cloud fields', async () => {
    const { status, body } = await createDocument(s, { template_id: String(template.id), data: JSON.stringify(INVOICE_DATA), async: '1' });
    assert.equal(status, 202, JSON.stringify(body));
    assert.equal(body.document.status, 'pending');
    assert.equal(body.document.cloud_id, null);
    assert.equal(body.document.cloud_url, '');
    const doc = await completed(s, body.document.id);
    assert.equal(doc.cloud_id, `documents/${doc.id}/output.pdf`);
    assert.deepEqual(await bytesOf(await fetch(doc.cloud_url)), await bytesOf(await s.api(`/api/document/${doc.id}/download`)));
    const list = (await json(await s.api('/api/document'))).documents as Body;
    const item = (list.data as Body[]).find((d) => d.id === doc.id)!;
    assert.equal(item.cloud_id, doc.cloud_id);
    assert.deepEqual(await bytesOf(await fetch(item.cloud_url)), await bytesOf(await fetch(doc.download_url)));
    assert.ok(list.total >= 2);
    assert.deepEqual((list.data as Body[]).map((d) => d.id), [...(list.data as Body[]).map((d) => d.id)].sort((a, b) => b - a), 'newest first');
  });

  it('DELETE removes the record and the object: 404 after, the presigned GET answers 404', async () => {
    const { body } = await createDocument(s, { template_id: template.uuid, data: JSON.stringify(INVOICE_DATA) });
    const doc = body.document as Body;
    await bytesOf(await fetch(doc.cloud_url));
    const del = await s.api(`/api/document/${doc.id}`, { method: 'DELETE' });
    assert.deepEqual(await json(del), { success: true, message: 'Document deleted.' });
    assert.equal((await s.api(`/api/document/${doc.id}`)).status, 404);
    assert.equal((await fetch(doc.cloud_url)).status, 404);
    assert.equal(objectsInBucket().some((f) => f.includes(`documents/${doc.id}/`)), false);
    assert.equal((await db.query('SELECT 1 FROM documents WHERE id = $1', [doc.id])).rowCount, 0);
  });

  it('expiry removes the object: expired 1, no cloud fields, download 410', async () => {
    const { body } = await createDocument(s, { template_id: template.uuid, data: JSON.stringify(INVOICE_DATA) });
    const doc = body.document as Body;
    await bytesOf(await fetch(doc.cloud_url));
    // Its time has come (as if the minutes had passed): the read marks it expired and the object goes.
    await db.query(`UPDATE documents SET record = jsonb_set(record, '{expires_at}', to_jsonb($2::text)) WHERE id = $1`, [doc.id, new Date(Date.now() - 1000).toISOString()]);
    const read = (await json(await s.api(`/api/document/${doc.id}`))).document as Body;
    assert.equal(read.expired, 1);
    assert.equal(read.cloud_id, null);
    assert.equal(read.cloud_url, '');
    assert.equal((await s.api(`/api/document/${doc.id}/download`)).status, 410);
    await waitFor('the expired object removed', async () => ((await fetch(doc.cloud_url)).status === 404 ? true : undefined));
    const row = await db.query<{ record: Body }>('SELECT record FROM documents WHERE id = $1', [doc.id]);
    assert.equal(row.rows[0].record.expired, 1);
  });

  it('templates: listed, read, file downloaded from the database; batches are served (an empty page)', async () => {
    const list = (await json(await s.api('/api/template'))).templates as Body;
    assert.equal(list.total, 1);
    assert.equal((await json(await s.api(`/api/template/${template.uuid}`))).template.name, 'Invoice');
    const file = await bytesOf(await s.api(`/api/template/${template.uuid}/file`));
    assert.match(file.toString('utf8'), /Invoice \{\{number\}\}/);
    const batch = await s.api('/api/batch');
    assert.equal(batch.status, 200);
    assert.equal((await json(batch)).batches.total, 0);
  });

  it('neither the database password nor the S3 secret reaches the log', () => {
    const logs = s.logs.join('\n');
    assert.match(logs, /listening|store|schema/i, 'the info log was captured');
    assert.ok(!logs.includes(PG_PASSWORD));
    assert.ok(!logs.includes(`:${S3_SECRET}@`));
  });
});

describe('a team instance on PostgreSQL alone keeps files in its data folder', { skip }, () => {
  it('documents are records in the database, files on disk, with no cloud copy', async () => {
    const url = await (cluster as PgCluster).createDatabase();
    const s = await startTestServer({}, { env: teamEnv(url, false) });
    try {
      const template = await createInvoiceTemplate(s);
      const { status, body } = await createDocument(s, { template_id: template.uuid, data: JSON.stringify(INVOICE_DATA) });
      assert.equal(status, 201, JSON.stringify(body));
      assert.equal(body.document.cloud_id, null);
      assert.equal(body.document.cloud_url, '');
      assert.match(pdfText(await bytesOf(await fetch(body.document.download_url))), /Ada Lovelace/);
    } finally {
      await s.close();
    }
  });
});

describe('two instances on one database and one bucket behave as one service', { skip }, () => {
  let a: TestServer;
  let b: TestServer;

  before(async () => {
    const url = await (cluster as PgCluster).createDatabase();
    const env = teamEnv(url, true);
    // Started together, as a deployment would: the migrations' advisory lock orders them.
    [a, b] = await Promise.all([startTestServer({}, { env }), startTestServer({}, { env })]);
  });
  after(async () => {
    await a?.close();
    await b?.close();
  });

  it('a document created through A is listed, read, downloaded and deleted through B', async () => {
    const template = await createInvoiceTemplate(a);
    // A's token works on B: tokens are the database's.
    const onB = (pathname: string, init: RequestInit = {}) => fetch(`${b.url}${pathname}`, { ...init, headers: { authorization: `Bearer ${a.token}` } });
    for (const async of ['0', '1']) {
      const { status, body } = await createDocument(a, { template_id: template.uuid, data: JSON.stringify(INVOICE_DATA), async });
      assert.equal(status, async === '1' ? 202 : 201, JSON.stringify(body));
      const id = body.document.id as number;
      const doc = await completed(b, id);
      const list = (await json(await onB('/api/document'))).documents as Body;
      assert.ok((list.data as Body[]).some((d) => d.id === id), `document ${id} listed through B`);
      const viaB = await bytesOf(await onB(`/api/document/${id}/download`));
      assert.match(pdfText(viaB), /Invoice INV-0042/);
      // A's signed link is good on B (one link secret for the database), and the bucket's copy is the same file.
      assert.deepEqual(await bytesOf(await fetch(doc.download_url.replace(a.url, b.url))), viaB);
      assert.deepEqual(await bytesOf(await fetch(doc.cloud_url)), viaB);
      assert.deepEqual(await json(await onB(`/api/document/${id}`, { method: 'DELETE' })), { success: true, message: 'Document deleted.' });
      assert.equal((await a.api(`/api/document/${id}`)).status, 404);
      assert.equal((await fetch(doc.cloud_url)).status, 404);
    }
  });

  it('a token made through A works on B, and revoked through B stops on A', async () => {
    const made = await json(await a.api('/api/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'shared' }) }));
    const auth = { authorization: `Bearer ${made.token}` };
    assert.equal((await fetch(`${b.url}/api/template`, { headers: auth })).status, 200);
    assert.equal((await b.api(`/api/tokens/${made.id}`, { method: 'DELETE' })).status, 200);
    assert.equal((await fetch(`${a.url}/api/template`, { headers: auth })).status, 401);
    assert.equal((await fetch(`${b.url}/api/template`, { headers: auth })).status, 401);
  });

  it('a setting changed through A reads the same through B', async () => {
    const put = (s: TestServer, on: boolean) =>
      s.api('/api/settings', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ allow_private_network: on }) });
    assert.equal((await put(a, true)).status, 200);
    assert.deepEqual((await json(await b.api('/api/settings'))).settings, { allow_private_network: true });
    assert.equal((await put(b, false)).status, 200);
    assert.deepEqual((await json(await a.api('/api/settings'))).settings, { allow_private_network: false });
  });
});
