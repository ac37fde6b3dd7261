/**
 * Body tables on pages: rows are placed top to bottom, header rows (w:tblHeader) repeat at the top of every page
 * the table continues on. A row that does not fit splits between lines at the page's foot, as in Word, unless it
 * may not split (w:cantSplit), its set height (w:trHeight) does not fit the room left, or spanning cells tie it to
 * the rows below: then it moves to the next page whole
 * (a row that cannot split and is taller than a page splits all the same). Every cell becomes boxes through the
 * Emitter; borders come last on each page, so that a neighbour's shading never covers half of a border.
 * Rows tied by cells spanning them (vMerge) break between those rows, the spanning cells cut between their lines.
 */
import type { Emitter, FieldValues } from './emit.js';
import type { Borders, LaidCell, LaidRow, LaidTable } from '../layout/items.js';
import { cutCells, splitAt, splitCell } from '../layout/cut.js';

export interface TableFrame {
  /** Left edge of the content box. */
  left: number;
  /** Top and bottom of the content box on every page of the section. */
  top: number;
  bottom: number;
}

interface RowPlan {
  row: LaidRow;
  height: number;
}

const EPS = 0.01;

/** What a body row's plan becomes once the row is placed (rows are only ever looked at from their own onwards). */
const PLACED: RowPlan = { row: { cells: [], header: false, minHeight: 0, exact: false, cantSplit: false }, height: 0 };

/** A row whose cells span no other rows (only such rows split). */
function free(plan: RowPlan): boolean {
  return plan.row.cells.every((c) => c.rowSpan <= 1);
}

/**
 * Cuts a row so that its first part is at most `room` points tall: the part that fits and the rest (without the
 * horizontal border at the cut), or null when not one line of any cell fits.
 */
function cutRow(plan: RowPlan, room: number): { head: RowPlan; tail: RowPlan } | null {
  const cut = cutCells(plan.row.cells, room, plan.height);
  if (!cut) return null;
  return {
    head: { row: { ...plan.row, cells: cut.head, header: false }, height: cut.headHeight },
    tail: { row: { ...plan.row, cells: cut.tail, header: false }, height: cut.tailHeight },
  };
}

/**
 * Rows tied together by cells spanning them (vMerge) that do not fit in `room`: the rows that fit by their own
 * heights stay, each spanning cell crossing the cut keeps the lines that fit in its rows above the cut (the cut
 * edge without its border), and its rest continues at the top of the first row below, spanning what is left of
 * its rows — as Word and LibreOffice break merged cells across pages. That row grows when the rest needs more.
 * False (nothing changed) when not even the first row fits by itself.
 */
function cutSpans(body: RowPlan[], i: number, room: number): boolean {
  let end = i; // the last row tied to the rows before the cut
  const tie = (r: number): void => {
    for (const c of body[r].row.cells) end = Math.min(body.length - 1, Math.max(end, r + c.rowSpan - 1));
  };
  tie(i);
  let used = 0;
  let cutAt = i;
  while (cutAt <= end && used + body[cutAt].height <= room + EPS) {
    used += body[cutAt].height;
    tie(cutAt);
    cutAt++;
  }
  if (cutAt === i || cutAt > end) return false;
  const tails: LaidCell[] = [];
  for (let r = i; r < cutAt; r++) {
    let above = 0;
    for (let k = r; k < cutAt; k++) above += body[k].height;
    const cells = body[r].row.cells.map((c) => {
      if (r + c.rowSpan <= cutAt) return c;
      const cut = splitCell(c, above - c.padding.top - c.padding.bottom);
      const rest = splitAt(cut.tail, Infinity).height;
      tails.push({ ...c, blocks: cut.tail, contentHeight: rest, rowSpan: r + c.rowSpan - cutAt, borders: { ...c.borders, top: undefined }, vAlign: 'top' });
      return { ...c, blocks: cut.head, contentHeight: cut.height, rowSpan: cutAt - r, borders: { ...c.borders, bottom: undefined }, vAlign: 'top' as const };
    });
    body[r] = { row: { ...body[r].row, cells }, height: body[r].height };
  }
  const next = body[cutAt];
  body[cutAt] = { row: { ...next.row, cells: [...next.row.cells, ...tails].sort((a, b) => a.col - b.col) }, height: next.height };
  for (const t of tails) {
    const last = Math.min(body.length - 1, cutAt + t.rowSpan - 1);
    let spanned = 0;
    for (let k = cutAt; k <= last; k++) spanned += body[k].height;
    const need = t.contentHeight + t.padding.top + t.padding.bottom;
    if (need > spanned) body[last] = { ...body[last], height: body[last].height + need - spanned };
  }
  return true;
}

/**
 * Places a body table from y on the current page; returns the y below it (on the page it ended on). `newPage` is
 * given the heights of the rows not yet placed, the repeated header rows' added to the first (a section that
 * balances its columns evens out the page it goes on with them).
 */
export function flowBodyTable(emitter: Emitter, t: LaidTable, frame: TableFrame, y: number, atTop: boolean,
  newPage: (rest: number[]) => void, fields: () => FieldValues, check?: () => void): number {
  const pageContent = frame.bottom - frame.top;

  // Leading header rows repeat on every page, unless they would eat most of it.
  let headCount = 0;
  while (headCount < t.rows.length && t.rows[headCount].header) headCount++;
  let headHeight = t.heights.slice(0, headCount).reduce((a, b) => a + b, 0);
  if (headHeight > pageContent * 0.4 || headCount === t.rows.length) {
    headCount = 0;
    headHeight = 0;
  }
  const plans = (from: number, to: number, limit: number): RowPlan[] => t.rows.slice(from, to).map((row, i) => ({
    row,
    // Spans are kept under half a page by layout; should one still be taller than a page, it is clipped.
    height: row.cells.some((c) => c.rowSpan > 1) ? Math.min(t.heights[from + i], limit) : t.heights[from + i],
  }));
  const head = plans(0, headCount, Infinity);
  const body = plans(headCount, t.rows.length, pageContent - headHeight - 1);
  // The flow consumes the table: from here its rows are reached through the plans only, and each body row's
  // layout is dropped once placed (painted with its page), so a 10,000-row table is not held whole until its
  // last page is done. Nothing reads a table's rows after the flow (its footnotes are collected before).
  t.rows = [];
  if (body.length === 0 && head.length === 0) return y;
  const maxRow = pageContent - headHeight;
  // A row whose own height (w:trHeight, "at least" or exact) does not fit in the room left is not cut either:
  // Word moves it to the next page whole (its lastRenderedPageBreak marks sit at such rows' first line, and
  // LibreOffice does the same), so the cut happens only within a row's content beyond its set height.
  const splits = (plan: RowPlan, need: number, room: number): boolean => free(plan)
    && ((!plan.row.cantSplit && plan.row.minHeight <= room + EPS) || need > maxRow + EPS);

  // Column edges from the frame's left edge: the frame moves when the table goes on in the next newspaper column.
  const colX: number[] = [];
  let acc = t.x;
  for (const w of t.columns) {
    colX.push(acc);
    acc += w;
  }
  colX.push(acc);
  const pendingBorders: Array<{ b: Borders; x: number; y: number; w: number; h: number }> = [];
  const flushBorders = (): void => {
    for (const p of pendingBorders) emitter.borders(p.b, p.x, p.y, p.w, p.h);
    pendingBorders.length = 0;
  };

  /** Height a row's cells reach down to: its own, or that of the rows its spanning cells cover. */
  const reach = (plans: RowPlan[], i: number): number => {
    let h = plans[i].height;
    for (const c of plans[i].row.cells) {
      if (c.rowSpan <= 1) continue;
      let sum = 0;
      for (let k = i; k < Math.min(plans.length, i + c.rowSpan); k++) sum += plans[k].height;
      h = Math.max(h, sum);
    }
    return h;
  };

  const place = (plans: RowPlan[], i: number): void => {
    check?.();
    const plan = plans[i];
    const f = fields();
    for (const cell of plan.row.cells) {
      const x = frame.left + colX[cell.col];
      const w = colX[Math.min(cell.col + cell.colSpan, t.columns.length)] - colX[cell.col];
      let h = plan.height;
      for (let k = i + 1; k < Math.min(plans.length, i + cell.rowSpan); k++) h += plans[k].height;
      if (cell.fill) emitter.fillRect(x, y, w, h, cell.fill);
      emitter.cellContent(cell, x, y, w, h, f);
      pendingBorders.push({ b: cell.borders, x, y, w, h });
    }
    y += plan.height;
  };

  /** The heights of the body rows from `from` on, the header's added to the first (it repeats above them). */
  const rest = (from: number): number[] => body.slice(from).map((plan, k) => plan.height + (k === 0 ? headHeight : 0));

  // Start on a new page when not even the header and the first row (or its first lines) fit here.
  if (!atTop && body.length > 0) {
    const room = frame.bottom - y - headHeight;
    const need = reach(body, 0);
    // (Rows tied by spanning cells stay when the first of them fits: the loop below breaks between them.)
    const tiedFits = !free(body[0]) && body[0].height <= room + EPS;
    if (need > room + EPS && !tiedFits && !(splits(body[0], need, room) && cutRow(body[0], room) !== null)) {
      newPage(rest(0));
      y = frame.top;
    }
  } else if (!atTop && y + headHeight > frame.bottom + EPS) {
    newPage(rest(0));
    y = frame.top;
  }

  for (let i = 0; i < head.length; i++) place(head, i);
  /** Nothing of the body placed on this page yet (a row that does not fit here fits nowhere). */
  let fresh = atTop || y <= frame.top + headHeight + EPS;
  const nextPage = (from: number): void => {
    flushBorders();
    newPage(rest(from));
    y = frame.top;
    for (let k = 0; k < head.length; k++) place(head, k);
    fresh = true;
  };
  for (let i = 0; i < body.length; i++) {
    for (;;) {
      const need = reach(body, i);
      if (y + need <= frame.bottom + EPS) break;
      const room = frame.bottom - y;
      const cut = splits(body[i], need, room) ? cutRow(body[i], room) : null;
      if (cut) {
        // The part that fits here, the rest on the next page below the repeated header.
        place([cut.head], 0);
        body[i] = cut.tail;
        nextPage(i);
        continue;
      }
      // Rows tied by spanning cells break between them, the spanning cells cut at the page's foot.
      if (!free(body[i]) && cutSpans(body, i, room)) break;
      if (fresh) break; // taller than a page and cannot be cut: placed anyway, clipped by the page's edge
      nextPage(i);
    }
    place(body, i);
    body[i] = PLACED;
    fresh = false;
  }
  flushBorders();
  return y;
}
