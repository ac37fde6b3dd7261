/**
 * Pie and doughnut plots: slices clockwise from the first slice's angle (12 o'clock by default), one colour per
 * point, a thin white edge between slices as Office draws them; doughnuts as rings (one per series) around a hole.
 * Data labels (value, percentage, category) sit inside the slice, or just outside it when the author put them
 * at the outside end.
 */
import type { Chart, ChartPlot, ChartText } from '../../model/types.js';
import { ChartPen, rgb } from './chart-text.js';
import { formatNumber } from './chart-scale.js';
import type { PlotBox } from './chart.js';

const WHITE: readonly [number, number, number] = [255, 255, 255];
/** Arc segments per degree of a slice: smooth at any size a page allows. */
const STEP_DEGREES = 2;

function arc(cx: number, cy: number, r: number, from: number, to: number): number[] {
  const out: number[] = [];
  const steps = Math.max(1, Math.ceil(Math.abs(to - from) / STEP_DEGREES));
  for (let i = 0; i <= steps; i++) {
    const a = ((from + ((to - from) * i) / steps) * Math.PI) / 180;
    out.push(cx + r * Math.sin(a), cy - r * Math.cos(a));
  }
  return out;
}

export function drawPies(pen: ChartPen, plots: ChartPlot[], chart: Chart, box: PlotBox, base: ChartText): void {
  const plot = plots[0];
  const series = plot.kind === 'pie' ? plot.series.slice(0, 1) : plot.series;
  if (series.length === 0) return;
  const outside = series.some((s) => s.labels?.position === 'outEnd');
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  const labelRoom = outside ? pen.size(base) * 2.2 : 0;
  const radius = Math.max(4, Math.min(box.w, box.h) / 2 - labelRoom);
  const hole = plot.kind === 'doughnut' ? Math.min(90, Math.max(10, plot.holeSize ?? 50)) / 100 : 0;
  const ring = (radius * (1 - hole)) / series.length;
  const start = plot.firstSliceAngle ?? 0;

  series.forEach((s, k) => {
    const outer = radius - k * ring;
    const inner = hole > 0 ? outer - ring : 0;
    const values = s.values.map((v) => (v !== null && v > 0 ? v : 0));
    const total = values.reduce((a, v) => a + v, 0);
    if (!(total > 0)) return;
    let angle = start;
    values.forEach((v, i) => {
      if (v <= 0) return;
      const sweep = (v / total) * 360;
      const color = rgb(s.pointColors?.[i] ?? s.color, [68, 114, 196]);
      const points = inner > 0
        ? [...arc(cx, cy, outer, angle, angle + sweep), ...arc(cx, cy, inner, angle + sweep, angle)]
        : sweep >= 359.99 ? arc(cx, cy, outer, 0, 360) : [cx, cy, ...arc(cx, cy, outer, angle, angle + sweep)];
      pen.path(points, true, color, s.outline ? rgb(s.outline, WHITE) : WHITE, 0.75);
      const labels = s.labels;
      if (labels) {
        const parts: string[] = [];
        if (labels.series) parts.push(s.name);
        if (labels.category) parts.push(chart.categories[i] ?? '');
        if (labels.value) parts.push(formatNumber(v, labels.format));
        if (labels.percent) parts.push(formatNumber(v / total, labels.format && labels.format.includes('%') ? labels.format : '0%'));
        const text = parts.filter(Boolean).join(', ');
        const style = { ...base, ...labels.text };
        const mid = ((angle + sweep / 2) * Math.PI) / 180;
        const out = labels.position === 'outEnd';
        const dist = out ? outer + pen.size(style) * 0.9 : inner > 0 ? (outer + inner) / 2 : outer * (labels.position === 'ctr' ? 0.5 : 0.68);
        const lx = cx + dist * Math.sin(mid);
        const ly = cy - dist * Math.cos(mid);
        const align = out ? (Math.sin(mid) > 0.2 ? 'left' : Math.sin(mid) < -0.2 ? 'right' : 'center') : 'center';
        pen.text(text, style, lx, ly + pen.size(style) * 0.35, align);
      }
      angle += sweep;
    });
  });
}
