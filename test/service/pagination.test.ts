/**
 * The page object against Laravel's LengthAwarePaginator (onEachSide 3): unit checks of the link window, then the
 * real lists over HTTP with a store filled on disk.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { pageObject, pageRequest } from '../../server/http/pagination.js';
import { startTestServer } from '../helpers/server.js';
import { fillStore, json, tempDir } from './support.js';

const P = 'http://h/api/document';

/** The labels of `links` between Previous and Next, as Laravel renders them. */
function labels(total: number, page: number, perPage = 1): string {
  const req = { page, perPage, offset: (page - 1) * perPage };
  const items = Array.from({ length: Math.max(0, Math.min(perPage, total - req.offset)) }, (_, i) => i);
  return pageObject(items, total, req, P, [])
    .links.slice(1, -1)
    .map((l) => (l.active ? `[${l.label}]` : l.label))
    .join(' ');
}

test('link window: fewer than 14 pages shows them all', () => {
  assert.equal(labels(13, 1), '[1] 2 3 4 5 6 7 8 9 10 11 12 13');
  assert.equal(labels(1, 1), '[1]');
  assert.equal(labels(0, 1), '[1]');
});

test('link window: close to the beginning, in the middle, close to the end (Laravel UrlWindow)', () => {
  assert.equal(labels(20, 1), '[1] 2 3 4 5 6 7 8 9 10 ... 19 20');
  assert.equal(labels(20, 7), '1 2 3 4 5 6 [7] 8 9 10 ... 19 20');
  assert.equal(labels(20, 8), '1 2 ... 5 6 7 [8] 9 10 11 ... 19 20');
  assert.equal(labels(20, 13), '1 2 ... 10 11 12 [13] 14 15 16 ... 19 20');
  assert.equal(labels(20, 14), '1 2 ... 11 12 13 [14] 15 16 17 18 19 20');
  assert.equal(labels(20, 20), '1 2 ... 11 12 13 14 15 16 17 18 19 [20]');
  assert.equal(labels(14, 1), '[1] 2 3 4 5 6 7 8 9 10 ... 13 14');
  assert.equal(labels(1000, 500), '1 2 ... 497 498 499 [500] 501 502 503 ... 999 1000');
});

test('a page beyond the last is empty with from/to 0 and a previous link', () => {
  const o = pageObject([], 3, { page: 5, perPage: 15, offset: 60 }, P, []);
  assert.equal(o.current_page, 5);
  assert.equal(o.from, 0);
  assert.equal(o.to, 0);
  assert.equal(o.last_page, 1);
  assert.equal(o.prev_page_url, `${P}?page=4`);
  assert.equal(o.next_page_url, null);
  assert.ok(o.links.every((l) => !l.active));
});

test('page and per_page parsing', () => {
  assert.deepEqual(pageRequest({}), { page: 1, perPage: 15, offset: 0 });
  assert.deepEqual(pageRequest({ page: '3', per_page: '10' }), { page: 3, perPage: 10, offset: 20 });
  assert.deepEqual(pageRequest({ page: 'abc', per_page: '1000' }), { page: 1, perPage: 100, offset: 0 });
  assert.deepEqual(pageRequest({ page: '0', per_page: '0' }), { page: 1, perPage: 15, offset: 0 });
  assert.deepEqual(pageRequest({ page: ['2', '3'] }), { page: 1, perPage: 15, offset: 0 });
});

test('GET /api/document: the exact page object over a filled store, newest first, filters carried in every link', async () => {
  const dataDir = tempDir();
  // 40 documents; every third is a test document, ids 1..40.
  await fillStore(dataDir, 40, (id) => ({ test: id % 3 === 0 ? 1 : 0, status: id === 40 ? 'failed' : 'completed' }));
  const s = await startTestServer({ dataDir });
  try {
    const base = `${s.url}/api/document`;
    const first = await json(await s.api('/api/document'));
    const page = first.documents;
    assert.deepEqual(Object.keys(page), [
      'current_page', 'data', 'first_page_url', 'from', 'last_page', 'last_page_url', 'links',
      'next_page_url', 'path', 'per_page', 'prev_page_url', 'to', 'total',
    ]);
    assert.equal(first.success, true);
    assert.equal(page.total, 40);
    assert.equal(page.per_page, 15);
    assert.equal(page.last_page, 3);
    assert.equal(page.from, 1);
    assert.equal(page.to, 15);
    assert.equal(page.path, base);
    assert.equal(page.first_page_url, `${base}?page=1`);
    assert.equal(page.last_page_url, `${base}?page=3`);
    assert.equal(page.prev_page_url, null);
    assert.equal(page.next_page_url, `${base}?page=2`);
    assert.deepEqual(page.data.map((d: { id: number }) => d.id), [40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26]);
    assert.deepEqual(page.links, [
      { url: null, label: '&laquo; Previous', active: false },
      { url: `${base}?page=1`, label: '1', active: true },
      { url: `${base}?page=2`, label: '2', active: false },
      { url: `${base}?page=3`, label: '3', active: false },
      { url: `${base}?page=2`, label: 'Next &raquo;', active: false },
    ]);

    const last = (await json(await s.api('/api/document?page=3'))).documents;
    assert.equal(last.from, 31);
    assert.equal(last.to, 40);
    assert.equal(last.data.length, 10);
    assert.equal(last.next_page_url, null);
    assert.equal(last.prev_page_url, `${base}?page=2`);

    const filtered = (await json(await s.api('/api/document?test=1&per_page=5&page=2&unknown=x'))).documents;
    assert.equal(filtered.total, 13);
    assert.equal(filtered.per_page, 5);
    assert.equal(filtered.last_page, 3);
    assert.deepEqual(filtered.data.map((d: { id: number }) => d.id), [24, 21, 18, 15, 12]);
    assert.equal(filtered.first_page_url, `${base}?test=1&per_page=5&page=1`);
    assert.equal(filtered.next_page_url, `${base}?test=1&per_page=5&page=3`);
    for (const link of filtered.links) if (link.url) assert.match(link.url, /\?test=1&per_page=5&page=\d+$/);

    const failed = (await json(await s.api('/api/document?status=failed'))).documents;
    assert.deepEqual(failed.data.map((d: { id: number }) => d.id), [40]);
    const none = (await json(await s.api('/api/document?template_id=999'))).documents;
    assert.equal(none.total, 0);
    assert.equal(none.from, 0);
    assert.equal(none.to, 0);
    assert.equal(none.last_page, 1);

    const bad = await s.api('/api/document?status=done&test=2');
    assert.equal(bad.status, 422);
    const badBody = await json(bad);
    assert.ok(badBody.errors.status && badBody.errors.test);

    const big = (await json(await s.api('/api/document?per_page=500'))).documents;
    assert.equal(big.per_page, 100);
    assert.equal(big.data.length, 40);
  } finally {
    await s.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
