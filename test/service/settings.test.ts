/**
 * GET/PUT /api/settings: the "allow the local network" switch (CONTRACT.md §9). It starts from the configuration,
 * applies to the next document and preview without a restart (inline and in render workers, which get it per
 * job), survives a restart on the same data dir, and only a token that may write can change it. Image URLs go
 * only to a loopback listener made here, which counts every connection.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { settle, startHttp, type HttpListener } from '../net/listeners.js';
import { makePng } from '../net/images.js';
import { createDocument, json, jsonTemplate, tempDir, uploadTemplate, type Body } from './support.js';

async function settings(s: TestServer, token = s.token): Promise<{ status: number; body: Body }> {
  const res = await s.api('/api/settings', { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await json(res) };
}

/** PUT /api/settings as JSON (a value that is not a string) or as a form (a string), as the API allows both. */
async function putSettings(s: TestServer, value: unknown, token = s.token): Promise<{ status: number; body: Body }> {
  const body = typeof value === 'string'
    ? new URLSearchParams({ allow_private_network: value })
    : JSON.stringify({ allow_private_network: value });
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (typeof value !== 'string') headers['content-type'] = 'application/json';
  const res = await s.api('/api/settings', { method: 'PUT', body, headers });
  return { status: res.status, body: await json(res) };
}

async function infoAllows(s: TestServer): Promise<unknown> {
  return (await json(await s.api('/api/info'))).allow_private_network;
}

test('the initial value is the configuration: DOCLOOM_ALLOW_PRIVATE_NETWORK, else off', async () => {
  const off = await startTestServer();
  const on = await startTestServer({}, { env: { DOCLOOM_ALLOW_PRIVATE_NETWORK: 'true' } });
  try {
    assert.deepEqual((await settings(off)).body, { success: true, settings: { allow_private_network: false } });
    assert.deepEqual((await settings(on)).body, { success: true, settings: { allow_private_network: true } });
    assert.equal(await infoAllows(off), false);
    assert.equal(await infoAllows(on), true);
    // Nothing is written until the setting is changed.
    assert.equal(fs.existsSync(path.join(off.dataDir, 'settings.json')), false);
  } finally {
    await off.close();
    await on.close();
  }
});

for (const renderWorkers of [0, 1]) {
  describe(`with ${renderWorkers} render worker(s)`, () => {
    const dataDir = tempDir();
    let s: TestServer;
    let web: HttpListener;
    let templateId: string;
    let url: string;

    before(async () => {
      const png = makePng(8, 8);
      web = await startHttp('127.0.0.1', {
        '/logo.png': (_req, res) => res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length }).end(png),
      });
      url = `http://127.0.0.1:${web.port}/logo.png`;
      s = await startTestServer({ dataDir, renderWorkers });
      const t = await uploadTemplate(s, { name: 'logo.json', bytes: jsonTemplate(['Logo:', '{{%logo}}']) });
      assert.equal(t.status, 201, JSON.stringify(t.body));
      templateId = t.body.template.uuid;
    });
    after(async () => {
      await s.close();
      await web.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const documentWith = async (logo: string): Promise<Body> => {
      const { status, body } = await createDocument(s, { template_id: templateId, data: JSON.stringify({ logo }) });
      assert.equal(status, 201, JSON.stringify(body));
      return body.document;
    };
    const preview = (logo: string): Promise<Response> =>
      s.api('/api/preview', { method: 'POST', body: new URLSearchParams({ template_id: templateId, data: JSON.stringify({ logo }) }) });

    test('switched on: a loopback image URL renders, fetched exactly once', async () => {
      assert.equal((await settings(s)).body.settings.allow_private_network, false);
      assert.deepEqual(await putSettings(s, true), { status: 200, body: { success: true, settings: { allow_private_network: true } } });
      assert.deepEqual((await settings(s)).body.settings, { allow_private_network: true });
      assert.equal(await infoAllows(s), true);

      const d = await documentWith(url);
      assert.equal(d.status, 'completed', JSON.stringify(d));
      assert.ok(d.size > 0);
      assert.equal(web.requests('/logo.png'), 1);

      // The preview follows the setting too (another query, so it is fetched rather than served from the cache).
      const res = await preview(`${url}?preview`);
      assert.equal(res.status, 200, await res.clone().text());
      assert.equal(res.headers.get('content-type'), 'application/pdf');
      assert.equal(web.requests('/logo.png'), 2);
    });

    test('switched off: the same URL fails with image_blocked and the listener sees no connection', async () => {
      const connections = web.connections();
      // As a form this time, with a form spelling of "false".
      assert.deepEqual(await putSettings(s, 'off'), { status: 200, body: { success: true, settings: { allow_private_network: false } } });
      assert.equal(await infoAllows(s), false);

      const d = await documentWith(url);
      assert.equal(d.status, 'failed', JSON.stringify(d));
      assert.equal(d.error.code, 'image_blocked');
      assert.match(d.error.message, /logo/);
      const res = await preview(`${url}?preview`);
      assert.equal(res.status, 422);
      assert.ok(Array.isArray((await json(res)).errors['data.logo']));

      await settle();
      assert.equal(web.connections(), connections);
      assert.equal(web.requests('/logo.png'), 2);
    });

    test('a read-only token cannot change it (403), and a value that is not a boolean is refused (422)', async () => {
      const readOnly = await putSettings(s, true, s.readOnlyToken);
      assert.equal(readOnly.status, 403);
      assert.equal(readOnly.body.message, 'This action is unauthorized.');
      // Reading is allowed with any valid token.
      assert.deepEqual((await settings(s, s.readOnlyToken)).body, { success: true, settings: { allow_private_network: false } });

      for (const bad of ['maybe', 2, { on: true }, [true]]) {
        const r = await putSettings(s, bad);
        assert.equal(r.status, 422, JSON.stringify(bad));
        assert.equal(r.body.message, 'The allow private network field must be true or false.');
        assert.deepEqual(r.body.errors, { allow_private_network: ['The allow private network field must be true or false.'] });
      }
      const missing = await s.api('/api/settings', { method: 'PUT', body: new URLSearchParams({}) });
      assert.equal(missing.status, 422);
      assert.deepEqual((await json(missing)).errors, { allow_private_network: ['The allow private network field is required.'] });
      assert.equal((await settings(s)).body.settings.allow_private_network, false);
      assert.equal((await s.api('/api/settings', { method: 'DELETE' })).status, 405);
    });

    test('the value survives a restart on the same data dir', async () => {
      assert.equal((await putSettings(s, '1')).status, 200);
      const onDisk = JSON.parse(fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8')) as Body;
      assert.deepEqual(onDisk, { allow_private_network: true });
      await s.close();
      // The configuration still says off: the stored value wins once it was set.
      s = await startTestServer({ dataDir, renderWorkers });
      assert.deepEqual((await settings(s)).body, { success: true, settings: { allow_private_network: true } });
      assert.equal(await infoAllows(s), true);
      const before = web.requests('/logo.png');
      const d = await documentWith(url);
      assert.equal(d.status, 'completed', JSON.stringify(d));
      assert.equal(web.requests('/logo.png'), before + 1);
    });
  });
}
