/** The store on disk: shard layout, ids never reused, restart, meta/upgrade, lock, atomic files, token hashes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openStore, openTokenStore, SHARD_SIZE } from '../../server/store/index.js';
import { TokenService } from '../../server/services/tokens.js';
import { SCHEMA_VERSION } from '../../server/store/meta.js';
import { documentRecord, fillStore, recordsOnDisk, tempDir } from './support.js';

function shardFiles(dataDir: string): string[] {
  return fs.readdirSync(path.join(dataDir, 'documents', 'records')).filter((n) => n.endsWith('.json')).sort();
}

test('documents are sharded by id range: ≤ 1,000 records per file, one write touches one shard', async () => {
  const dir = tempDir();
  try {
    await fillStore(dir, 2 * SHARD_SIZE + 5);
    assert.deepEqual(shardFiles(dir), ['shard-000000.json', 'shard-000001.json', 'shard-000002.json']);
    const shard1 = JSON.parse(fs.readFileSync(path.join(dir, 'documents/records/shard-000001.json'), 'utf8'));
    assert.equal(shard1.documents.length, SHARD_SIZE);
    assert.equal(shard1.documents[0].id, 1001);
    assert.equal(shard1.documents.at(-1).id, 2000);

    const store = await openStore(dir);
    const records = path.join(dir, 'documents/records');
    const stamp = () => new Map(fs.readdirSync(records).map((n) => [n, fs.statSync(path.join(records, n)).mtimeMs]));
    const before = stamp();
    await new Promise((r) => setTimeout(r, 20));
    const id = store.documents.nextId();
    assert.equal(id, 2006);
    await store.documents.insert(documentRecord(id));
    // The write is one line appended to shard 2's record log; no shard file is rewritten.
    const after = stamp();
    const changed = [...after].filter(([n, t]) => before.get(n) !== t).map(([n]) => n);
    assert.deepEqual(changed, ['shard-000002.g1.jsonl']);
    assert.deepEqual(recordsOnDisk(dir, 2).map((d) => d.id), [2001, 2002, 2003, 2004, 2005, 2006]);
    await store.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('records survive a restart; ids are never reused after deleting the newest', async () => {
  const dir = tempDir();
  try {
    await fillStore(dir, 3);
    let store = await openStore(dir);
    assert.equal(store.documents.count, 3);
    assert.equal(await store.documents.remove(3), true);
    assert.equal(await store.documents.remove(3), false);
    await store.close();
    store = await openStore(dir);
    assert.equal(store.documents.count, 2);
    assert.equal(store.documents.get(3), undefined);
    assert.equal(store.documents.nextId(), 4);
    const page = store.documents.list({}, 0, 10);
    assert.deepEqual(page.items.map((d) => d.id), [2, 1]);
    await store.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('no temp files are left behind; writes are whole JSON files', async () => {
  const dir = tempDir();
  try {
    const store = await openStore(dir);
    const writes = [];
    for (let i = 0; i < 50; i++) {
      const id = store.documents.nextId();
      writes.push(store.documents.insert(documentRecord(id)));
    }
    await Promise.all(writes);
    await store.close();
    const names = fs.readdirSync(path.join(dir, 'documents/records'));
    assert.deepEqual(names, ['shard-000000.json']);
    assert.equal(JSON.parse(fs.readFileSync(path.join(dir, 'documents/records', names[0]), 'utf8')).documents.length, 50);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'tmp')), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('meta.json carries the schema version; a newer schema is refused', async () => {
  const dir = tempDir();
  try {
    const store = await openStore(dir);
    await store.close();
    const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8'));
    assert.equal(meta.schema_version, SCHEMA_VERSION);
    fs.writeFileSync(path.join(dir, 'meta.json'), JSON.stringify({ ...meta, schema_version: SCHEMA_VERSION + 1 }));
    await assert.rejects(openStore(dir), /newer than this docloom understands/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a data dir without meta.json (tokens made by the CLI first) is upgraded to the current layout', async () => {
  const dir = tempDir();
  try {
    fs.writeFileSync(path.join(dir, 'tokens.json'), JSON.stringify({ last_id: 0, tokens: [] }));
    const store = await openStore(dir);
    assert.equal(store.meta.schema_version, SCHEMA_VERSION);
    assert.ok(fs.statSync(path.join(dir, 'documents/records')).isDirectory());
    assert.ok(fs.statSync(path.join(dir, 'templates')).isDirectory());
    await store.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('one service per data dir; a stale lock is taken over', async () => {
  const dir = tempDir();
  try {
    const store = await openStore(dir);
    await assert.rejects(openStore(dir), /another docloom service/);
    await store.close();
    // A lock left by a process that no longer exists.
    fs.writeFileSync(path.join(dir, 'service.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, token: 'x' }));
    const again = await openStore(dir);
    await again.close();
    assert.equal(fs.existsSync(path.join(dir, 'service.lock')), false);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('tokens.json keeps only SHA-256 hashes; the signing secret is private', async () => {
  const dir = tempDir();
  try {
    const tokens = new TokenService(openTokenStore(dir));
    const { token } = tokens.create('a');
    const file = JSON.parse(fs.readFileSync(path.join(dir, 'tokens.json'), 'utf8'));
    assert.equal(file.tokens.length, 1);
    assert.match(file.tokens[0].hash, /^[0-9a-f]{64}$/);
    assert.ok(!JSON.stringify(file).includes(token.split('|')[1]));
    assert.ok(tokens.verify(token));
    assert.equal(tokens.verify(token.slice(0, -1) + (token.endsWith('a') ? 'b' : 'a')), null);
    const store = await openStore(dir);
    await store.close();
    const mode = fs.statSync(path.join(dir, 'secret.key')).mode & 0o777;
    if (process.platform !== 'win32') assert.equal(mode, 0o600);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
