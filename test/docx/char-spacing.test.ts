/**
 * Word's character spacing (w:spacing w:val in w:rPr, twentieths of a point after every character: expanded or
 * condensed): measured by the layout and drawn with the PDF's Tc. Read back from the PDF (pdftotext -bbox), on a
 * hand-made file and on a corpus file against LibreOffice's widths.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { buildDocx, p } from './build-docx.js';
import { word, type Word } from '../engine/pdf/helpers.js';
import { corpusFile, pdfWords } from './static-words.js';
import { makeFmt, textWidth } from '../../server/engine/pdf/layout/fmt.js';
import type { Face } from '../../server/engine/pdf/fonts/faces.js';

const width = (w: Word): number => w.xMax - w.xMin;

test('w:spacing adds its points after every character: the next word moves by spacing × characters', async () => {
  // 1 pt expanded (w:val 20) on "Wide " (5 characters with the space), −0.5 pt condensed on "Tight ".
  const body =
    '<w:p><w:r><w:rPr><w:spacing w:val="20"/></w:rPr><w:t xml:space="preserve">Wide </w:t></w:r><w:r><w:t>after</w:t></w:r></w:p>' +
    '<w:p><w:r><w:rPr><w:spacing w:val="-10"/></w:rPr><w:t xml:space="preserve">Tight </w:t></w:r><w:r><w:t>after</w:t></w:r></w:p>' +
    p('Wide after') + p('Tight after');
  const all = await pdfWords(buildDocx({ body }));
  const [wideAfter, tightAfter, plainWide, plainTight] = all.filter((w) => w.text === 'after');
  assert.ok(Math.abs(wideAfter.xMin - plainWide.xMin - 5) < 0.2, `expanded: "after" at ${wideAfter.xMin}, plain ${plainWide.xMin}`);
  assert.ok(Math.abs(tightAfter.xMin - plainTight.xMin + 3) < 0.2, `condensed: "after" at ${tightAfter.xMin}, plain ${plainTight.xMin}`);
  // The drawn glyphs follow the layout: the spaced word is wider on the page by 4 gaps (its last one is trailing).
  const [tight, plainTightWord] = all.filter((w) => w.text === 'Tight');
  assert.ok(Math.abs(width(tight) - width(plainTightWord) + 2) < 0.3, `Tight ${width(tight)} vs ${width(plainTightWord)}`);
  // The spacing ends with its run: "after" in the same line is drawn unspaced.
  assert.ok(Math.abs(width(wideAfter) - width(plainWide)) < 0.05);
});

const CONVERSION = 'docx2python__libreoffice_conversion.docx';

test('corpus: spaced and condensed Chinese headings of docx2python__libreoffice_conversion are as wide as LibreOffice draws them', { skip: !fs.existsSync(corpusFile(CONVERSION)) && 'no corpus' }, async () => {
  const all = await pdfWords(fs.readFileSync(corpusFile(CONVERSION)));
  // LibreOffice 7.4's PDF (docloom's fonts): 谈判文件目录 (w:spacing 42, 2.1 pt) 148.35 pt wide, 138 without the
  // spacing; 服务地点：东阳市歌山镇农贸市场内。 (−10, −0.5 pt) 195.94 pt, 204 without.
  const heading = word(all, '谈判文件目录');
  assert.ok(Math.abs(width(heading) - 148.35) < 1, `谈判文件目录 ${width(heading)} pt`);
  const place = word(all, '服务地点：东阳市歌山镇农贸市场内。');
  assert.ok(Math.abs(width(place) - 195.94) < 1, `服务地点… ${width(place)} pt`);
});

test('character spacing is counted once per character, a surrogate pair being one (the PDF adds Tc once per glyph)', () => {
  const fmt = makeFmt({ charSpacing: 2 });
  // A face measuring 5 pt per UTF-16 unit, so only the spacing differs between the two texts.
  const face = { width: (text: string) => text.length * 5 } as unknown as Face;
  assert.equal(textWidth(face, 'ab', fmt), 10 + 2 * 2);
  assert.equal(textWidth(face, 'a\u{1d400}', fmt), 15 + 2 * 2);
});
