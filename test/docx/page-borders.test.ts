/**
 * Page borders (w:pgBorders): lines around the page at their w:space from the page's edge or from the margins,
 * their colour and width, on the pages w:display names, with the shadow w:shadow asks for. Read from the layout as
 * data (docxPages) on built .docx files, and from the PDF's pixels on the corpus file that has them.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import type { LaidPage } from '../../server/engine/pdf/flow/boxes.js';
import { docxPages } from '../engine/pdf/boxes.js';
import { near, raster } from '../engine/pdf/helpers.js';
import { buildDocx, p } from './build-docx.js';

const CORPUS = process.env.DOCLOOM_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/docx');
const RENDERING = path.join(CORPUS, 'aspose__Rendering.docx');

/** A4 (595.28 × 841.89 pt), 1-inch margins, 120 lines (two pages), with `pgBorders` in the section. */
function bordered(pgBorders: string): Uint8Array {
  const sectPr = `<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/>${pgBorders}</w:sectPr>`;
  const body = Array.from({ length: 120 }, (_, i) => p(`Line ${i + 1}`)).join('');
  return buildDocx({ body, sectPr });
}

const side = (name: string, attrs: string): string => `<w:${name} ${attrs}/>`;
const four = (attrs: string): string => ['top', 'left', 'bottom', 'right'].map((s) => side(s, attrs)).join('');

interface Line {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  width: number;
  color: [number, number, number];
}

function lines(page: LaidPage): Line[] {
  return page.boxes.flatMap((b) => (b.kind === 'line' ? [b as unknown as Line] : []));
}

const close = (a: number, b: number, what: string): void => assert.ok(Math.abs(a - b) < 0.05, `${what}: ${a} is not ${b}`);

test('page borders measured from the page: each line at its space from the edge, in its colour and width, on every page', async () => {
  // sz 24 = 3 pt, space 24 pt, green.
  const pages = await docxPages(bordered(`<w:pgBorders w:offsetFrom="page">${four('w:val="single" w:sz="24" w:space="24" w:color="92D050"')}</w:pgBorders>`));
  assert.equal(pages.length, 2);
  for (const page of pages) {
    const found = lines(page);
    assert.equal(found.length, 4, `page ${page.number}: four sides`);
    for (const l of found) {
      close(l.width, 3, 'width');
      assert.deepEqual(l.color, [0x92, 0xd0, 0x50]);
    }
    const top = found.find((l) => l.y1 === l.y2 && l.y1 < 100)!;
    const bottom = found.find((l) => l.y1 === l.y2 && l.y1 > 700)!;
    const left = found.find((l) => l.x1 === l.x2 && l.x1 < 100)!;
    const right = found.find((l) => l.x1 === l.x2 && l.x1 > 500)!;
    // The line's outer edge 24 pt from the page's edge: its middle 24 + 1.5 pt in.
    close(top.y1, 25.5, 'top');
    close(left.x1, 25.5, 'left');
    close(bottom.y1, 841.89 - 25.5, 'bottom');
    close(right.x1, 595.28 - 25.5, 'right');
    // The top line closes the corners: it runs from the left line's outer edge to the right one's.
    close(top.x1, 24, 'top line starts at the left edge of the left line');
    close(top.x2, 595.28 - 24, 'top line ends at the right edge of the right line');
  }
});

test('page borders measured from the text (the default) sit outside the margins; display and zOrder are kept', async () => {
  const pages = await docxPages(bordered(`<w:pgBorders w:display="notFirstPage" w:zOrder="back">${side('top', 'w:val="single" w:sz="8" w:space="10" w:color="FF0000"')}${side('bottom', 'w:val="double" w:sz="12" w:space="4" w:color="0000FF"')}</w:pgBorders>`));
  assert.equal(lines(pages[0]).length, 0, 'not on the first page');
  const second = pages[1];
  const found = lines(second);
  const top = found.find((l) => l.color[0] === 255)!;
  close(top.y1, 72 - 10 - 0.5, 'top: 10 pt above the top margin, its 1 pt line outside that');
  // A double line is two thin lines a line's width apart, around the side's middle.
  const blue = found.filter((l) => l.color[2] === 255);
  assert.equal(blue.length, 2);
  const middle = (blue[0].y1 + blue[1].y1) / 2;
  close(middle, 841.89 - 72 + 4 + 0.75, 'bottom: 4 pt below the bottom margin');
  // Behind the text: painted before the page's first word.
  const firstText = second.boxes.findIndex((b) => b.kind === 'text');
  const lastLine = second.boxes.map((b) => b.kind).lastIndexOf('line');
  assert.ok(lastLine < firstText, 'the lines come before the text (zOrder back)');
});

test('a shadow draws the bottom and right lines again just outside', async () => {
  const pages = await docxPages(bordered(`<w:pgBorders w:offsetFrom="page">${four('w:val="single" w:sz="16" w:space="20" w:color="000000" w:shadow="1"')}</w:pgBorders>`));
  const found = lines(pages[0]);
  assert.equal(found.length, 6);
  const bottoms = found.filter((l) => l.y1 === l.y2 && l.y1 > 700).map((l) => l.y1).sort((a, b) => a - b);
  close(bottoms[1] - bottoms[0], 2, 'the shadow is a line width (2 pt) below the bottom line');
});

test('corpus: aspose__Rendering — the green page border of its third section is drawn on page 3 and not page 2', { skip: !fs.existsSync(RENDERING) && `no corpus at ${CORPUS}` }, async () => {
  const compiled = compileTemplate({ kind: 'docx', bytes: new Uint8Array(fs.readFileSync(RENDERING)) });
  assert.ok(compiled.ok);
  const pdf = (await renderPdf(compiled.template, {})).bytes;
  const green = (page: number): number => {
    const r = raster(pdf, page, 40);
    let n = 0;
    for (let y = 0; y < r.height; y++) for (let x = 0; x < r.width; x++) if (near(r.rgb(x, y), [0x92, 0xd0, 0x50], 30)) n++;
    return n;
  };
  assert.ok(green(3) > 500, `page 3 has its border: ${green(3)} green pixels`);
  assert.ok(green(2) < 50, `page 2 has none: ${green(2)} green pixels`);
});
