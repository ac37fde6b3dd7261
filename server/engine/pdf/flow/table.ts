/**
 * Body tables on pages: rows are placed top to bottom, header rows repeat at the top of every page the table
 * continues on, a row that does not fit moves to the next page whole (the rows a spanning cell covers move
 * with it), and a row taller than a page is first cut between lines into several rows. Every cell becomes
 * boxes through the Emitter; borders come last on each page, so that a neighbour's shading never covers half
 * of a border.
 */
import type { Emitter, FieldValues } from './emit.js';
import type { Borders, LaidRow, LaidTable } from '../layout/items.js';
import { splitBlocks } from './split.js';
import { blockHeight } from '../layout/blocks.js';

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

/** Rows taller than `limit` become several rows, each cell's content cut between lines. */
function splitTallRows(t: LaidTable, limit: number): RowPlan[] {
  const plans: RowPlan[] = [];
  t.rows.forEach((row, r) => {
    const height = t.heights[r];
    const spans = row.cells.some((c) => c.rowSpan > 1);
    if (height <= limit || row.cells.length === 0) {
      plans.push({ row, height });
      return;
    }
    if (spans) {
      // Layout keeps spans under half a page; should one still be too tall, its content is clipped.
      plans.push({ row, height: limit });
      return;
    }
    const pad = row.cells[0].padding;
    const inner = Math.max(limit - pad.top - pad.bottom, 12);
    const pieces = row.cells.map((c) => splitBlocks(c.blocks, inner));
    const count = Math.max(...pieces.map((p) => p.length));
    for (let i = 0; i < count; i++) {
      const cells = row.cells.map((c, k) => {
        const blocks = pieces[k][i] ?? [];
        const contentHeight = blocks.reduce((a, b) => a + blockHeight(b), 0);
        // Inner cuts draw no horizontal border: the pieces read as one tall row.
        const borders: Borders = {
          ...c.borders,
          top: i === 0 ? c.borders.top : undefined,
          bottom: i === count - 1 ? c.borders.bottom : undefined,
        };
        return { ...c, blocks, contentHeight, borders, vAlign: 'top' as const };
      });
      const h = Math.max(...cells.map((c) => c.contentHeight + pad.top + pad.bottom));
      plans.push({ row: { ...row, cells, header: false }, height: Math.min(Math.max(h, 1), limit) });
    }
  });
  return plans;
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
  const head = splitTallRows({ ...t, rows: t.rows.slice(0, headCount), heights: t.heights.slice(0, headCount) }, Infinity);
  const body = splitTallRows({ ...t, rows: t.rows.slice(headCount), heights: t.heights.slice(headCount) }, pageContent - headHeight - 1);
  if (body.length === 0 && head.length === 0) return y;

  // Start on a new page when not even the header and the first row fit here.
  const firstRow = body[0]?.height ?? 0;
  if (!atTop && y + headHeight + firstRow > frame.bottom) {
    newPage();
    y = frame.top;
  }

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

  for (let i = 0; i < head.length; i++) place(head, i);
  const maxRow = pageContent - headHeight;
  for (let i = 0; i < body.length; i++) {
    const need = reach(body, i);
    // A row that does not fit moves to the next page, unless it would not fit there either.
    if (y + need > frame.bottom && need <= maxRow) {
      flushBorders();
      newPage();
      y = frame.top;
      for (let k = 0; k < head.length; k++) place(head, k);
    }
    place(body, i);
  }
  flushBorders();
  return y;
}
