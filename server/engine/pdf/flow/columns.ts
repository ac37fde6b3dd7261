/**
 * Newspaper columns (model PageSetup.columns): where each column of a section sits in the content box, and the
 * height that balances a section's columns (Word evens out the columns of a section that ends in a continuous
 * section break: they end at about the same height instead of the first one filling the page).
 */
import type { Columns } from '../../model/types.js';
import type { LaidBlock, LaidParagraph, Line } from '../layout/items.js';
import type { Narrow } from '../layout/paragraph.js';

export interface ColumnSet {
  /** Left edge of each column, from the content box's left edge. */
  x: number[];
  width: number[];
  separator: boolean;
}

/** Column positions in a content box `width` wide; null for one column or unusable settings. */
export function columnSet(columns: Columns | undefined, width: number): ColumnSet | null {
  if (!columns || typeof columns !== 'object') return null;
  const count = Math.floor(Number(columns.count));
  if (!(count >= 2 && count <= 45)) return null;
  let widths: number[];
  let spaces: number[];
  if (Array.isArray(columns.widths) && columns.widths.length === count && columns.widths.every((w) => Number(w) > 0)) {
    widths = columns.widths.map(Number);
    spaces = Array.from({ length: count }, (_, i) => Math.max(0, Number(columns.spaces?.[i]) || 0));
  } else {
    const space = Math.max(0, Number(columns.space) || 0);
    const w = (width - space * (count - 1)) / count;
    widths = Array.from({ length: count }, () => w);
    spaces = Array.from({ length: count }, () => space);
  }
  // Columns wider than the box (a page size changed under them) shrink in proportion.
  const total = widths.reduce((a, w) => a + w, 0) + spaces.slice(0, count - 1).reduce((a, s) => a + s, 0);
  const k = total > width ? width / total : 1;
  if (widths.some((w) => w * k < 12)) return null;
  const x: number[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    x.push(at);
    at += (widths[i] + spaces[i]) * k;
  }
  return { x, width: widths.map((w) => w * k), separator: columns.separator === true };
}

/** The pieces the flow may split between columns: paragraph lines (with the spacing around them) and table rows. */
function pieces(blocks: LaidBlock[]): number[] | null {
  const out: number[] = [];
  for (const b of blocks) {
    if (b.kind === 'pageBreak') return null; // a forced break: columns are not evened out
    if (b.kind === 'table') {
      if (!b.float) out.push(...b.heights); // a float is placed beside the text, not in its flow
    }
    else b.lines.forEach((line, i) => out.push(line.height + (i === 0 ? b.spaceBefore : 0) + (i === b.lines.length - 1 ? b.spaceAfter : 0)));
  }
  return out;
}

function fits(heights: number[], count: number, limit: number): boolean {
  let column = 0;
  let used = 0;
  for (const h of heights) {
    if (used > 0 && used + h > limit + 0.01) {
      column++;
      used = 0;
      if (column >= count) return false;
    }
    used += h;
  }
  return true;
}

/**
 * The column height that spreads `blocks` evenly over `count` columns, when they fit in `room` (one page's
 * columns); null when they do not (the section goes on over more pages: only its first page is filled as usual).
 */
export function balancedHeight(blocks: LaidBlock[], count: number, room: number): number | null {
  const heights = pieces(blocks);
  if (!heights || heights.length === 0) return null;
  if (!fits(heights, count, room)) return null;
  const total = heights.reduce((a, h) => a + h, 0);
  let lo = Math.max(total / count, ...heights);
  let hi = room;
  if (fits(heights, count, lo)) return lo;
  for (let i = 0; i < 30 && hi - lo > 0.5; i++) {
    const mid = (lo + hi) / 2;
    if (fits(heights, count, mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Where a paragraph's lines go: from line `from` on, in column `col` (one entry per column it reaches). */
export type ColumnStart = { from: number; col: number };

/**
 * balancedHeight for columns of different widths, where a paragraph's lines depend on the columns it goes in:
 * `lay(p, starts)` gives them. The columns are filled as the flow fills them, each up to the height tried, and
 * the lowest height that holds everything is found by bisection (to half a point); null when the blocks do not fit
 * in `room` or hold a forced break.
 */
export function balancedHeightUnequal(blocks: LaidBlock[], count: number, room: number, lay: (p: LaidParagraph, starts: ColumnStart[]) => Line[]): number | null {
  if (blocks.length === 0 || blocks.some((b) => b.kind === 'pageBreak')) return null;
  const fitsIn = (limit: number): boolean => {
    let col = 0;
    let used = 0;
    const room1 = (h: number): boolean => used === 0 || used + h <= limit + 0.01;
    for (const b of blocks) {
      if (b.kind === 'pageBreak') return false;
      if (b.kind === 'table') {
        if (b.float) continue;
        // Its own column's layout when it ends there (flow/body.ts tableIn), else the narrowest column's.
        const own = b.inColumn?.[col];
        const heights = own && own.heights.reduce((a, h) => a + h, 0) <= limit - used + 0.01 ? own.heights : b.heights;
        for (const h of heights) {
          if (!room1(h)) {
            if (++col >= count) return false;
            used = 0;
          }
          used += h;
        }
        continue;
      }
      const starts: ColumnStart[] = [{ from: 0, col }];
      let lines = lay(b, starts);
      const height = (i: number): number => lines[i].height + (i === 0 ? b.spaceBefore : 0) + (i === lines.length - 1 ? b.spaceAfter : 0);
      for (let i = 0; i < lines.length; i++) {
        if (!room1(height(i))) {
          if (++col >= count) return false;
          used = 0;
          if (i === 0) starts[0].col = col;
          else starts.push({ from: i, col });
          lines = lay(b, starts);
          if (i >= lines.length) break;
        }
        used += height(i);
      }
    }
    return true;
  };
  if (!fitsIn(room)) return null;
  let lo = 0;
  let hi = room;
  for (let i = 0; i < 30 && hi - lo > 0.5; i++) {
    const mid = (lo + hi) / 2;
    if (fitsIn(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Narrowings that cut a paragraph's lines to the columns `starts` names, from line `offset` on (laid at the widest's width). */
export function columnBands(starts: ColumnStart[], own: { widths: number[]; widest: number }, offset: number): Narrow[] {
  return starts.map((s, k) => ({
    from: offset + s.from,
    to: k + 1 < starts.length ? offset + starts[k + 1].from : Number.MAX_SAFE_INTEGER,
    start: 0,
    end: own.widest - own.widths[s.col],
    column: true,
  }));
}
