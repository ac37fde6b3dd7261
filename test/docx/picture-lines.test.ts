/**
 * The height of a line that holds inline pictures and no text, read from real .docx files on the layout as data
 * (docxPages). LibreOffice 7.4 draws the same files (Carlito for Calibri, 11 pt: a 13.4 pt line) with "Below"
 * 26.9 pt under "Above" around a 1-pt picture, 40.4 pt around two 1-pt pictures on two lines, 113.5 pt around a
 * 100-pt picture and 70.2 pt around a 50-pt picture at 1.5 lines; Word too gives a small picture a whole text line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDocx, makePng, p } from './build-docx.js';
import { docxPages, findText } from '../engine/pdf/boxes.js';

const STYLES =
  '<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/><w:sz w:val="22"/></w:rPr></w:rPrDefault>' +
  '<w:pPrDefault><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>';

/** An inline picture run `wPt` × `hPt` points, with the run properties given. */
const picture = (wPt: number, hPt: number, rPr = ''): string =>
  `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ''}<w:drawing><wp:inline><wp:extent cx="${wPt * 12700}" cy="${hPt * 12700}"/><wp:docPr id="1" name="P"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:blipFill><a:blip r:embed="img_dot"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;

/** Baseline distance from "Above" to "Below" with `middle` (inner XML of the body) between them. */
async function gap(middle: string): Promise<number> {
  const pages = await docxPages(buildDocx({ body: p('Above') + middle + p('Below'), styles: STYLES, media: { 'dot.png': makePng(4, 4) } }));
  return findText(pages, 'Below').y - findText(pages, 'Above').y;
}

test('a line holding only a small picture is as tall as a line of its run\'s text, not as the picture', async () => {
  const text = await gap(p('Middle'));
  const line = text / 2;
  assert.ok(Math.abs(line - 13.4) < 0.2, `an 11 pt Calibri line: ${line}`);
  // A 1-pt separator picture takes a whole text line (it was 1 pt: "Below" 14.4 pt under "Above").
  const tiny = await gap(`<w:p>${picture(100, 1)}</w:p>`);
  assert.ok(Math.abs(tiny - text) < 0.05, `1-pt picture: ${tiny} vs text ${text}`);
  // Two such lines (a line break between the pictures): two text lines.
  const two = await gap(`<w:p>${picture(100, 1)}<w:r><w:br/></w:r>${picture(100, 1)}</w:p>`);
  assert.ok(Math.abs(two - 3 * line) < 0.05, `two picture lines: ${two} vs ${3 * line}`);
  // The picture's run sets the font: at 20 pt the line is a 20-pt line (the paragraph mark's size does not count).
  const big = await gap(`<w:p>${picture(100, 1, '<w:sz w:val="40"/>')}</w:p>`);
  assert.ok(Math.abs(big - line - (20 / 11) * line) < 0.1, `20 pt run: ${big}`);
});

test('a picture taller than the text line sets the line alone; multiple spacing adds its share of the font\'s line', async () => {
  const line = (await gap(p('Middle'))) / 2;
  const tall = await gap(`<w:p>${picture(100, 100)}</w:p>`);
  assert.ok(Math.abs(tall - 100 - line) < 0.05, `100-pt picture: ${tall}`);
  // 1.5 lines: the picture's 50 pt and half of the 11 pt font's line.
  const spaced = await gap(`<w:p><w:pPr><w:spacing w:line="360" w:lineRule="auto"/></w:pPr>${picture(100, 50)}</w:p>`);
  assert.ok(Math.abs(spaced - 50 - line / 2 - line) < 0.05, `50-pt picture at 1.5 lines: ${spaced}`);
});
