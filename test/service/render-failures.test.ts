/**
 * Data the engine cannot use ends as a `failed` document — 201, status failed, error {code, message}, no file —
 * never a 500; POST /api/preview answers 422 with the same message under errors["data.<field>"]. Image URLs go
 * only to loopback listeners made here (CONTRACT.md §9: the guarded one must see no connection at all).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { closedPort, settle, startHttp, startTrap, type HttpListener, type Listener } from '../net/listeners.js';
import { dataUri, makePng } from '../net/images.js';
import { createDocument, json, jsonTemplate, uploadTemplate, type Body } from './support.js';
import { buildDocx, p } from '../docx/build-docx.js';

const LIMITS = { rowsPerList: 3, imagesPerDocument: 2, imagePixels: 10_000, imageFetchMs: 400 };
const LINES = ['{{%logo}}', '{{%badge}}', '{{%stamp}}', '{{#items}}', '{{name}}', '{{/items}}'];

let guarded: TestServer;
let local: TestServer;
let trap: Listener;
let web: HttpListener;
const templates = new Map<TestServer, string>();

before(async () => {
  guarded = await startTestServer({ limits: LIMITS });
  // For failures past the guard (refused, wrong type, timeout), the local network is allowed on purpose.
  local = await startTestServer({ limits: LIMITS, allowPrivateNetwork: true });
  for (const s of [guarded, local]) {
    const t = await uploadTemplate(s, { name: 'images.json', bytes: jsonTemplate(LINES) });
    assert.equal(t.status, 201, JSON.stringify(t.body));
    templates.set(s, t.body.template.uuid);
  }
  trap = await startTrap('127.0.0.1');
  web = await startHttp('127.0.0.1', {
    '/page.html': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>not an image</html>'),
    '/slow.png': () => {
      // Never answers: the fetch must give up after imageFetchMs.
    },
  });
});
after(async () => {
  await guarded.close();
  await local.close();
  await trap.close();
  await web.close();
});

const ONE = dataUri('image/png', makePng(1, 1));

/** Creates a document and checks the failed-document shape; returns its error. */
async function failedDocument(s: TestServer, data: Record<string, unknown>): Promise<{ code: string; message: string }> {
  const { status, body } = await createDocument(s, { template_id: templates.get(s)!, data: JSON.stringify(data) });
  assert.equal(status, 201, JSON.stringify(body));
  const d: Body = body.document;
  assert.equal(d.status, 'failed', JSON.stringify(d));
  assert.equal(typeof d.error.code, 'string');
  assert.equal(typeof d.error.message, 'string');
  assert.equal(d.pages, null);
  assert.equal(d.size, null);
  const file = path.join(s.dataDir, 'documents', 'files', '000000', `${d.id}.pdf`);
  assert.equal(fs.existsSync(file), false, 'no file is left');
  assert.equal((await fetch(d.download_url)).status, 409);
  const again = (await json(await s.api(`/api/document/${d.id}`))).document;
  assert.deepEqual(again.error, d.error, 'the record keeps the error');
  return d.error;
}

/** The same data through the live preview: 422 with the document's message under data.<field>. */
async function previewRefusal(s: TestServer, data: Record<string, unknown>, field: string, message: string): Promise<void> {
  const res = await s.api('/api/preview', { method: 'POST', body: new URLSearchParams({ template_id: templates.get(s)!, data: JSON.stringify(data) }) });
  assert.equal(res.status, 422);
  const body = await json(res);
  assert.equal(body.message, message);
  assert.deepEqual(body.errors, { [`data.${field}`]: [message] });
}

test('an image URL to a loopback address → failed image_blocked, and the listener sees no connection', async () => {
  const data = { logo: `http://127.0.0.1:${trap.port}/logo.png` };
  const error = await failedDocument(guarded, data);
  assert.equal(error.code, 'image_blocked');
  assert.match(error.message, /logo/);
  await previewRefusal(guarded, data, 'logo', error.message);
  await settle();
  assert.equal(trap.connections(), 0);
});

test('a broken data: URI → failed invalid_image', async () => {
  const data = { logo: 'data:image/png;base64,AAAA' };
  const error = await failedDocument(guarded, data);
  assert.equal(error.code, 'invalid_image');
  await previewRefusal(guarded, data, 'logo', error.message);
  const notAnImage = await failedDocument(guarded, { badge: 'ftp://example.invalid/x.png' });
  assert.equal(notAnImage.code, 'invalid_image');
});

test('more rows than rowsPerList → failed limit_exceeded naming the limit (not a 422 at the door)', async () => {
  const data = { items: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }] };
  const error = await failedDocument(guarded, data);
  assert.equal(error.code, 'limit_exceeded');
  assert.match(error.message, /"items" has 4 items, more than the limit of 3 rows per list/);
  await previewRefusal(guarded, data, 'items', error.message);
  // At the limit it renders.
  const ok = await createDocument(guarded, { template_id: templates.get(guarded)!, data: JSON.stringify({ items: data.items.slice(0, 3) }) });
  assert.equal(ok.body.document.status, 'completed');
});

test('images over the pixel limit or over imagesPerDocument → failed image_too_large / limit_exceeded', async () => {
  const big = await failedDocument(guarded, { logo: dataUri('image/png', makePng(200, 100)) });
  assert.equal(big.code, 'image_too_large');
  assert.match(big.message, /10,000 pixels/);
  const many = await failedDocument(guarded, { logo: ONE, badge: dataUri('image/png', makePng(2, 1)), stamp: dataUri('image/png', makePng(1, 2)) });
  assert.equal(many.code, 'limit_exceeded');
});

test('past the guard: refused connection → image_fetch_failed, HTML → image_type, no answer → image_timeout', async () => {
  const refused = await failedDocument(local, { logo: `http://127.0.0.1:${await closedPort()}/x.png` });
  assert.equal(refused.code, 'image_fetch_failed');
  const html = { logo: `http://127.0.0.1:${web.port}/page.html` };
  const type = await failedDocument(local, html);
  assert.equal(type.code, 'image_type');
  await previewRefusal(local, html, 'logo', type.message);
  const slow = await failedDocument(local, { logo: `http://127.0.0.1:${web.port}/slow.png` });
  assert.equal(slow.code, 'image_timeout');
  // The service is still well.
  const ok = await createDocument(local, { template_id: templates.get(local)!, data: JSON.stringify({ logo: ONE }) });
  assert.equal(ok.body.document.status, 'completed');
  assert.deepEqual(local.logs, [], 'data problems are not logged as crashes');
});

test('a .docx template: every data failure ends the PDF and the filled .docx alike (same code, same message, no file)', async () => {
  const docx = new Map<TestServer, string>();
  for (const s of [guarded, local]) {
    // The same tags as the .json template, plus an aggregate: a Word file a user would make.
    const t = await uploadTemplate(s, { name: 'images.docx', bytes: buildDocx({ body: [...LINES, 'Total {{items | sum:"n"}}'].map((line) => p(line)).join('') }) });
    assert.equal(t.status, 201, JSON.stringify(t.body));
    docx.set(s, t.body.template.uuid);
  }
  const cases: Array<[TestServer, Record<string, unknown>, string]> = [
    [guarded, { logo: 'data:image/png;base64,AAAA' }, 'invalid_image'],
    [guarded, { badge: 'ftp://example.invalid/x.png' }, 'invalid_image'],
    [guarded, { logo: `http://127.0.0.1:${trap.port}/logo.png` }, 'image_blocked'],
    [guarded, { items: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }] }, 'limit_exceeded'],
    [guarded, { logo: dataUri('image/png', makePng(200, 100)) }, 'image_too_large'],
    [guarded, { logo: ONE, badge: dataUri('image/png', makePng(2, 1)), stamp: dataUri('image/png', makePng(1, 2)) }, 'limit_exceeded'],
    [guarded, { items: [{ name: 'a', n: 1 }, { name: 'b', n: { x: 1 } }] }, 'aggregate_not_number'],
    [local, { logo: `http://127.0.0.1:${web.port}/page.html` }, 'image_type'],
  ];
  for (const [s, data, code] of cases) {
    const errors = [];
    for (const output_type of ['pdf', 'docx']) {
      const { status, body } = await createDocument(s, { template_id: docx.get(s)!, data: JSON.stringify(data), output_type });
      assert.equal(status, 201, JSON.stringify(body));
      const d: Body = body.document;
      assert.equal(d.status, 'failed', `${output_type} ${JSON.stringify(data).slice(0, 80)}: ${JSON.stringify(d)}`);
      assert.equal((await fetch(d.download_url)).status, 409);
      errors.push(d.error);
    }
    assert.equal(errors[0].code, code, JSON.stringify(errors[0]));
    assert.deepEqual(errors[1], errors[0], `the PDF and the .docx fail alike for ${JSON.stringify(data).slice(0, 80)}`);
  }
  await settle();
  assert.equal(trap.connections(), 0);
  // At the limits both render.
  for (const output_type of ['pdf', 'docx']) {
    const ok = await createDocument(guarded, { template_id: docx.get(guarded)!, data: JSON.stringify({ logo: ONE, items: [{ name: 'a', n: 2 }, { name: 'b' }, { name: 'c', n: null }] }), output_type });
    assert.equal(ok.body.document.status, 'completed', JSON.stringify(ok.body.document));
  }
  assert.deepEqual(guarded.logs, [], 'data problems are not logged as crashes');
});
