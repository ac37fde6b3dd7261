/** The sample templates from resources/templates are offered once, on the first start of a data dir, and render. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer } from '../helpers/server.js';
import { projectRoot } from '../../server/config.js';
import { pdfText } from '../helpers/pdf.js';
import { json, tempDir } from './support.js';

test('first start seeds every sample from index.json with its sample data; a restart does not seed again', async () => {
  const index = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'resources/templates/index.json'), 'utf8')) as Array<{ name: string; data: string }>;
  const dataDir = tempDir();
  try {
    let s = await startTestServer({ dataDir, seedSamples: true });
    let list = (await json(await s.api('/api/template?per_page=100'))).templates;
    assert.deepEqual(list.data.map((t: { name: string }) => t.name).sort(), index.map((e) => e.name).sort());
    for (const entry of index) {
      const t = list.data.find((x: { name: string }) => x.name === entry.name);
      const expected = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'resources/templates', entry.data), 'utf8'));
      assert.deepEqual(t.sample_data, expected, entry.name);
      const res = await s.api('/api/document', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ template_id: t.uuid, data: t.sample_data }) });
      const doc = (await json(res)).document;
      assert.equal(doc.status, 'completed', `${entry.name}: ${JSON.stringify(doc.error)}`);
      const text = pdfText(new Uint8Array(await (await fetch(doc.download_url)).arrayBuffer()));
      assert.ok(text.trim().length > 0, entry.name);
    }
    assert.equal(JSON.parse(fs.readFileSync(path.join(dataDir, 'meta.json'), 'utf8')).samples_seeded, true);
    // Deleting a sample and restarting does not bring it back.
    await s.api(`/api/template/${list.data[0].uuid}`, { method: 'DELETE' });
    await s.close();
    s = await startTestServer({ dataDir, seedSamples: true });
    list = (await json(await s.api('/api/template?per_page=100'))).templates;
    assert.equal(list.total, index.length - 1);
    await s.close();
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('seedSamples: false offers nothing', async () => {
  const s = await startTestServer();
  try {
    assert.equal((await json(await s.api('/api/template'))).templates.total, 0);
  } finally {
    await s.close();
  }
});
