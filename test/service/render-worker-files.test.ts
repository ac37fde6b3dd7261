/**
 * With a render worker: the PDF and the editable copy written, sizes, downloads, no temp files left; a file that
 * cannot be written fails the document, and a file that cannot then be removed does not leave it `processing`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer } from '../helpers/server.js';
import { buildDocx, p } from '../docx/build-docx.js';
import { INVOICE_DATA, createDocument, createInvoiceTemplate, uploadTemplate } from './support.js';

test('with a render worker: the PDF and the editable copy written, sizes, downloads, no temp files left', async () => {
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

test('a file that cannot be written: the document fails (render_failed), not left processing though its files cannot be removed either', async () => {
  const s = await startTestServer({ renderWorkers: 1 });
  try {
    const template = await createInvoiceTemplate(s);
    // The first bucket's folder is taken by a file: writing fails, and so does removing (as root too).
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
