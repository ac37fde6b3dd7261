/** Lengths (points, or text with a unit) and page sizes of the .json template format. */
import { describe, fail } from './read.js';

const UNITS: Record<string, number> = { pt: 1, mm: 72 / 25.4, cm: 72 / 2.54, in: 72, px: 0.75 };
const LENGTH = /^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*(pt|mm|cm|in|px)?\s*$/;
/** PDF's own limit (200 inches). */
export const MAX_LENGTH = 14400;

/** A number of points, or text such as "20mm", "2.5cm", "1in", "12pt", "16px". */
export function length(value: unknown, path: string, min = 0, max = MAX_LENGTH): number {
  let points: number;
  if (typeof value === 'number' && Number.isFinite(value)) points = value;
  else if (typeof value === 'string') {
    const m = LENGTH.exec(value);
    if (!m) fail(path, `expected a length such as 12, "12pt", "20mm", "2cm" or "1in", found ${describe(value)}.`);
    points = Number(m[1]) * UNITS[m[2] ?? 'pt'];
  } else fail(path, `expected a length such as 12, "12pt", "20mm", "2cm" or "1in", found ${describe(value)}.`);
  if (points < min || points > max) fail(path, `the length must be from ${min} to ${max} points, found ${round(points)}.`);
  return round(points);
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** Portrait sizes in points. */
export const PAGE_SIZES: Record<string, [number, number]> = {
  A3: [841.89, 1190.55],
  A4: [595.28, 841.89],
  A5: [419.53, 595.28],
  A6: [297.64, 419.53],
  B5: [498.9, 708.66],
  Letter: [612, 792],
  Legal: [612, 1008],
  Tabloid: [792, 1224],
  Executive: [521.86, 756],
};
