/**
 * ISO/IEC 29500 Strict writes lengths as universal measures ("8pt", "1in", "2.54cm") where Transitional writes
 * twips, half-points or EMUs (ST_TwipsMeasure, ST_SignedTwipsMeasure, ST_HpsMeasure, ST_Coordinate). Read from
 * the layout as data on built files, and on oxsdk__Strict01 (its docDefaults: w:after="8pt" w:line="12.95pt").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { buildDocx, p } from './build-docx.js';
import { docxPages, findText, textBoxes } from '../engine/pdf/boxes.js';
import { emu, halfPoints, twips, universalPoints } from '../../server/engine/docx/units.js';

const CORPUS = process.env.DOCLOOM_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/docx');

test('universal measures read as lengths wherever a plain number counts twips, half-points or EMUs', () => {
  assert.equal(twips('240'), 12);
  assert.equal(twips('12pt'), 12);
  assert.equal(twips('1in'), 72);
  assert.ok(Math.abs(twips('2.54cm')! - 72) < 1e-9);
  assert.ok(Math.abs(twips('25.4mm')! - 72) < 1e-9);
  assert.equal(twips('6pc'), 72);
  assert.equal(twips('-3pt'), -3);
  assert.equal(twips('.5in'), 36);
  assert.equal(halfPoints('22'), 11);
  assert.equal(halfPoints('11pt'), 11);
  assert.equal(emu('12700'), 1);
  assert.equal(emu('1in'), 72);
  // Not lengths: percentages, words, empty.
  for (const bad of ['50%', 'auto', '', '12 pt', 'pt']) assert.equal(universalPoints(bad), undefined, bad);
  assert.equal(twips('50%'), undefined);
});

test('a Strict file\'s spacing, line height, indent, margins and font size in points lay out as their twips would', async () => {
  const layout = async (after: string, line: string, ind: string, sz: string, margin: string): Promise<{ a: ReturnType<typeof findText>; b: ReturnType<typeof findText> }> => {
    const pPr = `<w:spacing w:after="${after}" w:line="${line}" w:lineRule="auto"/><w:ind w:start="${ind}"/>`;
    const sectPr = `<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="${margin}" w:right="${margin}" w:bottom="${margin}" w:left="${margin}" w:header="36pt" w:footer="36pt" w:gutter="0"/></w:sectPr>`;
    const pages = await docxPages(buildDocx({ body: p('Alpha', pPr, `<w:sz w:val="${sz}"/>`) + p('Beta', pPr, `<w:sz w:val="${sz}"/>`), sectPr }));
    return { a: findText(pages, 'Alpha'), b: findText(pages, 'Beta') };
  };
  const transitional = await layout('160', '480', '720', '28', '1440');
  const strict = await layout('8pt', '24pt', '36pt', '14pt', '1in');
  assert.ok(Math.abs(strict.a.x - transitional.a.x) < 0.01, `indent: ${strict.a.x} vs ${transitional.a.x}`);
  assert.ok(Math.abs(strict.a.y - transitional.a.y) < 0.01, `top margin: ${strict.a.y} vs ${transitional.a.y}`);
  assert.ok(Math.abs(strict.b.y - strict.a.y - (transitional.b.y - transitional.a.y)) < 0.01, 'spacing after and double line height');
  assert.ok(Math.abs(strict.a.size - 14) < 0.01, `font size ${strict.a.size}`);
  // The values count: without the after and line, the two lines are closer.
  const plain = await layout('0pt', '12pt', '36pt', '14pt', '1in');
  assert.ok(strict.b.y - strict.a.y > plain.b.y - plain.a.y + 20, `strict gap ${strict.b.y - strict.a.y}, plain ${plain.b.y - plain.a.y}`);
});

test('corpus: oxsdk__Strict01\'s w:after="24pt" puts the next paragraph one line pitch plus 24 pt lower', { skip: !fs.existsSync(path.join(CORPUS, 'oxsdk__Strict01.docx')) && 'no corpus' }, async () => {
  const pages = await docxPages(new Uint8Array(fs.readFileSync(path.join(CORPUS, 'oxsdk__Strict01.docx'))));
  // "Video provides a powerful way…" (two lines, w:spacing w:after="24pt") and "To make your document look
  // professionally produced…" are body paragraphs in a row: the second's first baseline is one line pitch (the
  // docDefaults' w:line="12.95pt", 1.079 lines) plus 24 pt below the first's last.
  const first = textBoxes(pages).filter((b) => b.page === 1 && b.x < 80);
  const video = first.findIndex((b) => b.text.startsWith('Video provides a powerful way'));
  const make = first.findIndex((b, i) => i > video && b.text.startsWith('To make your document'));
  assert.ok(video >= 0 && make > video, 'both paragraphs on page 1');
  const pitch = first[video + 1].y - first[video].y;
  const gap = first[make].y - first[make - 1].y;
  assert.ok(Math.abs(gap - pitch - 24) < 0.5, `gap ${gap}, line pitch ${pitch}`);
  // 11 pt Calibri-metric text at 1.079 lines, not single (13.4 pt): the docDefaults' line height is read too.
  assert.ok(pitch > 14 && pitch < 15, `line pitch ${pitch}`);
});
