/** WordprocessingML's units, converted to PDF points. */

/**
 * A length written as a universal measure ("12pt", "1in", "2.54cm", "25.4mm", "6pc", "-3pt"), in points. ISO/IEC
 * 29500 Strict writes every length so (ST_TwipsMeasure, ST_SignedTwipsMeasure, ST_HpsMeasure and DrawingML's
 * ST_Coordinate are "a number or a universal measure"): oxsdk__Strict01's docDefaults say w:after="8pt".
 */
export function universalPoints(value: string | undefined): number | undefined {
  const m = value === undefined ? null : /^(-?[0-9]*\.?[0-9]+)(mm|cm|in|pt|pc|pi)$/.exec(value.trim());
  if (!m) return undefined;
  const n = Number(m[1]) * UNIT_POINTS[m[2]];
  return Number.isFinite(n) ? n : undefined;
}

const UNIT_POINTS: Record<string, number> = { mm: 72 / 25.4, cm: 72 / 2.54, in: 72, pt: 1, pc: 12, pi: 12 };

/** A length whose plain numbers count `perPoint` units, in points; a universal measure is taken as written. */
function length(value: string | undefined, perPoint: number): number | undefined {
  const n = num(value);
  return n !== undefined ? n / perPoint : universalPoints(value);
}

/** Twentieths of a point (twips): page sizes, margins, indents, spacing, table widths. */
export function twips(value: string | undefined): number | undefined {
  return length(value, 20);
}

/** Half-points: font sizes. */
export function halfPoints(value: string | undefined): number | undefined {
  return length(value, 2);
}

/** Eighths of a point: border widths. */
export function eighthPoints(value: string | undefined): number | undefined {
  return length(value, 8);
}

/** English Metric Units: drawing extents (914400 per inch, 12700 per point). */
export function emu(value: string | undefined): number | undefined {
  return length(value, 12700);
}

/** A number from an attribute (plain numbers only: lengths go through twips, halfPoints… which also read units). */
export function num(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** An OOXML on/off property: present means on, unless its value says otherwise. */
export function onOff(value: string | undefined): boolean {
  return value === undefined || !(value === '0' || value === 'false' || value === 'off' || value === 'none');
}

/** `#rrggbb` from a six-digit hex value; undefined for 'auto' and anything else. */
export function hexColor(value: string | undefined): string | undefined {
  if (!value || !/^[0-9a-fA-F]{6}$/.test(value)) return undefined;
  return `#${value.toLowerCase()}`;
}

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
