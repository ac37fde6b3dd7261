/**
 * Room for horizontal cell borders. Word and LibreOffice lay a table's rows out with their horizontal borders
 * inside them: the text of a cell starts below the border above it, so every bordered edge makes the table taller
 * by its width. A 0.5 pt grid adds 0.5 pt per row, which over a long table is what moves its page breaks
 * (rubydocx__tables: rows 12.0 pt apart in LibreOffice, 11.5 pt without this). Two cells meeting at an edge draw
 * one line there (the heavier one, as in Word's conflict rule), so an edge takes the room of its widest line once:
 * the row below the edge gets it above its text, and the last row's bottom edge gets it below.
 */
import type { BorderLine } from '../../model/types.js';
import type { LaidRow } from './items.js';

/** How much of the row a border line takes: a double line is two lines and the gap between them. */
function thickness(b: BorderLine | undefined): number {
  if (!b || !(b.width > 0)) return 0;
  return b.style === 'double' ? b.width * 3 : b.width;
}

/**
 * Widens the top padding of every cell by the room of the edge above its row (and the bottom padding of cells
 * ending at the last row by the table's bottom edge). The rows' heights follow from the paddings.
 */
export function addBorderRoom(rows: LaidRow[]): void {
  const n = rows.length;
  // edges[k]: the widest line on the edge above row k (edges[n]: below the last row).
  const edges = new Array<number>(n + 1).fill(0);
  rows.forEach((row, r) => {
    for (const c of row.cells) {
      edges[r] = Math.max(edges[r], thickness(c.borders.top));
      const end = Math.min(n, r + Math.max(1, c.rowSpan));
      edges[end] = Math.max(edges[end], thickness(c.borders.bottom));
    }
  });
  rows.forEach((row, r) => {
    for (let i = 0; i < row.cells.length; i++) {
      const c = row.cells[i];
      const below = r + Math.max(1, c.rowSpan) >= n ? edges[n] : 0;
      if (edges[r] === 0 && below === 0) continue;
      row.cells[i] = { ...c, padding: { ...c.padding, top: c.padding.top + edges[r], bottom: c.padding.bottom + below } };
    }
  });
}
