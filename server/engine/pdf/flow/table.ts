/**
 * Body tables through jspdf-autotable: it places rows on pages, repeats header rows on every page the table
 * continues on and handles column/row spans; every cell is drawn by us (didDrawCell) from its laid-out
 * content, so cells hold rich text, lists, images and nested tables. Rows are kept whole ('avoid'); a row
 * taller than a page is cut between lines into several rows first.
 */
import { autoTable, type CellDef, type CellHookData, type CellInput, type RowInput } from 'jspdf-autotable';
import type { Painter, FieldValues } from '../draw/painter.js';
import type { Borders, LaidCell, LaidRow, LaidTable } from '../layout/items.js';
import { splitBlocks } from './split.js';
import { blockHeight } from '../layout/blocks.js';

export interface TableFrame {
  /** Left edge of the content box, and the page's width. */
  left: number;
  pageWidth: number;
  pageHeight: number;
  /** Top and bottom of the content box on every page of the section. */
  top: number;
  bottom: number;
}

type CellWithLayout = CellDef & { laid: LaidCell };

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

function rowInput(plan: RowPlan): RowInput {
  return plan.row.cells.map((laid): CellInput => {
    const cell: CellWithLayout = {
      content: '',
      colSpan: laid.colSpan,
      rowSpan: laid.rowSpan,
      // Spanning cells take the height of their rows (grown during layout when their content needs it).
      styles: { minCellHeight: laid.rowSpan > 1 ? 0 : plan.height, cellPadding: 0 },
      laid,
    };
    return cell as CellInput;
  });
}

/** Draws a body table from y on the current page; returns the y below it (on the page it ended on). */
export function drawBodyTable(painter: Painter, t: LaidTable, frame: TableFrame, y: number, atTop: boolean,
  newPage: () => void, fields: () => FieldValues, check?: () => void): number {
  const doc = painter.doc;
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

  const pendingBorders: Array<{ b: Borders; x: number; y: number; w: number; h: number }> = [];
  const columnStyles: Record<string, { cellWidth: number }> = {};
  t.columns.forEach((w, i) => (columnStyles[i] = { cellWidth: w }));
  const left = frame.left + t.x;

  autoTable(doc, {
    theme: 'plain',
    startY: y,
    margin: { top: frame.top, bottom: frame.pageHeight - frame.bottom, left, right: Math.max(0, frame.pageWidth - left - t.width) },
    tableWidth: t.width,
    pageBreak: 'auto',
    rowPageBreak: 'avoid',
    showHead: 'everyPage',
    showFoot: 'never',
    tableLineWidth: 0,
    // No fontStyle: with one, autotable lists every font of the document for every cell it styles.
    styles: { cellPadding: 0, lineWidth: 0, fontSize: 1, overflow: 'visible', minCellHeight: 0, fillColor: false, fontStyle: undefined, font: undefined },
    columnStyles,
    head: head.map(rowInput),
    body: body.map(rowInput),
    // The whole cell is drawn here and autotable's own drawing skipped (returning false): it would only add
    // an empty text operation per cell.
    willDrawCell: (data: CellHookData) => {
      check?.();
      const laid = (data.cell.raw as Partial<CellWithLayout> | null)?.laid;
      if (!laid) return false;
      painter.invalidate();
      const { x, y: cy, width, height } = data.cell;
      if (laid.fill) painter.fillRect(x, cy, width, height, laid.fill);
      painter.cellContent(laid, x, cy, height, fields());
      pendingBorders.push({ b: laid.borders, x, y: cy, w: width, h: height });
      return false;
    },
    // Borders last, once per page: a neighbour's shading must not paint over half of a border.
    didDrawPage: () => {
      for (const p of pendingBorders) painter.borders(p.b, p.x, p.y, p.w, p.h);
      pendingBorders.length = 0;
      painter.invalidate();
    },
  });
  painter.invalidate();
  const last = (doc as unknown as { lastAutoTable?: { finalY?: number } }).lastAutoTable;
  return last?.finalY ?? y;
}
