/**
 * Floating objects (anchored pictures, text boxes, shapes, absolute VML) placed by position: read from the
 * layout data (test/engine/pdf/boxes.ts) and from the PDF (pdftotext -bbox), on built .docx files and on a corpus
 * file.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import type { Box, LaidPage } from '../../server/engine/pdf/flow/boxes.js';
import { docxPages, findText, textBoxes } from '../engine/pdf/boxes.js';
import { countPixels, near as nearColour, raster, words } from '../engine/pdf/helpers.js';
import { buildDocx, makePng, p } from './build-docx.js';
import { calloutPoints } from '../../server/engine/pdf/draw/shape.js';

/** The public corpus (as corpus.test.ts finds it; importing that file would run its tests here). */
const CORPUS = process.env.DOCLOOM_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/docx');

const EMU = 12700;
/** DEFAULT_SECT: A4, 1-inch margins. */
const MARGIN = 72;
const LOREM = 'Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. '.repeat(6);

interface Anchor {
  x: number;
  y: number;
  w: number;
  h: number;
  fromX?: string;
  fromY?: string;
  wrap?: string;
  behind?: boolean;
}

function anchor(a: Anchor, graphic: string): string {
  const e = (pt: number): number => Math.round(pt * EMU);
  return `<w:r><w:drawing><wp:anchor distT="0" distB="0" distL="${e(9)}" distR="${e(9)}" simplePos="0" relativeHeight="1" behindDoc="${a.behind ? 1 : 0}" locked="0" layoutInCell="1" allowOverlap="1">` +
    `<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="${a.fromX ?? 'page'}"><wp:posOffset>${e(a.x)}</wp:posOffset></wp:positionH>` +
    `<wp:positionV relativeFrom="${a.fromY ?? 'page'}"><wp:posOffset>${e(a.y)}</wp:posOffset></wp:positionV>` +
    `<wp:extent cx="${e(a.w)}" cy="${e(a.h)}"/>${a.wrap ?? '<wp:wrapNone/>'}<wp:docPr id="1" name="Float"/>` +
    `<a:graphic>${graphic}</a:graphic></wp:anchor></w:drawing></w:r>`;
}

const PICTURE = '<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:blipFill><a:blip r:embed="img_logo"/></pic:blipFill><pic:spPr/></pic:pic></a:graphicData>';

function shape(prst: string, fill: string, text?: string, ln = ''): string {
  const txbx = text ? `<wps:txbx><w:txbxContent>${p(text)}</w:txbxContent></wps:txbx>` : '';
  return `<a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:spPr><a:prstGeom prst="${prst}"><a:avLst/></a:prstGeom>` +
    `<a:solidFill><a:srgbClr val="${fill}"/></a:solidFill>${ln}</wps:spPr>${txbx}<wps:bodyPr lIns="91440" tIns="45720" rIns="91440" bIns="45720"/></wps:wsp></a:graphicData>`;
}

function docx(body: string): Uint8Array {
  return buildDocx({ body, media: { 'logo.png': makePng(4, 4) } });
}

function boxesOf<K extends Box['kind']>(pages: LaidPage[], kind: K): Array<Extract<Box, { kind: K }>> {
  return pages.flatMap((pg) => pg.boxes.filter((b): b is Extract<Box, { kind: K }> => b.kind === kind));
}

const near = (actual: number, expected: number, what: string): void => assert.ok(Math.abs(actual - expected) <= 1, `${what}: ${actual} is not ${expected} ± 1`);

test('a picture anchored to the page sits at its offset, and the text does not move (wrapNone, in front and behind)', async () => {
  const text = p('First line of the body') + p('Second line of the body');
  const plain = await docxPages(docx(text));
  for (const behind of [false, true]) {
    const float = `<w:p>${anchor({ x: 300, y: 400, w: 120, h: 80, behind }, PICTURE)}<w:r><w:t>First line of the body</w:t></w:r></w:p>` + p('Second line of the body');
    const pages = await docxPages(docx(float));
    const [image] = boxesOf(pages, 'image');
    near(image.x, 300, 'x');
    near(image.y, 400, 'y');
    near(image.w, 120, 'width');
    near(image.h, 80, 'height');
    for (const word of ['First', 'Second']) {
      assert.deepEqual([findText(pages, word).x, findText(pages, word).y], [findText(plain, word).x, findText(plain, word).y], `${word} did not move`);
    }
    const imageIndex = pages[0].boxes.findIndex((b) => b.kind === 'image');
    const textIndex = pages[0].boxes.findIndex((b) => b.kind === 'text');
    assert.equal(imageIndex < textIndex, behind, behind ? 'behind the text: painted first' : 'in front: painted after the text');
  }
});

test('a page-sized background picture anchored at the page corner is drawn at the page size, not shrunk to the text area', async () => {
  // poitl's certificate: a landscape page's frame picture, 842 × 595 pt, at (0, 0) of the page.
  const float = `<w:p>${anchor({ x: 0, y: 0, w: 595.3, h: 841.9, behind: true }, PICTURE)}<w:r><w:t>Certificate</w:t></w:r></w:p>`;
  const [image] = boxesOf(await docxPages(docx(float)), 'image');
  near(image.x, 0, 'x');
  near(image.y, 0, 'y');
  near(image.w, 595.3, 'width');
  near(image.h, 841.9, 'height');
});

test('a text box: its text is in the PDF inside its box, at its offset from the margin (pdftotext -bbox)', async () => {
  const body = `<w:p>${anchor({ x: 200, y: 150, w: 180, h: 60, fromX: 'margin', fromY: 'margin' }, shape('rect', 'FFFF00', 'Boxed words here', '<a:ln w="12700"><a:solidFill><a:srgbClr val="000000"/></a:solidFill></a:ln>'))}</w:p>` + p('Body text after the anchor');
  const bytes = docx(body);
  const pages = await docxPages(bytes);
  const [box] = boxesOf(pages, 'shape');
  near(box.x, MARGIN + 200, 'box x');
  near(box.y, MARGIN + 150, 'box y');
  assert.equal(box.geometry, 'rect');
  assert.deepEqual(box.fill, [255, 255, 0]);
  assert.ok(box.stroke && Math.abs(box.stroke.width - 1) < 0.01);

  const compiled = compileTemplate({ kind: 'docx', bytes });
  assert.ok(compiled.ok);
  const found = words((await renderPdf(compiled.template, {})).bytes);
  const boxed = found.find((w) => w.text === 'Boxed');
  assert.ok(boxed, found.map((w) => w.text).join(' '));
  // Inside the box, after its 7.2 pt left inset.
  near(boxed.xMin, MARGIN + 200 + 7.2, 'text x in the PDF');
  assert.ok(boxed.yMin >= MARGIN + 150 && boxed.yMax <= MARGIN + 150 + 60, `text inside the box vertically: ${boxed.yMin}–${boxed.yMax}`);
  const body1 = found.find((w) => w.text === 'Body');
  assert.ok(body1 && body1.yMin < MARGIN + 30, 'the body text stays at the top: the box does not take room in the flow');
});

test('square wrapping narrows the lines beside a float, and only those', async () => {
  const body = `<w:p>${anchor({ x: 0, y: 0, w: 150, h: 100, fromX: 'column', fromY: 'paragraph', wrap: '<wp:wrapSquare wrapText="bothSides"/>' }, PICTURE)}<w:r><w:t>${LOREM}</w:t></w:r></w:p>`;
  const pages = await docxPages(docx(body));
  const [image] = boxesOf(pages, 'image');
  near(image.x, MARGIN, 'float at the column start');
  near(image.y, MARGIN, 'float at the paragraph top');
  const lines = new Map<number, number>();
  for (const b of textBoxes(pages)) lines.set(b.y, Math.min(lines.get(b.y) ?? Infinity, b.x));
  const beside = [...lines].filter(([y]) => y < image.y + image.h);
  const below = [...lines].filter(([y]) => y > image.y + image.h + 12);
  assert.ok(beside.length >= 3 && below.length >= 1, `lines beside ${beside.length}, below ${below.length}`);
  for (const [y, x] of beside) assert.ok(x >= image.x + image.w + 9 - 0.5, `line at ${y} starts at ${x}, right of the float and its 9 pt distance`);
  for (const [y, x] of below) near(x, MARGIN, `line at ${y} below the float starts at the margin`);
});

test('square wrapping narrows a list item too: its number right of the float, counted once', async () => {
  const numbering = '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/>' +
    '<w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>';
  const numPr = '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>';
  const f = anchor({ x: 0, y: 0, w: 150, h: 100, fromX: 'column', fromY: 'paragraph', wrap: '<wp:wrapSquare wrapText="bothSides"/>' }, PICTURE);
  const body = `<w:p><w:pPr>${numPr}</w:pPr>${f}<w:r><w:t>${LOREM}</w:t></w:r></w:p>` + p('Second item', numPr);
  const compiled = compileTemplate({ kind: 'docx', bytes: buildDocx({ body, numbering, media: { 'logo.png': makePng(4, 4) } }), delimiters: ['\u0001<<', '>>\u0001'] });
  assert.ok(compiled.ok);
  const all = words((await renderPdf(compiled.template, {})).bytes);
  assert.deepEqual(all.filter((w) => /^\d+\.$/.test(w.text)).map((w) => w.text), ['1.', '2.'], 'each number once');
  const one = all.find((w) => w.text === '1.')!;
  // The float and its 9 pt distance take 159 pt; the number at the hanging indent (18 pt) right of them.
  near(one.xMin, MARGIN + 159 + 18, 'the number right of the float');
  const beside = all.filter((w) => w.yMax < one.yMin + 100 && /^[a-z]+\.?$/i.test(w.text));
  assert.ok(beside.length > 10, `words beside the float: ${beside.length}`);
  for (const w of beside) assert.ok(w.xMin >= MARGIN + 159 - 0.5, `"${w.text}" right of the float: ${w.xMin}`);
  const below = all.filter((w) => w.yMin > one.yMin + 100 + 14 && w.page === 1 && w.text !== '2.');
  assert.ok(below.some((w) => Math.abs(w.xMin - (MARGIN + 36)) < 1), 'below the float the list indent from the margin again');
});

test('top-and-bottom wrapping puts the text below the float', async () => {
  const body = `<w:p>${anchor({ x: 0, y: 0, w: 200, h: 120, fromX: 'column', fromY: 'paragraph', wrap: '<wp:wrapTopAndBottom/>' }, PICTURE)}</w:p>` + p('After the picture');
  const pages = await docxPages(docx(body));
  const [image] = boxesOf(pages, 'image');
  const after = findText(pages, 'After');
  assert.ok(after.y - after.size > image.y + image.h - 0.5, `text at ${after.y} below the picture ending at ${image.y + image.h}`);
});

test('preset shapes are drawn: an ellipse with its fill and a line with an arrowhead, painted into the PDF', async () => {
  const arrow = '<a:ln w="25400"><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill><a:tailEnd type="triangle"/></a:ln>';
  const body = `<w:p>${anchor({ x: 100, y: 500, w: 80, h: 40 }, shape('ellipse', '0000FF'))}${anchor({ x: 300, y: 500, w: 100, h: 0 }, shape('straightConnector1', 'FFFFFF', undefined, arrow))}</w:p>`;
  const bytes = docx(body);
  const shapes = boxesOf(await docxPages(bytes), 'shape');
  const ellipse = shapes.find((s) => s.geometry === 'ellipse');
  const line = shapes.find((s) => s.geometry === 'line');
  assert.ok(ellipse && line, JSON.stringify(shapes));
  assert.deepEqual([ellipse.x, ellipse.y, ellipse.w, ellipse.h, ellipse.fill], [100, 500, 80, 40, [0, 0, 255]]);
  assert.equal(line.fill, null, 'a line has no fill');
  assert.deepEqual(line.stroke?.color, [255, 0, 0]);
  assert.equal(line.tail, true);
  const compiled = compileTemplate({ kind: 'docx', bytes });
  assert.ok(compiled.ok);
  assert.deepEqual(compiled.warnings.map((w) => w.code), [], 'drawn shapes are not reported as left out');
  const page = raster((await renderPdf(compiled.template, {})).bytes);
  const blue = countPixels(page, 72, { x: 120, y: 510, w: 40, h: 20 }, (rgb) => nearColour(rgb, [0, 0, 255]));
  assert.ok(blue >= 700, `the ellipse's middle is painted blue (${blue} of 800 pixels)`);
  const corner = countPixels(page, 72, { x: 100, y: 500, w: 6, h: 6 }, (rgb) => nearColour(rgb, [0, 0, 255]));
  assert.ok(corner <= 4, `an ellipse, not its rectangle: the corner stays white (${corner} blue pixels)`);
  const red = countPixels(page, 72, { x: 300, y: 495, w: 100, h: 10 }, (rgb) => nearColour(rgb, [255, 0, 0], 60));
  assert.ok(red >= 80, `the red line is drawn (${red} pixels)`);
});

test('a tag inside a floating text box is filled', async () => {
  const body = `<w:p>${anchor({ x: 100, y: 100, w: 200, h: 50 }, shape('rect', 'EEEEEE', 'Dear {{name}}'))}</w:p>`;
  const pages = await docxPages(docx(body), { name: 'Ada' });
  const ada = findText(pages, 'Ada');
  assert.ok(ada.x >= 100 && ada.x < 300 && ada.y > 100 && ada.y < 150, `filled text inside its box at ${ada.x}, ${ada.y}`);
});

const WRAPPING = path.join(CORPUS, 'docx2pdf__ImageTextWrapping.docx');

test('corpus: ImageTextWrapping — the picture at its column offset (2430780 EMU), the text narrowed beside it', { skip: !fs.existsSync(WRAPPING) && `no corpus at ${CORPUS}` }, async () => {
  const pages = await docxPages(fs.readFileSync(WRAPPING));
  const [image] = boxesOf(pages, 'image');
  // Left margin 1418 twips (70.9 pt) + 2430780 EMU (191.4 pt); vertical offset 0 from its paragraph, the first.
  near(image.x, 1418 / 20 + 2430780 / EMU, 'picture x');
  near(image.y, findText(pages, 'Sed').y - findText(pages, 'Sed').size * 0.9, 'picture y (its paragraph top)');
  const beside = textBoxes(pages).filter((b) => b.y < image.y + image.h && b.x < image.x);
  assert.ok(beside.length > 10, 'text beside the picture');
  for (const b of beside) assert.ok(b.x + b.width <= image.x + 0.5, `"${b.text}" ends at ${b.x + b.width}, left of the picture at ${image.x}`);
  const below = textBoxes(pages).filter((b) => b.y > image.y + image.h + 14);
  assert.ok(below.some((b) => b.x + b.width > image.x + image.w), 'lines below the picture use the full width again');
});

test('a footer float behind the text is painted under the body (a page-sized fill does not hide it)', async () => {
  const footer = `<w:p>${anchor({ x: 10, y: 10, w: 500, h: 800, behind: true }, shape('rect', 'FFFFFF'))}</w:p>`;
  const bytes = buildDocx({
    body: p('Body words stay visible'),
    footers: { footer1: footer },
    sectPr: '<w:sectPr><w:footerReference w:type="default" r:id="rId_footer1"/><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>',
  });
  const pages = await docxPages(bytes);
  const boxes = pages[0].boxes;
  const shapeAt = boxes.findIndex((b) => b.kind === 'shape');
  const textAt = boxes.findIndex((b) => b.kind === 'text' && b.text.includes('Body'));
  assert.ok(shapeAt >= 0 && textAt > shapeAt, `shape ${shapeAt} before the body's text ${textAt}`);
  const compiled = compileTemplate({ kind: 'docx', bytes });
  assert.ok(compiled.ok);
  assert.ok(words((await renderPdf(compiled.template, {})).bytes).some((w) => w.text === 'Body'));
  const page = raster((await renderPdf(compiled.template, {})).bytes);
  const ink = countPixels(page, 72, { x: MARGIN, y: MARGIN, w: 100, h: 16 }, (rgb) => rgb[0] < 128);
  assert.ok(ink > 20, `the body's words are painted over the white box (${ink} dark pixels)`);
});

const COVER = path.join(CORPUS, 'tika__testWORD_2006ml.docx');

test('corpus: a Word 2010 cover page — percentage positions (wp14:pctPosHOffset 45.5 % of the page) place its text boxes', { skip: !fs.existsSync(COVER) && `no corpus at ${CORPUS}` }, async () => {
  const compiled = compileTemplate({ kind: 'docx', bytes: new Uint8Array(fs.readFileSync(COVER)), delimiters: ['\u0001<<', '>>\u0001'] });
  assert.ok(compiled.ok);
  const page1 = words((await renderPdf(compiled.template, {})).bytes).filter((w) => w.page === 1);
  const engaging = page1.find((w) => w.text === 'engaging');
  assert.ok(engaging, 'the cover text is drawn');
  // The box holding it: 45.5 % of the 612 pt page from its left edge, 2.5 % of 792 pt from its top, 226.45 pt wide.
  const left = 0.455 * 612;
  assert.ok(engaging.xMin > left && engaging.xMax < left + 226.45, `"engaging" at ${engaging.xMin}–${engaging.xMax}, inside the box from ${left}`);
  assert.ok(engaging.yMin > 0.025 * 792, `"engaging" at y ${engaging.yMin}, below the box's top`);
  // Stacking (wp:anchor relativeHeight): the dark text box (theme tx2) lies over the white rectangle that comes
  // after it in the document but stacks lower; in document order the white one would hide it.
  const page = raster((await renderPdf(compiled.template, {})).bytes, 1, 72);
  const [r, g, b] = page.rgb(Math.round(left + 60), Math.round(0.025 * 792 + 60));
  assert.ok(r < 100 && g < 110 && b < 130, `the dark box is on top: ${[r, g, b]}`);
});

test('bothSides: a gap under an inch beside a float holds text, and lines above a lower float reach past it', async () => {
  // Two pictures in one paragraph, as docx2pdf__TotalPagesWithImageTextWrapping: A from 50 pt, 150 wide, 120 high;
  // B, lower (from 40 pt below the paragraph top), from 250 pt to the column's end. Left of A: 50 − 9 = 41 pt, the
  // widest gap beside both (between them: 250 − 9 − 209 = 32 pt).
  const wrap = '<wp:wrapSquare wrapText="bothSides"/>';
  const column = 595.3 - 2 * MARGIN;
  const a = anchor({ x: 50, y: 0, w: 150, h: 120, fromX: 'column', fromY: 'paragraph', wrap }, PICTURE);
  const b = anchor({ x: 250, y: 40, w: column - 250, h: 60, fromX: 'column', fromY: 'paragraph', wrap }, PICTURE);
  const pages = await docxPages(docx(`<w:p>${a}${b}<w:r><w:t>${LOREM}</w:t></w:r></w:p>`));
  const [imgA, imgB] = boxesOf(pages, 'image').sort((x, y) => x.x - y.x);
  const text = textBoxes(pages);
  const overlaps = (t: (typeof text)[number], r: typeof imgA): boolean => t.x < r.x + r.w && t.x + t.width > r.x && t.y > r.y && t.y - t.size * 0.8 < r.y + r.h;
  for (const t of text) for (const r of [imgA, imgB]) assert.ok(!overlaps(t, r), `"${t.text}" at ${t.x}, ${t.y} overlaps a picture at ${r.x}, ${r.y}`);
  // Above B (its top 40 pt down): lines right of A run past B's left edge to the column's end.
  const aboveB = text.filter((t) => t.y < imgB.y && t.x >= imgA.x + imgA.w);
  assert.ok(aboveB.some((t) => t.x + t.width > imgB.x + 10), `lines above the lower picture reach past its left edge: ${JSON.stringify(aboveB.map((t) => [t.x, t.y, t.text]))}`);
  // Beside both (between B's top and bottom): text in the 41 pt gap left of A, which Word fills.
  const leftOfA = text.filter((t) => t.y > imgB.y && t.y < imgB.y + imgB.h && t.x + t.width <= imgA.x);
  assert.ok(leftOfA.length >= 2, `text in the gap left of the taller picture: ${leftOfA.length} pieces`);
  // Below both: the full width again.
  const below = text.filter((t) => t.y > imgA.y + imgA.h + 14);
  assert.ok(below.some((t) => Math.abs(t.x - MARGIN) < 1) && below.some((t) => t.x + t.width > imgB.x), 'lines below the pictures use the full width');
});

test('wrapText left and right: text goes only on the side the float allows', async () => {
  for (const side of ['left', 'right'] as const) {
    // A float in the middle of the column, room on both sides; text may take only `side`.
    const f = anchor({ x: 150, y: 0, w: 150, h: 80, fromX: 'column', fromY: 'paragraph', wrap: `<wp:wrapSquare wrapText="${side}"/>` }, PICTURE);
    const pages = await docxPages(docx(`<w:p>${f}<w:r><w:t>${LOREM}</w:t></w:r></w:p>`));
    const [img] = boxesOf(pages, 'image');
    const beside = textBoxes(pages).filter((t) => t.y > img.y && t.y < img.y + img.h);
    assert.ok(beside.length >= 3, `${side}: lines beside the float`);
    for (const t of beside) {
      if (side === 'left') assert.ok(t.x + t.width <= img.x + 0.5, `left only: "${t.text}" ends at ${t.x + t.width}, the float starts at ${img.x}`);
      else assert.ok(t.x >= img.x + img.w - 0.5, `right only: "${t.text}" starts at ${t.x}, the float ends at ${img.x + img.w}`);
    }
  }
});

test('bothSides: a float in the middle of the column has text on both sides of it, each line left part first, then right (ECMA-376 §20.4.3.7)', async () => {
  for (const jc of ['left', 'both'] as const) {
    // 150 pt from the column's left, 150 wide, 9 pt apart from the text: room 141 pt left of it and 162 pt right.
    const f = anchor({ x: 150, y: 0, w: 150, h: 80, fromX: 'column', fromY: 'paragraph', wrap: '<wp:wrapSquare wrapText="bothSides"/>' }, PICTURE);
    const pages = await docxPages(docx(`<w:p><w:pPr><w:jc w:val="${jc}"/></w:pPr>${f}<w:r><w:t>${LOREM}</w:t></w:r></w:p>`));
    const [img] = boxesOf(pages, 'image');
    const text = textBoxes(pages);
    const beside = text.filter((t) => t.y > img.y && t.y - t.size * 0.8 < img.y + img.h);
    const baselines = [...new Set(beside.map((t) => t.y.toFixed(2)))];
    assert.ok(baselines.length >= 4, `${jc}: lines beside the float: ${baselines.length}`);
    for (const y of baselines) {
      const row = beside.filter((t) => t.y.toFixed(2) === y);
      const left = row.filter((t) => t.x + t.width <= img.x - 9 + 0.5);
      const right = row.filter((t) => t.x >= img.x + img.w + 9 - 0.5);
      assert.equal(left.length + right.length, row.length, `${jc}: nothing over the float at ${y}: ${JSON.stringify(row.map((t) => [t.x, t.text]))}`);
      assert.ok(left.length > 0 && right.length > 0, `${jc}: text on both sides at ${y}: ${JSON.stringify(row.map((t) => [t.x, t.text]))}`);
      near(Math.min(...left.map((t) => t.x)), MARGIN, `${jc}: the left part starts at the margin`);
      near(Math.min(...right.map((t) => t.x)), img.x + img.w + 9, `${jc}: the right part starts after the float`);
      // Justified, each part fills its own room: the left one up to the float's distance.
      if (jc === 'both') near(Math.max(...left.map((t) => t.x + t.width)), img.x - 9, 'a justified left part ends at the float');
    }
    // Reading order: the text runs left part, right part, next line — the paragraph's words in order.
    const words = text.map((t) => t.text).join(' ').split(/\s+/).filter(Boolean);
    assert.deepEqual(words.slice(0, 40), LOREM.split(/\s+/).filter(Boolean).slice(0, 40), `${jc}: words in order`);
  }
});

test('bothSides: a paragraph indented past the left edge of a middle float sets its lines beside it right of the float, never over it', async () => {
  const f = anchor({ x: 150, y: 0, w: 150, h: 80, fromX: 'column', fromY: 'paragraph', wrap: '<wp:wrapSquare wrapText="bothSides"/>' }, PICTURE);
  const pages = await docxPages(docx(`<w:p><w:pPr><w:ind w:left="${200 * 20}"/></w:pPr>${f}<w:r><w:t>${LOREM}</w:t></w:r></w:p>`));
  const [img] = boxesOf(pages, 'image');
  const beside = textBoxes(pages).filter((t) => t.y > img.y && t.y - t.size * 0.8 < img.y + img.h);
  assert.ok(beside.length >= 4, `lines beside the float: ${beside.length}`);
  for (const t of beside) assert.ok(t.x >= img.x + img.w + 9 - 0.5, `"${t.text}" at ${t.x} is right of the float (${img.x + img.w + 9})`);
});

test('beside a float, a word wider than the room left but not than the column goes below the float whole, not cut letter by letter (pdftotext -bbox)', async () => {
  // Text may go only left of the float, a 51 pt strip (60 pt less its 9 pt distance): the short words fit there,
  // the long word (wider than the strip, narrower than the column) is set whole on the first line below the float.
  const long = 'Pneumonoultramicroscopicsilicovolcanoconiosis';
  const f = anchor({ x: 60, y: 0, w: 150, h: 80, fromX: 'column', fromY: 'paragraph', wrap: '<wp:wrapSquare wrapText="left"/>' }, PICTURE);
  const bytes = docx(`<w:p>${f}<w:r><w:t>ab cd ${long} ef gh</w:t></w:r></w:p>`);
  const compiled = compileTemplate({ kind: 'docx', bytes });
  assert.ok(compiled.ok);
  const found = words((await renderPdf(compiled.template, {})).bytes);
  const [img] = boxesOf(await docxPages(bytes), 'image');
  const whole = found.find((w) => w.text === long);
  assert.ok(whole, `"${long}" is one word in the PDF: ${found.map((w) => w.text).join(' | ')}`);
  assert.ok(whole.yMin >= img.y + img.h - 0.5, `the long word (top ${whole.yMin}) is below the float (bottom ${img.y + img.h})`);
  near(whole.xMin, MARGIN, 'the long word starts at the margin');
  const short = found.find((w) => w.text === 'ab');
  assert.ok(short && short.yMax <= img.y + img.h && short.xMax <= img.x, `the short words stay in the strip beside the float: ${JSON.stringify(short)}`);
});

const TOTAL_PAGES_WRAPPING = path.join(CORPUS, 'docx2pdf__TotalPagesWithImageTextWrapping.docx');

test('corpus: TotalPagesWithImageTextWrapping — text flows beside both bothSides pictures, never over them (pdftotext -bbox)', { skip: !fs.existsSync(TOTAL_PAGES_WRAPPING) && `no corpus at ${CORPUS}` }, async () => {
  const bytes = new Uint8Array(fs.readFileSync(TOTAL_PAGES_WRAPPING));
  const pictures = boxesOf((await docxPages(bytes)).slice(0, 1), 'image');
  assert.equal(pictures.length, 2, 'two pictures on page 1');
  const compiled = compileTemplate({ kind: 'docx', bytes });
  assert.ok(compiled.ok);
  const page1 = words((await renderPdf(compiled.template, {})).bytes).filter((w) => w.page === 1);
  for (const w of page1) {
    for (const r of pictures) {
      const over = w.xMin < r.x + r.w - 0.5 && w.xMax > r.x + 0.5 && w.yMin < r.y + r.h - 0.5 && w.yMax > r.y + 0.5;
      assert.ok(!over, `"${w.text}" at ${w.xMin}–${w.xMax}, ${w.yMin}–${w.yMax} overlaps a picture at ${r.x}, ${r.y} (${r.w}×${r.h})`);
    }
  }
  // Beside them, not below: words level with the pictures, left of the left one and right of it (as Word and LibreOffice).
  const [left] = [...pictures].sort((a, b) => a.x - b.x);
  const level = page1.filter((w) => w.yMin > left.y && w.yMax < left.y + left.h);
  assert.ok(level.filter((w) => w.xMax <= left.x).length >= 5, `words left of the left picture: ${level.filter((w) => w.xMax <= left.x).map((w) => w.text).join(' ')}`);
  assert.ok(level.filter((w) => w.xMin >= left.x + left.w).length >= 5, 'words right of the left picture');
});

test('an inline shape with nothing to draw keeps its room in the line (the frame anchored shapes sit over)', async () => {
  // A 300 × 150 pt inline rectangle with no fill and no outline, then a paragraph: Word puts that paragraph below it.
  const e = (pt: number): number => Math.round(pt * EMU);
  const rect = `<a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:spPr><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:noFill/><a:ln><a:noFill/></a:ln></wps:spPr><wps:bodyPr/></wps:wsp></a:graphicData>`;
  const inline = `<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="${e(300)}" cy="${e(150)}"/><wp:docPr id="3" name="Rectangle 3"/><a:graphic>${rect}</a:graphic></wp:inline></w:drawing></w:r>`;
  const bytes = docx(`<w:p>${inline}</w:p>${p('After the frame')}`);
  const after = findText(await docxPages(bytes), 'After');
  assert.ok(after.y > MARGIN + 150, `the next paragraph's baseline at ${after.y}, below the 150 pt frame from ${MARGIN}`);
  const compiled = compileTemplate({ kind: 'docx', bytes });
  assert.ok(compiled.ok);
  assert.deepEqual(compiled.warnings.map((w) => w.code), [], 'an invisible frame is drawn as Word draws it: nothing is left out');
});

const COMPLEX01 = path.join(CORPUS, 'oxsdk__Complex01.docx');

test('corpus: Complex01 — the chart sits below the inline frame its connector shapes are drawn over, not under them (pdftotext -bbox)', { skip: !fs.existsSync(COMPLEX01) && `no corpus at ${CORPUS}` }, async () => {
  const compiled = compileTemplate({ kind: 'docx', bytes: new Uint8Array(fs.readFileSync(COMPLEX01)) });
  assert.ok(compiled.ok);
  const page1 = words((await renderPdf(compiled.template, {})).bytes).filter((w) => w.page === 1);
  const title = page1.find((w) => w.text === 'Chart');
  assert.ok(title, 'the chart title is drawn on page 1');
  // Top margin 72 pt + the 2122227 EMU (167.1 pt) frame: LibreOffice puts "Chart" at 258.8 pt.
  assert.ok(title.yMin > 72 + 2122227 / EMU, `"Chart" at ${title.yMin}, below the frame ending at ${72 + 2122227 / EMU}`);
});

test('a floating picture sits at its offset when the Normal style asks for HTML auto spacing (w:beforeAutospacing)', async () => {
  // The picture's own paragraph takes no spacing: 14 pt of "auto" space before would move it down.
  const styles = '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:pPr><w:spacing w:before="100" w:beforeAutospacing="1" w:after="100" w:afterAutospacing="1"/></w:pPr></w:style>';
  const body = p('First paragraph') + `<w:p>${anchor({ x: 100, y: 300, w: 80, h: 60 }, PICTURE)}</w:p>` + p('After');
  const pages = await docxPages(buildDocx({ body, styles, media: { 'logo.png': makePng(4, 4) } }));
  const [image] = boxesOf(pages, 'image');
  assert.ok(image, 'the picture is drawn');
  near(image.x, 100, 'picture x');
  near(image.y, 300, 'picture y (not 14 pt lower)');
});

test("a text box's first paragraph has no HTML auto space above it; the next keeps its 14 pt (LibreOffice, as docling__textbox)", async () => {
  const auto = '<w:spacing w:before="100" w:beforeAutospacing="1" w:after="100" w:afterAutospacing="1"/>';
  const box = (pPr: string): string => {
    const content = `<wps:txbx><w:txbxContent>${p('Boxed', pPr)}${p('Second', pPr)}</w:txbxContent></wps:txbx>`;
    const graphic = '<a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:spPr><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></wps:spPr>' +
      `${content}<wps:bodyPr lIns="91440" tIns="45720" rIns="91440" bIns="45720"/></wps:wsp></a:graphicData>`;
    return `<w:p>${anchor({ x: 100, y: 300, w: 300, h: 120 }, graphic)}</w:p>`;
  };
  const plain = await docxPages(docx(box('')));
  const spaced = await docxPages(docx(box(auto)));
  near(findText(spaced, 'Boxed').y, findText(plain, 'Boxed').y, 'the first line of the box (no 14 pt above it)');
  const second = findText(spaced, 'Second').y - findText(spaced, 'Boxed').y;
  const plainSecond = findText(plain, 'Second').y - findText(plain, 'Boxed').y;
  assert.ok(Math.abs(second - plainSecond - 14) < 0.01, `14 pt between the two paragraphs: ${second - plainSecond}`);
});

test("a title page's header float is placed against that page's margins, not those a taller default header gives the rest (pdftotext -bbox)", async () => {
  // The default header (pages 2 on) is 25 lines tall and moves their body down; the title page's header holds a
  // text box 100 pt below the top margin, which must stay at 72 + 100 on page 1.
  const sectPr =
    '<w:sectPr><w:headerReference w:type="default" r:id="rId_header1"/><w:headerReference w:type="first" r:id="rId_header2"/><w:pgSz w:w="11906" w:h="16838"/>' +
    '<w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/><w:titlePg/></w:sectPr>';
  const tall = Array.from({ length: 25 }, (_, i) => p(`Running header line ${i + 1}`)).join('');
  const cover = `<w:p>${anchor({ x: 0, y: 100, w: 300, h: 60, fromX: 'margin', fromY: 'margin' }, shape('rect', 'FFFFFF', 'Cover title'))}</w:p>`;
  const body = Array.from({ length: 80 }, (_, i) => p(`Body line ${i + 1}`)).join('');
  const compiled = compileTemplate({ kind: 'docx', bytes: buildDocx({ body, sectPr, headers: { header1: tall, header2: cover } }) });
  assert.ok(compiled.ok);
  const found = words((await renderPdf(compiled.template, {})).bytes);
  const title = found.find((w) => w.text === 'Cover' && w.page === 1);
  assert.ok(title, 'the cover title is on page 1');
  assert.ok(title.yMin >= MARGIN + 100 && title.yMax <= MARGIN + 100 + 60, `inside its box at 72 + 100 pt: ${title.yMin}–${title.yMax}`);
  const running = found.find((w) => w.text === 'Running' && w.page === 2);
  assert.ok(running, 'page 2 has the default header');
});

test('a wrapping picture placed from its paragraph goes to the next page with it only when it would pass the page\'s edge', async () => {
  // 44 one-line paragraphs put the anchor paragraph's top near y = 72 + 44 × line; the page is A4 (842 pt), its
  // body ends at 770. A picture at the paragraph's top, wrapped top and bottom:
  const filler = Array.from({ length: 44 }, (_, i) => p(`Filler line ${i + 1}`)).join('');
  const layout = async (h: number, wrap: string): Promise<{ image: Extract<Box, { kind: 'image' }> & { page: number }; after: ReturnType<typeof findText> }> => {
    const body = filler + `<w:p>${anchor({ x: 0, y: 0, w: 200, h, fromX: 'column', fromY: 'paragraph', wrap }, PICTURE)}</w:p>` + p('After the picture');
    const pages = await docxPages(docx(body));
    const image = pages.flatMap((pg) => pg.boxes.filter((b): b is Extract<Box, { kind: 'image' }> => b.kind === 'image').map((b) => ({ ...b, page: pg.number })))[0];
    return { image, after: findText(pages, 'After the picture') };
  };
  const top = (await layout(10, '<wp:wrapTopAndBottom/>')).image.y;
  assert.ok(top > 500 && top < 770 - 100, `anchor paragraph at ${top}`);
  // Past the bottom margin but inside the page: it stays, hanging into the margin (Word keeps aspose__Various_shapes'
  // text box on page 1 so — its w:lastRenderedPageBreak falls after it); the text after it goes on the next page.
  const hangs = await layout(842 - top - 10, '<wp:wrapTopAndBottom/>');
  assert.equal(hangs.image.page, 1);
  near(hangs.image.y, top, 'hanging picture y');
  assert.equal(hangs.after.page, 2);
  // Past the page's edge: the picture and its paragraph start the next page (oxsdk__hyperlink's charts land on the
  // pages its table of figures names, as in LibreOffice); square wrapping likewise.
  for (const wrap of ['<wp:wrapTopAndBottom/>', '<wp:wrapSquare wrapText="bothSides"/>']) {
    const moved = await layout(842 - top + 10, wrap);
    assert.equal(moved.image.page, 2, wrap);
    near(moved.image.y, MARGIN, `moved picture y (${wrap})`);
  }
  // In front of the text (no wrapping) it stays where its paragraph is, whatever its size.
  const front = await layout(842 - top + 10, '<wp:wrapNone/>');
  assert.equal(front.image.page, 1);
});

test('corpus: oxsdk__hyperlink\'s charts are on the pages of its table of figures (Word\'s own page numbers)', { skip: !fs.existsSync(path.join(CORPUS, 'oxsdk__hyperlink-632399964516872542.docx')) && 'no corpus' }, async () => {
  const compiled = compileTemplate({ kind: 'docx', bytes: new Uint8Array(fs.readFileSync(path.join(CORPUS, 'oxsdk__hyperlink-632399964516872542.docx'))) });
  assert.ok(compiled.ok);
  const pdf = await renderPdf(compiled.template, {});
  const all = words(pdf.bytes);
  // The printed page number of each page: the footer's lone number, lowest on the page.
  const printed = new Map<number, string>();
  for (const w of all) if (/^\d+$/.test(w.text) && w.yMin > 780 && (!printed.has(w.page) || Number(w.text) > 0)) printed.set(w.page, w.text);
  // The table of figures (as Word last laid the document out): Figure 1 on page 5 … Figure 14 on page 16.
  const tof: Record<number, string> = { 4: '8', 5: '9', 6: '10', 7: '11', 8: '11', 9: '12', 10: '12', 11: '13', 12: '14', 13: '15', 14: '16' };
  for (const [n, page] of Object.entries(tof)) {
    const caption = all.find((w, i) => w.text === 'Figure' && all[i + 1]?.text === `${n}:` && w.yMin > 60);
    assert.ok(caption, `Figure ${n} caption`);
    assert.equal(printed.get(caption.page), page, `Figure ${n}`);
  }
});

test('a box anchored ahead of its paragraph\'s page break stays on the page the break ends; the text after the break starts the next page', async () => {
  // oxsdk__complex2005_12rtm: a page-placed text box, then a page break, in one paragraph. Word anchors the box in
  // the paragraph's first line, before the break: it is drawn on that page, and no page is left blank.
  const box = anchor({ x: 100, y: 100, w: 200, h: 80, wrap: '<wp:wrapSquare wrapText="bothSides"/>' }, shape('rect', 'FFFF00', 'Boxed words here'));
  const body = p('Page one text') + `<w:p>${box}<w:r><w:br w:type="page"/></w:r></w:p>` + p('Page two text');
  const pages = await docxPages(docx(body));
  assert.equal(pages.length, 2, 'two pages: no blank one between the box and the text after the break');
  assert.equal(findText(pages, 'Boxed').page, 1, 'the box is on the first page, with its anchor');
  assert.equal(findText(pages, 'Page one').page, 1);
  assert.equal(findText(pages, 'Page two').page, 2, 'the text after the break opens the second page');
  const [shapeBox] = boxesOf(pages.slice(0, 1), 'shape');
  near(shapeBox.y, 100, 'box y on page one');
});

test('a straight connector 0 pt high is drawn level across its width, not down to its empty content\'s height', async () => {
  // sablon__cv_sample's rules under its headings: wp:extent cy="0"; the line runs from corner to corner of its box.
  const ln = '<a:ln w="12700"><a:solidFill><a:srgbClr val="000000"/></a:solidFill></a:ln>';
  const rule = anchor({ x: 100, y: 200, w: 300, h: 0 }, shape('straightConnector1', 'FFFFFF', undefined, ln));
  const pages = await docxPages(docx(`<w:p>${rule}<w:r><w:t>Heading</w:t></w:r></w:p>`));
  const [line] = boxesOf(pages, 'shape');
  assert.equal(line.geometry, 'line');
  near(line.x, 100, 'x');
  near(line.y, 200, 'y');
  near(line.w, 300, 'width');
  assert.equal(line.h, 0, 'level: no height');
});

test('a rectangular callout (wedgeRectCallout) keeps its geometry and its tip from a:avLst; its outline runs out to the tip', async () => {
  const callout = (avLst: string): string =>
    `<a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:spPr><a:prstGeom prst="wedgeRectCallout"><a:avLst>${avLst}</a:avLst></a:prstGeom>` +
    '<a:solidFill><a:srgbClr val="4472C4"/></a:solidFill></wps:spPr><wps:bodyPr/></wps:wsp></a:graphicData>';
  const shapeOf = async (avLst: string): Promise<Extract<Box, { kind: 'shape' }>> => {
    const [box] = boxesOf(await docxPages(docx(`<w:p>${anchor({ x: 100, y: 100, w: 120, h: 240 }, callout(avLst))}</w:p>`)), 'shape');
    assert.ok(box, 'the callout is drawn');
    return box;
  };
  const right = await shapeOf('<a:gd name="adj1" fmla="val 62500"/><a:gd name="adj2" fmla="val 20830"/>');
  assert.equal(right.geometry, 'wedgeRectCallout');
  assert.deepEqual(right.tip, [0.625, 0.2083]);
  // Without adjust values: ECMA-376's defaults, a tip below the box, a little left of its middle.
  assert.deepEqual((await shapeOf('')).tip, [-0.20833, 0.625]);
  // The outline: out of the right side between 7/12 and 10/12 of its height, to the tip 1.125 widths from the left.
  const round = (points: Array<[number, number]>): number[][] => points.map(([x, y]) => [Math.round(x * 100) / 100, Math.round(y * 100) / 100]);
  const pts = calloutPoints(0, 0, 120, 240, [0.625, 0.2083]);
  assert.deepEqual(round(pts.slice(5, 8)), [[120, 140], [135, 169.99], [120, 200]]);
  assert.equal(Math.max(...pts.map(([x]) => x)), 135);
  // A tip at the centre: a notch cut in from the left side, between 2/12 and 5/12 of the height.
  assert.deepEqual(calloutPoints(0, 0, 120, 240, [0, 0]).slice(13), [[0, 100], [60, 120], [0, 40]]);
  // Further down than across (for the box's proportions): the wedge leaves the bottom side.
  const below = calloutPoints(0, 0, 120, 240, [-0.20833, 0.625]);
  assert.deepEqual(round(below.slice(9, 12)), [[50, 240], [35, 270], [20, 240]]);
});

test('a line break that clears floats (w:br w:clear) starts the text after it below a float on that side', async () => {
  // A 150 × 120 pt picture at the top left of the body, square wrap: "Beside" goes to its right.
  const float = anchor({ x: MARGIN, y: MARGIN, w: 150, h: 120, wrap: '<wp:wrapSquare wrapText="bothSides"/>' }, PICTURE);
  const para = (clear: string): string =>
    `<w:p>${float}<w:r><w:t>Beside</w:t></w:r><w:r><w:br w:type="textWrapping" w:clear="${clear}"/></w:r><w:r><w:t>After</w:t></w:r></w:p>${p('Next')}`;
  for (const clear of ['all', 'left']) {
    const pages = await docxPages(docx(para(clear)));
    assert.ok(findText(pages, 'Beside').x > MARGIN + 150, `beside the picture: ${findText(pages, 'Beside').x}`);
    const after = findText(pages, 'After');
    // At the picture's foot (its baseline within one line below it, not a whole skipped line lower), at the margin.
    assert.ok(after.y > MARGIN + 120 && after.y < MARGIN + 120 + 11.5, `clear=${clear}: "After" at y ${after.y}, not just below the picture's foot ${MARGIN + 120}`);
    near(after.x, MARGIN, `clear=${clear}: "After" x`);
  }
  // Clearing the right side, or no clearing: the next line is still beside the picture.
  for (const clear of ['right', 'none']) {
    const after = findText(await docxPages(docx(para(clear))), 'After');
    assert.ok(after.x > MARGIN + 150 && after.y < MARGIN + 120, `clear=${clear}: "After" at ${after.x}, ${after.y}`);
  }
});
