/**
 * The start-up reconcile (server/store/reconcile.ts): leftovers of writes a crash cut short are removed and logged
 * one line each; nothing that a record names is touched.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { openStore } from '../../server/store/index.js';
import { writeFileAtomicSync } from '../../server/store/json-file.js';
import { documentRecord, tempDir } from './support.js';

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
