/** Signed links, async documents, Idempotency-Key, the sweeper and expiry, render workers, restart recovery. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { pdfText, squash } from '../helpers/pdf.js';
import { INVOICE_DATA, createDocument, createInvoiceTemplate, fillStore, json, recordsOnDisk, tempDir } from './support.js';
import type { Body } from './support.js';

function docFile(s: TestServer, id: number): string {
  return path.join(s.dataDir, 'documents', 'files', String(Math.floor((id - 1) / 1000)).padStart(6, '0'), `${id}.pdf`);
}

async function poll(s: TestServer, id: number, until: (d: Body) => boolean, ms = 20_000): Promise<Body> {
  const deadline = Date.now() + ms;
  for (;;) {
    const d = (await json(await s.api(`/api/document/${id}`))).document;
    if (until(d)) return d;
    if (Date.now() > deadline) throw new Error(`document ${id} stuck: ${JSON.stringify(d)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

test('signed download links: valid without a bearer, renewed on read; tampered or expired → 403', async () => {
  const s = await startTestServer();
  try {
    const t = await createInvoiceTemplate(s);
    const d = (await createDocument(s, { template_id: t.uuid, data: JSON.stringify(INVOICE_DATA) })).body.document;
    const url = new URL(d.download_url);
    const expires = Number(url.searchParams.get('expires'));
    const nowS = Date.now() / 1000;
    assert.ok(expires > nowS + 59 * 60 && expires <= nowS + 60 * 60 + 1, 'valid for DOCLOOM_DOWNLOAD_LINK_MINUTES (60)');
    assert.equal((await fetch(d.download_url)).status, 200);

    await new Promise((r) => setTimeout(r, 1100));
    const again = (await json(await s.api(`/api/document/${d.id}`))).document;
    assert.ok(Number(new URL(again.download_url).searchParams.get('expires')) > expires, 'a fresh expiry on every read');

    const tampered = new URL(d.download_url);
    tampered.searchParams.set('expires', String(expires + 3600));
    assert.equal((await fetch(tampered)).status, 403);
    const otherDoc = d.download_url.replace(`/document/${d.id}/`, `/document/${d.id + 1}/`);
    assert.equal((await fetch(otherDoc)).status, 403);
    const badSig = d.download_url.replace(/signature=[0-9a-f]{4}/, 'signature=0000');
    const bad = await fetch(badSig);
    assert.equal(bad.status, 403);
    assert.deepEqual(await bad.json(), { success: false, message: 'Invalid signature.' });

    // A correctly signed link whose time is up, signed with the data dir's secret.
    const secret = Buffer.from(fs.readFileSync(path.join(s.dataDir, 'secret.key'), 'utf8').trim(), 'hex');
    const past = Math.floor(Date.now() / 1000) - 5;
    const sig = crypto.createHmac('sha256', secret).update(`download:${d.id}:${past}`).digest('hex');
    const expired = await fetch(`${s.url}/api/document/${d.id}/download?expires=${past}&signature=${sig}`);
    assert.equal(expired.status, 403);
    assert.match((await json(expired)).message, /expired/);

    // Without a signature the bearer token is required.
    assert.equal((await fetch(`${s.url}/api/document/${d.id}/download`)).status, 401);
  } finally {
    await s.close();
  }
});

test('async=1 → 202 pending at once, then processing → completed', async () => {
  const s = await startTestServer({ renderWorkers: 1 });
  try {
    const t = await createInvoiceTemplate(s);
    const { status, body } = await createDocument(s, { template_id: t.uuid, data: JSON.stringify(INVOICE_DATA), async: '1' });
    assert.equal(status, 202);
    assert.equal(body.document.status, 'pending');
    assert.equal(body.document.pages, null);
    // Already on disk before the 202.
    const shard = { documents: recordsOnDisk(s.dataDir, 0) };
    assert.ok(shard.documents.some((d: { id: number }) => d.id === body.document.id));
    const done = await poll(s, body.document.id, (d) => d.status === 'completed' || d.status === 'failed');
    assert.equal(done.status, 'completed');
    assert.equal(done.pages, 1);
    const text = squash(pdfText(new Uint8Array(await (await fetch(done.download_url)).arrayBuffer())));
    assert.match(text, /Ada Lovelace/);
  } finally {
    await s.close();
  }
});

test('render workers: many concurrent documents, each with its own data', async () => {
  const s = await startTestServer({ renderWorkers: 2 });
  try {
    const t = await createInvoiceTemplate(s);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => createDocument(s, { template_id: t.uuid, data: JSON.stringify({ ...INVOICE_DATA, number: `W-${i}` }) })),
    );
    for (const [i, r] of results.entries()) {
      assert.equal(r.status, 201);
      assert.equal(r.body.document.status, 'completed', JSON.stringify(r.body.document.error));
      const text = squash(pdfText(new Uint8Array(await (await fetch(r.body.document.download_url)).arrayBuffer())));
      assert.match(text, new RegExp(`^Invoice W-${i} `));
    }
  } finally {
    await s.close();
  }
});

test('Idempotency-Key: same body → the same document; other body → 422; in flight → 409; per token', async () => {
  const s = await startTestServer();
  try {
    const t = await createInvoiceTemplate(s);
    const fields = { template_id: t.uuid, data: JSON.stringify(INVOICE_DATA) };
    const first = await createDocument(s, fields, { 'idempotency-key': 'order-1' });
    assert.equal(first.status, 201);
    const repeat = await createDocument(s, fields, { 'idempotency-key': 'order-1' });
    assert.equal(repeat.status, 201);
    assert.equal(repeat.body.document.id, first.body.document.id);
    assert.equal((await json(await s.api('/api/document'))).documents.total, 1);

    const other = await createDocument(s, { ...fields, data: '{"number":"2"}' }, { 'idempotency-key': 'order-1' });
    assert.equal(other.status, 422);
    assert.ok(other.body.errors.idempotency_key);

    // Another token's key space is its own.
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    const otherToken = (await json(await s.api('/api/tokens', { method: 'POST', body: new URLSearchParams({ name: 'b' }) }))).token;
    const separate = await s.api('/api/document', { method: 'POST', body: form, headers: { authorization: `Bearer ${otherToken}`, 'idempotency-key': 'order-1' } });
    assert.equal(separate.status, 201);
    assert.notEqual((await json(separate)).document.id, first.body.document.id);

    // Two at once with the same key: one runs, the other is told it is in flight.
    const both = await Promise.all([
      createDocument(s, { ...fields, data: JSON.stringify({ ...INVOICE_DATA, number: 'X' }) }, { 'idempotency-key': 'race' }),
      createDocument(s, { ...fields, data: JSON.stringify({ ...INVOICE_DATA, number: 'X' }) }, { 'idempotency-key': 'race' }),
    ]);
    assert.deepEqual(both.map((r) => r.status).sort(), [201, 409]);

    // Async: the repeat answers 202 with the same document.
    const a1 = await createDocument(s, { ...fields, async: '1' }, { 'idempotency-key': 'async-1' });
    const a2 = await createDocument(s, { ...fields, async: '1' }, { 'idempotency-key': 'async-1' });
    assert.equal(a1.status, 202);
    assert.equal(a2.status, 202);
    assert.equal(a2.body.document.id, a1.body.document.id);

    // Kept across a restart.
    const line = fs.readFileSync(path.join(s.dataDir, 'idempotency.jsonl'), 'utf8').trim().split('\n')[0];
    assert.ok(line.includes('order-1'));
  } finally {
    await s.close();
  }
});

test('Idempotency-Key results survive a restart', async () => {
  const dataDir = tempDir();
  try {
    let s = await startTestServer({ dataDir });
    const t = await createInvoiceTemplate(s);
    // Keys belong to the token that sent them: keep one token across the restart.
    const token = (await json(await s.api('/api/tokens', { method: 'POST', body: new URLSearchParams({ name: 'tool' }) }))).token;
    const fields = { template_id: t.uuid, data: '{}' };
    const headers = { 'idempotency-key': 'k', authorization: `Bearer ${token}` };
    const first = await createDocument(s, fields, headers);
    await s.close();
    s = await startTestServer({ dataDir });
    const again = await createDocument(s, fields, headers);
    assert.equal(again.status, 201);
    assert.equal(again.body.document.id, first.body.document.id);
    await s.close();
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the sweeper expires documents: files deleted, expired 1, downloads 410; the record stays', async () => {
  const dataDir = tempDir();
  try {
    // Two documents whose files exist: one past its expiry already, one expiring in 2 s.
    const soon = Date.now() + 2000;
    await fillStore(dataDir, 3, (id) => ({ expires_at: new Date(id === 1 ? Date.now() - 1000 : id === 2 ? soon : Date.now() + 3_600_000).toISOString() }));
    const bucket = path.join(dataDir, 'documents/files/000000');
    fs.mkdirSync(bucket, { recursive: true });
    for (const id of [1, 2, 3]) fs.writeFileSync(path.join(bucket, `${id}.pdf`), '%PDF-1.4 stand-in');
    const s = await startTestServer({ dataDir, sweepIntervalSeconds: 1 });
    try {
      // The first sweep runs at start.
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(fs.existsSync(path.join(bucket, '1.pdf')), false);
      assert.equal(fs.existsSync(path.join(bucket, '2.pdf')), true);
      // The periodic sweep gets the second one without anybody reading it.
      const deadline = Date.now() + 6000;
      while (fs.existsSync(path.join(bucket, '2.pdf')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.equal(fs.existsSync(path.join(bucket, '2.pdf')), false);
      assert.equal(fs.existsSync(path.join(bucket, '3.pdf')), true);

      for (const id of [1, 2]) {
        const d = (await json(await s.api(`/api/document/${id}`))).document;
        assert.equal(d.expired, 1);
        const dl = await fetch(d.download_url);
        assert.equal(dl.status, 410);
        assert.deepEqual(await dl.json(), { success: false, message: 'Document has expired.' });
      }
      const shard = { documents: recordsOnDisk(dataDir, 0) };
      assert.deepEqual(shard.documents.map((d: { expired: number }) => d.expired), [1, 1, 0]);
      const expiredList = (await json(await s.api('/api/document?expired=1'))).documents;
      assert.deepEqual(expiredList.data.map((d: { id: number }) => d.id), [2, 1]);
      // A document created with a short expiration is refused at download once it has passed (lazy check on read).
    } finally {
      await s.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('documents a stopped run left pending are marked failed (interrupted) at start', async () => {
  const dataDir = tempDir();
  try {
    await fillStore(dataDir, 2, (id) => ({ status: id === 1 ? 'pending' : 'processing', pages: null, size: null }));
    const s = await startTestServer({ dataDir });
    try {
      for (const id of [1, 2]) {
        const d = (await json(await s.api(`/api/document/${id}`))).document;
        assert.equal(d.status, 'failed');
        assert.equal(d.error.code, 'interrupted');
      }
    } finally {
      await s.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a document deleted while its async render runs leaves no file behind', async () => {
  const s = await startTestServer({ renderWorkers: 1 });
  try {
    const t = await createInvoiceTemplate(s);
    const { body } = await createDocument(s, { template_id: t.uuid, data: JSON.stringify(INVOICE_DATA), async: '1' });
    await s.api(`/api/document/${body.document.id}`, { method: 'DELETE' });
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(fs.existsSync(docFile(s, body.document.id)), false);
    assert.equal((await s.api(`/api/document/${body.document.id}`)).status, 404);
  } finally {
    await s.close();
  }
});
