/**
 * A team server's start on PostgreSQL (store/pg): the URL checked before connecting, an unreachable database or a
 * wrong password said in one line naming host and database (never the password), migrations under an advisory
 * lock (instances started together do not race), a schema newer than this docloom refused, an older one upgraded.
 * Through the real `docloom` command where a person would see it (tsx runs server/cli.ts). The cluster is this
 * file's own (test/helpers/pg-cluster.ts); those tests skip, saying why, only where the binaries are absent.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { parseDatabaseUrl } from '../../server/store/pg/url.js';
import { LATEST_SCHEMA, MIGRATIONS, openPgRepositories, type Migration } from '../../server/store/pg/index.js';
import { loadConfig } from '../../server/config.js';
import { PG_PASSWORD, freePort, startPgCluster } from '../helpers/pg-cluster.js';
import { runProcess } from '../helpers/process.js';

const root = path.resolve(import.meta.dirname, '../..');
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-pgstart-'));
const cacheDir = path.join(temp, 'cache');
const cluster = await startPgCluster();
const skip = typeof cluster === 'string' ? `PostgreSQL not available: ${cluster}` : undefined;

after(async () => {
  if (typeof cluster !== 'string') await cluster.stop();
  fs.rmSync(temp, { recursive: true, force: true });
});

/** The docloom command, as a person runs it (server/cli.ts through tsx), with these variables. */
function docloom(args: string[], env: Record<string, string>) {
  return runProcess(process.execPath, ['--import', 'tsx', path.join(root, 'server/cli.ts'), ...args], {
    cwd: root,
    env: { ...process.env, DOCLOOM_DATA_DIR: path.join(temp, 'data'), DOCLOOM_LOG_LEVEL: 'error', ...env },
  });
}

/** A migration of a newer docloom than this one. */
const L = LATEST_SCHEMA;
const NEXT: Migration = {
  version: L + 1,
  describe: 'a column a newer docloom added',
  async up(client) {
    await client.query('ALTER TABLE documents ADD COLUMN newer text');
  },
};

describe('DOCLOOM_DATABASE_URL is checked before any connection', () => {
  for (const raw of ['not a url', 'mysql://u:hunter22@db/docloom', 'postgres://u:hunter22@db.example', 'postgres://u:hunter22@db.example/', 'http://u:hunter22@x/y']) {
    it(`refuses ${JSON.stringify(raw.replace('hunter22', '…'))}, naming the setting and not the password`, () => {
      assert.throws(
        () => loadConfig({ DOCLOOM_DATABASE_URL: raw }),
        (err: Error) => err.message.startsWith('DOCLOOM_DATABASE_URL is not a valid PostgreSQL URL') && !err.message.includes('hunter22'),
      );
    });
  }

  it('reads host, port and database of a good one', () => {
    const url = parseDatabaseUrl('postgresql://app:p%40ss@db.internal:6543/docloom_prod?sslmode=require');
    assert.deepEqual([url.host, url.port, url.database, url.describe], ['db.internal', 6543, 'docloom_prod', 'database "docloom_prod" on db.internal:6543']);
    assert.equal(parseDatabaseUrl('postgres://u@h/d').port, 5432);
  });

  it('the command refuses a malformed one with exit 2 and one line', async () => {
    const run = await docloom(['db', 'migrate'], { DOCLOOM_DATABASE_URL: 'mysql://u:hunter22@db/docloom' });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /^DOCLOOM_DATABASE_URL is not a valid PostgreSQL URL .*mysql:\n$/);
    assert.doesNotMatch(run.stderr + run.stdout, /hunter22/);
  });
});

describe('an unreachable database', () => {
  it('fails the start with one line naming host and database, never the password', async () => {
    const port = await freePort();
    const url = `postgres://docloom:hunter22@127.0.0.1:${port}/teamdb`;
    await assert.rejects(openPgRepositories(url, { cacheDir }), (err: Error) => {
      assert.match(err.message, new RegExp(`^docloom: cannot connect to the PostgreSQL database "teamdb" on 127\\.0\\.0\\.1:${port} \\(DOCLOOM_DATABASE_URL\\): .*ECONNREFUSED`));
      assert.doesNotMatch(err.message, /hunter22/);
      return true;
    });
    for (const command of [['db', 'migrate'], ['serve']]) {
      const run = await docloom(command, { DOCLOOM_DATABASE_URL: url, DOCLOOM_PORT: '0' });
      assert.equal(run.status, 1, `${command.join(' ')}: ${run.stderr}`);
      const lines = run.stderr.trim().split('\n');
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0], /^docloom: cannot connect to the PostgreSQL database "teamdb" on 127\.0\.0\.1:\d+ \(DOCLOOM_DATABASE_URL\): /);
      assert.doesNotMatch(run.stderr + run.stdout, /hunter22/);
    }
  });

  it('a wrong password is said without either password', { skip }, async () => {
    if (typeof cluster === 'string') return;
    const url = cluster.url('postgres').replace(PG_PASSWORD, 'Wr0ng-hunter22');
    await assert.rejects(openPgRepositories(url, { cacheDir }), (err: Error) => {
      assert.match(err.message, /^docloom: cannot connect to the PostgreSQL database "postgres" on 127\.0\.0\.1:\d+ \(DOCLOOM_DATABASE_URL\): password authentication failed/);
      assert.doesNotMatch(err.message, /hunter22|pw-Secret/);
      return true;
    });
  });
});

describe('schema migrations', { skip }, () => {
  it('instances started together migrate once, under the advisory lock', async () => {
    if (typeof cluster === 'string') return;
    const url = await cluster.createDatabase();
    const lines: string[] = [];
    const opened = await Promise.all(Array.from({ length: 6 }, () => openPgRepositories(url, { cacheDir, log: (l) => lines.push(l) })));
    try {
      assert.deepEqual(lines, MIGRATIONS.map((m) => `store: database schema ${m.version - 1} → ${m.version}: ${m.describe}`));
      const { rows } = await opened[0].pool.query('SELECT version FROM docloom_schema_migrations ORDER BY version');
      assert.deepEqual(rows.map((r: { version: number }) => r.version), MIGRATIONS.map((m) => m.version));
      // One secret for all: each instance signs download links the others accept.
      for (const o of opened) assert.deepEqual(o.meta.secret, opened[0].meta.secret);
    } finally {
      await Promise.all(opened.map((o) => o.close()));
    }
  });

  it('an older database is upgraded step by step; an older docloom then refuses it', async () => {
    if (typeof cluster === 'string') return;
    const url = await cluster.createDatabase();
    await (await openPgRepositories(url, { cacheDir })).close();
    const lines: string[] = [];
    const newer = await openPgRepositories(url, { cacheDir, migrations: [...MIGRATIONS, NEXT], log: (l) => lines.push(l) });
    assert.equal(newer.meta.schemaVersion, L + 1);
    assert.deepEqual(lines, [`store: database schema ${L} → ${L + 1}: a column a newer docloom added`]);
    await newer.close();

    await assert.rejects(openPgRepositories(url, { cacheDir }), (err: Error) => {
      assert.match(err.message, new RegExp(`^docloom: the PostgreSQL database "t\\w+" on 127\\.0\\.0\\.1:\\d+ is at schema version ${L + 1}, newer than this docloom understands \\(${L}\\)`));
      return true;
    });
    const run = await docloom(['db', 'migrate'], { DOCLOOM_DATABASE_URL: url });
    assert.equal(run.status, 1);
    assert.match(run.stderr, new RegExp(`^docloom: the PostgreSQL database "t\\w+" on 127\\.0\\.0\\.1:\\d+ is at schema version ${L + 1}, newer than this docloom understands \\(${L}\\); .*\\n$`));
    assert.doesNotMatch(run.stderr, new RegExp(PG_PASSWORD));
  });

  it('a migration that fails leaves the schema as it was (its transaction rolled back)', async () => {
    if (typeof cluster === 'string') return;
    const url = await cluster.createDatabase();
    const broken: Migration = {
      version: L + 1,
      describe: 'half a change',
      async up(client) {
        await client.query('CREATE TABLE half_made (x int)');
        await client.query('SELECT no_such_function()');
      },
    };
    await assert.rejects(openPgRepositories(url, { cacheDir, migrations: [...MIGRATIONS, broken] }), new RegExp(`schema migration ${L + 1} \\(half a change\\) failed`));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT to_regclass('half_made') AS t, (SELECT max(version) FROM docloom_schema_migrations) AS v`);
      assert.deepEqual(rows[0], { t: null, v: L });
    } finally {
      await client.end();
    }
  });

  it('`docloom db migrate` reports the version; `serve` with object storage but no database refuses, naming both settings', async () => {
    if (typeof cluster === 'string') return;
    const url = await cluster.createDatabase();
    const migrate = await docloom(['db', 'migrate'], { DOCLOOM_DATABASE_URL: url });
    assert.equal(migrate.status, 0, migrate.stderr);
    assert.match(migrate.stdout, new RegExp(`schema 0 → 1: .*\\n(?:.*schema \\d+ → \\d+: .*\\n)*.*database "t\\w+" on 127\\.0\\.0\\.1:\\d+: schema version ${L}, up to date\\.\\n$`));
    assert.doesNotMatch(migrate.stderr + migrate.stdout, new RegExp(PG_PASSWORD));
    // Serving on the database is test/team/serve.test.ts's; files in a bucket need it (the data folder's start-up
    // check reads its documents' files on this disk).
    const serve = await docloom(['serve'], { DOCLOOM_S3_BUCKET: 'docloom-files', DOCLOOM_PORT: '0' });
    assert.equal(serve.status, 1);
    assert.match(serve.stderr, /^docloom: DOCLOOM_S3_BUCKET is set without DOCLOOM_DATABASE_URL/);
  });
});
