/**
 * Cutting laid-out blocks between lines where the room ends: table rows split across pages or cut to an exact
 * height. A table inside them (a nested table) is cut between its rows, and a row of it between its cells' lines,
 * so a nested table taller than a page continues on the next one instead of being clipped.
 */
import type { LaidBlock, LaidCell, LaidParagraph, LaidTable } from './items.js';

function height(b: LaidBlock): number {
  if (b.kind === 'paragraph') return b.spaceBefore + b.spaceAfter + b.lines.reduce((a, l) => a + l.height, 0);
  if (b.kind === 'table') return b.heights.reduce((a, h) => a + h, 0);
  return 0;
}

/**
 * Cuts blocks where `limit` points are used up: `head` is what fits (whole lines; a nested table only whole),
 * `tail` the rest, a cut paragraph continuing without its space before. `head` is empty when not even the first
 * line fits.
 */
export function splitAt(blocks: LaidBlock[], limit: number): { head: LaidBlock[]; tail: LaidBlock[]; height: number } {
  const head: LaidBlock[] = [];
  let used = 0;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    if (b.kind !== 'paragraph') {
      const h = height(b);
      if (used + h <= limit + 0.01) {
        head.push(b);
        used += h;
        continue;
      }
      const cut = b.kind === 'table' ? splitTable(b, limit - used) : null;
      if (!cut) return { head, tail: blocks.slice(i), height: used };
      head.push(cut.head);
      return { head, tail: [cut.tail, ...blocks.slice(i + 1)], height: used + cut.height };
    }
    let y = used + b.spaceBefore;
    let n = 0;
    while (n < b.lines.length && y + b.lines[n].height <= limit + 0.01) y += b.lines[n++].height;
    if (n === b.lines.length) {
      head.push(b);
      // Space after a paragraph may run past the cut (it is not drawn).
      used = Math.min(y + b.spaceAfter, Math.max(limit, y));
      continue;
    }
    if (n > 0) {
      head.push({ ...b, lines: b.lines.slice(0, n), spaceAfter: 0 });
      used = y;
    }
    const rest: LaidParagraph = { ...b, lines: b.lines.slice(n), spaceBefore: n > 0 ? 0 : b.spaceBefore };
    return { head, tail: [rest, ...blocks.slice(i + 1)], height: used };
  }
  return { head, tail: [], height: used };
}

/**
 * Cuts a table so that its first part is at most `limit` tall: between rows where no cell spans across the cut,
 * else inside a row whose cells span no other rows (each cell cut between its lines; the cut edge has no border).
 * Null when not even the first row, or the first line of it, fits.
 */
function splitTable(t: LaidTable, limit: number): { head: LaidTable; tail: LaidTable; height: number } | null {
  const n = t.rows.length;
  // spannedTo[k]: the last row a cell of rows 0..k covers; a cut after row k is clean when that is k.
  const spannedTo: number[] = [];
  let reach = -1;
  t.rows.forEach((row, r) => {
    for (const c of row.cells) reach = Math.max(reach, r + c.rowSpan - 1);
    spannedTo.push(reach);
  });
  const part = (rows: LaidTable['rows'], heights: number[]): LaidTable => ({ ...t, rows, heights });
  let used = 0;
  let clean = 0; // rows before the last clean cut that fits
  let cleanHeight = 0;
  let r = 0;
  for (; r < n && used + t.heights[r] <= limit + 0.01; r++) {
    used += t.heights[r];
    if (spannedTo[r] === r) {
      clean = r + 1;
      cleanHeight = used;
    }
  }
  // Row r does not fit: cut inside it when the cut before it is clean and its cells span nothing.
  const row = t.rows[r];
  if (r < n && clean === r && !row.exact && row.cells.every((c) => c.rowSpan <= 1)) {
    const cut = cutCells(row.cells, limit - used, t.heights[r]);
    if (cut) {
      return {
        head: part([...t.rows.slice(0, r), { ...row, cells: cut.head, minHeight: 0 }], [...t.heights.slice(0, r), cut.headHeight]),
        tail: part([{ ...row, cells: cut.tail, header: false }, ...t.rows.slice(r + 1)], [cut.tailHeight, ...t.heights.slice(r + 1)]),
        height: used + cut.headHeight,
      };
    }
  }
  if (clean === 0) return null;
  return {
    head: part(t.rows.slice(0, clean), t.heights.slice(0, clean)),
    tail: part(t.rows.slice(clean), t.heights.slice(clean)),
    height: cleanHeight,
  };
}

/**
 * A cell's content cut at `limit`. A turned cell (vertical text) is not cut: its lines run down the row, so it
 * stays whole in the first part (its row is at most a page tall: layout/turned-cell.ts).
 */
export function splitCell(c: LaidCell, limit: number): { head: LaidBlock[]; tail: LaidBlock[]; height: number } {
  return c.turn ? { head: c.blocks, tail: [], height: c.contentHeight } : splitAt(c.blocks, limit);
}

/**
 * Cuts the cells of one row (of `rowHeight`) so that the first part is at most `room` tall: each cell between its
 * lines, the cut edge without its border, both parts' content from the top. Null when not one line of any cell fits.
 * The rest keeps what is left of the row's height (a minimum height).
 */
export function cutCells(cells: LaidCell[], room: number, rowHeight: number): { head: LaidCell[]; tail: LaidCell[]; headHeight: number; tailHeight: number } | null {
  const cuts = cells.map((c) => splitCell(c, room - c.padding.top - c.padding.bottom));
  if (!cuts.some((cut) => cut.head.length > 0)) return null;
  const piece = (c: LaidCell, blocks: LaidBlock[], contentHeight: number, borders: LaidCell['borders']): LaidCell =>
    ({ ...c, blocks, contentHeight, borders, vAlign: 'top' });
  const head = cells.map((c, k) => piece(c, cuts[k].head, cuts[k].height, { ...c.borders, bottom: undefined }));
  const tail = cells.map((c, k) => piece(c, cuts[k].tail, cuts[k].tail.reduce((a, b) => a + height(b), 0), { ...c.borders, top: undefined }));
  const tall = (list: LaidCell[]): number => Math.max(1, ...list.map((c) => c.contentHeight + c.padding.top + c.padding.bottom));
  const headHeight = Math.min(room, tall(head));
  return { head, tail, headHeight, tailHeight: Math.max(tall(tail), rowHeight - headHeight) };
}
