/**
 * Radar plots (c:radarChart), as Office and LibreOffice's net charts draw them: one spoke per category from the
 * centre, the first at 12 o'clock and the others clockwise at equal angles; the value axis runs up the first spoke
 * with the automatic scale every value axis gets (chart-scale.ts), its labels left of it; the value gridlines are
 * polygons through the spokes (Office draws polygons, not circles), the category gridlines the spokes themselves;
 * category names sit just outside the spokes' ends. A series is a closed polyline through its points (with its
 * markers), or a filled polygon for c:radarStyle filled; a missing value breaks the line there.
 */
import type { Chart, ChartPlot, ChartText } from '../../model/types.js';
import { ChartPen, rgb } from './chart-text.js';
import { formatNumber, valueScale } from './chart-scale.js';
import { marker } from './chart-axes.js';
import type { PlotBox } from './chart.js';

const GRID: readonly [number, number, number] = [217, 217, 217];
const AXIS: readonly [number, number, number] = [134, 134, 134];
const BLUE: readonly [number, number, number] = [68, 114, 196];
const LABEL_GAP = 4;

export function drawRadar(pen: ChartPen, plots: ChartPlot[], chart: Chart, box: PlotBox, base: ChartText): void {
  const series = plots.flatMap((p) => p.series.map((s) => ({ s, filled: p.radarStyle === 'filled' })));
  const count = Math.max(chart.categories.length, ...series.map(({ s }) => s.values.length), 0);
  if (count === 0) return;
  const valAxis = chart.valueAxis;
  const catAxis = chart.categoryAxis;
  const valStyle = { ...base, ...valAxis?.text };
  const catStyle = { ...base, ...catAxis?.text };
  const catSize = pen.size(catStyle);
  const catTexts = catAxis && (catAxis.hidden || catAxis.noLabels) ? [] : chart.categories.slice(0, count);

  // The largest net whose category names still fit in the plot box beside and above/below its spokes.
  const widest = Math.max(0, ...catTexts.map((t) => pen.width(t, catStyle)));
  const roomX = catTexts.length > 0 ? widest + LABEL_GAP : 0;
  const roomY = catTexts.length > 0 ? catSize * 1.2 + LABEL_GAP : 0;
  const radius = Math.max(4, Math.min(box.w / 2 - roomX, box.h / 2 - roomY));
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;

  let lo = Infinity;
  let hi = -Infinity;
  for (const { s } of series) for (const v of s.values) if (v !== null) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
  if (lo > hi) [lo, hi] = [0, 1];
  // The value axis is the first spoke: as many labels as fit along the radius, as on any value axis.
  const scale = valueScale(lo, hi, valAxis ?? {}, { towardZero: true, roomAtEnds: true }, { length: radius, label: () => pen.size(valStyle) * 1.2 });
  const angle = (i: number): number => (2 * Math.PI * i) / count;
  const at = (i: number, v: number): [number, number] => {
    let t = (Math.min(scale.max, Math.max(scale.min, v)) - scale.min) / (scale.max - scale.min);
    if (valAxis?.reversed) t = 1 - t;
    return [cx + t * radius * Math.sin(angle(i)), cy - t * radius * Math.cos(angle(i))];
  };

  // Value gridlines: one polygon per major tick beyond the centre.
  if (valAxis?.gridlines) {
    const grid = rgb(valAxis.gridlines, GRID);
    for (const t of scale.ticks) {
      if (t === (valAxis.reversed ? scale.max : scale.min)) continue;
      const pts: number[] = [];
      for (let i = 0; i < count; i++) pts.push(...at(i, t));
      pen.path(pts, true, null, grid, 0.75);
    }
  }
  // Category gridlines (the spokes): Office saves them as the category axis's major gridlines.
  const spoke = catAxis && !catAxis.hidden ? (catAxis.gridlines ?? catAxis.line) : undefined;
  if (spoke) for (let i = 0; i < count; i++) pen.line(cx, cy, ...at(i, valAxis?.reversed ? scale.min : scale.max), 0.75, rgb(spoke, GRID));

  // Series: filled polygons first (behind), then lines and markers.
  for (const { s, filled } of [...series.filter((e) => e.filled), ...series.filter((e) => !e.filled)]) {
    const color = rgb(s.color, BLUE);
    const pts = Array.from({ length: count }, (_, i) => {
      const v = s.values[i];
      return v === null || v === undefined ? null : at(i, v);
    });
    if (filled) {
      pen.path(pts.flatMap((p) => p ?? []), true, color, s.outline ? rgb(s.outline, color) : null, 0.75);
    } else if ((s.lineWidth ?? 2.25) > 0) {
      const width = Math.min(6, s.lineWidth ?? 2.25);
      if (pts.every((p) => p !== null)) pen.path(pts.flatMap((p) => p ?? []), true, null, color, width);
      else {
        // Broken at the gaps; the run across the first spoke joins the last points to the first ones.
        const first = pts.indexOf(null);
        const ring = [...pts.slice(first), ...pts.slice(0, first), null];
        let run: number[] = [];
        for (const p of ring) {
          if (p) run.push(p[0], p[1]);
          else {
            if (run.length >= 4) pen.path(run, false, null, color, width);
            run = [];
          }
        }
      }
    }
    pts.forEach((p, i) => {
      if (!p) return;
      if (s.marker && !filled) marker(pen, p[0], p[1], s.marker.symbol, s.marker.size, rgb(s.marker.color, color));
      const v = s.values[i];
      const l = s.labels;
      if (!l || v === null || v === undefined) return;
      const parts: string[] = [];
      if (l.series) parts.push(s.name);
      if (l.category && chart.categories[i]) parts.push(chart.categories[i]);
      if (l.value) parts.push(formatNumber(v, l.format ?? valAxis?.format));
      const style = { ...base, ...l.text };
      pen.text(parts.join(', '), style, p[0], p[1] - 4, 'center');
    });
  }

  // The value axis up the first spoke, its labels left of it at each ring.
  if (valAxis && !valAxis.hidden) {
    const [tx, ty] = at(0, valAxis.reversed ? scale.min : scale.max);
    if (valAxis.line) pen.line(cx, cy, tx, ty, 0.75, rgb(valAxis.line, AXIS));
    if (!valAxis.noLabels) {
      const size = pen.size(valStyle);
      for (const t of scale.ticks) {
        const [x, y] = at(0, t);
        pen.text(formatNumber(t, valAxis.format), valStyle, x - LABEL_GAP, y + size * 0.35, 'right');
      }
    }
  }

  // Category names outside the spokes' ends: beside them on the left and right, above and below at the top and bottom.
  catTexts.forEach((text, i) => {
    if (!text) return;
    const sin = Math.sin(angle(i));
    const cos = Math.cos(angle(i));
    const x = cx + (radius + LABEL_GAP) * sin;
    const y = cy - (radius + LABEL_GAP) * cos;
    const align = sin > 0.1 ? 'left' : sin < -0.1 ? 'right' : 'center';
    // Baseline: above the end at the top, below it at the bottom, centred on it at the sides.
    const baseline = y + catSize * 0.35 - cos * catSize * 0.6;
    pen.text(text, catStyle, x, baseline, align);
  });
}
