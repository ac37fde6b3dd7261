/**
 * Inline DrawingML shapes (wp:inline holding wps:wsp, or a group) are drawn in the line as Word draws them: a box
 * of their extent sitting on the baseline between the words around it, filled and outlined, their text inside
 * (bodyPr insets, anchor="ctr" centring it vertically). Read from the layout data (test/engine/pdf/boxes.ts) and
 * from the PDF (pdftotext -bbox).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import type { Box, LaidPage } from '../../server/engine/pdf/flow/boxes.js';
import { docxPages, findText } from '../engine/pdf/boxes.js';
import { words } from '../engine/pdf/helpers.js';
import { buildDocx, p } from './build-docx.js';

const EMU = 12700;
const e = (pt: number): number => Math.round(pt * EMU);
const WPS = 'http://schemas.microsoft.com/office/word/2010/wordprocessingShape';

/** A rectangle with a fill, an outline and a text box holding `text` (centred both ways, no insets). */
function wsp(text: string, fill: string, xfrm = ''): string {
  return `<wps:wsp><wps:spPr>${xfrm}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="${fill}"/></a:solidFill>` +
    `<a:ln w="12700"><a:solidFill><a:srgbClr val="3465A4"/></a:solidFill></a:ln></wps:spPr>` +
    `<wps:txbx><w:txbxContent>${p(text, '<w:jc w:val="center"/>')}</w:txbxContent></wps:txbx>` +
    `<wps:bodyPr lIns="0" tIns="0" rIns="0" bIns="0" anchor="ctr"/></wps:wsp>`;
}

function inline(w: number, h: number, content: string): string {
  return `<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="${e(w)}" cy="${e(h)}"/><wp:docPr id="1" name="Shape 1"/>` +
    `<a:graphic><a:graphicData uri="${WPS}">${content}</a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
}

const run = (text: string): string => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;

function shapes(pages: LaidPage[]): Array<Extract<Box, { kind: 'shape' }>> {
  return pages.flatMap((pg) => pg.boxes.filter((b): b is Extract<Box, { kind: 'shape' }> => b.kind === 'shape'));
}

const near = (actual: number, expected: number, what: string, tolerance = 1): void =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not ${expected} ± ${tolerance}`);

const LINE = `<w:p>${run('Before ')}${inline(120, 30, wsp('Inside', '729FCF'))}${run(' after.')}</w:p>`;

test('an inline shape is a box of its extent in the line, on the baseline, filled and outlined, its text centred inside', async () => {
  const pages = await docxPages(buildDocx({ body: LINE + p('Next paragraph') }));
  const before = findText(pages, 'Before');
  const after = findText(pages, 'after.');
  const inside = findText(pages, 'Inside');
  const [box] = shapes(pages);
  assert.ok(box, 'the shape is drawn');
  near(box.w, 120, 'shape width');
  near(box.h, 30, 'shape height');
  assert.deepEqual(box.fill, [0x72, 0x9f, 0xcf], 'its fill');
  assert.ok(box.stroke && box.stroke.width > 0, 'its outline');
  near(box.x, before.x + before.width, 'the box starts where "Before " ends', 4);
  near(box.y + box.h, before.y, 'the box sits on the line\'s baseline');
  near(after.y, before.y, 'the words after the shape stay on its line');
  assert.ok(after.x >= box.x + box.w, `"after." at ${after.x}, after the box ending at ${box.x + box.w}`);
  // Centred across (jc center) and, with anchor="ctr", down the 30 pt box: its 12 pt line leaves ~8 pt above.
  near(inside.x + inside.width / 2, box.x + box.w / 2, 'the text is centred across the box');
  assert.ok(inside.y > box.y + 10 && inside.y < box.y + box.h - 5, `the text's baseline at ${inside.y}, in the middle of the box (${box.y}–${box.y + box.h})`);
  assert.ok(findText(pages, 'Next').y > box.y + box.h, 'the next paragraph comes below the line');
});

test('an inline shape\'s words come in line order in the PDF, between the words around it (pdftotext -bbox)', async () => {
  const compiled = compileTemplate({ kind: 'docx', bytes: buildDocx({ body: LINE + p('Next paragraph') }) });
  assert.ok(compiled.ok);
  assert.deepEqual(compiled.warnings.map((w) => w.code), [], 'nothing left out');
  const all = words((await renderPdf(compiled.template, {})).bytes);
  const at = (text: string): (typeof all)[number] => {
    const w = all.find((x) => x.text === text);
    assert.ok(w, `"${text}" drawn; words: ${all.map((x) => x.text).join(' ')}`);
    return w;
  };
  const [before, inside, after, next] = [at('Before'), at('Inside'), at('after.'), at('Next')];
  assert.ok(before.xMax < inside.xMin && inside.xMax < after.xMin, 'Before, Inside, after. from left to right');
  assert.ok(inside.yMax <= after.yMax + 1 && inside.yMin < next.yMin, 'the shape\'s text is in the line, not in a paragraph after it');
});

test('an inline group draws each of its shapes at its place inside the group\'s room in the line', async () => {
  // A 200 × 40 pt group in child coordinates of 400 × 80 (scaled by one half): two rectangles side by side.
  const xfrm = (x: number): string => `<a:xfrm><a:off x="${e(x)}" y="0"/><a:ext cx="${e(200)}" cy="${e(80)}"/></a:xfrm>`;
  const group = `<wpg:wgp xmlns:wpg="http://schemas.microsoft.com/office/word/2010/wordprocessingGroup"><wpg:cNvGrpSpPr/><wpg:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${e(200)}" cy="${e(40)}"/><a:chOff x="0" y="0"/><a:chExt cx="${e(400)}" cy="${e(80)}"/></a:xfrm></wpg:grpSpPr>` +
    `${wsp('Left', 'FF0000', xfrm(0))}${wsp('Right', '00FF00', xfrm(200))}</wpg:wgp>`;
  const body = `<w:p>${run('Group ')}${inline(200, 40, group)}${run(' end.')}</w:p>`;
  const pages = await docxPages(buildDocx({ body: body.replace('uri="' + WPS + '"', 'uri="http://schemas.microsoft.com/office/word/2010/wordprocessingGroup"') }));
  const boxes = shapes(pages).sort((a, b) => a.x - b.x);
  assert.equal(boxes.length, 2, 'both rectangles are drawn');
  const start = findText(pages, 'Group');
  near(boxes[0].w, 100, 'each is half its child width');
  near(boxes[0].h, 40, 'and half its child height');
  near(boxes[1].x, boxes[0].x + 100, 'the second sits beside the first');
  near(boxes[0].y + 40, start.y, 'the group sits on the baseline');
  const left = findText(pages, 'Left');
  const right = findText(pages, 'Right');
  assert.ok(left.x > boxes[0].x && left.x + left.width < boxes[0].x + 100, 'each text in its own shape');
  assert.ok(right.x > boxes[1].x && right.x + right.width < boxes[1].x + 100, 'each text in its own shape');
  near(findText(pages, 'end.').y, start.y, 'the words after the group stay on its line');
});

test('tags in an inline shape\'s text are filled, and the shape stays in the line', async () => {
  const body = `<w:p>${run('Hello ')}${inline(120, 30, wsp('{{name}}', 'FFFFFF'))}${run(' there.')}</w:p>`;
  const compiled = compileTemplate({ kind: 'docx', bytes: buildDocx({ body }) });
  assert.ok(compiled.ok);
  assert.deepEqual(compiled.template.fields.map((f) => f.name), ['name'], 'the tag in the shape is a field of the template');
  const pages = await docxPages(buildDocx({ body }), { name: 'Ada' });
  const filled = findText(pages, 'Ada');
  const [box] = shapes(pages);
  assert.ok(filled.x > box.x && filled.x + filled.width < box.x + box.w, 'the value is drawn inside the shape');
  near(findText(pages, 'there.').y, findText(pages, 'Hello').y, 'on the line of the words around it');
});
