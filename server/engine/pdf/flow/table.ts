/**
 * Body tables on pages: rows are placed top to bottom, header rows (w:tblHeader) repeat at the top of every page
 * the table continues on. A row that does not fit splits between lines at the page's foot, as in Word, unless it
 * may not split (w:cantSplit) or spanning cells tie it to the rows below: then it moves to the next page whole
 * (a row that cannot split and is taller than a page splits all the same). Every cell becomes boxes through the
 * Emitter; borders come last on each page, so that a neighbour's shading never covers half of a border.
 */
import type { Emitter, FieldValues } from './emit.js';
import type { Borders, LaidRow, LaidTable } from '../layout/items.js';
import { cutCells } from '../layout/cut.js';

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

/** Places a body table from y on the current page; returns the y below it (on the page it ended on). */
export function flowBodyTable(emitter: Emitter, t: LaidTable, frame: TableFrame, y: number, atTop: boolean,
  newPage: () => void, fields: () => FieldValues, check?: () => void): number {
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
  const splits = (plan: RowPlan, need: number): boolean => free(plan) && (!plan.row.cantSplit || need > maxRow + EPS);

  const colX: number[] = [];
  let acc = frame.left + t.x;
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
      const x = colX[cell.col];
      const w = colX[Math.min(cell.col + cell.colSpan, t.columns.length)] - x;
      let h = plan.height;
      for (let k = i + 1; k < Math.min(plans.length, i + cell.rowSpan); k++) h += plans[k].height;
      if (cell.fill) emitter.fillRect(x, y, w, h, cell.fill);
      emitter.cellContent(cell, x, y, h, f);
      pendingBorders.push({ b: cell.borders, x, y, w, h });
    }
    y += plan.height;
  };

  // Start on a new page when not even the header and the first row (or its first lines) fit here.
  if (!atTop && body.length > 0) {
    const room = frame.bottom - y - headHeight;
    const need = reach(body, 0);
    if (need > room + EPS && !(splits(body[0], need) && cutRow(body[0], room) !== null)) {
      newPage();
      y = frame.top;
    }
  } else if (!atTop && y + headHeight > frame.bottom + EPS) {
    newPage();
    y = frame.top;
  }

  for (let i = 0; i < head.length; i++) place(head, i);
  /** Nothing of the body placed on this page yet (a row that does not fit here fits nowhere). */
  let fresh = atTop || y <= frame.top + headHeight + EPS;
  const nextPage = (): void => {
    flushBorders();
    newPage();
    y = frame.top;
    for (let k = 0; k < head.length; k++) place(head, k);
    fresh = true;
  };
  for (let i = 0; i < body.length; i++) {
    for (;;) {
      const need = reach(body, i);
      if (y + need <= frame.bottom + EPS) break;
      const room = frame.bottom - y;
      const cut = splits(body[i], need) ? cutRow(body[i], room) : null;
      if (cut) {
        // The part that fits here, the rest on the next page below the repeated header.
        place([cut.head], 0);
        body[i] = cut.tail;
        nextPage();
        continue;
      }
      if (fresh) break; // taller than a page and cannot be cut: placed anyway, clipped by the page's edge
      nextPage();
    }
    place(body, i);
    body[i] = PLACED;
    fresh = false;
  }
  flushBorders();
  return y;
}
