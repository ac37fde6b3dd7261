/**
 * A .docx rendered as a static document, read back as the words of its PDF (pdftotext -bbox), and where the public
 * corpus is: shared by the tests that compare docloom's geometry with LibreOffice's on corpus files.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { words, type Word } from '../engine/pdf/helpers.js';

export const CORPUS = process.env.DOCLOOM_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/docx');
export const corpusFile = (name: string): string => path.join(CORPUS, name);

/** The file as a static document: its {{…}} tags are text (delimiters that occur nowhere, as the fidelity run). */
export async function pdfWords(bytes: Uint8Array): Promise<Word[]> {
  const compiled = compileTemplate({ kind: 'docx', bytes, delimiters: ['⟦⟦', '⟧⟧'] });
  assert.ok(compiled.ok);
  return words((await renderPdf(compiled.template, {})).bytes);
}
