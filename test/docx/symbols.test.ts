/**
 * Extended symbols: Word 2016+ writes an emoji or other character picked from a symbol font as w16se:symEx (its
 * Unicode code point) in the Choice of an mc:AlternateContent, with the character as plain text in the Fallback.
 * The importer reads the Choice, so the character is drawn and no warning is given. Read back from the PDF with
 * pdftotext, on a built file and on a corpus file nobody here wrote.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { words } from '../engine/pdf/helpers.js';
import { buildDocx } from './build-docx.js';
import { corpusFile, pdfWords } from './static-words.js';

const W16SE = 'http://schemas.microsoft.com/office/word/2015/wordml/symex';
/** A run as Word writes it: the Choice needs w16se, the Fallback has the character itself. */
const symEx = (cp: number, font: string): string =>
  `<w:r><mc:AlternateContent xmlns:w16se="${W16SE}"><mc:Choice Requires="w16se"><w16se:symEx w16se:font="${font}" w16se:char="${cp.toString(16).toUpperCase()}"/></mc:Choice>` +
  `<mc:Fallback><w:t>${String.fromCodePoint(cp)}</w:t></mc:Fallback></mc:AlternateContent></w:r>`;

test('w16se:symEx: the character is drawn where it stands, without a warning', async () => {
  const body = `<w:p><w:r><w:t xml:space="preserve">Before </w:t></w:r>${symEx(0x2603, 'Segoe UI Symbol')}<w:r><w:t xml:space="preserve"> after</w:t></w:r></w:p>`;
  const compiled = compileTemplate({ kind: 'docx', bytes: buildDocx({ body }), delimiters: ['\u0001<<', '>>\u0001'] });
  assert.ok(compiled.ok, JSON.stringify(compiled));
  assert.deepEqual(compiled.warnings, [], 'nothing left out');
  const text = words((await renderPdf(compiled.template, {})).bytes).map((w) => w.text);
  assert.deepEqual(text, ['Before', '\u2603', 'after']);
});

const CAT = 'docxrs__image_inline_and_anchor.docx';
test('corpus: the emoji after "Hello inline" and "Hello floating" is in the text', { skip: !fs.existsSync(corpusFile(CAT)) && 'no corpus' }, async () => {
  const text = (await pdfWords(new Uint8Array(fs.readFileSync(corpusFile(CAT))))).map((w) => w.text);
  assert.deepEqual(text, ['Hello', 'inline', '🐱', 'Hello', 'floating', '🐱']);
});
