/**
 * Axis tick marks (docx/chart.ts reads c:majorTickMark, c:minorTickMark, c:minorUnit and the axis line's a:ln;
 * pdf/layout/chart-ticks.ts draws them): major marks at each value unit and between categories, minor marks at each
 * minor unit, outside, inside or across the axis line, in the line's own colour and width; c:tickMarkSkip; none
 * without a line; tick labels stand beyond marks reaching out of the line. Geometry is read from the laid-out
 * page's line boxes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LineBox, TextBox } from '../../server/engine/pdf/flow/boxes.js';
import { docxPages } from '../engine/pdf/boxes.js';
import { buildDocx } from './build-docx.js';

const C_NS = 'xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const cache = (kind: 'str' | 'num', values: Array<string | number>): string =>
  `<c:${kind}Ref><c:f>S!A1</c:f><c:${kind}Cache><c:ptCount val="${values.length}"/>${values.map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join('')}</c:${kind}Cache></c:${kind}Ref>`;
const ln = (hex: string, emu: number): string => `<c:spPr><a:ln w="${emu}"><a:solidFill><a:srgbClr val="${hex}"/></a:solidFill></a:ln></c:spPr>`;
const RED = [255, 0, 0].join(',');
const GREEN = [0, 128, 0].join(',');
const MAJOR = (150 / 2540) * 72;

/** A column chart (values 2 and 5: axis 0..6 by 1) whose axes carry `cat` and `val` (tick elements and c:spPr). */
function chartDocx(cat: string, val: string): Uint8Array {
  const plot =
    `<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/><c:ser><c:idx val="0"/><c:order val="0"/><c:tx>${cache('str', ['S1'])}</c:tx>` +
    `<c:cat>${cache('str', ['North', 'South'])}</c:cat><c:val>${cache('num', [2, 5])}</c:val></c:ser><c:axId val="1"/><c:axId val="2"/></c:barChart>` +
    `<c:catAx><c:axId val="1"/><c:delete val="0"/><c:axPos val="b"/>${cat}<c:crossAx val="2"/></c:catAx>` +
    `<c:valAx><c:axId val="2"/><c:delete val="0"/><c:axPos val="l"/>${val}<c:crossAx val="1"/><c:crossBetween val="between"/></c:valAx>`;
  const chart = `<?xml version="1.0" encoding="UTF-8"?><c:chartSpace ${C_NS}><c:chart><c:plotArea>${plot}</c:plotArea></c:chart></c:chartSpace>`;
  const drawing = `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="${400 * 12700}" cy="${250 * 12700}"/><wp:docPr id="1" name="Chart 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rIdChart"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
  return buildDocx({ body: drawing, rels: { rIdChart: ['chart', 'charts/chart1.xml'] }, extra: { 'word/charts/chart1.xml': chart } });
}

async function layout(cat: string, val: string): Promise<{ lines: LineBox[]; texts: TextBox[] }> {
  const boxes = (await docxPages(chartDocx(cat, val)))[0].boxes;
  return { lines: boxes.filter((b): b is LineBox => b.kind === 'line'), texts: boxes.filter((b): b is TextBox => b.kind === 'text') };
}

const near = (a: number, b: number, eps = 0.01): boolean => Math.abs(a - b) < eps;

test('value axis: major marks outside at each unit, minor marks inside at each fifth, in the axis line\'s colour and width; labels beyond the marks', async () => {
  const { lines, texts } = await layout(
    `<c:majorTickMark val="none"/><c:minorTickMark val="none"/>${ln('008000', 12700)}`,
    `<c:majorTickMark val="out"/><c:minorTickMark val="in"/>${ln('FF0000', 19050)}`,
  );
  const red = lines.filter((l) => l.color.join(',') === RED);
  assert.ok(red.every((l) => near(l.width, 1.5)), 'a:ln w 19050 EMU is 1.5 pt');
  const axis = red.find((l) => l.x1 === l.x2);
  assert.ok(axis, 'the vertical axis line');
  const marks = red.filter((l) => l.y1 === l.y2);
  // Major: 0..6, each from the line 4.25 pt to the left (outside, toward the labels).
  const major = marks.filter((l) => near(Math.max(l.x1, l.x2), axis.x1) && near(Math.min(l.x1, l.x2), axis.x1 - MAJOR));
  assert.equal(major.length, 7, JSON.stringify(marks));
  for (const label of ['0', '3', '6']) {
    const t = texts.find((b) => b.text === label)!;
    assert.ok(major.some((m) => near(m.y1, t.y - 3.5, 0.05)), `a major mark level with label ${label}`);
    assert.ok(t.x + t.width <= axis.x1 - MAJOR - 2, `label ${label} beyond the mark: ${axis.x1 - t.x - t.width}`);
  }
  // Minor: every 0.2 between the majors (30 fifths, 24 off the majors), 3/4 as long, to the right (inside).
  const minor = marks.filter((l) => near(Math.min(l.x1, l.x2), axis.x1) && near(Math.max(l.x1, l.x2), axis.x1 + MAJOR * 0.75));
  assert.equal(minor.length, 24);
  const ys = minor.map((l) => l.y1).sort((a, b) => a - b);
  const unit = (Math.max(...major.map((m) => m.y1)) - Math.min(...major.map((m) => m.y1))) / 6;
  assert.ok(near(ys[1] - ys[0], unit / 5, 0.05), `minor step ${ys[1] - ys[0]} of unit ${unit}`);
  // The category axis says none: its line only.
  assert.equal(lines.filter((l) => l.color.join(',') === GREEN).length, 1);
});

test('category axis: marks between the categories, across the line; the schema\'s default (cross) when the elements are absent', async () => {
  for (const ticks of ['<c:majorTickMark val="cross"/><c:minorTickMark val="none"/>', '']) {
    const { lines } = await layout(`${ticks}${ln('008000', 9525)}`, `<c:majorTickMark val="none"/><c:minorTickMark val="none"/>${ln('FF0000', 9525)}`);
    const green = lines.filter((l) => l.color.join(',') === GREEN);
    const axis = green.find((l) => l.y1 === l.y2)!;
    const marks = green.filter((l) => l.x1 === l.x2);
    // Two categories: three marks, at both ends and halfway, each 4.25 pt above and below the line.
    assert.equal(marks.length, 3, `${ticks || 'absent'}: ${JSON.stringify(green)}`);
    const xs = marks.map((m) => m.x1).sort((a, b) => a - b);
    assert.ok(near(xs[0], Math.min(axis.x1, axis.x2)) && near(xs[2], Math.max(axis.x1, axis.x2)) && near(xs[1], (xs[0] + xs[2]) / 2), xs.join(', '));
    for (const m of marks) assert.ok(near(Math.min(m.y1, m.y2), axis.y1 - MAJOR) && near(Math.max(m.y1, m.y2), axis.y1 + MAJOR), JSON.stringify(m));
  }
});

test('c:tickMarkSkip 2: a category mark at every second boundary only', async () => {
  const { lines } = await layout(`<c:majorTickMark val="out"/><c:minorTickMark val="none"/>${ln('008000', 9525)}<c:tickMarkSkip val="2"/>`, '');
  const green = lines.filter((l) => l.color.join(',') === GREEN);
  const axis = green.find((l) => l.y1 === l.y2)!;
  const xs = green.filter((l) => l.x1 === l.x2).map((m) => m.x1).sort((a, b) => a - b);
  // Boundaries 0, 1 and 2 of two categories: the middle one is skipped.
  assert.equal(xs.length, 2, xs.join(', '));
  assert.ok(near(xs[0], Math.min(axis.x1, axis.x2)) && near(xs[1], Math.max(axis.x1, axis.x2)), xs.join(', '));
});

test('an axis without a line (a:ln noFill) has no tick marks either', async () => {
  const none = '<c:spPr><a:ln><a:noFill/></a:ln></c:spPr>';
  const { lines } = await layout(`<c:majorTickMark val="out"/>${none}`, `<c:majorTickMark val="cross"/><c:minorTickMark val="out"/>${none}`);
  assert.deepEqual(lines, []);
});
