/**
 * Interface conformance points found in review (spec §2.1, CONTRACT.md §7), over real HTTP: `cloud_url` typed per
 * response, and page parameters of any length.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { INVOICE_DATA, createDocument, createInvoiceTemplate, json } from './support.js';
import type { Body } from './support.js';

let s: TestServer;
let invoice: Body;
before(async () => {
  s = await startTestServer();
  invoice = await createInvoiceTemplate(s);
});
after(async () => {
  await s.close();
});

test('cloud_url: a plain string in the single-document response (create and read), nullable in the list', async () => {
  const created = await createDocument(s, { template_id: invoice.uuid, data: JSON.stringify(INVOICE_DATA) });
  assert.equal(created.status, 201);
  // The interface types it as a string here: a typed client must never find null.
  assert.equal(created.body.document.cloud_url, '');
  const single = await json(await s.api(`/api/document/${created.body.document.id}`));
  assert.equal(single.success, true);
  assert.equal(single.document.cloud_url, '');
  assert.equal(single.document.cloud_id, null);
  const list = await json(await s.api('/api/document'));
  const item = list.documents.data.find((d: Body) => d.id === created.body.document.id);
  assert.equal(item.cloud_url, null);
  assert.equal(item.cloud_id, null);

  // An idempotent replay answers the single shape too.
  const fields = { template_id: invoice.uuid, data: JSON.stringify(INVOICE_DATA) };
  await createDocument(s, fields, { 'idempotency-key': 'cloud-url' });
  const replay = await createDocument(s, fields, { 'idempotency-key': 'cloud-url' });
  assert.equal(replay.status, 201);
  assert.equal(replay.body.document.cloud_url, '');
});

test('per_page above 100 gives 100 whatever its length; a page of any length past the end is empty', async () => {
  for (const list of ['document', 'template']) {
    const key = list === 'document' ? 'documents' : 'templates';
    const big = (await json(await s.api(`/api/${list}?per_page=99999999999`)))[key];
    assert.equal(big.per_page, 100, list);
    assert.equal(big.current_page, 1);
    assert.ok(big.data.length > 0);

    const far = await json(await s.api(`/api/${list}?page=12345678901`));
    assert.equal(far.success, true);
    const page = far[key];
    assert.equal(page.current_page, 12345678901, list);
    assert.deepEqual(page.data, []);
    assert.equal(page.from, 0);
    assert.equal(page.to, 0);
    assert.equal(page.next_page_url, null);
    assert.equal(page.prev_page_url, `${s.url}/api/${list}?page=12345678900`);

    // Past what JSON carries exactly: the largest exact integer, never a float or a crash.
    const huge = (await json(await s.api(`/api/${list}?page=${'9'.repeat(40)}&per_page=${'9'.repeat(40)}`)))[key];
    assert.equal(huge.current_page, Number.MAX_SAFE_INTEGER);
    assert.equal(huge.per_page, 100);
    assert.deepEqual(huge.data, []);

    // Not a whole number ≥ 1: the defaults, as before.
    const odd = (await json(await s.api(`/api/${list}?per_page=-5&page=abc`)))[key];
    assert.equal(odd.per_page, 15);
    assert.equal(odd.current_page, 1);
  }
});
