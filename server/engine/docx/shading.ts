/**
 * Shading patterns (w:shd w:val, ECMA-376 §17.18.78): Word states a shade as a pattern colour (w:color) laid
 * over a fill (w:fill) with a pattern saying how much of the area the pattern colour covers — "pct25" auto over
 * auto is a 25 % grey, "solid" is the pattern colour alone. A PDF fill is one colour, so the pattern is flattened
 * to the blend it looks like, with Word's coverage per pattern (the table Word's binary format and LibreOffice
 * use; hatches and stripes, which a flat fill cannot draw, count as a third).
 */

/** Share of the pattern colour, per pattern name; clear (0) and unknown names show the fill alone. */
const COVERAGE: ReadonlyMap<string, number> = new Map<string, number>([
  ['clear', 0],
  ['solid', 1],
  ...[5, 10, 12.5, 15, 20, 25, 30, 35, 37.5, 40, 45, 50, 55, 60, 62.5, 65, 70, 75, 80, 85, 87.5, 90, 95]
    .map((p) => [`pct${Math.floor(p)}`, p / 100] as [string, number]),
  ...['horzStripe', 'vertStripe', 'reverseDiagStripe', 'diagStripe', 'horzCross', 'diagCross', 'thinHorzStripe',
    'thinVertStripe', 'thinReverseDiagStripe', 'thinDiagStripe', 'thinHorzCross', 'thinDiagCross']
    .map((p) => [p, 1 / 3] as [string, number]),
]);

function channels(hex: string): [number, number, number] {
  const v = parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

/**
 * The one colour a shading looks like: `fill` and `pattern` are `#rrggbb`, or null for auto (an auto pattern
 * colour is black; an auto fill is no fill, blended as the white page). Null: no shading (nil, or a clear
 * pattern over an auto fill).
 */
export function flattenShading(val: string | undefined, pattern: string | null, fill: string | null): string | null {
  if (val === 'nil') return null;
  const share = COVERAGE.get(val ?? 'clear') ?? 0;
  if (share === 0) return fill;
  if (share === 1) return pattern ?? '#000000';
  const ink = channels(pattern ?? '#000000');
  const paper = channels(fill ?? '#ffffff');
  const mixed = ink.map((c, i) => Math.round(c * share + paper[i] * (1 - share)));
  return `#${mixed.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}
