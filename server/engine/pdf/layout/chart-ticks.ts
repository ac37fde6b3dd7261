/**
 * Axis lines and their tick marks (c:majorTickMark, c:minorTickMark; ECMA-376 21.2.3.48 ST_TickMark). Office draws
 * tick marks in the axis line's own format, so an axis without a line has none. Lengths are LibreOffice's, the
 * renderer the corpus is measured against (chart2 VAxisProperties: AXIS2D_TICKLENGTH 150 hundredths of a
 * millimetre for major marks, three quarters of it for minor ones, twice it for marks crossing the line, half on
 * each side).
 */
import type { ChartAxis, ChartTickMark } from '../../model/types.js';
import type { ChartPen } from './chart-text.js';
import { rgb } from './chart-text.js';
import type { Scale } from './chart-scale.js';

const AXIS: readonly [number, number, number] = [134, 134, 134];
/** 1.5 mm. */
export const MAJOR_TICK = (150 / 2540) * 72;
const MINOR_TICK = MAJOR_TICK * 0.75;

/** An axis line: vertical (`along` 'y', at x = `at`) or horizontal (at y = `at`); `outward` the labels' side (±1). */
export interface AxisLine {
  along: 'x' | 'y';
  at: number;
  from: number;
  to: number;
  outward: 1 | -1;
}

const drawn = (axis: ChartAxis | undefined): axis is ChartAxis & { line: string } => axis !== undefined && !axis.hidden && axis.line !== undefined;

/** How far an axis's major tick marks reach beyond its line on the labels' side (the labels move out by as much). */
export function tickReach(axis: ChartAxis | undefined): number {
  if (!drawn(axis)) return 0;
  return axis.majorTicks === 'out' || axis.majorTicks === 'cross' ? MAJOR_TICK : 0;
}

/** Where a value axis's minor tick marks fall: every minor unit (absent: a fifth of the major one) off the major marks. */
export function minorPositions(scale: Scale, axis: ChartAxis, withMajor: boolean): number[] {
  const step = axis.minorUnit ?? scale.step / 5;
  const span = scale.max - scale.min;
  if (!(step > 0) || !(span > 0) || span / step > 1000) return [];
  const eps = step * 1e-6;
  const out: number[] = [];
  for (let k = 0; k * step <= span + eps; k++) {
    const v = scale.min + k * step;
    if (withMajor || !scale.ticks.some((t) => Math.abs(t - v) < eps)) out.push(v);
  }
  return out;
}

/** The axis line, then its major marks at `major` and its minor marks at `minor` (page coordinates along the line). */
export function drawAxisLine(pen: ChartPen, axis: ChartAxis | undefined, line: AxisLine, major: number[], minor: number[]): void {
  if (!drawn(axis)) return;
  const width = axis.lineWidth ?? 0.75;
  const color = rgb(axis.line, AXIS);
  const segment = (a: number, b1: number, b2: number): void => {
    if (line.along === 'y') pen.line(b1, a, b2, a, width, color);
    else pen.line(a, b1, a, b2, width, color);
  };
  if (line.along === 'y') pen.line(line.at, line.from, line.at, line.to, width, color);
  else pen.line(line.from, line.at, line.to, line.at, width, color);
  const marks = (kind: ChartTickMark | undefined, length: number, positions: number[]): void => {
    if (!kind) return;
    const outer = kind === 'in' ? 0 : length;
    const inner = kind === 'out' ? 0 : length;
    for (const p of positions) segment(p, line.at - line.outward * inner, line.at + line.outward * outer);
  };
  marks(axis.majorTicks, MAJOR_TICK, major);
  marks(axis.minorTicks, MINOR_TICK, minor);
}
