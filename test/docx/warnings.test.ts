/**
 * Import warnings (mammoth's Result.messages): what the importer leaves out or changes comes back from
 * compileTemplate as `warnings`, aggregated per code + part + element with a count; unknown elements are reported
 * (element_not_drawn) rather than dropped without a word; damaged parts are left out with a warning naming them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { compileTemplate, renderPdf, type ImportWarning } from '../../server/engine/index.js';
import { CATALOGUE } from '../../server/errors/catalogue.js';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { buildDocx, emfBytes, p } from './build-docx.js';



const picture = (rel: string): string =>
  `<w:r><w:drawing><wp:inline><wp:extent cx="914400" cy="914400"/><wp:docPr id="1" name="Picture 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:blipFill><a:blip r:embed="${rel}"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
const chart =
  '<w:r><w:drawing><wp:inline><wp:extent cx="100" cy="100"/><wp:docPr id="9" name="Chart"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rIdChart"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>';

function compile(bytes: Uint8Array): ImportWarning[] {
  const result = compileTemplate({ kind: 'docx', bytes });
  assert.ok(result.ok, JSON.stringify(result));
  return result.warnings;
}

test('EMF pictures, charts, notes, equations and unknown elements are reported, aggregated with a count', () => {
  const body =
    `<w:p>${picture('img_logo')}${picture('img_logo')}<w:r><w:t>two EMF pictures</w:t></w:r></w:p>` +
    `<w:p>${chart}<w:r><w:t>a chart</w:t><w:footnoteReference w:id="1"/></w:r></w:p>` +
    '<w:p><m:oMath xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"><m:r><m:t>x=1</m:t></m:r></m:oMath></w:p>' +
    '<w:p><w:r><w:t>ink</w:t><w:contentPart r:id="rIdInk"/></w:r><w:bookmarkStart w:id="0" w:name="b"/><w:bookmarkEnd w:id="0"/></w:p>' +
    '<w:altChunk r:id="rIdChunk"/>';
  const warnings = compile(buildDocx({ body, media: { 'logo.emf': emfBytes() }, rels: { rIdChart: ['chart', 'charts/chart1.xml'] } }));
  const part = 'word/document.xml';
  assert.deepEqual(
    warnings.map((w) => [w.code, w.location, w.count]),
    [
      ['picture_format_unsupported', { part }, 2],
      ['chart_not_drawn', { part, element: 'c:chart' }, 1],
      ['notes_not_drawn', { part, element: 'w:footnoteReference' }, 1],
      ['math_as_text', { part, element: 'm:oMath' }, 1],
      ['element_not_drawn', { part, element: 'w:contentPart' }, 1],
      ['element_not_drawn', { part, element: 'w:altChunk' }, 1],
    ],
  );
  assert.equal(warnings[0].message, '2 EMF pictures not drawn (the format cannot be drawn)');
  assert.equal(warnings[1].message, '1 chart not drawn');
  for (const w of warnings) assert.equal(CATALOGUE[w.code].kind, 'warning', w.code);
});

test('a plain document has no warnings; a picture behind the text is drawn, a linked picture is reported', () => {
  assert.deepEqual(compile(buildDocx({ body: p('plain') })), []);
  const behind =
    '<w:p><w:r><w:drawing><wp:anchor behindDoc="1"><wp:extent cx="914400" cy="914400"/><wp:docPr id="2" name="Watermark"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:blipFill><a:blip r:embed="rIdLinked"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r></w:p>';
  const warnings = compile(buildDocx({ body: behind + `<w:p>${picture('rIdLinked')}</w:p>`, rels: { rIdLinked: ['image', 'https://example.com/x.png', true] } }));
  // The picture behind the text is the linked one: only its missing file is reported, once per picture.
  assert.deepEqual(warnings.map((w) => [w.code, w.count]), [['picture_missing', 2]]);
});

const BROKEN = path.resolve(import.meta.dirname, '../../../shared/corpus/docx/broken');

test('a damaged picture part: the rest renders, with a warning naming the part', { skip: !fs.existsSync(path.join(BROKEN, 'aspose__Corrupted_image.docx')) && 'corpus not present' }, async () => {
  const result = compileTemplate({ kind: 'docx', bytes: fs.readFileSync(path.join(BROKEN, 'aspose__Corrupted_image.docx')) });
  assert.ok(result.ok, JSON.stringify(result));
  const damaged = result.warnings.filter((w) => w.code === 'part_damaged');
  assert.equal(damaged.length, 1, JSON.stringify(result.warnings));
  assert.match(damaged[0].location.part, /^word\/media\//);
  assert.match(damaged[0].message, /damaged picture/);
  const pdf = await renderPdf(result.template, {});
  assert.ok(pdf.pages >= 1);
});

test('a damaged notes part: the rest renders, with a warning naming the part', async () => {
  const bytes = buildDocx({
    body: '<w:p><w:r><w:t>text with a note</w:t></w:r><w:r><w:footnoteReference w:id="2"/></w:r></w:p>',
    rels: { rIdNotes: ['footnotes', 'footnotes.xml'] },
    extra: { 'word/footnotes.xml': '<w:footnotes xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:footnote w:id="2"><w:p>' },
  });
  const result = compileTemplate({ kind: 'docx', bytes });
  assert.ok(result.ok, JSON.stringify(result));
  assert.deepEqual(
    result.warnings.map((w) => [w.code, w.location.part]),
    [['notes_not_drawn', 'word/document.xml'], ['part_damaged', 'word/footnotes.xml']],
  );
  assert.equal(result.warnings[1].message, 'damaged footnotes left out; the rest is drawn');
  assert.equal((await renderPdf(result.template, {})).pages, 1);
});

test('the broken corpus: 4 unreadable files refused with their codes, 2 partly damaged ones render with warnings', { skip: !fs.existsSync(BROKEN) && 'corpus not present' }, async () => {
  const expected: Record<string, string> = {
    'aspose__Corrupted_document.docx': 'invalid_template',
    'aspose__Encrypted.docx': 'unsupported_file',
    'tika__testWORD_truncated.docx': 'invalid_template',
    'pydocx__missing_relationships.docx': 'unsupported_file',
    'aspose__Corrupted_image.docx': 'part_damaged',
    // Its footnotes part reads (whatever Aspose damaged, the notes are drawn), and its header's shape behind the
    // text is drawn now (floats): nothing left to report, it must render.
    'aspose__Corrupted_footnotes.docx': 'renders',
  };
  for (const [file, want] of Object.entries(expected)) {
    const start = performance.now();
    const result = compileTemplate({ kind: 'docx', bytes: fs.readFileSync(path.join(BROKEN, file)) });
    if (result.ok) {
      if (want !== 'renders') assert.ok(result.warnings.some((w) => w.code === want), `${file}: ${JSON.stringify(result.warnings)}`);
      assert.ok((await renderPdf(result.template, {})).pages >= 1, file);
    } else {
      assert.deepEqual(result.errors.map((e) => [e.code, e.location.part]), [[want, 'file']], file);
    }
    assert.ok(performance.now() - start < 5000, `${file} took too long`);
  }
});

test('sections in columns, capitals and small capitals are drawn, not reported', () => {
  const sect = '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"/><w:cols w:num="2" w:space="720"/></w:sectPr>';
  const body = `<w:p><w:r><w:rPr><w:caps/></w:rPr><w:t>shouted</w:t></w:r><w:r><w:rPr><w:caps/></w:rPr><w:t>ALREADY UPPER</w:t></w:r><w:r><w:rPr><w:smallCaps/></w:rPr><w:t>small</w:t></w:r></w:p>`;
  const warnings = compile(buildDocx({ body, sectPr: sect }));
  assert.deepEqual(warnings.map((w) => [w.code, w.location.element, w.count, w.message]), []);
});

test('a page colour is drawn, not reported; a page fill effect (picture, gradient) is reported', () => {
  const withBackground = (inner: string): Uint8Array => {
    const files = unzipSync(buildDocx({ body: p('coloured page'), settings: '<w:displayBackgroundShape/>' }));
    files['word/document.xml'] = strToU8(strFromU8(files['word/document.xml']).replace('<w:body>', `<w:background w:color="FFF2CC">${inner}</w:background><w:body>`));
    return zipSync(files);
  };
  assert.deepEqual(compile(withBackground('')), []);
  assert.deepEqual(compile(withBackground('<v:background><v:fill type="gradient" color2="#ffffff"/></v:background>')).map((w) => [w.code, w.location.element, w.message]),
    [['background_not_drawn', 'w:background', 'the page fill effect (picture, texture, pattern or gradient) is not drawn: the page colour is']]);
});
