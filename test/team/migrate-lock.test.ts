/**
 * Two `docloom migrate --to` runs into one database would compare, claim and copy over each other: while one holds
 * the database's migrate lock (the advisory lock `docloom.migrate-to`), another is refused at once with a message
 * saying so, writing nothing; once the lock is free the same command runs. Against a throwaway PostgreSQL cluster;
 * the files go to a folder (--files-dir), so no S3 server is needed. The lock is held here by a plain connection,
 * as a running migration holds it (a migration's own 10,000-document run is test/team/migrate.test.ts).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import pg from 'pg';
import { startPgCluster, type PgCluster } from '../helpers/pg-cluster.js';
import { runProcess } from '../helpers/process.js';
import { documentRecord } from '../service/support.js';
import { openStore } from '../../server/store/index.js';

const root = path.resolve(import.meta.dirname, '../..');
const cluster = await startPgCluster();
const skip = typeof cluster === 'string' ? `PostgreSQL not available: ${cluster}` : undefined;
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-migrate-lock-'));

after(async () => {
  if (typeof cluster !== 'string') await cluster.stop();
  fs.rmSync(temp, { recursive: true, force: true });
});

it('a second docloom migrate into the same database is refused while the first holds the lock; runs once it is free', { skip, timeout: 120_000 }, async () => {
  const url = await (cluster as PgCluster).createDatabase();
  const dataDir = path.join(temp, 'data');
  const store = await openStore(dataDir);
  await store.documents.insert(documentRecord(1, { status: 'failed' }), true);
  await store.close();
  fs.mkdirSync(path.join(temp, 'files'));
  const migrate = () =>
    runProcess(process.execPath, ['--import', 'tsx', path.join(root, 'server/cli.ts'), 'migrate', '--to', url, '--data', dataDir, '--files-dir', path.join(temp, 'files')], {
      cwd: root,
      env: { ...process.env, DOCLOOM_LOG_LEVEL: 'error', DOCLOOM_DATA_DIR: path.join(temp, 'unused') },
    });
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    await db.query(`SELECT pg_advisory_lock(hashtext('docloom.migrate-to'))`);
    const refused = await migrate();
    assert.equal(refused.status, 1, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /another docloom migrate is running into the PostgreSQL .*nothing was written\. Wait for it to finish/);
    assert.equal((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM documents')).rows[0].n, 0, 'nothing copied');

    await db.query(`SELECT pg_advisory_unlock(hashtext('docloom.migrate-to'))`);
    const ran = await migrate();
    assert.equal(ran.status, 0, ran.stdout + ran.stderr);
    assert.equal((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM documents')).rows[0].n, 1);
    // The finished run let its lock go: it can be taken again at once.
    assert.equal((await db.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(hashtext('docloom.migrate-to')) AS ok`)).rows[0].ok, true);
  } finally {
    await db.end();
  }
});
