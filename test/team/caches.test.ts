/**
 * The PostgreSQL repositories' caches of tokens and templates (docs/team-server.md, "Caches"): two instances' repositories
 * (A and B) on one throwaway database, B listening (its queue opened), A changing things as another instance would.
 * - a token revoked on A is no longer answered by B's cache within the notification's delay;
 * - a change that sent no notification (the trigger switched off with session_replication_role, as a connection
 *   cut without an error would lose one) is answered stale by B only until the TTL, and B's guarded enqueue refuses
 *   it at once meanwhile (token gone; template changed or deleted);
 * - a template updated or deleted on A is seen by B;
 * - B's listening connection terminated (pg_terminate_backend): B drops what it kept and keeps nothing until it
 *   listens again, so a revoke made while it was away is never answered from the cache.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { openPgRepositories, type PgRepositories } from '../../server/store/pg/index.js';
import { QUEUE_PRIORITY, WriteRefused, type JobQueue, type WriteGuard } from '../../server/store/queue.js';
import type { TokenRecord } from '../../server/store/records.js';
import { unheard, within } from '../helpers/unheard.js';
import { startPgCluster, type PgCluster } from '../helpers/pg-cluster.js';
import { documentRecord } from '../service/support.js';
import { templateInput } from '../store-contract/contract.js';

/** Longer than B takes to listen again after a drop (RELISTEN_MS 1 s), so the drop test sees its own clearing, not the TTL. */
const TTL_MS = 4_000;
/** How long a notification may take to arrive on a loaded machine (the tests poll; it is typically < 5 ms). */
const NOTIFIED_WITHIN_MS = 2_000;

const cluster = await startPgCluster();
const skip = typeof cluster === 'string' ? `PostgreSQL not available: ${cluster}` : undefined;
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-caches-'));

let a: PgRepositories;
let b: PgRepositories;
let queueB: JobQueue;
/** A connection of the test's own, for changes no instance hears of. */
let db: pg.Client;

const token = (name: string): Omit<TokenRecord, 'id'> => ({ name, hash: 'a'.repeat(64), read_only: false, created_at: new Date().toISOString() });




/** B's guarded enqueue of a leased job (a synchronous create's statement); the lease is let go at once. */
async function enqueueOnB(guard: WriteGuard): Promise<number> {
  const record = documentRecord(0, { status: 'processing' });
  const lease = await queueB.enqueueLeased(record, {}, QUEUE_PRIORITY.interactive, guard);
  lease.release();
  return record.id;
}

const refused = (what: 'token' | 'template') => (err: unknown) => err instanceof WriteRefused && err.what === what;

describe('caches of tokens and templates across instances', { skip }, () => {
  before(async () => {
    const url = await (cluster as PgCluster).createDatabase();
    a = await openPgRepositories(url, { cacheDir: path.join(temp, 'a'), cacheTtlMs: TTL_MS });
    b = await openPgRepositories(url, { cacheDir: path.join(temp, 'b'), cacheTtlMs: TTL_MS });
    // B listens (the queue starts its listening connection); A never uses its caches, so it never listens.
    queueB = await b.openQueue!({ instance: 'b', leaseMs: 30_000, log: () => undefined });
    assert.ok(queueB.listening());
    db = new pg.Client({ connectionString: url });
    await db.connect();
  });

  after(async () => {
    await db?.end();
    await queueB?.close();
    await b?.close();
    await a?.close();
    if (typeof cluster !== 'string') await cluster.stop();
    fs.rmSync(temp, { recursive: true, force: true });
  });

  it('a token revoked on A stops being answered by B once the notification arrives', async (ctx) => {
    const t = await a.tokens.create(token('revoked-on-a'));
    assert.equal((await b.tokens.cachedGet!(t.id))?.id, t.id);
    assert.ok(await a.tokens.remove(t.id));
    const ms = await within(NOTIFIED_WITHIN_MS, 'B still answers the revoked token', async () => (await b.tokens.cachedGet!(t.id)) === undefined);
    assert.equal(await b.tokens.get(t.id), undefined);
    ctx.diagnostic(`revoke on A → B's cache dropped it after ${ms.toFixed(1)} ms`);
  });

  it('without a notification B answers a revoked token only until the TTL, and its guarded write refuses it at once', async () => {
    const t = await a.tokens.create(token('unheard'));
    const template = await a.templates.create(templateInput('tpl-unheard', 'Unheard'), new Uint8Array([1]));
    const cached = await b.tokens.cachedGet!(t.id);
    assert.equal(cached?.id, t.id);
    await unheard(db, 'DELETE FROM tokens WHERE id = $1', [t.id]);
    // Kept (no notification came): the read side's window, bounded by the TTL.
    assert.equal(await b.tokens.cachedGet!(t.id), cached, 'answered from the cache');
    await assert.rejects(enqueueOnB({ tokenId: t.id, template, exact: false }), refused('token'));
    const docs = await db.query('SELECT count(*)::int AS n FROM documents');
    assert.equal(docs.rows[0].n, 0, 'the refused enqueue stored nothing');
    const ms = await within(TTL_MS + 1_000, 'B answers past its TTL', async () => (await b.tokens.cachedGet!(t.id)) === undefined);
    assert.ok(ms <= TTL_MS + 1_000);
  });

  it('a template updated or deleted on A is seen by B; one changed unheard is refused by the exact guard', async () => {
    const t = await a.tokens.create(token('templates'));
    await a.templates.create(templateInput('tpl-1', 'First'), new Uint8Array([1]));
    const first = (await b.templates.cachedGetByUuid!('tpl-1'))!;
    assert.equal(first.name, 'First');
    assert.equal(await b.templates.cachedGetById!(first.id), await b.templates.cachedGetById!(first.id), 'kept by id too');
    // An update on A (a new version): B answers the new record.
    await a.templates.update('tpl-1', { name: 'Second', version: 2 }, new Uint8Array([2]));
    await within(NOTIFIED_WITHIN_MS, 'B still answers the old version', async () => (await b.templates.cachedGetByUuid!('tpl-1'))?.version === 2);
    const second = (await b.templates.cachedGetByUuid!('tpl-1'))!;
    assert.equal(second.name, 'Second');
    assert.equal((await b.templates.cachedGetById!(first.id))?.name, 'Second');
    // The stale record's write is refused, the current one's goes through.
    await assert.rejects(enqueueOnB({ tokenId: t.id, template: first, exact: true }), refused('template'));
    assert.ok((await enqueueOnB({ tokenId: t.id, template: second, exact: true })) > 0);

    // Changed with nobody told: B's cache answers the old record, the exact guard refuses it, a plain one takes it.
    await unheard(db, `UPDATE templates SET record = jsonb_set(record, '{name}', '"Third"') WHERE uuid = $1`, ['tpl-1']);
    assert.equal(await b.templates.cachedGetByUuid!('tpl-1'), second, 'answered from the cache');
    await assert.rejects(enqueueOnB({ tokenId: t.id, template: second, exact: true }), refused('template'));
    assert.ok((await enqueueOnB({ tokenId: t.id, template: second, exact: false })) > 0);
    const fresh = (await b.templates.getByUuid('tpl-1'))!;
    assert.equal(fresh.name, 'Third');
    assert.ok((await enqueueOnB({ tokenId: t.id, template: fresh, exact: true })) > 0, 'a fresh read\'s stamp matches');

    // Deleted on A: B no longer finds it; deleted unheard: every guard refuses it.
    await a.templates.create(templateInput('tpl-2', 'Gone'), new Uint8Array([1]));
    assert.equal((await b.templates.cachedGetByUuid!('tpl-2'))?.name, 'Gone');
    assert.ok(await a.templates.remove('tpl-2'));
    await within(NOTIFIED_WITHIN_MS, 'B still answers the deleted template', async () => (await b.templates.cachedGetByUuid!('tpl-2')) === undefined);
    await a.templates.create(templateInput('tpl-3', 'Gone unheard'), new Uint8Array([1]));
    const doomed = (await b.templates.cachedGetByUuid!('tpl-3'))!;
    await unheard(db, 'DELETE FROM templates WHERE uuid = $1', ['tpl-3']);
    assert.equal(await b.templates.cachedGetByUuid!('tpl-3'), doomed, 'answered from the cache');
    await assert.rejects(enqueueOnB({ tokenId: t.id, template: doomed, exact: false }), refused('template'));
    await assert.rejects(enqueueOnB({ tokenId: t.id, template: doomed, exact: true }), refused('template'));
  });

  it('B\'s listening connection terminated: B drops its copies and keeps none until it listens again', async () => {
    const t = await a.tokens.create(token('dropped'));
    const kept = await b.tokens.cachedGet!(t.id);
    assert.equal(await b.tokens.cachedGet!(t.id), kept, 'kept before the drop');
    // A second one, not looked up while B does not listen: only the drop's own clearing can forget it.
    const t2 = await a.tokens.create(token('dropped, not looked at meanwhile'));
    await b.tokens.cachedGet!(t2.id);
    const listeners = await db.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`);
    assert.equal(listeners.rows.length, 1, 'B alone listens (one connection for its queue and its caches)');
    await db.query('SELECT pg_terminate_backend($1)', [listeners.rows[0].pid]);
    await within(NOTIFIED_WITHIN_MS, 'B did not notice its listening connection dropped', async () => !queueB.listening());
    // While B does not listen, a revoke's notification reaches nobody: B must read the database.
    assert.ok(await a.tokens.remove(t.id));
    assert.ok(await a.tokens.remove(t2.id));
    assert.equal(await b.tokens.cachedGet!(t.id), undefined, 'not answered from a copy kept before the drop');
    await within(5_000, 'B did not listen again', async () => queueB.listening());
    assert.equal(await b.tokens.cachedGet!(t.id), undefined);
    assert.equal(await b.tokens.cachedGet!(t2.id), undefined, 'the copy kept before the drop was dropped with it');
    // Listening again, it caches again.
    const u = await a.tokens.create(token('after'));
    const again = await b.tokens.cachedGet!(u.id);
    await unheard(db, 'DELETE FROM tokens WHERE id = $1', [u.id]);
    assert.equal(await b.tokens.cachedGet!(u.id), again, 'cached again once listening');
  });
});
