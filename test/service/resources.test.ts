/**
 * The resources folder (DOCLOOM_RESOURCES_DIR) is where the service finds its fonts and sample templates. A
 * packaged app keeps it outside the project folder, so the fonts must come from the configured folder — on the
 * main thread and in every render worker — and a folder without fonts must fail documents clearly, not crash.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../server/config.js';
import { startTestServer } from '../helpers/server.js';
import { pdfText, squash } from '../helpers/pdf.js';
import { createDocument, json, tempDir } from './support.js';

const RESOURCES = path.join(projectRoot(), 'resources');
let scratch: string;
let complete: string;
let fontless: string;

/** A resources folder holding the templates (only the invoice, renamed so the seed is recognisably this one's) and, when asked, the fonts. */
function makeResources(dir: string, withFonts: boolean): string {
  fs.cpSync(path.join(RESOURCES, 'templates'), path.join(dir, 'templates'), { recursive: true });
  const index = JSON.parse(fs.readFileSync(path.join(dir, 'templates', 'index.json'), 'utf8')) as Array<{ file: string; name: string }>;
  const invoice = index.filter((entry) => entry.file === 'invoice.json').map((entry) => ({ ...entry, name: 'Invoice (copied resources)' }));
  fs.writeFileSync(path.join(dir, 'templates', 'index.json'), JSON.stringify(invoice));
  if (withFonts) fs.cpSync(path.join(RESOURCES, 'fonts'), path.join(dir, 'fonts'), { recursive: true });
  return dir;
}

before(() => {
  scratch = tempDir('docloom-resources-');
  complete = makeResources(path.join(scratch, 'complete'), true);
  fontless = makeResources(path.join(scratch, 'fontless'), false);
});
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

for (const renderWorkers of [1, 0]) {
  const where = renderWorkers > 0 ? 'in a render worker' : 'on the main thread';

  test(`DOCLOOM_RESOURCES_DIR outside the project: samples and fonts come from it; documents render ${where}`, async () => {
    const s = await startTestServer({ seedSamples: true, renderWorkers }, { env: { DOCLOOM_RESOURCES_DIR: complete } });
    try {
      assert.equal(s.config.resourcesDir, complete);
      const templates = (await json(await s.api('/api/template'))).templates;
      assert.deepEqual(templates.data.map((t: { name: string }) => t.name), ['Invoice (copied resources)']);
      const template = (await json(await s.api(`/api/template/${templates.data[0].uuid}`))).template;
      const { status, body } = await createDocument(s, { template_id: template.uuid, data: JSON.stringify(template.sample_data) });
      assert.equal(status, 201);
      assert.equal(body.document.status, 'completed', JSON.stringify(body.document.error));
      const pdf = new Uint8Array(await (await fetch(body.document.download_url)).arrayBuffer());
      assert.match(squash(pdfText(pdf)), /INVOICE|Invoice/);
      assert.deepEqual(s.logs, []);
    } finally {
      await s.close();
    }
  });

  test(`a resources folder without fonts: the start says so, documents fail with fonts_missing ${where}, the service keeps going`, async () => {
    const s = await startTestServer({ seedSamples: true, renderWorkers }, { env: { DOCLOOM_RESOURCES_DIR: fontless } });
    try {
      assert.ok(s.logs.some((line) => line.includes(`no .ttf files in ${path.join(fontless, 'fonts')}`)), s.logs.join('\n'));
      const templates = (await json(await s.api('/api/template'))).templates;
      assert.equal(templates.total, 1, 'the templates of that folder are still offered');
      const template = (await json(await s.api(`/api/template/${templates.data[0].uuid}`))).template;
      const { status, body } = await createDocument(s, { template_id: template.uuid, data: JSON.stringify(template.sample_data) });
      assert.equal(status, 201);
      const d = body.document;
      assert.equal(d.status, 'failed');
      assert.equal(d.error.code, 'fonts_missing');
      assert.ok(d.error.message.includes(path.join(fontless, 'fonts')), d.error.message);
      assert.match(d.error.message, /DOCLOOM_RESOURCES_DIR/);
      assert.equal(d.size, null);
      assert.equal((await fetch(d.download_url)).status, 409, 'no file was left');
      // Still serving, and a second try fails the same way (no half-filled font cache).
      const again = await createDocument(s, { template_id: template.uuid, data: JSON.stringify(template.sample_data) });
      assert.equal(again.body.document.error.code, 'fonts_missing');
      assert.equal((await s.api('/api/info')).status, 200);
    } finally {
      await s.close();
    }
  });
}
