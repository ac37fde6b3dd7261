/**
 * Disk full during a batch (issue #15, "Bad input and failure"): the data dir is a small tmpfs; once the batch has
 * made some documents the disk is filled. The batch ends `failed` with `insufficient_storage` and the reason; the
 * store stays consistent — after a restart every completed document has its file, every file has a completed
 * record, and no row has two documents. The tmpfs needs root (mount): skipped with that reason otherwise.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { tempDir, uploadTemplate, type Body } from './support.js';
import { certificateCsv } from '../batch/fixtures.js';
import { fill, tryMount } from '../helpers/tmpfs.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const mountPoint = tempDir('docloom-batch-full-');
const mounted = tryMount(mountPoint, '48m');
test.after(() => {
  if (mounted) execFileSync('umount', [mountPoint]);
  fs.rmSync(mountPoint, { recursive: true, force: true });
});

test('disk full mid-batch: the batch ends failed with insufficient_storage; after a restart the store is consistent', { skip: mounted ? false : 'needs root to mount a tmpfs' }, async () => {
  const dataDir = path.join(mountPoint, 'data');
  const filler = path.join(mountPoint, 'filler');
  let s: TestServer | null = await startTestServer({ dataDir, renderWorkers: 1 });
  try {
    const made = await uploadTemplate(s, { name: 'certificate.json', bytes: fs.readFileSync(path.join(ROOT, 'resources', 'templates', 'certificate.json')) });
    const form = new FormData();
    form.append('template_id', made.body.template.uuid);
    form.append('file', new Blob([certificateCsv(2000)]), 'rows.csv');
    const res = await s.api('/api/batch', { method: 'POST', body: form });
    assert.equal(res.status, 202);
    const id = ((await res.json()) as Body).batch.id as number;
    for (;;) {
      const b = ((await (await s.api(`/api/batch/${id}`)).json()) as Body).batch;
      if (b.done >= 20) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    fill(filler);
    let batch: Body;
    for (;;) {
      batch = ((await (await s.api(`/api/batch/${id}`)).json()) as Body).batch;
      if (batch.status !== 'processing' && batch.status !== 'queued') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(batch.status, 'failed', JSON.stringify(batch));
    assert.equal(batch.error.code, 'insufficient_storage');
    assert.match(batch.error.message, /no space left/);
    assert.ok(batch.done < 2000);
    // Reads still work on the full disk.
    assert.equal((await s.api(`/api/document?batch_id=${id}`)).status, 200);
    // Room again before the stop: the `failed` status, not written on the full disk, is written as the store closes.
    fs.rmSync(filler);
    await s.close();
    s = null;

    s = await startTestServer({ dataDir, renderWorkers: 1 });
    const after = ((await (await s.api(`/api/batch/${id}`)).json()) as Body).batch;
    assert.equal(after.status, 'failed', 'a failed batch is not resumed');
    const shards = path.join(dataDir, 'documents', 'records');
    const rows = new Set<number>();
    const completed = new Set<string>();
    for (const f of fs.readdirSync(shards)) {
      for (const d of (JSON.parse(fs.readFileSync(path.join(shards, f), 'utf8')) as { documents: Body[] }).documents) {
        assert.ok(!rows.has(d.batch_row), `row ${d.batch_row} has one document`);
        rows.add(d.batch_row);
        if (d.status === 'completed') completed.add(`${d.id}.pdf`);
      }
    }
    const files = new Set<string>();
    const filesDir = path.join(dataDir, 'documents', 'files');
    for (const bucket of fs.existsSync(filesDir) ? fs.readdirSync(filesDir) : []) for (const f of fs.readdirSync(path.join(filesDir, bucket))) files.add(f);
    assert.deepEqual([...files].sort(), [...completed].sort(), 'every completed record has its file and every file a record');
    assert.ok(completed.size >= 20);
  } finally {
    await s?.close();
  }
});
