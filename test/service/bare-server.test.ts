/**
 * The bare servers bench/http-docx.ts measures docloom against (`bare=inline,worker,durable`, bench/lib/bare-server.ts)
 * must do what the benchmark says they do, or the comparison says nothing: render the real document with the built
 * engine in the place their mode names, and — `durable` — leave the PDF in its folder and its record line in the log
 * before the 201, with nothing left in tmp/. Needs dist/ (built before the suite runs, as the benchmark needs it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { bareTemplate, ROOT, startBare, type ServeProcess } from '../../bench/lib/serve.js';
import { pdfText } from '../helpers/pdf.js';

const template = fs.readFileSync(path.join(ROOT, 'resources', 'templates', 'invoice.json'));
const data = JSON.parse(fs.readFileSync(path.join(ROOT, 'resources', 'templates', 'invoice.data.json'), 'utf8')) as Record<string, unknown>;

interface Answer {
  status: number;
  document?: { id: number; status: string; pages: number; size: number };
  message?: string;
}

async function create(svc: ServeProcess, body: Record<string, unknown>, kind: 'json' | 'multipart', auth = svc.auth): Promise<Answer> {
  let init: RequestInit;
  if (kind === 'json') {
    init = { method: 'POST', body: JSON.stringify(body), headers: { ...auth, 'content-type': 'application/json' } };
  } else {
    // The two-field body bench/http-docx.ts sends (fields as text, not files).
    const form = new FormData();
    form.append('template_id', String(body.template_id));
    form.append('data', JSON.stringify(body.data));
    init = { method: 'POST', body: form, headers: auth };
  }
  const res = await fetch(`${svc.base}/api/document`, init);
  return { status: res.status, ...((await res.json()) as Omit<Answer, 'status'>) };
}

for (const mode of ['inline', 'worker', 'durable', 'wal'] as const) {
  test(`the bare server (${mode}) renders the invoice and answers 201 completed`, async () => {
    const svc = await startBare(mode);
    try {
      const uuid = await bareTemplate(svc, template, 'json');
      const answers: Answer[] = [];
      for (const [i, kind] of (['json', 'multipart', 'json'] as const).entries()) {
        answers.push(await create(svc, { template_id: uuid, data: { ...data, number: `BARE-${mode}-${i}` } }, kind));
      }
      for (const a of answers) {
        assert.equal(a.status, 201, JSON.stringify(a));
        assert.equal(a.document?.status, 'completed');
        assert.equal(a.document?.pages, 1);
        assert.ok((a.document?.size ?? 0) > 1000, `a real PDF's size, not ${a.document?.size}`);
      }
      assert.equal((await create(svc, { template_id: 'nope', data }, 'json')).status, 422);
      assert.equal((await create(svc, { template_id: uuid, data }, 'json', { authorization: 'Bearer wrong' })).status, 401);

      const files = path.join(svc.dataDir, 'files');
      if (mode === 'inline' || mode === 'worker') {
        assert.equal(fs.existsSync(files), false, 'only the durable modes keep files');
        return;
      }
      // Each answered document is in its folder: the rendered invoice itself.
      const pdfs = answers.map((a, i) => {
        const bytes = fs.readFileSync(path.join(files, `${a.document!.id}.pdf`));
        assert.equal(bytes.byteLength, a.document!.size);
        assert.match(pdfText(bytes), new RegExp(`BARE-${mode}-${i}`));
        return bytes;
      });
      if (mode === 'wal') {
        // Its frames, from the start of the preallocated log: [record length][PDF length] record line, PDF bytes.
        const log = fs.readFileSync(path.join(svc.dataDir, 'wal.bin'));
        assert.equal(log.byteLength, 128 << 20, 'the log keeps its preallocated size');
        let at = 0;
        for (const [i, a] of answers.entries()) {
          const recordLength = log.readUInt32LE(at);
          const pdfLength = log.readUInt32LE(at + 4);
          const record = JSON.parse(log.subarray(at + 8, at + 8 + recordLength).toString('utf8')) as { id: number };
          assert.equal(record.id, a.document!.id);
          assert.deepEqual(log.subarray(at + 8 + recordLength, at + 8 + recordLength + pdfLength), pdfs[i]);
          at += 8 + recordLength + pdfLength;
        }
        return;
      }
      const lines = fs.readFileSync(path.join(svc.dataDir, 'documents.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: number; size: number });
      assert.deepEqual(lines.map((l) => [l.id, l.size]), answers.map((a) => [a.document!.id, a.document!.size]));
      assert.deepEqual(fs.readdirSync(path.join(svc.dataDir, 'tmp')), [], 'every temp file renamed into place');
    } finally {
      await svc.stop();
    }
  });
}

test('BARE_POOL=1: the bare front renders through docloom\'s own render pool, and the PDF it keeps is the invoice', async () => {
  const before = process.env.BARE_POOL;
  process.env.BARE_POOL = '1';
  let svc: ServeProcess;
  try {
    svc = await startBare('durable');
  } finally {
    if (before === undefined) delete process.env.BARE_POOL;
    else process.env.BARE_POOL = before;
  }
  try {
    const info = (await (await fetch(`${svc.base}/api/info`, { headers: svc.auth })).json()) as { pool_threads: number | null };
    assert.equal(info.pool_threads, 1, 'one warm docloom render worker');
    const uuid = await bareTemplate(svc, template, 'json');
    const a = await create(svc, { template_id: uuid, data: { ...data, number: 'BARE-POOL-7' } }, 'json');
    assert.equal(a.status, 201, JSON.stringify(a));
    assert.equal(a.document?.pages, 1);
    assert.match(pdfText(fs.readFileSync(path.join(svc.dataDir, 'files', `${a.document!.id}.pdf`))), /BARE-POOL-7/);
  } finally {
    await svc.stop();
  }
});
