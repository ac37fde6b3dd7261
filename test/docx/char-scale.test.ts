/**
 * Word's character width scale (w:w, percent): glyphs drawn wider or narrower with the PDF's horizontal scaling, and
 * lines broken on the scaled widths. Read back from the PDF (pdftotext -bbox), on hand-made files and a corpus file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { buildDocx, p } from './build-docx.js';
import { word, words, type Word } from '../engine/pdf/helpers.js';

const CORPUS = process.env.DOCLOOM_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/docx');

async function render(bytes: Uint8Array): Promise<Word[]> {
  const compiled = compileTemplate({ kind: 'docx', bytes });
  assert.ok(compiled.ok);
  return words((await renderPdf(compiled.template, {})).bytes);
}

const width = (w: Word): number => w.xMax - w.xMin;

test('w:w scales each glyph horizontally: 200 % twice as wide, 50 % half, same height', async () => {
  const all = await render(buildDocx({ body: p('Plain') + p('Double', '', '<w:w w:val="200"/>') + p('Half', '', '<w:w w:val="50"/>') + p('Double') + p('Half') }));
  const [doubled, plainDouble] = all.filter((w) => w.text === 'Double');
  const [halved, plainHalf] = all.filter((w) => w.text === 'Half');
  assert.ok(Math.abs(width(doubled) - 2 * width(plainDouble)) < 0.5, `200 %: ${width(doubled)} vs ${width(plainDouble)}`);
  assert.ok(Math.abs(width(halved) - width(plainHalf) / 2) < 0.5, `50 %: ${width(halved)} vs ${width(plainHalf)}`);
  assert.ok(Math.abs(doubled.yMax - doubled.yMin - (plainDouble.yMax - plainDouble.yMin)) < 0.1);
  // The scale ends with its run: the next paragraph is drawn at 100 %.
  assert.ok(Math.abs(width(word(all, 'Plain')) - width(await plainWidth('Plain'))) < 0.1);
});

async function plainWidth(text: string): Promise<Word> {
  return word(await render(buildDocx({ body: p(text) })), text);
}

test('lines break on the scaled widths: 200 % text stays inside the margins, 50 % takes fewer lines', async () => {
  const text = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
  const lines = (all: Word[]): number => new Set(all.map((w) => Math.round(w.yMin))).size;
  const plain = await render(buildDocx({ body: p(text) }));
  const wide = await render(buildDocx({ body: p(text, '', '<w:w w:val="200"/>') }));
  const narrow = await render(buildDocx({ body: p(text, '', '<w:w w:val="50"/>') }));
  // A4 with 72 pt margins: the text column ends at 523.3 pt.
  const right = Math.max(...wide.map((w) => w.xMax));
  assert.ok(right <= 523.8, `200 % text reaches ${right}`);
  assert.ok(lines(wide) > lines(plain), `${lines(wide)} lines at 200 %, ${lines(plain)} at 100 %`);
  assert.ok(lines(narrow) < lines(plain), `${lines(narrow)} lines at 50 %, ${lines(plain)} at 100 %`);
});

const REPORT = 'oxsdk__BackgroundReport-THE_WORKING_GROUP_ON_INTERNET_GOVERNANCE.docx';

test('corpus: the 150 % title of oxsdk__BackgroundReport is as wide as LibreOffice draws it', { skip: !fs.existsSync(path.join(CORPUS, REPORT)) && 'no corpus' }, async () => {
  const all = await render(new Uint8Array(fs.readFileSync(path.join(CORPUS, REPORT))));
  // "BACKGROUND REPORT" (w:w 150): LibreOffice 7.4, given docloom's fonts, draws BACKGROUND 184.7 pt wide;
  // unscaled it is 117 pt.
  const background = word(all, 'BACKGROUND', 1);
  assert.ok(Math.abs(width(background) - 184.7) < 0.1 * 184.7, `BACKGROUND is ${width(background)} pt wide`);
});
