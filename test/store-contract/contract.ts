/**
 * The repository contract (server/store/repositories.ts) as one suite, run unchanged against every backend
 * (store-contract.test.ts): what the services may rely on whichever store they run on. Records passed in are
 * copies, and expectations are built apart from them: the local backend keeps the objects it is given.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Repositories } from '../../server/store/repositories.js';
import type { DocumentRecord, TemplateRecord, TokenRecord } from '../../server/store/records.js';
import type { BatchRecord } from '../../server/store/batches.js';
import path from 'node:path';
import { IDEMPOTENCY_TTL_MS } from '../../server/store/idempotency.js';
import fs from 'node:fs';

/** One empty store: open() may be called again after close() (a restart). */
export interface StorePlace {
  open(): Promise<Repositories>;
}

export interface Backend {
  name: string;
  /** Set when this backend cannot run here (the reason is the skip message). */
  skip?: string;
  /** A new empty store. */
  fresh(): Promise<StorePlace>;
  /** Stops what the backend started (a database cluster). */
  stop?(): Promise<void>;
}

const token = (name: string, extra: Partial<TokenRecord> = {}): Omit<TokenRecord, 'id'> => ({
  name,
  hash: 'a'.repeat(64),
  read_only: false,
  created_at: '2026-01-01T00:00:00.000Z',
  ...extra,
});

/** A template record as create() takes it (also test/team/caches.test.ts's). */
export function templateInput(uuid: string, name: string): Omit<TemplateRecord, 'id' | 'version'> {
  return {
    uuid,
    name,
    description: 'd',
    kind: 'json',
    original_filename: `${name}.json`,
    google_doc_id: null,
    output_filename: null,
    output_filetype: 'pdf',
    editable: null,
    password: null,
    expiration: 60,
    delimiters: ['{{', '}}'],
    fields: [],
    sample_data: { a: [1, 2, { b: 'ü' }] },
    schema: {},
    import_warnings: [],
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  };
}

function doc(id: number, extra: Partial<DocumentRecord> = {}): DocumentRecord {
  return {
    id,
    status: 'pending',
    output_filename: null,
    output_type: 'pdf',
    template_id: 1,
    template_uuid: 'tpl-1',
    editable: 0,
    password: null,
    test: 0,
    locale: null,
    expires_at: '2999-01-01T00:00:00.000Z',
    expired: 0,
    error: null,
    pages: null,
    size: null,
    has_editable: false,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

function batch(id: number, extra: Partial<BatchRecord> = {}): BatchRecord {
  return {
    id,
    status: 'queued',
    total: 3,
    done: 0,
    failed: 0,
    template_id: 1,
    template_uuid: 'tpl-1',
    rows_filename: 'rows.csv',
    rows_format: 'csv',
    sheet: null,
    output_type: 'pdf',
    output_filename: '{{name}}',
    test: 0,
    password: null,
    expiration: 60,
    locale: null,
    error: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

const bytes = (text: string) => new Uint8Array(Buffer.from(text));

export function storeContract(backend: Backend): void {
  describe(`store contract: ${backend.name}`, { skip: backend.skip }, () => {
    const opened: Repositories[] = [];
    /** A fresh store, opened; closed after the suite when the test did not. */
    const fresh = async (): Promise<{ repos: Repositories; restart(): Promise<Repositories> }> => {
      const place = await backend.fresh();
      let repos = await place.open();
      opened.push(repos);
      return {
        repos,
        async restart() {
          await repos.close();
          opened.splice(opened.indexOf(repos), 1);
          repos = await place.open();
          opened.push(repos);
          return repos;
        },
      };
    };
    after(async () => {
      for (const r of opened) await r.close().catch(() => undefined);
      await backend.stop?.();
    });

    describe('tokens', () => {
      let repos: Repositories;
      before(async () => ({ repos } = await fresh()));

      it('creates with ascending ids, gets, lists oldest first', async () => {
        const a = await repos.tokens.create(token('a'));
        const b = await repos.tokens.create(token('b', { read_only: true, source: 'sign-in' }));
        assert.ok(Number.isInteger(a.id) && b.id > a.id);
        assert.deepEqual(await repos.tokens.get(b.id), { ...token('b', { read_only: true, source: 'sign-in' }), id: b.id });
        assert.deepEqual((await repos.tokens.list()).map((t) => t.name), ['a', 'b']);
        assert.equal(await repos.tokens.get(b.id + 100), undefined);
      });

      it('touches, removes, and never reuses an id', async () => {
        const c = await repos.tokens.create(token('c'));
        await repos.tokens.touch(c.id, '2026-02-02T00:00:00.000Z');
        assert.equal((await repos.tokens.get(c.id))?.last_used_at, '2026-02-02T00:00:00.000Z');
        assert.equal(await repos.tokens.remove(c.id), true);
        assert.equal(await repos.tokens.remove(c.id), false);
        assert.equal(await repos.tokens.get(c.id), undefined);
        const d = await repos.tokens.create(token('d'));
        assert.ok(d.id > c.id, 'the removed highest id is not handed out again');
      });

      it('removeWhere sees every token and answers how many went', async () => {
        const seen: number[] = [];
        const removed = await repos.tokens.removeWhere((t, all) => {
          seen.push(all.length);
          return t.source === 'sign-in';
        });
        assert.equal(removed, 1);
        assert.ok(seen.every((n) => n === seen[0]));
        assert.equal(await repos.tokens.removeWhere(() => false), 0);
        assert.deepEqual((await repos.tokens.list()).map((t) => t.name), ['a', 'd']);
      });
    });

    describe('templates', () => {
      let repos: Repositories;
      before(async () => ({ repos } = await fresh()));

      it('creates version 1 with its file, finds it by id and uuid', async () => {
        const t = await repos.templates.create(templateInput('u-1', 'Invoice 50%_off'), bytes('v1'));
        assert.equal(t.version, 1);
        assert.deepEqual(await repos.templates.getById(t.id), { ...templateInput('u-1', 'Invoice 50%_off'), id: t.id, version: 1 });
        assert.deepEqual(await repos.templates.getByUuid('u-1'), await repos.templates.getById(t.id));
        assert.equal((await repos.templates.readFile(t)).toString(), 'v1');
        assert.equal(fs.readFileSync(await repos.templates.localFile(t), 'utf8'), 'v1');
        assert.equal(await repos.templates.getByUuid('nope'), undefined);
        assert.equal(await repos.templates.getById(t.id + 100), undefined);
      });

      it('lists newest first, filters by a case-insensitive substring (no wildcards), counts', async () => {
        await repos.templates.create(templateInput('u-2', 'Letter'), bytes('x'));
        await repos.templates.create(templateInput('u-3', 'invoice B'), bytes('y'));
        assert.equal(await repos.templates.count(), 3);
        const all = await repos.templates.list({ offset: 0, limit: 10 });
        assert.equal(all.total, 3);
        assert.deepEqual(all.items.map((t) => t.uuid), ['u-3', 'u-2', 'u-1']);
        const page = await repos.templates.list({ offset: 1, limit: 1 });
        assert.deepEqual([page.total, page.items.map((t) => t.uuid)], [3, ['u-2']]);
        const invoices = await repos.templates.list({ name: 'INVOICE', offset: 0, limit: 10 });
        assert.deepEqual([invoices.total, invoices.items.map((t) => t.uuid)], [2, ['u-3', 'u-1']]);
        assert.deepEqual((await repos.templates.list({ name: '50%_', offset: 0, limit: 10 })).items.map((t) => t.uuid), ['u-1']);
        assert.equal((await repos.templates.list({ name: '%', offset: 0, limit: 10 })).total, 1);
        assert.equal((await repos.templates.list({ name: 'zzz', offset: 0, limit: 10 })).total, 0);
      });

      it('updates fields; a new file is the next version; the one before is kept, older ones go', async () => {
        const renamed = await repos.templates.update('u-2', { name: 'Letter 2', updated_at: '2026-03-03T00:00:00.000Z' });
        assert.equal(renamed?.name, 'Letter 2');
        assert.equal((await repos.templates.getByUuid('u-2'))?.name, 'Letter 2');
        const v2 = await repos.templates.update('u-2', { version: 2 }, bytes('second'));
        assert.equal(v2?.version, 2);
        assert.equal((await repos.templates.readFile(v2!)).toString(), 'second');
        assert.equal((await repos.templates.readFile({ uuid: 'u-2', version: 1, kind: 'json' })).toString(), 'x');
        const v3 = await repos.templates.update('u-2', { version: 3 }, bytes('third'));
        assert.equal(fs.readFileSync(await repos.templates.localFile(v3!), 'utf8'), 'third');
        assert.equal((await repos.templates.readFile({ uuid: 'u-2', version: 2, kind: 'json' })).toString(), 'second');
        await assert.rejects(repos.templates.readFile({ uuid: 'u-2', version: 1, kind: 'json' }), { code: 'ENOENT' });
        assert.equal(await repos.templates.update('nope', { name: 'x' }), undefined);
      });

      it('removes record and files', async () => {
        assert.equal(await repos.templates.remove('u-2'), true);
        assert.equal(await repos.templates.remove('u-2'), false);
        assert.equal(await repos.templates.getByUuid('u-2'), undefined);
        await assert.rejects(repos.templates.readFile({ uuid: 'u-2', version: 3, kind: 'json' }), { code: 'ENOENT' });
        assert.equal(await repos.templates.count(), 2);
        const next = await repos.templates.create(templateInput('u-4', 'After'), bytes('z'));
        assert.ok(next.id > 3, 'ids are not reused');
      });
    });

    describe('documents', () => {
      let repos: Repositories;
      before(async () => ({ repos } = await fresh()));

      it('hands out ascending ids; inserts, gets, updates', async () => {
        const a = await repos.documents.nextId();
        const b = await repos.documents.nextId();
        assert.ok(Number.isInteger(a) && b > a);
        await repos.documents.insert(doc(a));
        await repos.documents.insert(doc(b, { template_id: 2, test: 1, batch_id: 7, batch_row: 1 }));
        assert.deepEqual(await repos.documents.get(a), doc(a));
        const updated = await repos.documents.update(a, { status: 'processing', updated_at: '2026-01-02T00:00:00.000Z' });
        assert.deepEqual(updated, doc(a, { status: 'processing', updated_at: '2026-01-02T00:00:00.000Z' }));
        assert.deepEqual(await repos.documents.get(a), updated);
        assert.equal(await repos.documents.update(b + 1000, { status: 'failed' }), undefined);
        assert.equal(await repos.documents.get(b + 1000), undefined);
      });

      it('completes only once the files are durable, and not at all when they failed', async () => {
        const id = await repos.documents.nextId();
        await repos.documents.insert(doc(id, { status: 'processing' }));
        const patch = { status: 'completed' as const, pages: 2, size: 1234, updated_at: '2026-01-03T00:00:00.000Z' };
        const done = await repos.documents.complete(id, patch, { output: '0'.repeat(64) }, Promise.resolve());
        assert.deepEqual(done, doc(id, patch));
        assert.deepEqual(await repos.documents.get(id), doc(id, patch));

        const other = await repos.documents.nextId();
        await repos.documents.insert(doc(other, { status: 'processing' }));
        await assert.rejects(repos.documents.complete(other, patch, { output: '0'.repeat(64) }, Promise.reject(new Error('ENOSPC'))), /ENOSPC/);
        assert.equal((await repos.documents.get(other))?.status, 'processing');
        assert.equal(await repos.documents.complete(other + 1000, patch, { output: '0'.repeat(64) }, Promise.resolve()), undefined);
      });

      it('lists newest first with totals, by each filter and page', async () => {
        const all = await repos.documents.list({}, 0, 100);
        assert.equal(all.total, 4);
        assert.deepEqual(all.items.map((d) => d.id), [...all.items.map((d) => d.id)].sort((x, y) => y - x));
        const page = await repos.documents.list({}, 1, 2);
        assert.deepEqual([page.total, page.items.map((d) => d.id)], [4, all.items.slice(1, 3).map((d) => d.id)]);
        assert.deepEqual((await repos.documents.list({}, 10, 5)).items, []);
        assert.equal((await repos.documents.list({}, 10, 5)).total, 4);
        assert.equal((await repos.documents.list({ template_id: 2 }, 0, 10)).total, 1);
        assert.equal((await repos.documents.list({ test: 1 }, 0, 10)).total, 1);
        assert.equal((await repos.documents.list({ test: 0 }, 0, 10)).total, 3);
        assert.equal((await repos.documents.list({ status: 'completed' }, 0, 10)).total, 1);
        assert.equal((await repos.documents.list({ batch_id: 7 }, 0, 10)).items[0].batch_row, 1);
        assert.equal((await repos.documents.list({ expired: 1 }, 0, 10)).total, 0);
        assert.equal((await repos.documents.list({ status: 'processing', template_id: 1 }, 0, 10)).total, 2);
      });

      it('finds the unfinished and the due for expiry, oldest first', async () => {
        const unfinished = await repos.documents.unfinished();
        assert.deepEqual(unfinished.map((d) => d.status), ['processing', 'pending', 'processing']);
        assert.deepEqual(unfinished.map((d) => d.id), [...unfinished.map((d) => d.id)].sort((x, y) => x - y));
        const now = Date.parse('2026-06-01T00:00:00.000Z');
        const past = await repos.documents.nextId();
        await repos.documents.insert(doc(past, { status: 'completed', expires_at: '2026-05-31T23:59:59.999Z' }));
        const gone = await repos.documents.nextId();
        await repos.documents.insert(doc(gone, { status: 'completed', expires_at: '2026-05-01T00:00:00.000Z', expired: 1 }));
        assert.deepEqual((await repos.documents.dueForExpiry(now)).map((d) => d.id), [past]);
        assert.deepEqual(await repos.documents.dueForExpiry(Date.parse('2026-05-31T00:00:00.000Z')), []);
        await repos.documents.update(past, { expired: 1 });
        assert.deepEqual(await repos.documents.dueForExpiry(now), []);
      });

      it('removes, and never reuses an id (not even the highest)', async () => {
        const last = await repos.documents.nextId();
        await repos.documents.insert(doc(last));
        assert.equal(await repos.documents.remove(last), true);
        assert.equal(await repos.documents.remove(last), false);
        assert.equal(await repos.documents.get(last), undefined);
        assert.ok((await repos.documents.nextId()) > last);
      });
    });

    describe('idempotency', () => {
      let repos: Repositories;
      before(async () => ({ repos } = await fresh()));

      it('stores, replaces, and forgets entries older than the TTL', async () => {
        assert.equal(await repos.idempotency.get('1:k'), undefined);
        await repos.idempotency.put({ key: '1:k', hash: 'h1', status: 201, document_id: 5, at: Date.now() });
        assert.equal((await repos.idempotency.get('1:k'))?.document_id, 5);
        await repos.idempotency.put({ key: '1:k', hash: 'h2', status: 200, document_id: 6, at: Date.now() });
        assert.deepEqual(await repos.idempotency.get('1:k').then((e) => [e?.hash, e?.status, e?.document_id]), ['h2', 200, 6]);
        await repos.idempotency.put({ key: '2:old', hash: 'h', status: 201, document_id: 1, at: Date.now() - IDEMPOTENCY_TTL_MS - 1 });
        assert.equal(await repos.idempotency.get('2:old'), undefined);
        await repos.idempotency.prune();
        assert.equal((await repos.idempotency.get('1:k'))?.hash, 'h2');
      });

      it('claim (a shared store): one holder per key; release frees it; a dead holder\'s claim is taken over once its lease ran out', async (t) => {
        if (!repos.idempotency.claim) {
          t.skip('this store is one process\'s: its running keys are kept in memory (services/idempotency.ts)');
          return;
        }
        const store = await fresh();
        const first = await store.repos.idempotency.claim!('1:c', 60_000);
        assert.ok(first);
        assert.equal(await store.repos.idempotency.claim!('1:c', 60_000), undefined, 'a live claim is not given twice');
        assert.ok(await store.repos.idempotency.claim!('2:c', 60_000), 'another key is free');
        await first.release();
        assert.ok(await store.repos.idempotency.claim!('1:c', 1_000), 'released: free again');
        // The holder goes away without releasing (its connections closed, its renewals failing), as a killed
        // instance would: the key is free again once the lease has run out, not before the next holder asks.
        const next = await store.restart();
        let taken;
        for (const until = Date.now() + 20_000; !taken; ) {
          assert.ok(Date.now() < until, 'a dead holder\'s claim was never taken over');
          taken = await next.idempotency.claim!('1:c', 60_000);
          if (!taken) await new Promise((r) => setTimeout(r, 100));
        }
        await taken.release();
      });
    });

    describe('batches', () => {
      let repos: Repositories;
      before(async () => ({ repos } = await fresh()));
      /** An upload received in incomingDir, as the batch routes receive one. */
      const upload = (text: string): string => {
        fs.mkdirSync(repos.batches!.incomingDir, { recursive: true });
        const file = path.join(repos.batches!.incomingDir, `upload-${Math.random().toString(36).slice(2)}`);
        fs.writeFileSync(file, text);
        return file;
      };

      it('creates with its rows file (the upload taken over), hands out ascending ids, gets, updates', async () => {
        const batches = repos.batches!;
        const a = await batches.nextId();
        const rows = upload('name\nAda\nGrace\nÜlla\n');
        await batches.create(batch(a), rows);
        assert.equal(fs.existsSync(rows), false, 'the upload is the store\'s now');
        assert.deepEqual(await batches.get(a), batch(a));
        assert.equal(fs.readFileSync(await batches.rowsFile(batch(a)), 'utf8'), 'name\nAda\nGrace\nÜlla\n');
        const b = await batches.nextId();
        assert.ok(Number.isInteger(a) && b > a);
        await batches.update(a, { status: 'processing', done: 1, updated_at: '2026-01-02T00:00:00.000Z' });
        await batches.update(a, { failed: 1 }, false);
        assert.deepEqual(await batches.get(a), batch(a, { status: 'processing', done: 1, failed: 1, updated_at: '2026-01-02T00:00:00.000Z' }));
        assert.equal(await batches.get(b + 100), undefined);
        await batches.update(b + 100, { status: 'failed' });
      });

      it('lists newest first with the total and pages; finds the unfinished oldest first', async () => {
        const batches = repos.batches!;
        const ids: number[] = [];
        for (const status of ['completed', 'queued', 'cancelled', 'processing'] as const) {
          const id = await batches.nextId();
          await batches.create(batch(id, { status, rows_format: 'json', rows_filename: 'data.json' }), upload(`[{"n": ${id}}]`));
          ids.push(id);
        }
        const all = await batches.list(0, 100);
        assert.deepEqual(
          all.items.map((b) => b.id),
          [...all.items.map((b) => b.id)].sort((x, y) => y - x),
        );
        assert.deepEqual(all.items.slice(0, 4).map((b) => b.id), [...ids].reverse());
        assert.equal(all.total, all.items.length);
        const page = await batches.list(1, 2);
        assert.equal(page.total, all.total);
        assert.deepEqual(page.items.map((b) => b.id), [ids[2], ids[1]]);
        const unfinished = (await batches.unfinished()).map((b) => b.id);
        assert.deepEqual(unfinished.filter((id) => ids.includes(id)), [ids[1], ids[3]]);
        assert.equal(fs.readFileSync(await batches.rowsFile({ id: ids[3], rows_format: 'json' }), 'utf8'), `[{"n": ${ids[3]}}]`);
      });

      it('removes the record and its rows file, and never reuses an id; records and rows survive a restart', async () => {
        const store = await fresh();
        let batches = store.repos.batches!;
        repos = store.repos;
        const kept = await batches.nextId();
        await batches.create(batch(kept, { status: 'processing', done: 2 }), upload('name\nkept\n'));
        const gone = await batches.nextId();
        await batches.create(batch(gone), upload('name\ngone\n'));
        await batches.remove(gone);
        await batches.remove(gone);
        assert.equal(await batches.get(gone), undefined);
        await assert.rejects(async () => fs.promises.readFile(await batches.rowsFile(batch(gone))));
        assert.deepEqual((await batches.list(0, 10)).items.map((b) => b.id), [kept]);

        batches = (await store.restart()).batches!;
        assert.deepEqual(await batches.get(kept), batch(kept, { status: 'processing', done: 2 }));
        assert.equal(fs.readFileSync(await batches.rowsFile(batch(kept)), 'utf8'), 'name\nkept\n');
        assert.ok((await batches.nextId()) > gone, 'the removed highest id is not handed out again');
      });
    });

    describe('batches on a shared store', () => {
      it('hold: one holder per batch; renewed by its holder; let go or taken over once the lease ran out; progress counted from the documents', async (t) => {
        const { repos } = await fresh();
        const batches = repos.batches!;
        if (!batches.hold || !batches.letGo || !batches.progress) {
          t.skip('this store is one process\'s: it runs every batch it holds (batch/service.ts)');
          return;
        }
        fs.mkdirSync(batches.incomingDir, { recursive: true });
        const rows = path.join(batches.incomingDir, 'rows');
        fs.writeFileSync(rows, 'name\nA\nB\nC\nD\n');
        const id = await batches.nextId();
        await batches.create(batch(id, { total: 4 }), rows);
        assert.equal(await batches.hold(id, 'a:1', 60_000), true);
        assert.equal(await batches.hold(id, 'b:2', 60_000), false, 'held by a live instance');
        assert.equal(await batches.hold(id, 'a:1', 60_000), true, 'renewed by its holder');
        await batches.letGo(id, 'b:2');
        assert.equal(await batches.hold(id, 'b:2', 60_000), false, 'only the holder lets go');
        await batches.letGo(id, 'a:1');
        assert.equal(await batches.hold(id, 'b:2', 1), true, 'free once let go');
        await new Promise((resolve) => setTimeout(resolve, 20));
        assert.equal(await batches.hold(id, 'a:1', 60_000), true, 'taken over once the lease ran out');
        assert.equal(await batches.hold(id + 100, 'a:1', 60_000), false, 'no such batch');

        assert.deepEqual(await batches.progress(id), { done: 0, failed: 0, waiting: 0 });
        const statuses = ['completed', 'completed', 'failed', 'pending'] as const;
        for (const [i, status] of statuses.entries()) {
          const docId = await repos.documents.nextId();
          await repos.documents.insert(doc(docId, { status, batch_id: id, batch_row: i + 1 }));
        }
        await repos.documents.insert(doc(await repos.documents.nextId(), { status: 'completed', batch_id: id + 1, batch_row: 1 }));
        assert.deepEqual(await batches.progress(id), { done: 2, failed: 1, waiting: 1 });
      });
    });

    describe('settings and meta', () => {
      it('settings start empty, merge patches; meta keeps one secret; all survive a restart', async () => {
        const store = await fresh();
        let repos = store.repos;
        assert.deepEqual(await repos.settings.get(), {});
        assert.deepEqual(await repos.settings.update({ allow_private_network: true }), { allow_private_network: true });
        assert.deepEqual(await repos.settings.update({}), { allow_private_network: true });
        assert.ok(repos.meta.schemaVersion >= 1);
        assert.equal(repos.meta.secret.length, 32);
        assert.ok(!Number.isNaN(Date.parse(repos.meta.createdAt)));
        assert.equal(await repos.meta.samplesSeeded(), false);
        await repos.meta.markSamplesSeeded();
        assert.equal(await repos.meta.samplesSeeded(), true);
        const secret = Buffer.from(repos.meta.secret);
        const createdAt = repos.meta.createdAt;

        const t = await repos.tokens.create(token('kept'));
        const tpl = await repos.templates.create(templateInput('u-kept', 'Kept'), bytes('kept bytes'));
        const id = await repos.documents.nextId();
        await repos.documents.insert(doc(id, { status: 'failed', error: { code: 'interrupted', message: 'm' } }));
        await repos.idempotency.put({ key: '1:kept', hash: 'h', status: 201, document_id: id, at: Date.now() });

        repos = await store.restart();
        assert.deepEqual(await repos.settings.get(), { allow_private_network: true });
        assert.deepEqual(repos.meta.secret, secret);
        assert.equal(repos.meta.createdAt, createdAt);
        assert.equal(await repos.meta.samplesSeeded(), true);
        assert.equal((await repos.tokens.get(t.id))?.name, 'kept');
        assert.equal((await repos.templates.readFile(tpl)).toString(), 'kept bytes');
        assert.deepEqual(await repos.documents.get(id), doc(id, { status: 'failed', error: { code: 'interrupted', message: 'm' } }));
        assert.equal((await repos.idempotency.get('1:kept'))?.document_id, id);
        assert.ok((await repos.documents.nextId()) > id);
      });
    });
  });
}
