/**
 * Which rows of a long list to render: those near the view, the first and the last (so the keyboard can reach
 * the list's ends from the controls around it) and those around the focused row (so Tab and Shift+Tab always
 * find the next row rendered). The rows in between become gaps: one spacer each, its height their count times
 * an estimated row height. Lists shorter than `ALL_BELOW` are rendered whole.
 */

export const ALL_BELOW = 60;
/** Rows rendered beyond the view and around the focused row. */
export const OVERSCAN = 8;

export type RowSlot<T> =
  | { key: number; index: number; row: T; gap?: undefined }
  | { key: string; index: number; row?: undefined; gap: number };

export interface RowRange {
  first: number;
  last: number;
}

/** Rows in view, estimated: the list's top at `top` px from the viewport's, rows `rowHeight` px high. */
export function visibleRange(top: number, viewportHeight: number, rowHeight: number): RowRange {
  const h = Math.max(8, rowHeight);
  return { first: Math.max(0, Math.floor(-top / h)), last: Math.max(0, Math.ceil((viewportHeight - top) / h)) };
}

export function rowSlots<T>(rows: T[], keys: number[], at: { view: RowRange; focused: number }): RowSlot<T>[] {
  const n = rows.length;
  if (n < ALL_BELOW) return rows.map((row, index) => ({ key: keys[index], index, row }));
  const ranges: Array<[number, number]> = [
    [0, 0],
    [n - 1, n - 1],
    [at.view.first - OVERSCAN, at.view.last + OVERSCAN],
  ];
  if (at.focused >= 0) ranges.push([at.focused - OVERSCAN, at.focused + OVERSCAN]);
  const clamped = ranges
    .map(([a, b]) => [Math.max(0, a), Math.min(n - 1, b)] as [number, number])
    .filter(([a, b]) => a <= b)
    .sort((x, y) => x[0] - y[0]);
  const slots: RowSlot<T>[] = [];
  let next = 0;
  for (const [a, b] of clamped) {
    if (b < next) continue;
    const from = Math.max(a, next);
    if (from > next) slots.push({ key: `gap-${next}`, index: next, gap: from - next });
    for (let i = from; i <= b; i++) slots.push({ key: keys[i], index: i, row: rows[i] });
    next = b + 1;
  }
  if (next < n) slots.push({ key: `gap-${next}`, index: next, gap: n - next });
  return slots;
}
