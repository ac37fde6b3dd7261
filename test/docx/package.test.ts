/**
 * Accept every real package: content types resolved as Open Packaging does (Override by part name, then Default by
 * extension, case-insensitive), the main part found by the package's officeDocument relationship (transitional or
 * strict type URI); only what cannot be read is refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { importDocx } from '../../server/engine/docx/import.js';
import { EngineError } from '../../server/engine/errors.js';
import { bodyTexts } from './model-text.js';
import { p, W_NS } from './build-docx.js';

const MAIN_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';
const TRANSITIONAL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument';
const STRICT = 'http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument';

function pkg(files: Record<string, string>): Uint8Array {
  const z: Zippable = {};
  for (const [name, content] of Object.entries(files)) z[name] = strToU8(content);
  return zipSync(z);
}

function rels(type: string, target: string): string {
  return `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${type}" Target="${target}"/></Relationships>`;
}

function types(inner: string): string {
  return `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>${inner}</Types>`;
}

const DOC = (text: string): string => `<w:document ${W_NS}><w:body>${p(text)}</w:body></w:document>`;

function code(bytes: Uint8Array): string {
  try {
    importDocx(bytes);
    return 'ok';
  } catch (err) {
    assert.ok(err instanceof EngineError);
    return err.code;
  }
}

test('a main part declared only by <Default Extension="xml"> is accepted and renders', async () => {
  const bytes = pkg({
    '[Content_Types].xml': types(`<Default Extension="xml" ContentType="${MAIN_TYPE}"/>`),
    '_rels/.rels': rels(TRANSITIONAL, 'word/document.xml'),
    'word/document.xml': DOC('declared by default'),
  });
  const compiled = compileTemplate({ kind: 'docx', bytes });
  assert.ok(compiled.ok, JSON.stringify(compiled));
  assert.deepEqual(compiled.warnings, []);
  const pdf = await renderPdf(compiled.template, {});
  assert.equal(pdf.pages, 1);
  assert.equal(Buffer.from(pdf.bytes.subarray(0, 5)).toString(), '%PDF-');
});

test('content types are matched case-insensitively, Override before Default', () => {
  // Upper-case extension and part name in the content types; the Override wins over a Default of another type.
  const bytes = pkg({
    '[Content_Types].xml': types(`<Default Extension="XML" ContentType="application/xml"/><Override PartName="/WORD/Document.XML" ContentType="${MAIN_TYPE}"/>`),
    '_rels/.rels': rels(TRANSITIONAL, 'word/document.xml'),
    'word/document.xml': DOC('override'),
  });
  assert.deepEqual(bodyTexts(importDocx(bytes)), ['override']);
  const byDefault = pkg({
    '[Content_Types].xml': types(`<Default Extension="XML" ContentType="${MAIN_TYPE.toUpperCase()}"/>`),
    '_rels/.rels': rels(TRANSITIONAL, '/word/main.xml'),
    'word/main.xml': DOC('upper-case default'),
  });
  assert.deepEqual(bodyTexts(importDocx(byDefault)), ['upper-case default']);
});

test('the strict officeDocument relationship finds the main part', () => {
  const bytes = pkg({
    '[Content_Types].xml': types(`<Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/body.xml" ContentType="${MAIN_TYPE}"/>`),
    '_rels/.rels': rels(STRICT, 'word/body.xml'),
    'word/body.xml': DOC('strict'),
  });
  assert.deepEqual(bodyTexts(importDocx(bytes)), ['strict']);
});

test('a readable w:document is accepted even when its type is not declared; what cannot be read is refused', () => {
  // No type at all for the main part, but it is a WordprocessingML document.
  const undeclared = pkg({
    '[Content_Types].xml': types(''),
    '_rels/.rels': rels(TRANSITIONAL, 'word/document.xml'),
    'word/document.xml': DOC('undeclared'),
  });
  assert.deepEqual(bodyTexts(importDocx(undeclared)), ['undeclared']);
  // No package relationships either: word/document.xml is the main part by convention.
  const norels = pkg({ '[Content_Types].xml': types(`<Default Extension="xml" ContentType="${MAIN_TYPE}"/>`), 'word/document.xml': DOC('no rels') });
  assert.deepEqual(bodyTexts(importDocx(norels)), ['no rels']);
  // A spreadsheet is a package too, but not a Word document.
  const xlsx = pkg({
    '[Content_Types].xml': types('<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'),
    '_rels/.rels': rels(TRANSITIONAL, 'xl/workbook.xml'),
    'xl/workbook.xml': '<workbook/>',
  });
  assert.equal(code(xlsx), 'unsupported_file');
  // An undeclared main part that is not XML at all.
  const garbage = pkg({ '[Content_Types].xml': types(''), '_rels/.rels': rels(TRANSITIONAL, 'word/document.xml'), 'word/document.xml': 'not xml <' });
  assert.equal(code(garbage), 'unsupported_file');
});
