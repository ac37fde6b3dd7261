/**
 * A chart (model Chart) laid out in a width × height box as boxes relative to its top-left corner: the chart
 * area's fill and border, the title at the top, the legend on its side, and the plot area in what is left —
 * axes and series (chart-axes.ts), slices (chart-pie.ts) or a radar's net (chart-radar.ts). Office's automatic
 * layout is approximated: its proportions, not its exact pixels. A chart of a type not drawn (`unsupported`) is
 * a framed box with its title.
 */
import type { Chart, ChartText } from '../../model/types.js';
import type { DocumentFonts } from '../fonts/embed.js';
import type { Box } from '../flow/boxes.js';
import { ChartPen, CHART_TEXT, rgb } from './chart-text.js';
import { drawAxisPlots } from './chart-axes.js';
import { drawPies } from './chart-pie.js';
import { drawRadar } from './chart-radar.js';

/** The plot area's box inside the chart (points, relative to the chart). */
export interface PlotBox {
  x: number;
  y: number;
  w: number;
  h: number;
  /** The box is the axes' rectangle: tick labels and axis titles go outside it (a plot area placed `inner`). */
  inner?: boolean;
}

/** Space between the chart's edge and its content, and between title, legend and plot. */
const PAD = 7;
const GAP = 5;
const BORDER_GREY: readonly [number, number, number] = [191, 191, 191];

interface LegendEntry {
  label: string;
  color: string;
  /** How the key is drawn: a filled square, or a short line (with the series' marker colour). */
  key: 'box' | 'line';
}

export function layoutChart(chart: Chart, width: number, height: number, fonts: DocumentFonts): Box[] {
  const pen = new ChartPen(fonts);
  const base: ChartText = { ...CHART_TEXT, ...chart.text };
  if (chart.fill) pen.fill(0, 0, width, height, rgb(chart.fill, [255, 255, 255]));
  if (chart.border) pen.frame(0, 0, width, height, 0.75, rgb(chart.border, BORDER_GREY));
  else if (chart.unsupported) pen.frame(0, 0, width, height, 0.75, BORDER_GREY);

  let top = PAD;
  let bottom = height - PAD;
  let left = PAD;
  let right = width - PAD;
  if (chart.title) {
    const style = { ...base, size: 14, ...chart.titleText };
    const size = pen.size(style);
    pen.text(chart.title, style, width / 2, top + size * 0.95, 'center');
    top += size * 1.25 + GAP;
  }
  if (chart.unsupported || chart.plots.length === 0) return pen.boxes;

  const legend = chart.legend;
  if (legend) {
    const entries = legendEntries(chart).filter((_, i) => !legend.hidden?.includes(i));
    const style = { ...base, ...legend.text };
    const size = pen.size(style);
    const keyW = (e: LegendEntry): number => (e.key === 'line' ? size * 1.6 : size * 0.6);
    const entryW = (e: LegendEntry): number => keyW(e) + size * 0.35 + pen.width(e.label, style);
    const lineH = size * 1.3;
    const drawEntry = (e: LegendEntry, x: number, y: number): void => {
      const mid = y + lineH / 2;
      const color = rgb(e.color, [68, 114, 196]);
      if (e.key === 'line') pen.line(x, mid, x + keyW(e), mid, 2, color);
      else pen.fill(x, mid - size * 0.3, size * 0.6, size * 0.6, color);
      pen.text(e.label, style, x + keyW(e) + size * 0.35, mid + size * 0.35);
    };
    const placed = legend.box;
    if (entries.length > 0 && placed) {
      // Where the author put it: rows of entries centred in its box, which takes no room from the plot area.
      const boxW = placed.w !== undefined ? placed.w * width : right - left;
      const rows = legendRows(entries, entryW, size * 1.2, boxW);
      const total = rows.length * lineH;
      const boxH = placed.h !== undefined ? placed.h * height : total;
      let y = placed.y * height + Math.max(0, (boxH - total) / 2);
      for (const row of rows) {
        const rowW = row.reduce((a, e) => a + entryW(e), 0) + size * 1.2 * (row.length - 1);
        let x = placed.x * width + Math.max(0, (boxW - rowW) / 2);
        for (const e of row) {
          drawEntry(e, x, y);
          x += entryW(e) + size * 1.2;
        }
        y += lineH;
      }
    } else if (entries.length > 0 && (legend.position === 't' || legend.position === 'b')) {
      // Rows of entries centred across the chart.
      const spacing = size * 1.2;
      const rows = legendRows(entries, entryW, spacing, right - left);
      const total = rows.length * lineH;
      let y = legend.position === 't' ? top : bottom - total;
      for (const row of rows) {
        const rowW = row.reduce((a, e) => a + entryW(e), 0) + spacing * (row.length - 1);
        let x = (width - rowW) / 2;
        for (const e of row) {
          drawEntry(e, x, y);
          x += entryW(e) + spacing;
        }
        y += lineH;
      }
      if (legend.position === 't') top += total + GAP;
      else bottom -= total + GAP;
    } else if (entries.length > 0) {
      const colW = Math.min((right - left) / 2, Math.max(...entries.map(entryW)));
      const total = entries.length * lineH;
      const x = legend.position === 'l' ? left : right - colW;
      let y = legend.position === 'tr' ? top : top + Math.max(0, (bottom - top - total) / 2);
      for (const e of entries) {
        drawEntry(e, x, y);
        y += lineH;
      }
      if (legend.position === 'l') left += colW + GAP * 2;
      else right -= colW + GAP * 2;
    }
  }

  // A plot area the author placed goes there, whatever room the title and legend took (model Chart.plotBox).
  const placed = chart.plotBox;
  const plot: PlotBox = placed
    ? { x: placed.x * width, y: placed.y * height, w: Math.max(10, placed.w * width), h: Math.max(10, placed.h * height), inner: placed.inner }
    : { x: left, y: top, w: Math.max(10, right - left), h: Math.max(10, bottom - top) };
  const round = chart.plots.filter((p) => p.kind === 'pie' || p.kind === 'doughnut');
  const radar = chart.plots.filter((p) => p.kind === 'radar');
  if (round.length > 0) drawPies(pen, round, chart, plot, base);
  else if (radar.length > 0) drawRadar(pen, radar, chart, plot, base);
  else drawAxisPlots(pen, chart, plot, base);
  return pen.boxes;
}

/** Entries in rows no wider than `width` (at least one entry a row), `spacing` between neighbours. */
function legendRows(entries: LegendEntry[], entryW: (e: LegendEntry) => number, spacing: number, width: number): LegendEntry[][] {
  const rows: LegendEntry[][] = [[]];
  let used = 0;
  for (const e of entries) {
    const w = entryW(e);
    if (rows[rows.length - 1].length > 0 && used + spacing + w > width) {
      rows.push([]);
      used = 0;
    }
    used += (rows[rows.length - 1].length > 0 ? spacing : 0) + w;
    rows[rows.length - 1].push(e);
  }
  return rows;
}

/** Legend entries: a pie's (or a one-series varied-colour chart's) categories, else every series. */
function legendEntries(chart: Chart): LegendEntry[] {
  const first = chart.plots[0];
  const byPoint = first && (first.kind === 'pie' || first.kind === 'doughnut' || (chart.plots.length === 1 && first.series.length === 1 && first.series[0].pointColors));
  if (byPoint) {
    const series = first.series[0];
    if (!series) return [];
    return chart.categories.map((label, i) => ({ label, color: series.pointColors?.[i] ?? series.color, key: 'box' as const }));
  }
  const out: LegendEntry[] = [];
  for (const plot of chart.plots) {
    for (const s of plot.series) {
      const line = plot.kind === 'line' || plot.kind === 'scatter' || (plot.kind === 'radar' && plot.radarStyle !== 'filled');
      out.push({ label: s.name, color: line && s.lineWidth === 0 && s.marker ? s.marker.color : s.color, key: line ? 'line' : 'box' });
    }
  }
  return out;
}
