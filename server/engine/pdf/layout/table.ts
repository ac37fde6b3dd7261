/**
 * Table layout: column widths scaled to the box, each cell's blocks laid out in its width, row heights.
 * Body tables are then placed on pages by the flow (pdf/flow/table.ts: rows split at the page foot, header rows
 * repeated); tables inside cells, headers and footers are drawn directly from this layout.
 */
import type { BorderLine, Table, TableCell } from '../../model/types.js';
import { parseColor } from './color.js';
import { merge, num } from './fmt.js';
import { copyWith } from '../../copy.js';
import type { Borders, LaidBlock, LaidCell, LaidRow, LaidTable } from './items.js';
import type { LayoutContext } from './paragraph.js';
import { splitAt } from './cut.js';
import { addBorderRoom } from './border-room.js';
import { lineExtent } from './turned-cell.js';

/** Word's default left/right cell margin (0.08 inch). */
const DEFAULT_CELL_PADDING = 5.4;
const DEFAULT_BORDER: BorderLine = { width: 0.5, color: '#000000', style: 'single' };
/** Widest grid we lay out: wider models are cut (their extra cells join the last column). */
const MAX_COLUMNS = 63;

export type BlockLayout = (blocks: unknown, width: number, ctx: LayoutContext) => { blocks: LaidBlock[]; height: number };

function validBorder(b: BorderLine | null | undefined): BorderLine | undefined {
  if (!b || typeof b !== 'object') return undefined;
  const width = num(b.width, 0);
  if (!(width > 0)) return undefined;
  return { ...b, width: Math.min(width, 12) };
}

function columnWidths(table: Table, gridCols: number, width: number, pageMargins: LayoutContext['pageMargins']): number[] {
  const style = table.style && typeof table.style === 'object' ? table.style : {};
  const given = (Array.isArray(table.columns) ? table.columns : []).slice(0, gridCols).map((w) => Math.max(0, num(w, 0)));
  const known = given.filter((w) => w > 0);
  const fallback = known.length > 0 ? known.reduce((a, b) => a + b, 0) / known.length : width / gridCols;
  const widths: number[] = [];
  for (let i = 0; i < gridCols; i++) widths.push(given[i] > 0 ? given[i] : fallback);
  const total = widths.reduce((a, b) => a + b, 0);
  // The preferred width (points, or a share of the box), honoured by autofit tables; never wider than the box.
  const preferred = num(style.width, 0) > 0 ? num(style.width, 0) : num(style.widthShare, 0) > 0 ? num(style.widthShare, 0) * width : 0;
  let target = total;
  if (style.layout !== 'fixed' && preferred > 0) target = preferred;
  // Scaled down to the box when too wide (or to the page's edge for a table that keeps its width); otherwise only
  // to the preferred width (a narrow table stays narrow).
  target = Math.min(target, width + marginRoom(style, pageMargins));
  const scale = total > 0 ? target / total : 1;
  return widths.map((w) => w * scale);
}

/** How far a table that keeps its width (style.keepWidth) may reach past its box into the page's margins. */
function marginRoom(style: NonNullable<Table['style']>, pageMargins: LayoutContext['pageMargins']): number {
  // A width given as a share of the box is the box's to set: such a table never reaches past it.
  if (style.keepWidth !== true || !pageMargins || num(style.widthShare, 0) > 0) return 0;
  const left = Math.max(0, num(pageMargins.left, 0));
  const right = Math.max(0, num(pageMargins.right, 0));
  return style.align === 'center' ? 2 * Math.min(left, right) : style.align === 'right' ? left : right;
}

/**
 * Widens the columns narrower than their widest word (`min`), first by growing the table up to `room`, then by
 * taking width from the columns wider than they need. Columns that cannot be given all they need get a share.
 * True when a column changed.
 */
function widen(columns: number[], min: number[], room: number): boolean {
  const need = columns.map((w, i) => Math.max(0, min[i] - w));
  const deficit = need.reduce((a, b) => a + b, 0);
  if (deficit < 0.5) return false;
  const total = columns.reduce((a, b) => a + b, 0);
  const grow = Math.min(deficit, Math.max(0, room - total));
  const slack = columns.map((w, i) => (need[i] > 0 ? 0 : Math.max(0, w - min[i])));
  const totalSlack = slack.reduce((a, b) => a + b, 0);
  const taken = Math.min(deficit - grow, totalSlack);
  if (grow + taken < 0.5) return false;
  const share = (grow + taken) / deficit;
  for (let i = 0; i < columns.length; i++) {
    if (need[i] > 0) columns[i] += need[i] * share;
    else if (totalSlack > 0) columns[i] -= (slack[i] * taken) / totalSlack;
  }
  return true;
}

interface Placement {
  cell: TableCell;
  col: number;
  colSpan: number;
  rowSpan: number;
  /** An empty cell added where a short row leaves columns unfilled (drawn without borders). */
  filler?: boolean;
}

/** Assigns each cell its first grid column (HTML rules: cells skip columns covered by row spans above). */
function place(table: Table): { rows: Placement[][]; gridCols: number } {
  const rows = Array.isArray(table.rows) ? table.rows : [];
  const covered: number[] = []; // rows still covered, per column
  const out: Placement[][] = [];
  let gridCols = 1;
  for (const row of rows) {
    const cells = row && Array.isArray(row.cells) ? row.cells : [];
    const placed: Placement[] = [];
    let col = 0;
    for (const cell of cells) {
      if (!cell || typeof cell !== 'object') continue;
      while ((covered[col] ?? 0) > 0) col++;
      if (col >= MAX_COLUMNS) break;
      const colSpan = Math.max(1, Math.min(Math.floor(num(cell.colSpan, 1)), MAX_COLUMNS - col));
      const rowSpan = Math.max(1, Math.floor(num(cell.rowSpan, 1)));
      placed.push({ cell, col, colSpan, rowSpan });
      for (let c = col; c < col + colSpan; c++) covered[c] = Math.max(covered[c] ?? 0, rowSpan);
      col += colSpan;
    }
    gridCols = Math.max(gridCols, col, ...covered.map((n, i) => (n > 0 ? i + 1 : 0)));
    out.push(placed);
    for (let c = 0; c < covered.length; c++) if (covered[c] > 0) covered[c]--;
  }
  const fromModel = Array.isArray(table.columns) ? table.columns.length : 0;
  return { rows: out, gridCols: Math.max(1, Math.min(MAX_COLUMNS, Math.max(gridCols, fromModel))) };
}

/** Adds empty cells where a row leaves grid columns neither filled nor covered by a span from above. */
function fillGaps(rows: Placement[][], gridCols: number): void {
  const coveredUntil: number[] = new Array(gridCols).fill(-1);
  rows.forEach((placed, r) => {
    const taken = new Array<boolean>(gridCols).fill(false);
    for (let c = 0; c < gridCols; c++) if (coveredUntil[c] >= r) taken[c] = true;
    for (const p of placed) for (let c = p.col; c < Math.min(gridCols, p.col + p.colSpan); c++) taken[c] = true;
    for (let c = 0; c < gridCols; c++) {
      if (taken[c]) continue;
      let span = 1;
      while (c + span < gridCols && !taken[c + span]) span++;
      placed.push({ cell: { blocks: [] }, col: c, colSpan: span, rowSpan: 1, filler: true });
      c += span - 1;
    }
    placed.sort((a, b) => a.col - b.col);
    for (const p of placed) {
      const last = r + Math.min(p.rowSpan, rows.length - r) - 1;
      for (let c = p.col; c < Math.min(gridCols, p.col + p.colSpan); c++) coveredUntil[c] = Math.max(coveredUntil[c], last);
    }
  });
}

export function layoutTable(table: Table, width: number, ctx: LayoutContext, layoutStack: BlockLayout): LaidTable {
  const style = table.style && typeof table.style === 'object' ? table.style : {};
  const { rows: placedRows, gridCols } = place(table);
  fillGaps(placedRows, gridCols);
  const columns = columnWidths(table, gridCols, width, ctx.pageMargins);
  let tableWidth = columns.reduce((a, b) => a + b, 0);
  // The indent moves a left-aligned table (within the box: a table the box's width is not pushed past it).
  const placeX = (w: number): number => {
    const indent = Math.max(-72, Math.min(num(style.indent, 0), Math.max(0, width - w)));
    return style.align === 'center' ? (width - w) / 2 : style.align === 'right' ? width - w : indent;
  };
  let x = placeX(tableWidth);
  const padH = Math.min(Math.max(num(style.cellPadding, DEFAULT_CELL_PADDING), 0), Math.max(0, Math.min(72, tableWidth / gridCols / 3)));
  const margins = style.cellMargins && typeof style.cellMargins === 'object' ? style.cellMargins : undefined;
  const side = (v: unknown, fallback: number): number => Math.max(0, Math.min(72, num(v, fallback)));
  // Cell margins per side when given (Word's: none above and below), else the padding (half of it vertically).
  const padding = margins
    ? { top: side(margins.top, 0), bottom: side(margins.bottom, 0), left: side(margins.left, padH), right: side(margins.right, padH) }
    : { top: padH / 2, bottom: padH / 2, left: padH, right: padH };
  const wantedPadding = (cell: TableCell): LaidCell['padding'] => {
    const own = cell.margins && typeof cell.margins === 'object' ? cell.margins : undefined;
    return own ? { top: side(own.top, padding.top), bottom: side(own.bottom, padding.bottom), left: side(own.left, padding.left), right: side(own.right, padding.right) } : padding;
  };
  const cellPadding = (cell: TableCell, cellWidth: number): LaidCell['padding'] => {
    const p = wantedPadding(cell);
    // Margins never take more than two thirds of the cell's width.
    const h = p.left + p.right;
    if (h > (cellWidth * 2) / 3 && h > 0) {
      const k = (cellWidth * 2) / 3 / h;
      return { ...p, left: p.left * k, right: p.right * k };
    }
    return p;
  };
  const tableBorder = style.borders === null ? undefined : validBorder(style.borders ?? DEFAULT_BORDER);
  // Tab stops in cells end at the cell's edge (pageMargins are the page's, not the cell's).
  // minWidth is the enclosing table's record: a nested table's cells must not write into it.
  const cellCtx: LayoutContext = copyWith(ctx, { pageMargins: undefined, minWidth: undefined, defaults: style.run ? { ...ctx.defaults, run: merge(ctx.defaults.run, style.run) } : ctx.defaults });
  // Rows spanned by one cell are kept together where they fit on a page, and the flow cuts a span that does not
  // fit where it starts (flow/table.ts cutSpans, as Word and LibreOffice break a merged cell across pages); a span
  // taller than a whole page becomes ordinary cells (aspose__Rotated_cell_text's 413 pt merged cell, centred
  // over its nine rows, is more than half a page but fits on one).
  const maxSpanHeight = ctx.maxImage.height;

  const models = Array.isArray(table.rows) ? table.rows : [];
  const autofit = style.layout !== 'fixed';
  // Autofit: the widest word of each one-column cell, to widen columns too narrow for it (laid out again then).
  const listState = autofit ? ctx.lists.snapshot() : undefined;
  const minCol: number[] = new Array<number>(gridCols).fill(0);
  const minHeight = (r: number): number => Math.max(0, Math.min(num(models[r]?.height, 0), ctx.maxImage.height));
  const exact = (r: number): boolean => models[r]?.heightRule === 'exact' && num(models[r]?.height, 0) > 0;
  // The line length of a turned cell (layout/turned-cell.ts): the rows' height inside the margins when each gives
  // one (exact or at least), else the text's unwrapped length (laid out once to measure it), at most a page.
  const turnedLength = (p: Placement, r: number, pad: LaidCell['padding']): number => {
    const rows = Math.min(p.rowSpan, placedRows.length - r);
    let least = 0;
    let fixed = true;
    for (let k = r; k < r + rows; k++) {
      least += minHeight(k);
      fixed &&= minHeight(k) > 0;
    }
    const room = (h: number): number => Math.max(1, h - pad.top - pad.bottom);
    if (fixed) return room(least);
    const most = room(ctx.maxImage.height);
    const lists = ctx.lists.snapshot();
    const natural = lineExtent(layoutStack(p.cell.blocks, most, cellCtx).blocks);
    ctx.lists.restore(lists);
    // A hair over the measure, so that the same words fit on the same lines again.
    return Math.min(most, Math.max(room(least), natural + 0.01));
  };
  const layoutRows = (measure: boolean): LaidRow[] => placedRows.map((placed, r) => {
    const model = models[r];
    const cells: LaidCell[] = [];
    for (const p of placed) {
      const cellWidth = columns.slice(p.col, p.col + p.colSpan).reduce((a, b) => a + b, 0);
      const pad = cellPadding(p.cell, cellWidth);
      const inner = Math.max(1, cellWidth - pad.left - pad.right);
      const turn = p.cell.textDirection === 'btLr' || p.cell.textDirection === 'tbRl' ? p.cell.textDirection : undefined;
      const record = measure && p.colSpan === 1 && !p.filler && !turn ? { value: 0 } : undefined;
      const length = turn ? turnedLength(p, r, pad) : inner;
      const laid = layoutStack(p.cell.blocks, length, record ? { ...cellCtx, minWidth: record } : cellCtx);
      if (record) {
        const wanted = wantedPadding(p.cell);
        minCol[p.col] = Math.max(minCol[p.col], record.value + wanted.left + wanted.right);
      }
      const own: Borders = p.cell.borders && typeof p.cell.borders === 'object' ? p.cell.borders : {};
      const borders: Borders = p.filler ? {} : {
        top: own.top !== undefined ? validBorder(own.top) : tableBorder,
        bottom: own.bottom !== undefined ? validBorder(own.bottom) : tableBorder,
        left: own.left !== undefined ? validBorder(own.left) : tableBorder,
        right: own.right !== undefined ? validBorder(own.right) : tableBorder,
      };
      const vAlign = p.cell.vAlign === 'middle' || p.cell.vAlign === 'bottom' ? p.cell.vAlign : 'top';
      cells.push({
        blocks: laid.blocks,
        // A turned cell's lines run down the row: their length is what the row must hold.
        contentHeight: turn ? length : laid.height,
        ...(turn ? { turn: { direction: turn, across: laid.height } } : {}),
        col: p.col,
        colSpan: p.colSpan,
        rowSpan: Math.min(p.rowSpan, placedRows.length - r),
        fill: parseColor(p.cell.shading),
        vAlign,
        borders,
        padding: pad,
      });
    }
    return {
      cells,
      header: model?.header === true,
      minHeight: minHeight(r),
      exact: exact(r),
      cantSplit: model?.cantSplit === true,
    };
  });
  let rows = layoutRows(autofit);
  // The room to grow into: the whole box for a centred or right-aligned table (placed again below), else what its
  // indent leaves.
  const room = style.align === 'center' || style.align === 'right' ? width : width - Math.max(0, x);
  if (autofit && listState && widen(columns, minCol, room)) {
    ctx.lists.restore(listState);
    rows = layoutRows(false);
    tableWidth = columns.reduce((a, b) => a + b, 0);
    x = placeX(tableWidth);
  }
  addBorderRoom(rows);
  const heights: number[] = [];
  const need = (c: LaidCell): number => c.contentHeight + c.padding.top + c.padding.bottom;
  const computeHeights = (): void => {
    heights.length = 0;
    for (const row of rows) {
      if (row.exact) {
        heights.push(row.minHeight);
        continue;
      }
      let h = Math.max(row.minHeight, padding.top + padding.bottom + 1);
      for (const c of row.cells) if (c.rowSpan === 1) h = Math.max(h, need(c));
      heights.push(h);
    }
  };
  computeHeights();
  // A span taller than a page cannot be kept on one: it becomes an ordinary cell (rows it covered get fillers).
  let changed = false;
  rows.forEach((row, r) => {
    for (const c of row.cells) {
      if (c.rowSpan <= 1) continue;
      let sum = 0;
      for (let k = r; k < r + c.rowSpan; k++) sum += heights[k];
      if (sum <= maxSpanHeight && need(c) <= maxSpanHeight) continue;
      for (let k = r + 1; k < r + c.rowSpan; k++) {
        rows[k].cells.push({ ...c, blocks: [], contentHeight: 0, rowSpan: 1, borders: { left: c.borders.left, right: c.borders.right, bottom: k === r + c.rowSpan - 1 ? c.borders.bottom : undefined } });
        rows[k].cells.sort((a, b) => a.col - b.col);
      }
      c.rowSpan = 1;
      changed = true;
    }
  });
  if (changed) computeHeights();
  // A cell spanning rows taller than those rows together makes the last of them taller.
  rows.forEach((row, r) => {
    for (const c of row.cells) {
      if (c.rowSpan <= 1) continue;
      let sum = 0;
      for (let k = r; k < r + c.rowSpan; k++) sum += heights[k];
      if (need(c) > sum) heights[r + c.rowSpan - 1] += need(c) - sum;
    }
  });
  // An exact height shows only the lines that fit (Word clips the rest at the row's foot, so a line whose
  // letters reach down to their baseline inside the row is still seen: it is kept).
  rows.forEach((row, r) => {
    if (!row.exact) return;
    row.cells.forEach((c, k) => {
      if (c.rowSpan > 1 || need(c) <= heights[r] + 0.01) return;
      const room = heights[r] - c.padding.top - c.padding.bottom;
      let cut = splitAt(c.blocks, room);
      const next = cut.tail[0];
      if (next?.kind === 'paragraph' && next.lines.length > 0 && cut.height + next.spaceBefore + next.lines[0].baseline <= room + 0.01) {
        cut = splitAt(c.blocks, cut.height + next.spaceBefore + next.lines[0].height);
      }
      row.cells[k] = { ...c, blocks: cut.head, contentHeight: Math.min(cut.height, room) };
    });
  });
  return { kind: 'table', columns, x, rows, heights, width: tableWidth };
}
