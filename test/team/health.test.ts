/**
 * GET /api/health (docs/api.md): no token, `{success, database, storage, queue}`, 503 with Retry-After naming the
 * dependency that is down. On the desktop, and on a team server whose S3 server and then PostgreSQL are stopped
 * under it (this file's own s3rver and cluster: stopping them is the test). Every body is checked against the
 * OpenAPI description by the test server helper.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startPgCluster } from '../helpers/pg-cluster.js';
import { S3_KEY_ID, S3_SECRET, startS3Server } from '../helpers/s3-server.js';
import { startTestServer } from '../helpers/server.js';

const cluster = await startPgCluster();
const skip = typeof cluster === 'string' ? `PostgreSQL not available: ${cluster}` : undefined;
after(async () => {
  if (typeof cluster !== 'string') await cluster.stop().catch(() => undefined);
});

async function health(url: string): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
  const res = await fetch(`${url}/api/health`);
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
}

describe('GET /api/health', () => {
  it('the desktop: 200, every dependency ok, no token needed', async () => {
    const s = await startTestServer();
    try {
      assert.deepEqual(await health(s.url), { status: 200, retryAfter: null, body: { success: true, database: 'ok', storage: 'ok', queue: 'ok' } });
      // Not a route for writing (with a token, as for every other path: without one, 401 comes first).
      assert.equal((await s.api('/api/health', { method: 'POST' })).status, 405);
    } finally {
      await s.close();
    }
  });

  it('a team server: ok, then 503 storage down once the S3 server stops, then database down once PostgreSQL stops', { skip }, async () => {
    if (typeof cluster === 'string') return;
    const s3 = await startS3Server(['docloom-health']);
    let s3Stopped = false;
    const url = await cluster.createDatabase();
    const s = await startTestServer({}, {
      env: {
        DOCLOOM_DATABASE_URL: url,
        DOCLOOM_S3_BUCKET: 'docloom-health',
        DOCLOOM_S3_ENDPOINT: s3.endpoint,
        DOCLOOM_S3_FORCE_PATH_STYLE: 'true',
        DOCLOOM_S3_ACCESS_KEY_ID: S3_KEY_ID,
        DOCLOOM_S3_SECRET_ACCESS_KEY: S3_SECRET,
      },
    });
    try {
      assert.deepEqual(await health(s.url), { status: 200, retryAfter: null, body: { success: true, database: 'ok', storage: 'ok', queue: 'ok' } });
      await s3.stop();
      s3Stopped = true;
      const started = Date.now();
      assert.deepEqual(await health(s.url), { status: 503, retryAfter: '5', body: { success: false, database: 'ok', storage: 'down', queue: 'ok' } });
      assert.ok(Date.now() - started < 10_000, `answered in ${Date.now() - started} ms`);
      await cluster.stop();
      // The render queue is the database's (store/pg/queue.ts): this instance no longer hears it.
      assert.deepEqual(await health(s.url), { status: 503, retryAfter: '5', body: { success: false, database: 'down', storage: 'down', queue: 'down' } });
      // Nothing of the connection string or the credentials in what the service logged meanwhile.
      assert.doesNotMatch(s.logs.join('\n'), new RegExp(`${S3_SECRET}|pw-Secret`));
    } finally {
      await s.close();
      if (!s3Stopped) await s3.stop();
    }
  });
});
