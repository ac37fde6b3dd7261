/**
 * Charts (c:chartSpace parts, word/charts/chartN.xml) → the model's Chart: what Word shows, read from the values
 * it saved in the part (c:strCache / c:numCache), never from the embedded workbook. Bar and column (clustered,
 * stacked, percent; their 3-D forms drawn flat), line, area, pie, doughnut, scatter, radar and bubble plots are
 * read with their series colours (c:spPr, else the theme's accent cycle), data labels, axes, title and legend. Other
 * plot types (stock, surface, bar-of-pie) make a chart with `unsupported` set: drawn as a framed box with
 * its title, and said by a `chart_type_unsupported` warning.
 */
import type { Chart, ChartAxis, ChartLabels, ChartPlot, ChartRun, ChartSeries, ChartText } from '../model/types.js';
import type { PartContext } from './context.js';
import { accentColor } from './chart-color.js';
import { drawingColor, fillColor } from './drawing-color.js';
import { themeFont, type Theme } from './theme.js';
import { emu } from './units.js';
import { child, children, descendant, descendants, textOf, type XElement } from './xml.js';

/** Plot elements drawn, and the kind they are drawn as. */
const PLOTS: Record<string, ChartPlot['kind']> = {
  'c:barChart': 'bar',
  'c:bar3DChart': 'bar',
  'c:lineChart': 'line',
  'c:line3DChart': 'line',
  'c:areaChart': 'area',
  'c:area3DChart': 'area',
  'c:pieChart': 'pie',
  'c:pie3DChart': 'pie',
  'c:doughnutChart': 'doughnut',
  'c:scatterChart': 'scatter',
  'c:radarChart': 'radar',
  'c:bubbleChart': 'bubble',
};
const UNSUPPORTED: Record<string, string> = {
  'c:stockChart': 'stock',
  'c:surfaceChart': 'surface',
  'c:surface3DChart': 'surface',
  'c:ofPieChart': 'bar-of-pie',
};

const val = (el: XElement | undefined, name: string): string | undefined => child(el, name)?.attrs.val;
const on = (el: XElement | undefined, name: string): boolean | undefined => {
  const v = val(el, name);
  return v === undefined ? (child(el, name) ? true : undefined) : v === '1' || v === 'true';
};
const number = (v: string | undefined): number | undefined => {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};

/** The chart a drawing's c:chart element points at, sized width × height points; undefined when its part is missing. */
export function readChart(ctx: PartContext, ref: XElement | undefined, width: number, height: number): ChartRun | undefined {
  const rel = ctx.doc.pkg.rels(ctx.part).get(ref?.attrs['r:id'] ?? '');
  if (!rel || rel.external) return undefined;
  const space = ctx.doc.pkg.xml(rel.target, true);
  const chartEl = child(space, 'c:chart');
  if (!space || !chartEl) return undefined;
  const chart = readChartSpace(space, chartEl, ctx.doc.theme);
  if (chart.unsupported) ctx.doc.warnings.add('chart_type_unsupported', rel.target, 'c:chart', chart.unsupported);
  return { type: 'chart', width, height, chart };
}

function readChartSpace(space: XElement, chartEl: XElement, theme: Theme): Chart {
  const base = textStyle(child(space, 'c:txPr'), theme, {});
  const plotArea = child(chartEl, 'c:plotArea');
  const chart: Chart = { categories: [], plots: [], text: base };
  const area = child(space, 'c:spPr');
  const fill = child(area, 'a:noFill') ? undefined : fillColor(area, theme);
  if (fill) chart.fill = fill;
  const border = lineColor(area, theme);
  if (border) chart.border = border;

  let seriesIndex = 0;
  for (const el of children(plotArea)) {
    const kind = PLOTS[el.name];
    if (!kind) {
      if (UNSUPPORTED[el.name] && !chart.unsupported) chart.unsupported = UNSUPPORTED[el.name];
      continue;
    }
    const plot = readPlot(el, kind, theme, seriesIndex, chart);
    seriesIndex += plot.series.length;
    plot.secondary = isSecondary(el, plotArea);
    if (el.name.includes('3D')) plot.threeD = true;
    chart.plots.push(plot);
  }
  if (chart.plots.length === 0 && !chart.unsupported) chart.unsupported = 'unknown';

  const titleEl = child(chartEl, 'c:title');
  if (titleEl && val(chartEl, 'c:autoTitleDeleted') !== '1') {
    const only = chart.plots.length === 1 && chart.plots[0].series.length === 1 ? chart.plots[0].series[0].name : undefined;
    const title = richText(titleEl) || only || (chart.plots.length > 0 ? 'Chart Title' : '');
    if (title) {
      chart.title = title;
      chart.titleText = textStyle(child(titleEl, 'c:txPr') ?? child(child(titleEl, 'c:tx'), 'c:rich'), theme, { size: 14, ...base, ...titleSizeOf(titleEl) });
    }
  } else if (!titleEl && val(chartEl, 'c:autoTitleDeleted') === '0' && chart.plots.length === 1 && chart.plots[0].series.length === 1 &&
    (chart.plots[0].kind === 'pie' || chart.plots[0].kind === 'doughnut')) {
    // A one-series pie shows its series name as the title unless the title was deleted.
    chart.title = chart.plots[0].series[0].name;
    chart.titleText = { ...base, size: (base.size ?? 10) * 1.4 };
  }

  readAxes(plotArea, chart, theme, base);
  const plotBox = plotLayout(child(child(plotArea, 'c:layout'), 'c:manualLayout'));
  if (plotBox) chart.plotBox = plotBox;
  const legend = child(chartEl, 'c:legend');
  if (legend) {
    const pos = val(legend, 'c:legendPos') ?? 'r';
    const hidden = children(legend, 'c:legendEntry').filter((e) => val(e, 'c:delete') === '1').map((e) => Number(val(e, 'c:idx')));
    chart.legend = { position: (['t', 'b', 'l', 'r', 'tr'].includes(pos) ? pos : 'r') as 't' | 'b' | 'l' | 'r' | 'tr', text: textStyle(child(legend, 'c:txPr'), theme, base) };
    if (hidden.length > 0) chart.legend.hidden = hidden.filter(Number.isFinite);
    const box = edgeLayout(child(child(legend, 'c:layout'), 'c:manualLayout'));
    if (box) chart.legend.box = box;
  }
  return chart;
}

/**
 * A c:manualLayout whose x and y are in edge mode (fractions of the chart from its top-left corner; ECMA-376
 * 21.2.2.95, 21.2.2.208). Factor mode (the default: offsets from where the element would go on its own) is left
 * to the automatic layout, as are unreadable values.
 */
function edgeLayout(layout: XElement | undefined): { x: number; y: number; w?: number; h?: number } | undefined {
  if (!layout || val(layout, 'c:xMode') !== 'edge' || val(layout, 'c:yMode') !== 'edge') return undefined;
  const fraction = (name: string): number | undefined => {
    const n = Number(val(layout, name));
    return val(layout, name) !== undefined && Number.isFinite(n) && n >= 0 && n <= 1 ? n : undefined;
  };
  const x = fraction('c:x');
  const y = fraction('c:y');
  if (x === undefined || y === undefined) return undefined;
  const box: { x: number; y: number; w?: number; h?: number } = { x, y };
  const w = fraction('c:w');
  const h = fraction('c:h');
  if (w !== undefined && w > 0) box.w = w;
  if (h !== undefined && h > 0) box.h = h;
  return box;
}

/**
 * The plot area's c:manualLayout: placed by its edges (x and y in edge mode) with a size (w and h, sizes in the
 * default factor mode, right and bottom edges in edge mode: ECMA-376 21.2.2.216 wMode, 21.2.2.82 hMode), the box
 * being the axes' rectangle (c:layoutTarget inner) or the area with labels (outer, the default, 21.2.2.101).
 * LibreOffice's oox import places it the same way (a PositionExcludingAxes diagram for inner).
 */
function plotLayout(layout: XElement | undefined): Chart['plotBox'] {
  const box = edgeLayout(layout);
  if (!box || box.w === undefined || box.h === undefined) return undefined;
  const w = val(layout, 'c:wMode') === 'edge' ? box.w - box.x : box.w;
  const h = val(layout, 'c:hMode') === 'edge' ? box.h - box.y : box.h;
  if (!(w > 0) || !(h > 0) || box.x + w > 1.0001 || box.y + h > 1.0001) return undefined;
  return { x: box.x, y: box.y, w, h, inner: val(layout, 'c:layoutTarget') === 'inner' };
}

function isSecondary(plot: XElement, plotArea: XElement | undefined): boolean {
  const ids = children(plot, 'c:axId').map((a) => a.attrs.val);
  const valAxes = children(plotArea, 'c:valAx');
  if (valAxes.length < 2 || plot.name === 'c:scatterChart' || plot.name === 'c:bubbleChart') return false;
  const first = val(valAxes[0], 'c:axId');
  return !ids.includes(first ?? '');
}

function readPlot(el: XElement, kind: ChartPlot['kind'], theme: Theme, firstIndex: number, chart: Chart): ChartPlot {
  const plot: ChartPlot = { kind, series: [] };
  if (kind === 'bar') {
    plot.horizontal = val(el, 'c:barDir') === 'bar';
    plot.gapWidth = number(val(el, 'c:gapWidth')) ?? 150;
    plot.overlap = number(val(el, 'c:overlap')) ?? 0;
  }
  const grouping = val(el, 'c:grouping');
  if (grouping === 'stacked' || grouping === 'percentStacked' || grouping === 'clustered' || grouping === 'standard') plot.grouping = grouping;
  if (kind === 'bar' && plot.grouping !== 'clustered' && plot.grouping !== 'standard') plot.overlap = 100;
  if (kind === 'doughnut') plot.holeSize = number(val(el, 'c:holeSize')) ?? 50;
  if (kind === 'bubble') {
    plot.bubbleScale = Math.min(300, Math.max(0, number(val(el, 'c:bubbleScale')) ?? 100));
    plot.sizeRepresents = val(el, 'c:sizeRepresents') === 'w' ? 'w' : 'area';
    if (on(el, 'c:showNegBubbles')) plot.showNegBubbles = true;
  }
  if (kind === 'pie' || kind === 'doughnut') plot.firstSliceAngle = number(val(el, 'c:firstSliceAng')) ?? 0;
  const varyColors = on(el, 'c:varyColors') === true;
  const plotLabels = labelsOf(child(el, 'c:dLbls'), theme, chart.text ?? {});
  const scatterStyle = val(el, 'c:scatterStyle') ?? 'marker';
  // Radar: 'marker' shows markers unless a series says c:symbol none, 'standard' shows none, 'filled' fills.
  const radarStyle = val(el, 'c:radarStyle');
  if (kind === 'radar') plot.radarStyle = radarStyle === 'standard' || radarStyle === 'filled' ? radarStyle : 'marker';
  const plotMarker = kind === 'line' ? val(el, 'c:marker') !== '0' : kind === 'radar' ? plot.radarStyle === 'marker' : true;

  children(el, 'c:ser').forEach((ser, i) => {
    const index = number(val(ser, 'c:idx')) ?? firstIndex + i;
    const xy = kind === 'scatter' || kind === 'bubble';
    const cats = xy ? undefined : stringsOf(child(ser, 'c:cat'));
    if (cats && cats.length > chart.categories.length) chart.categories = cats;
    const values = numbersOf(child(ser, xy ? 'c:yVal' : 'c:val'));
    const spPr = child(ser, 'c:spPr');
    const seriesFill = child(spPr, 'a:noFill') ? undefined : fillColor(spPr, theme);
    const lineCol = lineColor(spPr, theme);
    const auto = accentColor(index, theme);
    const linear = kind === 'line' || kind === 'scatter' || (kind === 'radar' && plot.radarStyle !== 'filled');
    const series: ChartSeries = {
      name: textOf(descendant(child(ser, 'c:tx'), 'c:v')).trim() || textOf(child(ser, 'c:tx')).trim() || `Series ${index + 1}`,
      values,
      color: (linear ? lineCol : seriesFill) ?? auto,
    };
    if (xy) series.xValues = numbersOf(child(ser, 'c:xVal'));
    if (kind === 'bubble') series.sizes = numbersOf(child(ser, 'c:bubbleSize'));
    if (!linear && lineCol) series.outline = lineCol;
    if (linear) {
      const ln = child(spPr, 'a:ln');
      const noLine = child(ln, 'a:noFill') !== undefined || (kind === 'scatter' && (scatterStyle === 'marker' || scatterStyle === 'none') && !ln);
      series.lineWidth = noLine ? 0 : (emu(ln?.attrs.w) ?? 2.25);
      const marker = child(ser, 'c:marker');
      const symbol = val(marker, 'c:symbol');
      const wanted = symbol ? symbol !== 'none' : kind === 'scatter' ? scatterStyle === 'marker' || scatterStyle === 'lineMarker' : plotMarker;
      if (wanted) {
        const mSpPr = child(marker, 'c:spPr');
        const shape = symbol === 'square' || symbol === 'diamond' || symbol === 'triangle' || symbol === 'x' || symbol === 'dash' ? symbol : 'circle';
        series.marker = { symbol: shape, size: Math.min(72, Math.max(2, number(val(marker, 'c:size')) ?? 5)), color: drawingColor(child(mSpPr, 'a:solidFill'), theme) ?? series.color };
      }
    }
    // Per-point colours: pies and "vary colours by point" cycle the accents; c:dPt overrides single points.
    const points = values.length;
    if (varyColors && (kind === 'pie' || kind === 'doughnut' || (kind !== 'radar' && children(el, 'c:ser').length === 1))) {
      series.pointColors = Array.from({ length: points }, (_, p) => accentColor(p, theme));
    }
    for (const dPt of children(ser, 'c:dPt')) {
      const p = number(val(dPt, 'c:idx'));
      const color = fillColor(child(dPt, 'c:spPr'), theme);
      if (p === undefined || p < 0 || p >= points || !color) continue;
      series.pointColors ??= Array.from({ length: points }, () => undefined);
      series.pointColors[p] = color;
    }
    const labels = labelsOf(child(ser, 'c:dLbls'), theme, chart.text ?? {}) ?? plotLabels;
    if (labels) series.labels = labels;
    plot.series.push(series);
  });
  return plot;
}

/** Which data labels are shown; undefined when none is. */
function labelsOf(dLbls: XElement | undefined, theme: Theme, base: ChartText): ChartLabels | undefined {
  if (!dLbls || val(dLbls, 'c:delete') === '1') return undefined;
  const labels: ChartLabels = {};
  if (val(dLbls, 'c:showVal') === '1') labels.value = true;
  if (val(dLbls, 'c:showPercent') === '1') labels.percent = true;
  if (val(dLbls, 'c:showCatName') === '1') labels.category = true;
  if (val(dLbls, 'c:showSerName') === '1') labels.series = true;
  if (!labels.value && !labels.percent && !labels.category && !labels.series) return undefined;
  const pos = val(dLbls, 'c:dLblPos');
  if (pos) labels.position = pos;
  const format = child(dLbls, 'c:numFmt')?.attrs.formatCode;
  if (format) labels.format = format;
  labels.text = textStyle(child(dLbls, 'c:txPr'), theme, base);
  return labels;
}

function readAxes(plotArea: XElement | undefined, chart: Chart, theme: Theme, base: ChartText): void {
  const catAx = child(plotArea, 'c:catAx') ?? child(plotArea, 'c:dateAx');
  const valAxes = children(plotArea, 'c:valAx');
  const scatter = chart.plots.some((p) => p.kind === 'scatter' || p.kind === 'bubble');
  if (scatter && valAxes.length >= 2) {
    // Scatter and bubble: the axis along the bottom (or top) is x.
    const xi = valAxes.findIndex((a) => ['b', 't'].includes(val(a, 'c:axPos') ?? ''));
    const x = valAxes[xi >= 0 ? xi : 0];
    chart.xAxis = axisOf(x, theme, base);
    chart.valueAxis = axisOf(valAxes.find((a) => a !== x), theme, base);
  } else {
    if (catAx) chart.categoryAxis = axisOf(catAx, theme, base);
    if (valAxes[0]) chart.valueAxis = axisOf(valAxes[0], theme, base);
    if (valAxes[1]) chart.secondaryAxis = axisOf(valAxes[1], theme, base);
    const cross = val(valAxes[0], 'c:crossBetween');
    if (cross === 'between' || cross === 'midCat') chart.crossBetween = cross;
  }
}

function axisOf(ax: XElement | undefined, theme: Theme, base: ChartText): ChartAxis | undefined {
  if (!ax) return undefined;
  const axis: ChartAxis = { text: textStyle(child(ax, 'c:txPr'), theme, base) };
  if (val(ax, 'c:delete') === '1') axis.hidden = true;
  const scaling = child(ax, 'c:scaling');
  axis.min = number(val(scaling, 'c:min'));
  axis.max = number(val(scaling, 'c:max'));
  if (val(scaling, 'c:orientation') === 'maxMin') axis.reversed = true;
  axis.majorUnit = number(val(ax, 'c:majorUnit'));
  const fmt = child(ax, 'c:numFmt')?.attrs.formatCode;
  if (fmt) axis.format = fmt;
  const grid = child(ax, 'c:majorGridlines');
  if (grid) axis.gridlines = lineColor(child(grid, 'c:spPr'), theme) ?? (child(grid, 'c:spPr') ? undefined : '#d9d9d9');
  const spPr = child(ax, 'c:spPr');
  // Without its own outline an axis is drawn in Office's default grey; a:ln with noFill hides it.
  axis.line = spPr ? lineColor(spPr, theme) : '#868686';
  const width = number(child(spPr, 'a:ln')?.attrs.w);
  if (width !== undefined && width > 0) axis.lineWidth = width / 12700;
  if (val(ax, 'c:tickLblPos') === 'none') axis.noLabels = true;
  axis.majorTicks = tickMark(child(ax, 'c:majorTickMark'));
  axis.minorTicks = tickMark(child(ax, 'c:minorTickMark'));
  const minor = number(val(ax, 'c:minorUnit'));
  if (minor !== undefined && minor > 0) axis.minorUnit = minor;
  const skip = number(val(ax, 'c:tickMarkSkip'));
  if (skip !== undefined && skip > 1) axis.tickMarkSkip = Math.floor(skip);
  const title = child(ax, 'c:title');
  const text = richText(title);
  if (text) axis.title = text;
  return axis;
}

/**
 * A tick mark setting (ISO/IEC 29500-1 21.2.2.101 majorTickMark / 21.2.2.110 minorTickMark, ST_TickMark 21.2.3.48).
 * The schema's default is cross, both for a missing val and a missing element; LibreOffice's oox import reads both
 * so for documents not written by Office 2007 (axiscontext.cxx, axismodel.cxx). Word itself always writes both.
 */
function tickMark(el: XElement | undefined): ChartAxis['majorTicks'] {
  const v = el ? (el.attrs.val ?? 'cross') : 'cross';
  return v === 'out' || v === 'in' || v === 'cross' ? v : undefined;
}

/** The colour of an outline (a:ln in a c:spPr); undefined when there is none or it is hidden. */
function lineColor(spPr: XElement | undefined, theme: Theme): string | undefined {
  const ln = child(spPr, 'a:ln');
  if (!ln || child(ln, 'a:noFill')) return undefined;
  return drawingColor(child(ln, 'a:solidFill'), theme);
}

/** The text of a title's rich text (paragraphs joined by spaces), or of its cached reference. */
function richText(title: XElement | undefined): string {
  const tx = child(title, 'c:tx');
  const rich = child(tx, 'c:rich');
  if (rich) {
    return children(rich, 'a:p')
      .map((p) => descendants(p, 'a:t').map((t) => textOf(t)).join(''))
      .filter((t) => t.trim() !== '')
      .join(' ')
      .trim();
  }
  return textOf(descendant(tx, 'c:v')).trim();
}

/** A title's size from its first run (Word writes it there when the author changed it). */
function titleSizeOf(title: XElement): ChartText {
  const rPr = descendant(child(child(title, 'c:tx'), 'c:rich'), 'a:rPr');
  const size = number(rPr?.attrs.sz);
  const out: ChartText = {};
  if (size) out.size = size / 100;
  if (rPr?.attrs.b !== undefined) out.bold = rPr.attrs.b === '1';
  return out;
}

/** A text style from a:defRPr in a txPr (or rich) body, over `base`. */
function textStyle(body: XElement | undefined, theme: Theme, base: ChartText): ChartText {
  const out: ChartText = { ...base };
  const rPr = descendant(body, 'a:defRPr');
  if (!rPr) return out;
  const size = number(rPr.attrs.sz);
  if (size) out.size = size / 100;
  if (rPr.attrs.b !== undefined) out.bold = rPr.attrs.b === '1';
  if (rPr.attrs.i !== undefined) out.italic = rPr.attrs.i === '1';
  const color = drawingColor(child(rPr, 'a:solidFill'), theme);
  if (color) out.color = color;
  const latin = child(rPr, 'a:latin')?.attrs.typeface;
  const font = latin === '+mn-lt' ? themeFont(theme, 'minorHAnsi') : latin === '+mj-lt' ? themeFont(theme, 'majorHAnsi') : latin;
  if (font) out.font = font;
  return out;
}

/** The strings of a category reference or literal (c:strRef/c:numRef caches, c:strLit/c:numLit, multi-level: the innermost level). */
function stringsOf(cat: XElement | undefined): string[] {
  if (!cat) return [];
  const cache = descendant(cat, 'c:strCache') ?? descendant(cat, 'c:numCache') ?? descendant(cat, 'c:lvl') ?? child(cat, 'c:strLit') ?? child(cat, 'c:numLit');
  const source = descendant(cat, 'c:multiLvlStrCache') ? descendant(descendant(cat, 'c:multiLvlStrCache'), 'c:lvl') : cache;
  const count = number(val(source, 'c:ptCount')) ?? 0;
  const out: string[] = Array.from({ length: Math.min(count, 10000) }, () => '');
  for (const pt of children(source, 'c:pt')) {
    const i = number(pt.attrs.idx);
    if (i === undefined || i < 0 || i >= 10000) continue;
    while (out.length <= i) out.push('');
    out[i] = textOf(child(pt, 'c:v'));
  }
  return out;
}

function numbersOf(ref: XElement | undefined): Array<number | null> {
  if (!ref) return [];
  const cache = descendant(ref, 'c:numCache') ?? child(ref, 'c:numLit') ?? descendant(ref, 'c:strCache');
  const count = number(val(cache, 'c:ptCount')) ?? 0;
  const out: Array<number | null> = Array.from({ length: Math.min(count, 10000) }, () => null);
  for (const pt of children(cache, 'c:pt')) {
    const i = number(pt.attrs.idx);
    if (i === undefined || i < 0 || i >= 10000) continue;
    while (out.length <= i) out.push(null);
    out[i] = number(textOf(child(pt, 'c:v'))) ?? null;
  }
  return out;
}
