/**
 * No macros out (issue #10): a macro-enabled package uploaded as a template (.docm, or .docx with a macroEnabled
 * main type, vbaProject.bin, vbaData.xml and the relationships to them) is kept without any of it and says so
 * (`import_warnings: [{code: 'macros_removed'}]`); the template file, a .docx output and the editable copy carry
 * no VBA part, no relationship to one and no macro-enabled content type.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { buildDocx, p } from '../docx/build-docx.js';
import { stripMacros } from '../../server/engine/index.js';
import { createDocument, json, uploadTemplate } from './support.js';

const MACRO_MAIN = 'application/vnd.ms-word.document.macroEnabled.main+xml';
const PLAIN_MAIN = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';

/** A .docm as Word writes one: the VBA project, its data part, their relationships and content types. */
function macroPackage(): Uint8Array {
  const files = unzipSync(buildDocx({ body: p('Hello {{name}}') }));
  const types = strFromU8(files['[Content_Types].xml'])
    .replace(PLAIN_MAIN, MACRO_MAIN)
    .replace(
      '</Types>',
      '<Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/>' +
        '<Override PartName="/word/vbaData.xml" ContentType="application/vnd.ms-word.vbaData+xml"/></Types>',
    );
  files['[Content_Types].xml'] = strToU8(types);
  files['word/vbaProject.bin'] = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 1, 2, 3, 4]);
  files['word/vbaData.xml'] = strToU8('<?xml version="1.0"?><wne:vbaSuppData xmlns:wne="http://schemas.microsoft.com/office/word/2006/wordml"/>');
  files['word/_rels/vbaProject.bin.rels'] = strToU8(
    '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.microsoft.com/office/2006/relationships/wordVbaData" Target="vbaData.xml"/></Relationships>',
  );
  const rels = strFromU8(files['word/_rels/document.xml.rels']).replace(
    '</Relationships>',
    '<Relationship Id="rIdVba" Type="http://schemas.microsoft.com/office/2006/relationships/vbaProject" Target="vbaProject.bin"/></Relationships>',
  );
  files['word/_rels/document.xml.rels'] = strToU8(rels);
  assert.ok(types.includes(MACRO_MAIN) && rels.includes('rIdVba'), 'the package is macro-enabled');
  return zipSync(files);
}

function assertNoMacros(bytes: Uint8Array, what: string): void {
  const files = unzipSync(bytes);
  const names = Object.keys(files);
  assert.ok(names.includes('word/document.xml'), `${what}: still a Word document`);
  assert.deepEqual(names.filter((n) => /vba/i.test(n)), [], `${what}: no VBA parts`);
  const types = strFromU8(files['[Content_Types].xml']);
  assert.doesNotMatch(types, /macroEnabled|vbaProject|vbaData/i, `${what}: content types`);
  assert.ok(types.includes(PLAIN_MAIN), `${what}: the plain main type`);
  for (const name of names.filter((n) => n.endsWith('.rels'))) {
    assert.doesNotMatch(strFromU8(files[name]), /vba/i, `${what}: ${name}`);
  }
}

let s: TestServer;

before(async () => {
  s = await startTestServer();
});

after(async () => {
  assert.deepEqual(s.logs, []);
  await s.close();
});

test('stripMacros: removes the parts, relationships and content types; leaves a macro-free file untouched', () => {
  const stripped = stripMacros(macroPackage());
  assert.ok(stripped);
  assert.deepEqual(stripped.removed.sort(), ['word/_rels/vbaProject.bin.rels', 'word/vbaData.xml', 'word/vbaProject.bin']);
  assert.equal(stripped.mainTypeRewritten, true);
  assertNoMacros(stripped.bytes, 'stripped');
  assert.equal(stripMacros(buildDocx({ body: p('plain') })), null);
  // A main part whose macro-enabled type is declared by a Default for its extension is made plain as well.
  const files = unzipSync(buildDocx({ body: p('by default') }));
  files['[Content_Types].xml'] = strToU8(
    strFromU8(files['[Content_Types].xml'])
      .replace(/<Override PartName="\/word\/document\.xml"[^>]*\/>/, '')
      .replace('</Types>', `<Default Extension="xml" ContentType="${MACRO_MAIN}"/></Types>`),
  );
  const byDefault = stripMacros(zipSync(files));
  assert.ok(byDefault);
  assert.equal(byDefault.mainTypeRewritten, true);
  assertNoMacros(byDefault.bytes, 'main type by Default');
  assert.equal(stripMacros(new Uint8Array([1, 2, 3])), null);
});

for (const name of ['macros.docm', 'macros.docx']) {
  test(`${name}: kept without macros, with a macros_removed warning; no served file carries VBA`, async () => {
    const up = await uploadTemplate(s, { name, bytes: macroPackage() });
    assert.equal(up.status, 201, JSON.stringify(up.body));
    const template = up.body.template;
    assert.equal(template.original_filename, 'macros.docx');
    assert.deepEqual(template.import_warnings, [{ code: 'macros_removed', message: 'The file held macros (VBA); they were removed. docloom never runs macros, and no file it serves carries them.', location: { part: 'file' }, count: 1 }]);
    assert.deepEqual((await json(await s.api(`/api/template/${template.uuid}`))).template.import_warnings, template.import_warnings);

    const file = await s.api(`/api/template/${template.uuid}/file`);
    assert.equal(file.status, 200);
    assertNoMacros(new Uint8Array(await file.arrayBuffer()), 'template file');

    const docx = await createDocument(s, { template_id: template.uuid, data: JSON.stringify({ name: 'Ada' }), output_type: 'docx' });
    assert.equal(docx.status, 201, JSON.stringify(docx.body));
    const out = await s.api(`/api/document/${docx.body.document.id}/download`);
    assert.equal(out.status, 200);
    assertNoMacros(new Uint8Array(await out.arrayBuffer()), 'docx output');

    const pdf = await createDocument(s, { template_id: template.uuid, data: JSON.stringify({ name: 'Ada' }), editable: '1' });
    assert.equal(pdf.status, 201, JSON.stringify(pdf.body));
    const copy = await s.api(`/api/document/${pdf.body.document.id}/editable`);
    assert.equal(copy.status, 200);
    assertNoMacros(new Uint8Array(await copy.arrayBuffer()), 'editable copy');

    // Replacing the file with a plain one drops the warning.
    const put = await uploadTemplate(s, { name: 'plain.docx', bytes: buildDocx({ body: p('Hi {{name}}') }) }, {}, { method: 'PUT', path: `/api/template/${template.uuid}` });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.deepEqual(put.body.template.import_warnings, []);
  });
}
