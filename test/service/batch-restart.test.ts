/**
 * A batch survives a kill (issue #15): the real service (dist/, bin/docloom.js) is killed with SIGKILL in the middle
 * of a 600-row batch, started again on the same data dir, and the batch goes on to `completed` with every row made
 * exactly once — 600 documents, rows 1…600 each once, every file there, no file without a record. Skipped, with
 * this reason, when dist/ is not built.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { BUILT, ROOT, cliToken, startServe, type ServeChild } from '../../scripts/lib/serve-child.js';
import { tempDir, type Body } from './support.js';
import { certificateCsv } from '../batch/fixtures.js';

const NOT_BUILT = BUILT ? false : 'dist/server is not built (run npm run build:server; npm test does)';
const ROWS = 600;

async function json(res: Response): Promise<Body> {
  return (await res.json()) as Body;
}

test('SIGKILL mid-batch, start again: the batch completes with every row rendered exactly once', { skip: NOT_BUILT, timeout: 300_000 }, async () => {
  const dataDir = tempDir('docloom-batch-kill-');
  let service: ServeChild | null = null;
  try {
    const token = await cliToken(dataDir, 'batch restart test');
    const auth = { authorization: `Bearer ${token}` };
    service = await startServe(dataDir);
    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(path.join(ROOT, 'resources', 'templates', 'certificate.json'))]), 'certificate.json');
    const uuid = (await json(await fetch(`${service.url}/api/template`, { method: 'POST', body: form, headers: auth }))).template.uuid as string;
    const rows = new FormData();
    rows.append('template_id', uuid);
    rows.append('output_filename', '{{certificate_id}}');
    rows.append('file', new Blob([certificateCsv(ROWS)]), 'rows.csv');
    const accepted = await fetch(`${service.url}/api/batch`, { method: 'POST', body: rows, headers: auth });
    assert.equal(accepted.status, 202);
    const id = (await json(accepted)).batch.id as number;

    // Kill once some rows are done and many are not.
    let before = 0;
    for (;;) {
      const b = (await json(await fetch(`${service.url}/api/batch/${id}`, { headers: auth }))).batch;
      before = b.done;
      if (b.done >= 30) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    service.child.kill('SIGKILL');
    await service.exited;
    assert.ok(before < ROWS - 100, `killed mid-batch (${before} done)`);

    service = await startServe(dataDir);
    let batch: Body;
    for (;;) {
      batch = (await json(await fetch(`${service.url}/api/batch/${id}`, { headers: auth }))).batch;
      if (batch.status !== 'queued' && batch.status !== 'processing') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(batch.status, 'completed', JSON.stringify(batch));
    assert.equal(batch.done, ROWS);
    assert.equal(batch.failed, 0);

    const seen = new Map<number, number>();
    const names = new Set<string>();
    for (let page = 1; ; page++) {
      const list: Body = (await json(await fetch(`${service.url}/api/document?batch_id=${id}&per_page=100&page=${page}`, { headers: auth }))).documents;
      for (const d of list.data as Body[]) {
        assert.equal(d.status, 'completed');
        names.add(d.output_filename);
      }
      if (!list.next_page_url) {
        assert.equal(list.total, ROWS, 'one document per row, none twice');
        break;
      }
    }
    // Row numbers come from the records on disk (the API does not show them): each row once. A clean stop
    // compacts each shard's record log into its snapshot (docs/store.md, "Record logs"), so the snapshots hold all.
    service.child.kill('SIGTERM');
    await service.exited;
    service = null;
    const shards = path.join(dataDir, 'documents', 'records');
    for (const f of fs.readdirSync(shards).filter((name) => name.endsWith('.json'))) {
      for (const d of (JSON.parse(fs.readFileSync(path.join(shards, f), 'utf8')) as { documents: Body[] }).documents) {
        if (d.batch_id === id) seen.set(d.batch_row, (seen.get(d.batch_row) ?? 0) + 1);
      }
    }
    assert.equal(seen.size, ROWS);
    for (let r = 1; r <= ROWS; r++) assert.equal(seen.get(r), 1, `row ${r}`);
    assert.equal(names.size, ROWS, 'each row kept its own name across the restart');
    // Every file belongs to a record: what the killed run wrote without a record was removed at the start.
    let files = 0;
    const filesDir = path.join(dataDir, 'documents', 'files');
    for (const bucket of fs.readdirSync(filesDir)) files += fs.readdirSync(path.join(filesDir, bucket)).length;
    assert.equal(files, ROWS);
  } finally {
    if (service) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
