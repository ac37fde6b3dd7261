/**
 * Charts with axes: bars and columns (clustered, stacked, percent), lines, areas and scatter plots in the plot
 * box, with value gridlines, axis lines, tick labels, axis titles and data labels. Values run up (columns,
 * lines, areas) or right (horizontal bars); categories run left to right, or bottom to top for horizontal bars
 * (Office's default orientation). Plots marked secondary get their own scale, labelled on the right. Bubble plots
 * share the scatter plot's x and y value axes.
 */
import type { Chart, ChartAxis, ChartPlot, ChartSeries, ChartText } from '../../model/types.js';
import { ChartPen, rgb } from './chart-text.js';
import { formatNumber, valueScale, type Scale, type ScaleRoom } from './chart-scale.js';
import type { PlotBox } from './chart.js';
import { drawAxisLine, minorPositions, tickReach } from './chart-ticks.js';

const GRID: readonly [number, number, number] = [217, 217, 217];
const BLUE: readonly [number, number, number] = [68, 114, 196];
const LABEL_GAP = 4;

const stacked = (p: ChartPlot): boolean => p.grouping === 'stacked' || p.grouping === 'percentStacked';

/** The lowest and highest value a plot reaches (stacks summed per category; percent stacks 0..1). */
function extent(plot: ChartPlot): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  if (stacked(plot)) {
    const n = Math.max(0, ...plot.series.map((s) => s.values.length));
    for (let i = 0; i < n; i++) {
      let pos = 0;
      let neg = 0;
      for (const s of plot.series) {
        const v = s.values[i] ?? 0;
        if (v >= 0) pos += v;
        else neg += v;
      }
      if (plot.grouping === 'percentStacked') {
        const total = pos - neg;
        if (total > 0) {
          pos /= total;
          neg /= total;
        }
      }
      lo = Math.min(lo, neg);
      hi = Math.max(hi, pos);
    }
  } else {
    for (const s of plot.series) for (const v of s.values) if (v !== null) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
  }
  return [lo, hi];
}

function scaleFor(plots: ChartPlot[], axis: ChartAxis | undefined, room: ScaleRoom): Scale {
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of plots) {
    const [a, b] = extent(p);
    lo = Math.min(lo, a);
    hi = Math.max(hi, b);
  }
  if (lo > hi) [lo, hi] = [0, 1];
  // LibreOffice keeps no extra unit at the ends of percent axes, nor of 3-D charts' axes.
  const roomAtEnds = !plots.some((p) => p.grouping === 'percentStacked' || p.threeD);
  return valueScale(lo, hi, axis ?? {}, { towardZero: true, roomAtEnds }, room);
}

function axisFormat(plots: ChartPlot[], axis: ChartAxis | undefined): string | undefined {
  if (plots.some((p) => p.grouping === 'percentStacked') && (!axis?.format || axis.format === 'General')) return '0%';
  return axis?.format;
}

/** Where the other axis crosses and areas grow from: zero, or the axis's end nearest to it. */
const origin = (s: Scale): number => Math.min(s.max, Math.max(s.min, 0));

const shown = (axis: ChartAxis | undefined): boolean => axis !== undefined && !axis.hidden && !axis.noLabels;

export function drawAxisPlots(pen: ChartPen, chart: Chart, box: PlotBox, base: ChartText): void {
  const plots = chart.plots.filter((p) => p.kind !== 'pie' && p.kind !== 'doughnut' && p.kind !== 'radar');
  if (plots.length === 0) return;
  const scatter = plots.some((p) => p.kind === 'scatter' || p.kind === 'bubble');
  const horizontal = !scatter && plots.some((p) => p.kind === 'bar' && p.horizontal);
  const primary = plots.filter((p) => !p.secondary);
  const secondary = plots.filter((p) => p.secondary);
  const valAxis = chart.valueAxis;
  const secAxis = secondary.length > 0 ? chart.secondaryAxis : undefined;
  const catAxis = scatter ? chart.xAxis : chart.categoryAxis;
  const valStyle = { ...base, ...valAxis?.text };
  const catStyle = { ...base, ...catAxis?.text };
  const valSize = pen.size(valStyle);
  const catSize = pen.size(catStyle);
  const count = Math.max(chart.categories.length, ...plots.flatMap((p) => p.series.map((s) => s.values.length)), 1);

  // Room for titles and tick labels around the plot.
  let left = box.x;
  let right = box.x + box.w;
  let top = box.y + valSize * 0.5;
  let bottom = box.y + box.h;
  const catTitle = catAxis && !catAxis.hidden ? catAxis.title : undefined;
  const valTitle = valAxis && !valAxis.hidden ? valAxis.title : undefined;
  const valueAlong = horizontal ? 'x' : 'y';
  if (valTitle) {
    if (valueAlong === 'y') left += valSize * 1.5;
    else bottom -= valSize * 1.5;
  }
  if (catTitle) {
    if (valueAlong === 'y') bottom -= catSize * 1.5;
    else left += catSize * 1.5;
  }
  // Provisional value scale to measure its labels (its length depends on them only slightly).
  const valLength = box.inner ? (valueAlong === 'y' ? box.h : box.w) : valueAlong === 'y' ? bottom - top - catSize * 1.6 : right - left;
  const fmt = axisFormat(primary.length > 0 ? primary : plots, valAxis);
  const secFmt = axisFormat(secondary, secAxis);
  // General labels are not padded to the unit's decimals: 0, 0.5, 1, 1.5 (as Excel and LibreOffice write them).
  const tickText = (s: Scale, f: string | undefined): string[] => s.ticks.map((t) => formatNumber(t, f));
  // How many labels fit along an axis: its length over one label's height, or its widest label's width when the
  // labels stand side by side (a first scale's labels, as LibreOffice measures them).
  const room = (length: number, f: string | undefined, style: ChartText, across: boolean): ScaleRoom => ({
    length,
    label: (s) => (across ? Math.max(0, ...tickText(s, f).map((t) => pen.width(t, style))) : pen.size(style) * 1.2),
  });
  const valRoom = (f: string | undefined): ScaleRoom => room(valLength, f, valStyle, valueAlong === 'x');
  const scale = scaleFor(primary.length > 0 ? primary : plots, valAxis, valRoom(fmt));
  const secScale = secondary.length > 0 ? scaleFor(secondary, secAxis, valRoom(secFmt)) : undefined;
  const valTexts = shown(valAxis) ? tickText(scale, fmt) : [];
  const secTexts = secScale && shown(secAxis) ? tickText(secScale, secFmt) : [];

  let xScale: Scale | undefined;
  let xTexts: string[] = [];
  if (scatter) {
    let lo = Infinity;
    let hi = -Infinity;
    for (const p of plots) for (const s of p.series) s.values.forEach((_, i) => {
      const x = s.xValues?.[i] ?? i + 1;
      if (x !== null) [lo, hi] = [Math.min(lo, x), Math.max(hi, x)];
    });
    // A scatter chart's x axis does not reach toward zero (LibreOffice widens only value axes so).
    xScale = valueScale(lo, hi, catAxis ?? {}, { towardZero: false, roomAtEnds: true }, room(right - left, catAxis?.format, catStyle, true));
    xTexts = shown(catAxis) ? tickText(xScale, catAxis?.format) : [];
  }
  const catTexts = scatter ? xTexts : shown(catAxis) ? chart.categories.slice(0, count) : [];
  // Labels stand beyond the tick marks reaching out of their axis line (LibreOffice spaces them from the marks' ends).
  const valGap = LABEL_GAP + tickReach(valAxis);
  const secGap = LABEL_GAP + tickReach(secAxis);
  const catGap = LABEL_GAP + tickReach(catAxis);
  const valDrop = 2 + tickReach(valAxis);
  const catDrop = 2 + tickReach(catAxis);

  if (valueAlong === 'y') {
    if (valTexts.length > 0) left += Math.max(...valTexts.map((t) => pen.width(t, valStyle))) + valGap;
    if (secTexts.length > 0) right -= Math.max(...secTexts.map((t) => pen.width(t, valStyle))) + secGap;
    if (catTexts.length > 0) bottom -= catSize * 1.3 + catDrop;
  } else {
    if (catTexts.length > 0) left += Math.min(box.w * 0.4, Math.max(...catTexts.map((t) => pen.width(t, catStyle)))) + catGap;
    if (valTexts.length > 0) bottom -= valSize * 1.3 + valDrop;
  }
  // An inner box is the axes' rectangle itself: the room measured for labels and titles lies outside it.
  let frame = box;
  if (box.inner) {
    const [dl, dt, dr, db] = [left - box.x, top - box.y, box.x + box.w - right, box.y + box.h - bottom];
    frame = { x: box.x - dl, y: box.y - dt, w: box.w + dl + dr, h: box.h + dt + db };
    [left, top, right, bottom] = [box.x, box.y, box.x + box.w, box.y + box.h];
  }
  const pw = Math.max(4, right - left);
  const ph = Math.max(4, bottom - top);

  // Coordinates: c along the category (or x) axis from its start, v a value.
  const catLength = valueAlong === 'y' ? pw : ph;
  const toV = (s: Scale, v: number, reversed?: boolean): number => {
    let t = (v - s.min) / (s.max - s.min);
    if (reversed) t = 1 - t;
    return valueAlong === 'y' ? bottom - t * ph : left + t * pw;
  };
  const at = (c: number, v: number, s: Scale = scale, reversed = valAxis?.reversed): [number, number] =>
    valueAlong === 'y' ? [left + c, toV(s, v, reversed)] : [toV(s, v, reversed), bottom - c];
  const slot = catLength / count;
  const midCat = chart.crossBetween === 'midCat' && !plots.some((p) => p.kind === 'bar');
  const catPos = (i: number): number => (scatter ? 0 : midCat ? (count > 1 ? (i * catLength) / (count - 1) : catLength / 2) : (i + 0.5) * slot);
  const xPos = (x: number): number => (xScale ? ((x - xScale.min) / (xScale.max - xScale.min)) * pw : 0);

  // Gridlines and value labels.
  scale.ticks.forEach((t, k) => {
    const [x1, y1] = at(0, t);
    const [x2, y2] = at(catLength, t);
    if (valAxis?.gridlines) pen.line(x1, y1, x2, y2, 0.75, rgb(valAxis.gridlines, GRID));
    const text = valTexts[k];
    if (!text) return;
    if (valueAlong === 'y') pen.text(text, valStyle, left - valGap, y1 + valSize * 0.35, 'right');
    else pen.text(text, valStyle, x1, bottom + valDrop + valSize * 0.95, 'center');
  });
  if (secScale) secScale.ticks.forEach((t, k) => {
    const text = secTexts[k];
    if (text) pen.text(text, valStyle, right + secGap, toV(secScale, t, secAxis?.reversed) + valSize * 0.35, 'left');
  });
  if (scatter && xScale) xScale.ticks.forEach((t, k) => {
    const x = left + xPos(t);
    if (catAxis?.gridlines) pen.line(x, top, x, bottom, 0.75, rgb(catAxis.gridlines, GRID));
    if (xTexts[k]) pen.text(xTexts[k], catStyle, x, bottom + catDrop + catSize * 0.95, 'center');
  });

  // Series, areas first (behind), then bars, then lines and points.
  const order: ChartPlot['kind'][] = ['area', 'bar', 'bubble', 'line', 'scatter'];
  for (const kind of order) {
    for (const plot of plots.filter((p) => p.kind === kind)) {
      const s = plot.secondary && secScale ? secScale : scale;
      const rev = plot.secondary ? secAxis?.reversed : valAxis?.reversed;
      const point = (c: number, v: number): [number, number] => at(c, v, s, rev);
      // Bars grow from zero and end inside the plot area (an axis not reaching zero cuts them off at its end).
      const clipped = (c: number, v: number): [number, number] => point(c, Math.min(s.max, Math.max(s.min, v)));
      if (kind === 'bar') drawBars(pen, plot, chart, clipped, slot, count, base, fmt);
      else if (kind === 'area') drawAreas(pen, plot, point, catPos, count, s);
      else if (kind === 'bubble') drawBubbles(pen, plot, point, (x) => xPos(x), Math.min(pw, ph));
      else if (kind === 'line') drawLines(pen, plot, chart, point, (i) => catPos(i), count, base, fmt);
      else drawLines(pen, plot, chart, point, (i, series) => xPos(series.xValues?.[i] ?? i + 1), count, base, fmt);
    }
  }

  // Axis lines and their tick marks: the category axis where the values cross zero, the value axis at the start,
  // the secondary value axis at the end. Category marks stand between categories (at them when points sit on
  // the category's edges); value marks at each unit, minor ones at each minor unit.
  const cross = origin(scale);
  const vertical = valueAlong === 'y';
  const catAt = vertical ? at(0, scatter ? scale.min : cross)[1] : at(0, cross)[0];
  const catMarks = scatter && xScale
    ? xScale.ticks.map((t) => left + xPos(t))
    : Array.from({ length: midCat ? count : count + 1 }, (_, i) => (midCat ? catPos(i) : i * slot))
      .filter((_, i) => i % (catAxis?.tickMarkSkip ?? 1) === 0)
      .map((c) => (vertical ? left + c : bottom - c));
  const catMinor = scatter && xScale && catAxis?.minorTicks ? minorPositions(xScale, catAxis, !catAxis.majorTicks).map((t) => left + xPos(t)) : [];
  drawAxisLine(pen, catAxis, vertical ? { along: 'x', at: catAt, from: left, to: right, outward: 1 } : { along: 'y', at: catAt, from: bottom, to: top, outward: -1 }, catMarks, catMinor);
  const valMarks = (s: Scale, axis: ChartAxis | undefined, values: number[]): number[] => values.map((v) => toV(s, v, axis?.reversed));
  const valMinor = (s: Scale, axis: ChartAxis | undefined): number[] => (axis?.minorTicks ? valMarks(s, axis, minorPositions(s, axis, !axis.majorTicks)) : []);
  const valLine = vertical ? { along: 'y' as const, at: left, from: bottom, to: top, outward: -1 as const } : { along: 'x' as const, at: bottom, from: left, to: right, outward: 1 as const };
  drawAxisLine(pen, valAxis, valLine, valMarks(scale, valAxis, scale.ticks), valMinor(scale, valAxis));
  if (secScale && vertical) drawAxisLine(pen, secAxis, { along: 'y', at: right, from: bottom, to: top, outward: 1 }, valMarks(secScale, secAxis, secScale.ticks), valMinor(secScale, secAxis));

  // Category labels (two lines when one is too long; every k-th when they still collide).
  if (!scatter && catTexts.length > 0) {
    const widest = Math.max(...catTexts.map((t) => pen.width(t, catStyle)));
    const every = valueAlong === 'y' ? Math.max(1, Math.ceil(widest / 2 / Math.max(1, slot * 0.95))) : Math.max(1, Math.ceil((catSize * 1.2) / Math.max(1, slot)));
    catTexts.forEach((text, i) => {
      if (i % every !== 0 || !text) return;
      const c = catPos(i);
      if (valueAlong === 'x') {
        pen.text(text, catStyle, left - catGap, bottom - c + catSize * 0.35, 'right');
        return;
      }
      const x = left + c;
      const space = text.indexOf(' ', Math.floor(text.length / 2) - 2);
      if (pen.width(text, catStyle) > slot * 0.95 && space > 0) {
        pen.text(text.slice(0, space), catStyle, x, bottom + catDrop + catSize * 0.95, 'center');
        pen.text(text.slice(space + 1), catStyle, x, bottom + catDrop + catSize * 2.1, 'center');
      } else pen.text(text, catStyle, x, bottom + catDrop + catSize * 0.95, 'center');
    });
  }

  // Axis titles.
  if (valTitle) {
    if (valueAlong === 'y') pen.text(valTitle, { ...valStyle, bold: true }, frame.x + valSize, (top + bottom) / 2, 'center', 90);
    else pen.text(valTitle, { ...valStyle, bold: true }, (left + right) / 2, frame.y + frame.h - valSize * 0.3, 'center');
  }
  if (catTitle) {
    if (valueAlong === 'y') pen.text(catTitle, { ...catStyle, bold: true }, (left + right) / 2, frame.y + frame.h - catSize * 0.3, 'center');
    else pen.text(catTitle, { ...catStyle, bold: true }, frame.x + catSize, (top + bottom) / 2, 'center', 90);
  }
}

type Point = (c: number, v: number) => [number, number];

function labelText(series: ChartSeries, category: string | undefined, value: number, format: string | undefined): string {
  const l = series.labels;
  if (!l) return '';
  const parts: string[] = [];
  if (l.series) parts.push(series.name);
  if (l.category && category) parts.push(category);
  if (l.value) parts.push(formatNumber(value, l.format ?? (format === '0%' ? undefined : format)));
  return parts.join(', ');
}

function drawBars(pen: ChartPen, plot: ChartPlot, chart: Chart, point: Point, slot: number, count: number, base: ChartText, format: string | undefined): void {
  const n = plot.series.length;
  if (n === 0) return;
  const isStacked = stacked(plot);
  const o = isStacked ? 1 : Math.max(-1, Math.min(1, (plot.overlap ?? 0) / 100));
  const g = Math.max(0, Math.min(5, (plot.gapWidth ?? 150) / 100));
  const bars = isStacked ? 1 : n - (n - 1) * o;
  const barW = slot / (bars + g);
  const offset = (slot - bars * barW) / 2;
  for (let i = 0; i < count; i++) {
    let pos = 0;
    let neg = 0;
    const total = plot.grouping === 'percentStacked' ? plot.series.reduce((a, s) => a + Math.abs(s.values[i] ?? 0), 0) || 1 : 1;
    plot.series.forEach((s, j) => {
      const raw = s.values[i];
      if (raw === null || raw === undefined) return;
      const v = raw / total;
      const c0 = i * slot + offset + (isStacked ? 0 : j * barW * (1 - o));
      let from = 0;
      let to = v;
      if (isStacked) {
        from = v >= 0 ? pos : neg;
        to = from + v;
        if (v >= 0) pos = to;
        else neg = to;
      }
      const [xa, ya] = point(c0, from);
      const [xb, yb] = point(c0 + barW, to);
      const x = Math.min(xa, xb);
      const y = Math.min(ya, yb);
      const color = rgb(s.pointColors?.[i] ?? s.color, BLUE);
      pen.fill(x, y, Math.abs(xb - xa), Math.abs(yb - ya), color);
      if (s.outline) pen.frame(x, y, Math.abs(xb - xa), Math.abs(yb - ya), 0.5, rgb(s.outline, color));
      const text = labelText(s, chart.categories[i], raw, format);
      if (!text) return;
      const style = { ...base, ...s.labels?.text };
      const size = pen.size(style);
      const inside = isStacked || s.labels?.position === 'ctr' || s.labels?.position === 'inEnd' || s.labels?.position === 'inBase';
      if (plot.horizontal) {
        const y0 = (ya + yb) / 2 + size * 0.35;
        if (inside) pen.text(text, style, (xa + xb) / 2, y0, 'center');
        else pen.text(text, style, Math.max(xa, xb) + 3, y0, 'left');
      } else {
        const x0 = (xa + xb) / 2;
        if (inside) pen.text(text, style, x0, (ya + yb) / 2 + size * 0.35, 'center');
        else if (to >= 0) pen.text(text, style, x0, Math.min(ya, yb) - 3, 'center');
        else pen.text(text, style, x0, Math.max(ya, yb) + size, 'center');
      }
    });
  }
}

function drawAreas(pen: ChartPen, plot: ChartPlot, point: Point, catPos: (i: number) => number, count: number, scale: Scale): void {
  const isStacked = stacked(plot);
  const floor = origin(scale);
  let below: number[] = Array.from({ length: count }, () => floor);
  const totals = Array.from({ length: count }, (_, i) => plot.series.reduce((a, s) => a + Math.abs(s.values[i] ?? 0), 0) || 1);
  for (const s of plot.series) {
    const tops = below.map((b, i) => {
      const v = (s.values[i] ?? 0) / (plot.grouping === 'percentStacked' ? totals[i] : 1);
      return isStacked ? b + v : v;
    });
    const pts: number[] = [];
    for (let i = 0; i < count; i++) pts.push(...point(catPos(i), tops[i]));
    for (let i = count - 1; i >= 0; i--) pts.push(...point(catPos(i), isStacked ? below[i] : floor));
    pen.path(pts, true, rgb(s.color, BLUE), s.outline ? rgb(s.outline, BLUE) : null, 0.75);
    if (isStacked) below = tops;
  }
}

function drawLines(pen: ChartPen, plot: ChartPlot, chart: Chart, point: Point, pos: (i: number, s: ChartSeries) => number, count: number, base: ChartText, format: string | undefined): void {
  const isStacked = stacked(plot);
  const sums = Array.from({ length: count }, () => 0);
  const totals = Array.from({ length: count }, (_, i) => plot.series.reduce((a, s) => a + Math.abs(s.values[i] ?? 0), 0) || 1);
  for (const s of plot.series) {
    const color = rgb(s.color, BLUE);
    const pts: Array<[number, number] | null> = [];
    const n = plot.kind === 'scatter' ? s.values.length : count;
    for (let i = 0; i < n; i++) {
      const raw = s.values[i];
      if (raw === null || raw === undefined || (plot.kind === 'scatter' && s.xValues?.[i] === null)) {
        pts.push(null);
        continue;
      }
      let v = plot.grouping === 'percentStacked' ? raw / totals[i] : raw;
      if (isStacked) v = sums[i] += v;
      pts.push(point(pos(i, s), v));
    }
    if ((s.lineWidth ?? 2.25) > 0) {
      // Broken where a value is missing (Office's default "show empty cells as gaps").
      let run: number[] = [];
      for (const p of [...pts, null]) {
        if (p) run.push(p[0], p[1]);
        else {
          if (run.length >= 4) pen.path(run, false, null, color, Math.min(6, s.lineWidth ?? 2.25));
          run = [];
        }
      }
    }
    pts.forEach((p, i) => {
      if (!p) return;
      if (s.marker) marker(pen, p[0], p[1], s.marker.symbol, s.marker.size, rgb(s.marker.color, color));
      const text = labelText(s, chart.categories[i], s.values[i] ?? 0, format);
      if (text) {
        const style = { ...base, ...s.labels?.text };
        const below = s.labels?.position === 'b';
        const centred = s.labels?.position === 'ctr';
        if (s.labels?.position === 'r' || s.labels?.position === undefined) pen.text(text, style, p[0] + 4, p[1] + pen.size(style) * 0.35, 'left');
        else pen.text(text, style, p[0], centred ? p[1] + pen.size(style) * 0.35 : below ? p[1] + pen.size(style) + 3 : p[1] - 4, 'center');
      }
    });
  }
}

/**
 * Bubbles: a circle at each (x, y) point, the largest a quarter of the plot area's shorter side across at
 * c:bubbleScale 100 (LibreOffice's BubbleChart: "max bubble size is 25 percent of diagram size"), the others by
 * their size's share of the largest one's: of its area (so the diameter goes as the square root), or of its width
 * with c:sizeRepresents w. Bubbles of negative or no size are left out unless c:showNegBubbles asks for them
 * (drawn by their magnitude). Larger bubbles are drawn first, so small ones stay visible on top of them.
 */
function drawBubbles(pen: ChartPen, plot: ChartPlot, point: Point, xPos: (x: number) => number, side: number): void {
  const size = (v: number | null | undefined): number => (v === null || v === undefined ? 0 : plot.showNegBubbles ? Math.abs(v) : Math.max(0, v));
  const largest = Math.max(0, ...plot.series.flatMap((s) => (s.sizes ?? []).map(size)));
  if (!(largest > 0)) return;
  const widest = side * 0.25 * ((plot.bubbleScale ?? 100) / 100);
  const bubbles: Array<{ x: number; y: number; d: number; s: ChartSeries; i: number }> = [];
  for (const s of plot.series) {
    s.values.forEach((v, i) => {
      const x = s.xValues && s.xValues.length > 0 ? s.xValues[i] : i + 1;
      const share = size(s.sizes?.[i]) / largest;
      if (v === null || x === null || x === undefined || !(share > 0)) return;
      const [px, py] = point(xPos(x), v);
      bubbles.push({ x: px, y: py, d: widest * (plot.sizeRepresents === 'w' ? share : Math.sqrt(share)), s, i });
    });
  }
  bubbles.sort((a, b) => b.d - a.d);
  for (const { x, y, d, s, i } of bubbles) {
    const r = d / 2;
    const pts: number[] = [];
    for (let k = 0; k < 36; k++) pts.push(x + r * Math.cos((k * Math.PI) / 18), y + r * Math.sin((k * Math.PI) / 18));
    const color = rgb(s.pointColors?.[i] ?? s.color, BLUE);
    pen.path(pts, true, color, s.outline ? rgb(s.outline, color) : null, 0.75);
  }
}

/** A series' marker centred on (x, y) (also drawn by radar plots). */
export function marker(pen: ChartPen, x: number, y: number, symbol: NonNullable<ChartSeries['marker']>['symbol'], size: number, color: readonly [number, number, number]): void {
  const r = size / 2;
  switch (symbol) {
    case 'square':
      pen.fill(x - r, y - r, size, size, color);
      return;
    case 'diamond':
      pen.path([x, y - r, x + r, y, x, y + r, x - r, y], true, color, null);
      return;
    case 'triangle':
      pen.path([x, y - r, x + r, y + r, x - r, y + r], true, color, null);
      return;
    case 'x':
      pen.line(x - r, y - r, x + r, y + r, 1, color);
      pen.line(x - r, y + r, x + r, y - r, 1, color);
      return;
    case 'dash':
      pen.line(x - r, y, x + r, y, 1.5, color);
      return;
    default: {
      const pts: number[] = [];
      for (let k = 0; k < 12; k++) pts.push(x + r * Math.cos((k * Math.PI) / 6), y + r * Math.sin((k * Math.PI) / 6));
      pen.path(pts, true, color, null);
    }
  }
}
