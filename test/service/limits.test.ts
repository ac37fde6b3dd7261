/**
 * Every limit of CONTRACT.md §8 is configurable through a DOCLOOM_LIMIT_* variable, validated like the other
 * settings, and a configured limit is the one the service enforces and names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_LIMITS, LIMIT_VARIABLES, loadConfig, type Limits } from '../../server/config.js';
import { startTestServer } from '../helpers/server.js';
import { json } from './support.js';

test('every limit has its variable; unset variables keep the defaults', () => {
  assert.deepEqual(Object.keys(LIMIT_VARIABLES).sort(), Object.keys(DEFAULT_LIMITS).sort());
  assert.deepEqual(loadConfig({}).limits, DEFAULT_LIMITS);
  assert.deepEqual(loadConfig({ DOCLOOM_LIMIT_ROWS_PER_LIST: '' }).limits, DEFAULT_LIMITS);
});

test('each DOCLOOM_LIMIT_* variable sets its limit', () => {
  const keys = Object.keys(LIMIT_VARIABLES) as Array<keyof Limits>;
  const env = Object.fromEntries(keys.map((key, i) => [LIMIT_VARIABLES[key], String(1000 + i)]));
  const limits = loadConfig(env).limits;
  keys.forEach((key, i) => assert.equal(limits[key], 1000 + i, LIMIT_VARIABLES[key]));
  assert.equal(LIMIT_VARIABLES.requestBodyBytes, 'DOCLOOM_LIMIT_REQUEST_BODY_BYTES');
  assert.ok(Object.isFrozen(limits));
});

test('bad limit values stop the start with a message naming the variable', () => {
  for (const bad of ['0', '-5', '1.5', 'ten', '20MB']) {
    assert.throws(() => loadConfig({ DOCLOOM_LIMIT_IMAGE_BYTES: bad }), new RegExp(`DOCLOOM_LIMIT_IMAGE_BYTES must be a whole number of at least 1, got "${bad}"`));
  }
});

test('limits given as code override single limits and keep the variables for the rest', () => {
  const limits = loadConfig({ DOCLOOM_LIMIT_ROWS_PER_LIST: '77' }, { limits: { imagesPerDocument: 3 } }).limits;
  assert.equal(limits.rowsPerList, 77);
  assert.equal(limits.imagesPerDocument, 3);
  assert.equal(limits.imageBytes, DEFAULT_LIMITS.imageBytes);
});

test('end to end: DOCLOOM_LIMIT_REQUEST_BODY_BYTES=2000 → bodies over it get 413 naming 2000 bytes; /api/info reports it', async () => {
  const s = await startTestServer({}, { env: { DOCLOOM_LIMIT_REQUEST_BODY_BYTES: '2000', DOCLOOM_LIMIT_ROWS_PER_LIST: '25' } });
  try {
    const info = await json(await s.api('/api/info'));
    assert.equal(info.limits.request_body_bytes, 2000);
    assert.equal(info.limits.rows_per_list, 25);
    const small = await s.api('/api/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'small' }) });
    assert.equal(small.status, 201);
    const big = await s.api('/api/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x'.repeat(3000) }) });
    assert.equal(big.status, 413);
    const body = await json(big);
    assert.equal(body.success, false);
    assert.equal(body.message, 'The request body is larger than the limit of 2,000 bytes.');
    const form = new FormData();
    form.append('data', JSON.stringify({ text: 'y'.repeat(2500) }));
    const multipart = await s.api('/api/document', { method: 'POST', body: form });
    assert.equal(multipart.status, 413);
    assert.match((await json(multipart)).message, /limit of 2,000 bytes/);
  } finally {
    await s.close();
  }
});
