/**
 * With render workers, the worker writes a document's files itself (RenderJob.files): same files, same durable
 * steps, sizes and editable copies as when the event loop writes them; a write that fails fails the document.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer } from '../helpers/server.js';
import { buildDocx, p } from '../docx/build-docx.js';
import { INVOICE_DATA, createDocument, createInvoiceTemplate, uploadTemplate } from './support.js';

test('a render worker writes the PDF and the editable copy: sizes, downloads, no temp files left', async () => {
  const s = await startTestServer({ renderWorkers: 1 });
  try {
    const template = await createInvoiceTemplate(s);
    const made = await createDocument(s, { template_id: template.uuid, data: JSON.stringify(INVOICE_DATA) });
    assert.equal(made.status, 201);
    assert.equal(made.body.document.status, 'completed');
    const pdf = Buffer.from(await (await fetch(made.body.document.download_url)).arrayBuffer());
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.equal(made.body.document.size, pdf.length);

    const docx = await uploadTemplate(s, { name: 'letter.docx', bytes: Buffer.from(buildDocx({ body: p('Dear {{name}},') })) }, { name: 'Letter' });
    assert.equal(docx.status, 201);
    const withCopy = await createDocument(s, { template_id: docx.body.template.uuid, data: '{"name":"Ada"}', editable: '1' });
    assert.equal(withCopy.body.document.status, 'completed');
    assert.equal(typeof withCopy.body.document.editable_url, 'string');
    const copy = Buffer.from(await (await fetch(withCopy.body.document.editable_url)).arrayBuffer());
    assert.equal(copy.subarray(0, 2).toString('latin1'), 'PK');

    assert.deepEqual(fs.readdirSync(path.join(s.dataDir, 'tmp')).filter((n) => n.endsWith('.tmp')), []);
  } finally {
    await s.close();
  }
});

test('a render worker that cannot write the file: the document fails (render_failed), nothing is left processing', async () => {
  const s = await startTestServer({ renderWorkers: 1 });
  try {
    const template = await createInvoiceTemplate(s);
    // The first bucket's folder is taken by a file: the worker's mkdir fails (as root too).
    const files = path.join(s.dataDir, 'documents', 'files');
    fs.mkdirSync(files, { recursive: true });
    fs.writeFileSync(path.join(files, '000000'), 'not a folder');
    const made = await createDocument(s, { template_id: template.uuid, data: JSON.stringify(INVOICE_DATA) });
    assert.equal(made.status, 201);
    assert.equal(made.body.document.status, 'failed');
    assert.equal(made.body.document.error.code, 'render_failed');
    assert.match(made.body.document.error.message, /could not be saved/);
    assert.ok(s.logs.some((line) => line.includes(`document ${made.body.document.id}`)), s.logs.join('\n'));
  } finally {
    await s.close();
  }
});
