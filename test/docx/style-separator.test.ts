/**
 * Word's style separator (w:specVanish on a paragraph mark): the paragraph is not ended, the next one's text runs
 * on in the same line. Checked on a hand-made file (layout as data) and on two corpus files written by Word,
 * through the PDF (pdftotext -bbox).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { buildDocx, p } from './build-docx.js';
import { docxPages, findText } from '../engine/pdf/boxes.js';
import { words, type Word } from '../engine/pdf/helpers.js';

const CORPUS = process.env.DOCLOOM_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/docx');

/** A heading whose mark is hidden as Word's "Insert Style Separator" writes it. */
function separatorHeading(text: string, markRPr = '<w:vanish/><w:specVanish/>'): string {
  return `<w:p><w:pPr><w:ind w:left="720"/><w:spacing w:before="240" w:after="480"/><w:keepNext/><w:rPr>${markRPr}</w:rPr></w:pPr><w:r><w:rPr><w:b/></w:rPr><w:t>${text}</w:t></w:r></w:p>`;
}

test('a style-separator heading and the next paragraph share one line, laid out from the heading', async () => {
  const body = p('Before') + separatorHeading('Heading.') + p(' Body text follows.', '<w:spacing w:before="0" w:after="120"/>') + p('After');
  const pages = await docxPages(buildDocx({ body }));
  const heading = findText(pages, 'Heading.');
  const run = findText(pages, 'Body text');
  assert.equal(run.y, heading.y, 'the body text is on the heading line');
  assert.ok(run.x > heading.x, 'after the heading');
  // The line starts where the heading's indent puts it (72 pt margin + 36 pt).
  assert.ok(Math.abs(heading.x - 108) < 0.5, `heading at ${heading.x}`);
  // The joined paragraph ends as the body paragraph does: 6 pt after, not the heading's 24.
  const before = findText(pages, 'Before');
  const after = findText(pages, 'After');
  const plain = await docxPages(buildDocx({ body: p('Alpha') + p('Beta') }));
  const single = findText(plain, 'Beta').y - findText(plain, 'Alpha').y;
  assert.ok(Math.abs(heading.y - before.y - single - 12) < 0.01, `space before ${heading.y - before.y - single}`);
  assert.ok(Math.abs(after.y - heading.y - single - 6) < 0.01, `space after ${after.y - heading.y - single}`);
});

test('a paragraph mark with w:specVanish turned off ends its paragraph', async () => {
  const pages = await docxPages(buildDocx({ body: separatorHeading('Heading.', '<w:specVanish w:val="0"/>') + p('Body text') }));
  assert.ok(findText(pages, 'Body text').y > findText(pages, 'Heading.').y);
});

/** The word after the words `phrase` (one string, spaces between words), both on one page. */
function after(all: Word[], phrase: string): { last: Word; next: Word } {
  const parts = phrase.split(' ');
  for (let i = 0; i + parts.length < all.length; i++) {
    if (parts.every((w, k) => all[i + k].text === w)) return { last: all[i + parts.length - 1], next: all[i + parts.length] };
  }
  throw new Error(`"${phrase}" not found`);
}

async function corpusWords(file: string): Promise<Word[]> {
  const compiled = compileTemplate({ kind: 'docx', bytes: new Uint8Array(fs.readFileSync(path.join(CORPUS, file))) });
  assert.ok(compiled.ok);
  return words((await renderPdf(compiled.template, {})).bytes);
}

test('corpus: docxrs__spec_vanish runs each section heading into its text, on Word\'s 6 pages', { skip: !fs.existsSync(path.join(CORPUS, 'docxrs__spec_vanish.docx')) && 'no corpus' }, async () => {
  const all = await corpusWords('docxrs__spec_vanish.docx');
  // "I.1 Place of Meetings" (Heading 2, style separator) + ". Meetings of stockholders of …" (Body Text).
  const { last, next } = after(all, 'Place of Meetings.');
  assert.equal(next.text, 'Meetings');
  assert.equal(next.page, last.page);
  assert.ok(Math.abs(next.yMin - last.yMin) < 1 && next.xMin > last.xMax, `heading ends at ${last.yMin}, text starts at ${next.yMin}`);
  // Word's saved page marks (w:lastRenderedPageBreak) start 5 pages after the cover page; ending each heading
  // as LibreOffice 7.4 does takes 7.
  assert.equal(Math.max(...all.map((w) => w.page)), 6);
});

test('corpus: safedocx__nvca-source runs "Defined Terms Used in this Agreement" into its text', { skip: !fs.existsSync(path.join(CORPUS, 'safedocx__nvca-source.docx')) && 'no corpus' }, async () => {
  const all = await corpusWords('safedocx__nvca-source.docx');
  const { last, next } = after(all, 'Defined Terms Used in this Agreement.');
  assert.equal(next.text, 'In');
  assert.ok(next.page === last.page && Math.abs(next.yMin - last.yMin) < 1, `heading ends at ${last.yMin}, text starts at ${next.yMin}`);
});
