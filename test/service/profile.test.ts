/** The profile switch (DOCLOOM_PROFILE): Server-Timing phases on a synchronous create, nothing when it is off. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from '../helpers/server.js';
import { INVOICE_DATA, createInvoiceTemplate } from './support.js';

async function create(s: Awaited<ReturnType<typeof startTestServer>>, uuid: string, extra: Record<string, string> = {}): Promise<Response> {
  const form = new FormData();
  form.append('template_id', uuid);
  form.append('data', JSON.stringify(INVOICE_DATA));
  for (const [k, v] of Object.entries(extra)) form.append(k, v);
  return s.api('/api/document', { method: 'POST', body: form });
}

function phases(header: string | null): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const m = /^\s*([\w-]+);dur=([\d.]+)(;desc="cpu=[\d.-]+")?$/.exec(part);
    assert.ok(m, `a Server-Timing entry: ${part}`);
    out.set(m[1], Number(m[2]));
  }
  return out;
}

test('off by default: no Server-Timing header', async () => {
  const s = await startTestServer();
  try {
    assert.equal(s.config.profile, false);
    const template = await createInvoiceTemplate(s);
    const res = await create(s, template.uuid as string);
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('server-timing'), null);
  } finally {
    await s.close();
  }
});

for (const renderWorkers of [0, 1]) {
  test(`DOCLOOM_PROFILE=1 (${renderWorkers} render workers): every phase of a synchronous create, in order`, async () => {
    const s = await startTestServer({ renderWorkers }, { env: { DOCLOOM_PROFILE: '1' } });
    try {
      const template = await createInvoiceTemplate(s);
      const res = await create(s, template.uuid as string);
      assert.equal(res.status, 201);
      const body = (await res.json()) as { document: { status: string } };
      assert.equal(body.document.status, 'completed');
      const got = phases(res.headers.get('server-timing'));
      assert.deepEqual([...got.keys()], [
        'routing_auth', 'body', 'template_lookup', 'validate', 'idempotency', 'filename', 'store_insert',
        'render_queue', 'render_handoff', 'render_template', 'render_engine', 'render_resume', 'write_file',
        'store_update', 'serialize', 'total',
      ]);
      const sum = [...got].filter(([name]) => name !== 'total').reduce((a, [, ms]) => a + ms, 0);
      assert.ok(sum <= got.get('total')! + 0.01, `phases (${sum}) within the total (${got.get('total')})`);
      // An async create answers before its render: no render phases.
      const later = phases((await create(s, template.uuid as string, { async: '1' })).headers.get('server-timing'));
      assert.equal(later.has('render_engine'), false);
      assert.equal(later.has('store_insert'), true);
    } finally {
      await s.close();
    }
  });
}
