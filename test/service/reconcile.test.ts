/**
 * The start-up reconcile (server/store/reconcile.ts): leftovers of writes a crash cut short are removed and logged
 * one line each; nothing that a record names is touched.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import { openStore } from '../../server/store/index.js';
import { writeFileAtomicSync } from '../../server/store/json-file.js';
import { documentRecord, recordsOnDisk, tempDir } from './support.js';

const TEMPLATE = {
  name: 't',
  description: '',
  kind: 'json' as const,
  original_filename: 't.json',
  google_doc_id: null,
  output_filename: null,
  output_filetype: 'pdf',
  editable: null,
  password: null,
  expiration: 60,
  delimiters: ['{{', '}}'] as [string, string],
  fields: [],
  sample_data: {},
  schema: {},
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

const PDF = Buffer.from('%PDF-1.7\n…\n%%EOF\n');

test('reconcile removes orphans, temp files and a torn idempotency line; keeps everything a record names', async () => {
  const dir = tempDir();
  try {
    // A store in a valid state: documents 1 (completed, with editable copy), 2 (failed), 3 (completed), a template.
    let store = await openStore(dir);
    const ids = [store.documents.nextId(), store.documents.nextId(), store.documents.nextId(), store.documents.nextId()];
    await store.documents.insert(documentRecord(ids[0], { has_editable: true }));
    await store.documents.insert(documentRecord(ids[1], { status: 'failed', size: null, pages: null }));
    await store.documents.insert(documentRecord(ids[2], { size: PDF.length }));
    await store.documents.insert(documentRecord(ids[3], { status: 'completed' }));
    await store.files.write(ids[0], 'pdf', PDF);
    await store.files.write(ids[0], 'docx', Buffer.from('PK'), 'editable');
    await store.files.write(ids[2], 'pdf', PDF);
    // Document 4 is completed but its file is gone (lost outside docloom).
    const kept = store.templates.create({ ...TEMPLATE, uuid: '11111111-1111-4111-8111-111111111111' }, Buffer.from('{}'));
    await store.idempotency.put({ key: '1:a', hash: 'h', status: 201, document_id: ids[0], at: Date.now() });
    await store.close();

    // What a crash leaves behind.
    const bucket = path.join(dir, 'documents/files/000000');
    fs.writeFileSync(path.join(bucket, '2.pdf'), PDF); // a failed document's file
    fs.writeFileSync(path.join(bucket, '99.pdf'), PDF); // no record at all
    fs.writeFileSync(path.join(bucket, '3.editable.docx'), 'PK'); // a copy its record does not name
    fs.writeFileSync(path.join(bucket, '7.pdf.4199999.abcd.tmp'), 'x');
    fs.writeFileSync(path.join(dir, 'tmp', 'shard-000000.json.4199998.abcd.tmp'), '{');
    fs.writeFileSync(path.join(dir, 'tmp', `tokens.json.${process.ppid}.beef.tmp`), '{'); // a live writer's (the test runner)
    fs.writeFileSync(path.join(dir, '.templates.json.4199997.abcd.tmp'), '{'); // the old naming, beside the file
    fs.mkdirSync(path.join(dir, 'templates', '22222222-2222-4222-8222-222222222222'));
    fs.writeFileSync(path.join(dir, 'templates', '22222222-2222-4222-8222-222222222222', 'v1.json'), '{}');
    fs.writeFileSync(path.join(dir, 'templates', kept.uuid, 'v2.json'), '{}'); // a replace cut short
    fs.appendFileSync(path.join(dir, 'idempotency.jsonl'), '{"key":"1:b","hash":"h","sta');

    const logs: string[] = [];
    store = await openStore(dir, { log: (line) => logs.push(line) });
    const exists = (p: string) => fs.existsSync(path.join(dir, p));
    // Removed.
    assert.equal(exists('documents/files/000000/2.pdf'), false);
    assert.equal(exists('documents/files/000000/99.pdf'), false);
    assert.equal(exists('documents/files/000000/3.editable.docx'), false);
    assert.equal(exists('documents/files/000000/7.pdf.4199999.abcd.tmp'), false);
    assert.equal(exists('tmp/shard-000000.json.4199998.abcd.tmp'), false);
    assert.equal(exists('.templates.json.4199997.abcd.tmp'), false);
    assert.equal(exists('templates/22222222-2222-4222-8222-222222222222'), false);
    assert.equal(exists(`templates/${kept.uuid}/v2.json`), false);
    // Kept: everything a record names, and a temp file whose writer still runs.
    assert.equal(exists('documents/files/000000/1.pdf'), true);
    assert.equal(exists('documents/files/000000/1.editable.docx'), true);
    assert.equal(exists('documents/files/000000/3.pdf'), true);
    assert.equal(exists(`templates/${kept.uuid}/v1.json`), true);
    assert.equal(exists(`tmp/tokens.json.${process.ppid}.beef.tmp`), true);
    assert.equal(store.documents.get(ids[0])!.status, 'completed');
    assert.equal(store.documents.get(ids[2])!.status, 'completed');
    assert.equal(store.documents.get(ids[1])!.status, 'failed');
    // The completed record without a file is failed, not left pointing at nothing.
    assert.equal(store.documents.get(ids[3])!.status, 'failed');
    assert.equal(store.documents.get(ids[3])!.error?.code, 'file_missing');
    assert.equal(store.templates.all().length, 1);
    // The torn line is gone from the file; the whole one is kept.
    const lines = fs.readFileSync(path.join(dir, 'idempotency.jsonl'), 'utf8').split('\n').filter(Boolean);
    assert.equal(lines.length, 1);
    assert.equal(JSON.parse(lines[0]).key, '1:a');
    assert.ok(store.idempotency.get('1:a'));

    // One log line per action.
    const reconcile = logs.filter((l) => l.startsWith('store: reconcile:'));
    const expect = [
      /removed documents\/files\/000000\/2\.pdf \(record is failed\)/,
      /removed documents\/files\/000000\/99\.pdf \(no record\)/,
      /removed documents\/files\/000000\/3\.editable\.docx/,
      /removed documents\/files\/000000\/7\.pdf\.4199999\.abcd\.tmp/,
      /removed tmp\/shard-000000\.json\.4199998\.abcd\.tmp/,
      /removed \.templates\.json\.4199997\.abcd\.tmp/,
      /removed templates\/22222222-2222-4222-8222-222222222222 \(template folder without a record\)/,
      new RegExp(`removed templates/${kept.uuid}/v2\\.json`),
      /document 4 has no file: marked failed/,
      /kept tmp\/tokens\.json\.\d+\.beef\.tmp \(its writer, pid \d+, is running\)/,
      /dropped 1 torn line/,
    ];
    for (const re of expect) assert.equal(reconcile.filter((l) => re.test(l)).length, 1, `${re}: ${reconcile.join('\n')}`);
    assert.equal(reconcile.length, expect.length, reconcile.join('\n'));
    await store.close();

    // A second start finds nothing to do (the first one's changes were durable).
    const again: string[] = [];
    store = await openStore(dir, { log: (line) => again.push(line) });
    await store.close();
    assert.deepEqual(again.filter((l) => l.startsWith('store: reconcile:') && !l.includes('kept ')), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a clean store reconciles silently and its writes leave tmp/ empty', async () => {
  const dir = tempDir();
  try {
    const logs: string[] = [];
    let store = await openStore(dir, { log: (l) => logs.push(l) });
    store.templates.create({ ...TEMPLATE, uuid: '33333333-3333-4333-8333-333333333333' }, Buffer.from('{}'));
    store.settings.update({ allow_private_network: true });
    const id = store.documents.nextId();
    await store.documents.insert(documentRecord(id, { size: PDF.length }));
    await store.files.write(id, 'pdf', PDF);
    await store.close();
    assert.deepEqual(fs.readdirSync(path.join(dir, 'tmp')), []);
    store = await openStore(dir, { log: (l) => logs.push(l) });
    await store.close();
    assert.deepEqual(logs.filter((l) => l.includes('reconcile')), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a temp file of a writer that is still running survives the start; a dead writer\'s does not', async () => {
  const dir = tempDir();
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: 'ignore' });
  try {
    await (await openStore(dir)).close();
    const live = `templates.json.${child.pid}.aaaa.tmp`;
    const dead = 'templates.json.4199996.bbbb.tmp'; // above any pid_max: never a live process
    fs.writeFileSync(path.join(dir, 'tmp', live), '{');
    fs.writeFileSync(path.join(dir, 'tmp', dead), '{');
    const store = await openStore(dir);
    await store.close();
    assert.deepEqual(fs.readdirSync(path.join(dir, 'tmp')), [live]);
  } finally {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a writer whose tmp/ is gone (a service starting meanwhile) makes it again; the file is whole', async () => {
  const dir = tempDir();
  try {
    const file = path.join(dir, 'tokens.json');
    writeFileAtomicSync(file, '{"a":1}');
    fs.rmSync(path.join(dir, 'tmp'), { recursive: true, force: true });
    writeFileAtomicSync(file, '{"a":2}');
    assert.equal(fs.readFileSync(file, 'utf8'), '{"a":2}');
    assert.deepEqual(fs.readdirSync(path.join(dir, 'tmp')), []);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['tmp', 'tokens.json']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('record logs: a start replays them after the snapshot, checks completed lines against their files, skips a torn line', async () => {
  const dir = tempDir();
  try {
    await (await openStore(dir)).close();
    const records = path.join(dir, 'documents/records');
    const bucket = path.join(dir, 'documents/files/000000');
    fs.mkdirSync(bucket, { recursive: true });
    const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
    // Snapshot: documents 1 and 2; logs from generation 3 on are not in it.
    fs.writeFileSync(path.join(records, 'shard-000000.json'), JSON.stringify({ shard: 0, last_id: 2, log_gen: 3, documents: [documentRecord(1, { size: PDF.length }), documentRecord(2, { size: PDF.length })] }));
    fs.writeFileSync(path.join(bucket, '1.pdf'), PDF);
    fs.writeFileSync(path.join(bucket, '2.pdf'), PDF);
    // Generation 2 was folded into the snapshot (its removal cut short): ignored, removed.
    fs.writeFileSync(path.join(records, 'shard-000000.g2.jsonl'), JSON.stringify({ del: 1 }) + '\n');
    const lines = [
      // 3: completed, its file landed. 4: completed, its file never reached the disk. 5: completed, the file's
      // bytes did not land (same size, zeros). 2: removed. 6: async pending. Then an append cut short.
      { put: documentRecord(3, { size: PDF.length }), sha256: { output: sha(PDF) } },
      { put: documentRecord(4, { size: PDF.length }), sha256: { output: sha(PDF) } },
      { put: documentRecord(5, { size: PDF.length }), sha256: { output: sha(PDF) } },
      { del: 2 },
      { put: documentRecord(6, { status: 'pending', size: null, pages: null }) },
    ];
    fs.writeFileSync(path.join(records, 'shard-000000.g3.jsonl'), lines.map((l) => JSON.stringify(l) + '\n').join('') + '{"put":{"id":7,"sta');
    fs.writeFileSync(path.join(bucket, '3.pdf'), PDF);
    fs.writeFileSync(path.join(bucket, '5.pdf'), Buffer.alloc(PDF.length));

    const logs: string[] = [];
    const store = await openStore(dir, { log: (l) => logs.push(l) });
    const status = (id: number) => store.documents.get(id)?.status;
    assert.equal(status(1), 'completed');
    assert.equal(store.documents.get(2), undefined);
    assert.equal(status(3), 'completed');
    for (const id of [4, 5]) {
      assert.equal(status(id), 'failed');
      assert.equal(store.documents.get(id)?.error?.code, 'interrupted');
    }
    assert.equal(store.documents.get(7), undefined);
    assert.equal(store.documents.nextId(), 7);
    // The replayed logs were folded into a new snapshot; appends go to a new generation.
    const names = fs.readdirSync(records).sort();
    assert.deepEqual(names, ['shard-000000.json']);
    assert.equal(JSON.parse(fs.readFileSync(path.join(records, 'shard-000000.json'), 'utf8')).log_gen, 5);
    // Files of documents that are not completed are orphans.
    assert.deepEqual(fs.readdirSync(bucket).sort(), ['1.pdf', '3.pdf']);
    assert.ok(logs.some((l) => /shard-000000\.g3\.jsonl: skipped 1 unfinished line/.test(l)), logs.join('\n'));
    for (const id of [4, 5]) assert.ok(logs.some((l) => l.includes(`document ${id}: its files had not reached the disk`)), logs.join('\n'));
    // 6 was pending: the service marks it interrupted (not the store); it is a record like any other here.
    assert.equal(status(6), 'pending');
    await store.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('record logs: a completion is one round; a restart finds it; a clean stop leaves snapshots only', async () => {
  const dir = tempDir();
  try {
    let store = await openStore(dir);
    const ids = Array.from({ length: 30 }, () => store.documents.nextId());
    await Promise.all(
      ids.map(async (id) => {
        await store.documents.insert(documentRecord(id, { status: 'processing', size: null, pages: null }), false);
        const bytes = Buffer.from(`%PDF-1.7\n${id}\n%%EOF\n`);
        const placed = await store.files.place(id, 'pdf', bytes);
        const done = await store.documents.complete(id, { status: 'completed', size: bytes.length, pages: 1 }, { output: placed.sha256 }, placed.durable);
        assert.equal(done?.status, 'completed');
      }),
    );
    await store.documents.remove(ids[0]);
    await store.files.remove(ids[0], 'pdf');
    // On disk before any snapshot: the log holds every change.
    const onDisk = recordsOnDisk(dir);
    assert.deepEqual(onDisk.map((d) => d.id), ids.slice(1));
    assert.ok(onDisk.every((d) => d.status === 'completed'));
    await store.close();
    assert.deepEqual(fs.readdirSync(path.join(dir, 'documents/records')), ['shard-000000.json']);
    const logs: string[] = [];
    store = await openStore(dir, { log: (l) => logs.push(l) });
    assert.equal(store.documents.count, 29);
    assert.ok(ids.slice(1).every((id) => store.documents.get(id)?.status === 'completed'));
    assert.deepEqual(logs.filter((l) => l.includes('reconcile')), []);
    await store.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('record logs: a completion whose line starts a compaction is in the snapshot that compaction writes', async () => {
  const dir = tempDir();
  try {
    const store = await openStore(dir);
    // 499 lines, so the completion's line is the 500th and starts a compaction (COMPACT_AT) while its files are
    // still becoming durable.
    for (let i = 0; i < 499; i++) {
      const id = store.documents.nextId();
      await store.documents.insert(documentRecord(id, { status: 'failed', size: null, pages: null }));
    }
    const id = store.documents.nextId();
    await store.documents.insert(documentRecord(id, { status: 'processing', size: null, pages: null }), false);
    const bytes = Buffer.from(`%PDF-1.7\n${id}\n%%EOF\n`);
    const placed = await store.files.place(id, 'pdf', bytes);
    const slowFiles = new Promise<void>((resolve) => setTimeout(resolve, 200)).then(() => placed.durable);
    const done = await store.documents.complete(id, { status: 'completed', size: bytes.length, pages: 1 }, { output: placed.sha256 }, slowFiles);
    assert.equal(done?.status, 'completed');
    // Let the compaction finish, then read the disk as a start after a kill would (no clean stop).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const onDisk = recordsOnDisk(dir).find((d) => d.id === id);
    assert.equal(onDisk?.status, 'completed', 'the acknowledged completion is on disk');
    await store.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
