/**
 * Charts drawn from the values saved in their chart parts (docx/chart.ts → pdf/layout/chart*.ts): the title,
 * axis labels, category names, legend and data labels are real text in the PDF (pdftotext finds them), on corpus
 * files nobody here wrote and on a small built chart; a pie's slices are drawn as one filled path per value with
 * its own colour and a sweep proportional to it; a radar chart's net and series are drawn where its values put
 * them; a chart type not drawn is a framed box with a warning.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { compileTemplate, renderPdf, type ImportWarning } from '../../server/engine/index.js';
import type { PathBox, TextBox } from '../../server/engine/pdf/flow/boxes.js';
import { docxPages } from '../engine/pdf/boxes.js';
import { pdfText, squash } from '../helpers/pdf.js';
import { buildDocx, p } from './build-docx.js';

const CORPUS = process.env.DOCLOOM_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/docx');
const DELIMITERS = ['\u0001<<', '>>\u0001'] as const;
const corpusFile = (name: string): string => path.join(CORPUS, name);
const hasCorpus = (name: string): string | false => (fs.existsSync(corpusFile(name)) ? false : `no corpus file ${name}`);

async function render(bytes: Uint8Array): Promise<{ text: string; warnings: ImportWarning[] }> {
  const result = compileTemplate({ kind: 'docx', bytes, delimiters: DELIMITERS });
  assert.ok(result.ok, JSON.stringify(result));
  const pdf = (await renderPdf(result.template, {})).bytes;
  return { text: squash(pdfText(pdf)), warnings: result.warnings };
}

test('aspose Combo chart: title, categories, series names in the legend and both value axes are PDF text', { skip: hasCorpus('aspose__Combo_chart.docx') }, async () => {
  const { text, warnings } = await render(fs.readFileSync(corpusFile('aspose__Combo_chart.docx')));
  for (const word of ['Combo Chart', 'Category 1', 'Category 2', 'Category 3', 'Category 4', 'Series 1', 'Series 2', 'Series 3']) {
    assert.ok(text.includes(word), `"${word}" missing from: ${text}`);
  }
  // The bars' axis (0–5) on the left, the line's secondary axis (0–6) on the right.
  assert.match(text, /5 6/);
  assert.deepEqual(warnings.filter((w) => w.code.startsWith('chart')), []);
});

test('poi-tl reference charts: CJK categories, pie percentages and legends; the radar chart is drawn, with its spokes\' names and series', { skip: hasCorpus('poitl__reference_chart.docx') }, async () => {
  const { text, warnings } = await render(fs.readFileSync(corpusFile('poitl__reference_chart.docx')));
  for (const word of ['类别 1', '类别 4', '系列 3', '销售', '第一季度', '第四季度', '59%', '23%', 'Chart Title', '智力', '敏捷', '综合', '诸葛', '司马']) {
    assert.ok(text.includes(word), `"${word}" missing`);
  }
  assert.deepEqual(warnings.filter((w) => w.code === 'chart_type_unsupported'), []);
});

const C_NS = 'xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const strCache = (values: string[]): string =>
  `<c:strRef><c:f>S!A1</c:f><c:strCache><c:ptCount val="${values.length}"/>${values.map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join('')}</c:strCache></c:strRef>`;
const numCache = (values: number[]): string =>
  `<c:numRef><c:f>S!B1</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="${values.length}"/>${values.map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join('')}</c:numCache></c:numRef>`;

/** A .docx holding one inline chart (400 × 250 pt) whose plot area is `plot` (`effect`: a wp:effectExtent). */
function chartDocx(plot: string, extra = '', legend = '<c:legend><c:legendPos val="r"/></c:legend>', effect = ''): Uint8Array {
  const drawing = `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="${400 * 12700}" cy="${250 * 12700}"/>${effect}<wp:docPr id="1" name="Chart 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rIdChart"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
  const chart = `<?xml version="1.0" encoding="UTF-8"?><c:chartSpace ${C_NS}><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>Fruit sold</a:t></a:r></a:p></c:rich></c:tx></c:title><c:autoTitleDeleted val="0"/><c:plotArea>${plot}</c:plotArea>${legend}${extra}</c:chart></c:chartSpace>`;
  return buildDocx({
    body: p('Before the chart') + drawing + p('After the chart'),
    rels: { rIdChart: ['chart', 'charts/chart1.xml'] },
    extra: { 'word/charts/chart1.xml': chart },
  });
}

const PIE = `<c:pieChart><c:varyColors val="1"/><c:ser><c:idx val="0"/><c:order val="0"/><c:tx>${strCache(['Sold'])}</c:tx><c:dLbls><c:showVal val="0"/><c:showCatName val="0"/><c:showSerName val="0"/><c:showPercent val="1"/></c:dLbls><c:cat>${strCache(['Apples', 'Pears', 'Plums'])}</c:cat><c:val>${numCache([50, 30, 20])}</c:val></c:ser><c:firstSliceAng val="0"/></c:pieChart>`;

test('a built pie chart: one filled slice per value, sweeps 50/30/20 %, percentages and legend as text', async () => {
  const bytes = chartDocx(PIE);
  const { text, warnings } = await render(bytes);
  for (const word of ['Fruit sold', 'Apples', 'Pears', 'Plums', '50%', '30%', '20%', 'Before the chart', 'After the chart']) {
    assert.ok(text.includes(word), `"${word}" missing from: ${text}`);
  }
  assert.deepEqual(warnings, []);

  const pages = await docxPages(bytes);
  const slices = pages[0].boxes.filter((b): b is PathBox => b.kind === 'path' && b.closed && b.fill !== null);
  assert.equal(slices.length, 3, 'one slice per value');
  assert.equal(new Set(slices.map((s) => s.fill!.join(','))).size, 3, 'each slice its own colour');
  // A slice is the centre, then its arc: the arc's angle is its share of 360°.
  const sweeps = slices.map((s) => {
    const [cx, cy] = s.points;
    const angle = (i: number): number => Math.atan2(s.points[i] - cx, cy - s.points[i + 1]);
    let sweep = angle(s.points.length - 2) - angle(2);
    if (sweep <= 0) sweep += 2 * Math.PI;
    return Math.round((sweep / (2 * Math.PI)) * 100);
  });
  assert.deepEqual(sweeps, [50, 30, 20]);
});

test('a legend placed by the author (c:manualLayout, edge mode) is drawn in its box, over the plot area; factor mode keeps the automatic place', async () => {
  const manual = (mode: string): string =>
    `<c:legend><c:legendPos val="b"/><c:layout><c:manualLayout><c:xMode val="${mode}"/><c:yMode val="${mode}"/><c:x val="0.25"/><c:y val="0.6"/><c:w val="0.5"/><c:h val="0.1"/></c:manualLayout></c:layout><c:overlay val="0"/></c:legend>`;
  const entries = async (legend: string): Promise<TextBox[]> => {
    const pages = await docxPages(chartDocx(PIE, '', legend));
    return pages[0].boxes.filter((b): b is TextBox => b.kind === 'text' && ['Apples', 'Pears', 'Plums', 'Fruit sold'].includes(b.text));
  };
  const placed = await entries(manual('edge'));
  const title = placed.find((b) => b.text === 'Fruit sold')!;
  const keys = placed.filter((b) => b.text !== 'Fruit sold');
  assert.equal(keys.length, 3);
  // The chart's top is 7 pt (its padding) plus 0.95 of the 14 pt title above the title's baseline; its left edge
  // is 200 pt left of the title's centre. The box is 60 % down (150 pt) and a quarter across (100 pt), 200 × 25 pt.
  const chartTop = title.y - 7 - 14 * 0.95;
  const chartLeft = title.x + title.width / 2 - 200;
  for (const k of keys) {
    assert.ok(Math.abs(k.y - keys[0].y) < 0.01, 'one row');
    assert.ok(k.y > chartTop + 150 && k.y < chartTop + 175, `${k.text} baseline ${k.y - chartTop} pt below the chart's top`);
    assert.ok(k.x > chartLeft + 100 && k.x + k.width < chartLeft + 300, `${k.text} within the box: ${k.x - chartLeft}`);
  }
  // The same legend in factor mode (offsets from the automatic place, not drawn as such): at the chart's foot.
  const automatic = (await entries(manual('factor'))).filter((b) => b.text !== 'Fruit sold');
  assert.ok(automatic.every((k) => k.y > chartTop + 230), `at the foot: ${automatic.map((k) => k.y - chartTop).join(', ')}`);
});

test('a plot area placed by the author (c:manualLayout, edge mode): inner is the axes\' rectangle, labels outside; outer holds them', async () => {
  // docling__drawingml: an inner plot area 78.2 % of the chart tall; LibreOffice 7.4 puts its 6 and 0 gridlines
  // that far apart (233.5 pt of 299.3), docloom's automatic layout had 244.6.
  const layout = (target: string): string =>
    `<c:layout><c:manualLayout>${target}<c:xMode val="edge"/><c:yMode val="edge"/><c:x val="0.1"/><c:y val="0.2"/><c:w val="0.8"/><c:h val="0.6"/></c:manualLayout></c:layout>`;
  const ticks = async (plotLayout: string): Promise<{ top: number; six: TextBox; zero: TextBox; north: TextBox }> => {
    const pages = await docxPages(chartDocx(plotLayout + columns([[2, 5]]), '', '<c:legend><c:legendPos val="r"/><c:layout/></c:legend>'));
    const texts = pages[0].boxes.filter((b): b is TextBox => b.kind === 'text');
    const find = (t: string): TextBox => texts.find((b) => b.text === t)!;
    return { top: find('Fruit sold').y - 7 - 14 * 0.95, six: find('6'), zero: find('0'), north: find('North') };
  };
  // Inner: the 6 and 0 gridlines (label baseline − 0.35 of the 10 pt labels) at 20 % and 80 % of the 250 pt chart.
  const inner = await ticks(layout('<c:layoutTarget val="inner"/>'));
  assert.ok(Math.abs(inner.six.y - 3.5 - (inner.top + 50)) < 0.5, `6 at ${inner.six.y - 3.5 - inner.top}`);
  assert.ok(Math.abs(inner.zero.y - 3.5 - (inner.top + 200)) < 0.5, `0 at ${inner.zero.y - 3.5 - inner.top}`);
  assert.ok(inner.north.y > inner.top + 200, 'category names below the rectangle');
  // Outer (the default): the box holds the category names, so the axis is shorter and ends above them.
  const outer = await ticks(layout(''));
  assert.ok(outer.north.y < outer.top + 200 + 0.5, `category names inside the box: ${outer.north.y - outer.top}`);
  assert.ok(outer.zero.y - outer.six.y < 150 - 10, `outer axis ${outer.zero.y - outer.six.y}`);
  // No layout: the automatic place, not these.
  const auto = await ticks('<c:layout/>');
  assert.ok(Math.abs(auto.zero.y - auto.six.y - 150) > 5, `automatic axis ${auto.zero.y - auto.six.y}`);
});

test('a built stacked column chart: value axis ticks, category names, data labels; stacks end at the sums', async () => {
  const ser = (i: number, name: string, values: number[]): string =>
    `<c:ser><c:idx val="${i}"/><c:order val="${i}"/><c:tx>${strCache([name])}</c:tx><c:cat>${strCache(['North', 'South'])}</c:cat><c:val>${numCache(values)}</c:val></c:ser>`;
  const plot = `<c:barChart><c:barDir val="col"/><c:grouping val="stacked"/>${ser(0, 'Cherries', [2, 3])}${ser(1, 'Grapes', [4, 1])}<c:dLbls><c:showVal val="1"/></c:dLbls><c:gapWidth val="100"/><c:overlap val="100"/><c:axId val="1"/><c:axId val="2"/></c:barChart><c:catAx><c:axId val="1"/><c:delete val="0"/><c:axPos val="b"/><c:crossAx val="2"/></c:catAx><c:valAx><c:axId val="2"/><c:delete val="0"/><c:axPos val="l"/><c:majorGridlines/><c:crossAx val="1"/><c:crossBetween val="between"/></c:valAx>`;
  const bytes = chartDocx(plot);
  const { text } = await render(bytes);
  for (const word of ['North', 'South', 'Cherries', 'Grapes', 'Fruit sold']) assert.ok(text.includes(word), `"${word}" missing from: ${text}`);
  const pages = await docxPages(bytes);
  const texts = pages[0].boxes.filter((b) => b.kind === 'text').map((b) => (b.kind === 'text' ? b.text : ''));
  // Axis 0..7 (sums 6 and 4, with headroom), data labels 2, 4, 3, 1.
  for (const tick of ['0', '1', '2', '3', '4', '5', '6', '7']) assert.ok(texts.includes(tick), `tick ${tick} missing: ${texts.join('|')}`);
  // Four bars; North's stack (2 + 4) is 1.5 × as tall as South's (3 + 1).
  const bars = pages[0].boxes.filter((b) => b.kind === 'fill' && b.w > 20 && b.w < 200);
  assert.equal(bars.length, 4, JSON.stringify(bars));
  const north = bars.filter((b) => b.kind === 'fill' && b.x === (bars[0].kind === 'fill' ? bars[0].x : 0));
  const height = (list: typeof bars): number => list.reduce((a, b) => a + (b.kind === 'fill' ? b.h : 0), 0);
  const south = bars.filter((b) => !north.includes(b));
  assert.ok(Math.abs(height(north) / height(south) - 1.5) < 0.01, `${height(north)} vs ${height(south)}`);
});

test('a chart type not drawn is a framed box of its size with its title, and a chart_type_unsupported warning', async () => {
  const stock = `<c:stockChart><c:ser><c:idx val="0"/><c:order val="0"/><c:cat>${strCache(['Mon', 'Tue', 'Wed'])}</c:cat><c:val>${numCache([1, 2, 3])}</c:val></c:ser></c:stockChart>`;
  const bytes = chartDocx(stock);
  const { text, warnings } = await render(bytes);
  assert.ok(text.includes('Fruit sold'));
  assert.deepEqual(warnings.map((w) => [w.code, w.location.part]), [['chart_type_unsupported', 'word/charts/chart1.xml']]);
  assert.match(warnings[0].message, /stock/);
  const pages = await docxPages(bytes);
  const frame = pages[0].boxes.find((b) => b.kind === 'frame');
  assert.ok(frame && frame.kind === 'frame' && Math.round(frame.w) === 400 && Math.round(frame.h) === 250, JSON.stringify(frame));
});

/** A radar chart (c:radarStyle `style`) of two series over five categories, with spokes and value gridlines. */
function radar(style: string, second = [2, 2, 2, 2, 2]): string {
  const cats = ['Speed', 'Power', 'Range', 'Grip', 'Cost'];
  const ser = (i: number, name: string, values: number[]): string =>
    `<c:ser><c:idx val="${i}"/><c:order val="${i}"/><c:tx>${strCache([name])}</c:tx><c:cat>${strCache(cats)}</c:cat><c:val>${numCache(values)}</c:val></c:ser>`;
  return `<c:radarChart><c:radarStyle val="${style}"/>${ser(0, 'Alpha', [4, 3, 2, 4, 1])}${ser(1, 'Beta', second)}<c:axId val="1"/><c:axId val="2"/></c:radarChart>` +
    `<c:catAx><c:axId val="1"/><c:delete val="0"/><c:axPos val="b"/><c:majorGridlines/><c:crossAx val="2"/></c:catAx>` +
    `<c:valAx><c:axId val="2"/><c:delete val="0"/><c:axPos val="l"/><c:majorGridlines/><c:numFmt formatCode="General" sourceLinked="1"/><c:crossAx val="1"/></c:valAx>`;
}

test('a radar chart: category names round the net, value labels up the first spoke, one closed polyline a series at its values', async () => {
  const bytes = chartDocx(radar('marker'));
  const { text, warnings } = await render(bytes);
  for (const word of ['Fruit sold', 'Speed', 'Power', 'Range', 'Grip', 'Cost', 'Alpha', 'Beta']) assert.ok(text.includes(word), `"${word}" missing from: ${text}`);
  assert.deepEqual(warnings, []);
  const pages = await docxPages(bytes);
  const boxes = pages[0].boxes;
  const texts = boxes.filter((b): b is TextBox => b.kind === 'text');
  // Values 1..4: units of 1 (0..4.5 by 0.5 would need more labels than fit along the radius), one more above 4.
  for (const tick of ['0', '1', '2', '3', '4', '5']) assert.ok(texts.some((t) => t.text === tick), `tick ${tick} missing: ${texts.map((t) => t.text).join('|')}`);
  const at = (name: string): TextBox => texts.find((t) => t.text === name)!;
  // The first category over the top of the net, the value labels in a column below it, the next ones clockwise.
  const zero = at('0');
  const five = at('5');
  assert.ok(Math.abs(zero.x + zero.width - (five.x + five.width)) < 0.01 && five.y < zero.y, 'ticks up the first spoke');
  assert.ok(at('Speed').y < five.y, 'first category above the top of the axis');
  assert.ok(at('Power').x > zero.x && at('Power').y > at('Speed').y, 'second category right of the centre, below the first');
  assert.ok(at('Cost').x < zero.x, 'last category left of the centre');

  // Series: closed stroked polylines of five points; Beta's (all 2) is a regular pentagon 2/5 of the radius out.
  const lines = boxes.filter((b): b is PathBox => b.kind === 'path' && b.closed && b.fill === null && b.width > 2);
  assert.equal(lines.length, 2, JSON.stringify(lines));
  const alpha = lines[0].points;
  const beta = lines[1].points;
  assert.equal(beta.length, 10);
  // The rim (the last gridline polygon) is a regular pentagon whose first vertex is straight above the centre.
  const grid = boxes.filter((b): b is PathBox => b.kind === 'path' && b.closed && b.fill === null && b.width < 1);
  assert.equal(grid.length, 5, 'one polygon a tick beyond the centre (1..5)');
  const rim = grid[grid.length - 1].points;
  const cx = rim[0];
  const radius = Math.hypot(rim[2] - rim[0], rim[3] - rim[1]) / (2 * Math.sin(Math.PI / 5));
  const centreY = rim[1] + radius;
  const dist = (pts: number[], i: number): number => Math.hypot(pts[2 * i] - cx, pts[2 * i + 1] - centreY);
  for (let i = 0; i < 5; i++) assert.ok(Math.abs(dist(beta, i) / radius - 0.4) < 0.01, `Beta point ${i}: ${dist(beta, i) / radius}`);
  [4, 3, 2, 4, 1].forEach((v, i) => assert.ok(Math.abs(dist(alpha, i) / radius - v / 5) < 0.01, `Alpha point ${i}: ${dist(alpha, i) / radius}`));
  // Spokes: one line a category from the centre to the rim.
  const spokes = boxes.filter((b) => b.kind === 'line' && Math.abs(b.x1 - cx) < 0.01 && Math.abs(b.y1 - centreY) < 0.01);
  assert.ok(spokes.length >= 5, `spokes: ${spokes.length}`);
});

test('a filled radar chart draws each series as a filled polygon in its colour; a missing value breaks a line radar', async () => {
  const filled = (await docxPages(chartDocx(radar('filled')))).flatMap((p) => p.boxes);
  const areas = filled.filter((b): b is PathBox => b.kind === 'path' && b.closed && b.fill !== null);
  assert.equal(areas.length, 2);
  assert.notDeepEqual(areas[0].fill, areas[1].fill);
  assert.equal(areas[0].points.length, 10);

  const gap = radar('standard').replace(numCache([2, 2, 2, 2, 2]), numCache([2, 2, 2, 2, 2]).replace('<c:pt idx="2"><c:v>2</c:v></c:pt>', ''));
  const boxes = (await docxPages(chartDocx(gap))).flatMap((p) => p.boxes);
  const open = boxes.filter((b): b is PathBox => b.kind === 'path' && !b.closed && b.width > 2);
  // Beta without its third value: one open run from the fourth point round through the first to the second.
  assert.equal(open.length, 1, JSON.stringify(open));
  assert.equal(open[0].points.length, 8);
});

test('a chart whose part is missing is left out with chart_not_drawn; the text around it stays', async () => {
  const bytes = buildDocx({
    body: p('Before') + `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="1270000" cy="1270000"/><wp:docPr id="1" name="C"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rIdGone"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>` + p('After'),
  });
  const { text, warnings } = await render(bytes);
  assert.ok(text.includes('Before') && text.includes('After'));
  assert.deepEqual(warnings.map((w) => w.code), ['chart_not_drawn']);
});

/** A clustered column chart (or its 3-D form) of `series`, categories North and South, with a value axis. */
function columns(series: number[][], element = 'c:barChart'): string {
  const sers = series.map((values, i) => `<c:ser><c:idx val="${i}"/><c:order val="${i}"/><c:tx>${strCache([`S${i + 1}`])}</c:tx><c:cat>${strCache(['North', 'South'])}</c:cat><c:val>${numCache(values)}</c:val></c:ser>`).join('');
  return `<${element}><c:barDir val="col"/><c:grouping val="clustered"/>${sers}<c:axId val="1"/><c:axId val="2"/></${element}><c:catAx><c:axId val="1"/><c:delete val="0"/><c:axPos val="b"/><c:crossAx val="2"/></c:catAx><c:valAx><c:axId val="2"/><c:delete val="0"/><c:axPos val="l"/><c:majorGridlines/><c:numFmt formatCode="General" sourceLinked="1"/><c:crossAx val="1"/></c:valAx>`;
}

async function boxTexts(bytes: Uint8Array): Promise<string[]> {
  const pages = await docxPages(bytes);
  return pages[0].boxes.filter((b) => b.kind === 'text').map((b) => (b.kind === 'text' ? b.text : ''));
}

test('automatic value axes as Office and LibreOffice choose them: up to 10 units of 1, 2 or 5 × 10^n, one more near the top', async () => {
  // Values up to 4.5: 0 to 5 by 0.5 (4.5 lies within 1/21 of 0..4.5, so one more unit), labels unpadded.
  const half = await boxTexts(chartDocx(columns([[4.3, 2.5], [1.8, 4.5]])));
  for (const tick of ['0', '0.5', '1', '1.5', '2', '2.5', '3', '3.5', '4', '4.5', '5']) assert.ok(half.includes(tick), `tick ${tick} missing: ${half.join('|')}`);
  assert.ok(!half.includes('5.5') && !half.includes('6') && !half.includes('1.0'), half.join('|'));
  // Up to 5: 0 to 5.5 by 0.5 would be 11 units, so 0 to 6 by 1; the 3-D form keeps no extra unit: 0 to 5 by 0.5.
  const flat = await boxTexts(chartDocx(columns([[2, 5]])));
  for (const tick of ['0', '1', '2', '3', '4', '5', '6']) assert.ok(flat.includes(tick), `tick ${tick} missing: ${flat.join('|')}`);
  assert.ok(!flat.includes('0.5') && !flat.includes('7'), flat.join('|'));
  const deep = await boxTexts(chartDocx(columns([[2, 5]], 'c:bar3DChart')));
  for (const tick of ['0', '0.5', '4.5', '5']) assert.ok(deep.includes(tick), `tick ${tick} missing: ${deep.join('|')}`);
  assert.ok(!deep.includes('6'), deep.join('|'));
});

test('values close together: the axis starts half their spread below them and the bars are cut off at its foot', async () => {
  // 95 and 100: the axis runs 92..101 by 1; bars stand on 92, so 100's is 8/3 of 95's.
  const bytes = chartDocx(columns([[95, 100]]));
  const texts = await boxTexts(bytes);
  for (const tick of ['92', '96', '101']) assert.ok(texts.includes(tick), `tick ${tick} missing: ${texts.join('|')}`);
  assert.ok(!texts.includes('0') && !texts.includes('91'), texts.join('|'));
  const pages = await docxPages(bytes);
  const bars = pages[0].boxes.filter((b) => b.kind === 'fill' && b.w > 20 && b.w < 200).map((b) => (b.kind === 'fill' ? b.h : 0));
  assert.equal(bars.length, 2, JSON.stringify(bars));
  assert.ok(Math.abs(bars[1] / bars[0] - 8 / 3) < 0.01, `${bars[1]} / ${bars[0]}`);
});

/** A bubble chart of one series: points (1, 1), (2, 3), (3, 2) with sizes 1, 4 and 16, over x and y value axes. */
function bubbles(options = ''): string {
  return `<c:bubbleChart><c:varyColors val="0"/><c:ser><c:idx val="0"/><c:order val="0"/><c:tx>${strCache(['Orchards'])}</c:tx><c:xVal>${numCache([1, 2, 3])}</c:xVal><c:yVal>${numCache([1, 3, 2])}</c:yVal><c:bubbleSize>${numCache([1, 4, 16])}</c:bubbleSize></c:ser>${options}<c:axId val="1"/><c:axId val="2"/></c:bubbleChart>` +
    `<c:valAx><c:axId val="1"/><c:delete val="0"/><c:axPos val="b"/><c:crossAx val="2"/></c:valAx><c:valAx><c:axId val="2"/><c:delete val="0"/><c:axPos val="l"/><c:majorGridlines/><c:crossAx val="1"/></c:valAx>`;
}

test('a bubble chart: a circle at each (x, y), areas in proportion to the sizes, the largest a quarter of the plot across; c:bubbleScale and c:sizeRepresents w', async () => {
  const bytes = chartDocx(bubbles());
  const { text, warnings } = await render(bytes);
  assert.deepEqual(warnings, []);
  assert.ok(text.includes('Orchards') && text.includes('Fruit sold'), text);
  const circles = async (b: Uint8Array): Promise<Array<{ x: number; y: number; d: number }>> =>
    (await docxPages(b))[0].boxes.filter((x): x is PathBox => x.kind === 'path' && x.closed && x.fill !== null).map((c) => {
      const xs = c.points.filter((_, i) => i % 2 === 0);
      const ys = c.points.filter((_, i) => i % 2 === 1);
      return { x: (Math.max(...xs) + Math.min(...xs)) / 2, y: (Math.max(...ys) + Math.min(...ys)) / 2, d: Math.max(...xs) - Math.min(...xs) };
    });
  // Drawn largest first: sizes 16, 4, 1 → diameters 4 : 2 : 1 (areas 16 : 4 : 1).
  const area = await circles(bytes);
  assert.equal(area.length, 3, JSON.stringify(area));
  assert.ok(Math.abs(area[0].d / area[1].d - 2) < 0.01 && Math.abs(area[1].d / area[2].d - 2) < 0.01, JSON.stringify(area));
  // Points: size 16 at (3, 2), size 4 at (2, 3), size 1 at (1, 1): left to right, (2, 3) highest.
  assert.ok(area[2].x < area[1].x && area[1].x < area[0].x && area[1].y < area[0].y && area[0].y < area[2].y, JSON.stringify(area));
  // The plot area is at most the chart's 250 pt less title and padding: the largest bubble is a quarter of it.
  assert.ok(area[0].d > 40 && area[0].d < 62.5, `largest ${area[0].d}`);
  const half = await circles(chartDocx(bubbles('<c:bubbleScale val="50"/>')));
  assert.ok(Math.abs(half[0].d / area[0].d - 0.5) < 0.01, `${half[0].d} vs ${area[0].d}`);
  const width = await circles(chartDocx(bubbles('<c:sizeRepresents val="w"/>')));
  assert.ok(Math.abs(width[0].d / width[1].d - 4) < 0.01 && Math.abs(width[1].d / width[2].d - 4) < 0.01, JSON.stringify(width));
});

test("an inline chart's wp:effectExtent is room kept around it in its line: the chart drawn inside, the next paragraph that much lower", async () => {
  const laid = async (effect: string): Promise<{ title: TextBox; after: TextBox }> => {
    const boxes = (await docxPages(chartDocx(PIE, '', undefined, effect)))[0].boxes.filter((b): b is TextBox => b.kind === 'text');
    return { title: boxes.find((b) => b.text.includes('Fruit'))!, after: boxes.find((b) => b.text.includes('After'))! };
  };
  const plain = await laid('');
  const padded = await laid('<wp:effectExtent l="63500" t="38100" r="0" b="88900"/>');
  assert.ok(Math.abs(padded.title.x - plain.title.x - 5) < 0.01, `title moved right by the left extent: ${padded.title.x} vs ${plain.title.x}`);
  assert.ok(Math.abs(padded.title.y - plain.title.y - 3) < 0.01, `title moved down by the top extent: ${padded.title.y} vs ${plain.title.y}`);
  assert.ok(Math.abs(padded.after.y - plain.after.y - 10) < 0.01, `next paragraph lower by top + bottom: ${padded.after.y} vs ${plain.after.y}`);
});

