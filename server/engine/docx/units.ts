/** WordprocessingML's units, converted to PDF points. */

/** Twentieths of a point (twips): page sizes, margins, indents, spacing, table widths. */
export function twips(value: string | undefined): number | undefined {
  const n = num(value);
  return n === undefined ? undefined : n / 20;
}

/** Half-points: font sizes. */
export function halfPoints(value: string | undefined): number | undefined {
  const n = num(value);
  return n === undefined ? undefined : n / 2;
}

/** Eighths of a point: border widths. */
export function eighthPoints(value: string | undefined): number | undefined {
  const n = num(value);
  return n === undefined ? undefined : n / 8;
}

/** English Metric Units: drawing extents (914400 per inch, 12700 per point). */
export function emu(value: string | undefined): number | undefined {
  const n = num(value);
  return n === undefined ? undefined : n / 12700;
}

/** A number from an attribute; Word also writes universal measures ("1in", "12pt", "2.5cm") in places. */
export function num(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** Twips from either a plain number or a universal measure ("12pt", "1in", "2.54cm", "25.4mm", "6pc"). */
export function measureTwips(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const plain = num(value);
  if (plain !== undefined) return plain / 20;
  const m = /^(-?[0-9.]+)(mm|cm|in|pt|pc|pi)$/.exec(value.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  const perUnit: Record<string, number> = { mm: 72 / 25.4, cm: 72 / 2.54, in: 72, pt: 1, pc: 12, pi: 12 };
  return Number.isFinite(n) ? n * perUnit[m[2]] : undefined;
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
