/**
 * A w:tbl → model table: grid column widths, header rows (w:tblHeader), row heights, merged cells (gridSpan →
 * colSpan; vMerge → rowSpan with the covered cells left out, as in HTML), shading, borders and the table style
 * with its conditional parts (header row, first column, banded rows…) as the table's w:tblLook enables them.
 *
 * Borders: when every edge of every cell is the same line (or none), the table carries that one line in
 * `style.borders` and cells carry nothing. Otherwise `style.borders` is null and each cell lists exactly the
 * edges that are drawn (an edge it does not list has no line).
 */
import type { Block, BorderLine, Table, TableCell, TableRow } from '../model/types.js';
import { isBlock, type PartContext } from './context.js';
import { mergeBorders, readBorders, readShading, type Borders } from './props.js';
import { mergeLayer, type TableLayer, type TableStyle } from './styles.js';
import { num, round2, twips } from './units.js';
import { dropped } from './warnings.js';
import { child, childVal, children, type XElement } from './xml.js';

interface Look {
  firstRow: boolean;
  lastRow: boolean;
  firstColumn: boolean;
  lastColumn: boolean;
  hBand: boolean;
  vBand: boolean;
}

function readLook(el: XElement | undefined): Look {
  // Word 2007 wrote a hex bit mask in w:val; later versions write one attribute per flag.
  const mask = el?.attrs['w:val'] !== undefined ? parseInt(el.attrs['w:val'], 16) : undefined;
  const bit = (attr: string, value: number, fallback: boolean): boolean => {
    const a = el?.attrs[attr];
    if (a !== undefined) return a === '1' || a === 'true' || a === 'on';
    if (mask !== undefined && Number.isFinite(mask)) return (mask & value) !== 0;
    return fallback;
  };
  return {
    firstRow: bit('w:firstRow', 0x20, true),
    lastRow: bit('w:lastRow', 0x40, false),
    firstColumn: bit('w:firstColumn', 0x80, true),
    lastColumn: bit('w:lastColumn', 0x100, false),
    hBand: !bit('w:noHBand', 0x200, false),
    vBand: !bit('w:noVBand', 0x400, true),
  };
}

/** Rows and cells may be wrapped in content controls or custom XML; unwrap them. */
function unwrap(ctx: PartContext, container: XElement, name: string, out: XElement[] = []): XElement[] {
  for (const node of container.children) {
    if (typeof node === 'string') continue;
    if (node.name === name) out.push(node);
    else if (node.name === 'w:sdt') unwrap(ctx, child(node, 'w:sdtContent') ?? node, name, out);
    else if (node.name === 'w:customXml' || node.name === 'w:ins' || node.name === 'w:moveTo') unwrap(ctx, node, name, out);
    // Properties (w:tblPr, w:trPr…) are read by name; anything else unknown is reported, not dropped silently.
    else dropped(ctx.doc.warnings, ctx.part, node);
  }
  return out;
}

interface RawCell {
  el: XElement;
  gridStart: number;
  span: number;
  vMerge?: 'restart' | 'continue';
  cell: TableCell;
  /** A vMerge continuation cell covered by the rowSpan of the cell above. */
  covered?: boolean;
  edges: Record<'top' | 'bottom' | 'left' | 'right', BorderLine | null>;
}

function conditionalLayer(style: TableStyle, look: Look, r: number, c: number, nRows: number, nCols: number, headerRows: number): TableLayer {
  let layer = style.base;
  const apply = (kind: string): void => {
    const l = style.conditional.get(kind);
    if (l) layer = mergeLayer(layer, l);
  };
  const isFirstRow = look.firstRow && r < Math.max(1, headerRows);
  const isLastRow = look.lastRow && r === nRows - 1;
  const isFirstCol = look.firstColumn && c === 0;
  const isLastCol = look.lastColumn && c === nCols - 1;
  if (look.vBand && !isFirstCol && !isLastCol) apply((c - (look.firstColumn ? 1 : 0)) % 2 === 0 ? 'band1Vert' : 'band2Vert');
  if (look.hBand && !isFirstRow && !isLastRow) {
    const offset = look.firstRow ? Math.max(1, headerRows) : 0;
    apply((r - offset) % 2 === 0 ? 'band1Horz' : 'band2Horz');
  }
  if (isFirstCol) apply('firstCol');
  if (isLastCol) apply('lastCol');
  if (isFirstRow) apply('firstRow');
  if (isLastRow) apply('lastRow');
  if (isFirstRow && isFirstCol) apply('nwCell');
  if (isFirstRow && isLastCol) apply('neCell');
  if (isLastRow && isFirstCol) apply('swCell');
  if (isLastRow && isLastCol) apply('seCell');
  return layer;
}

function sameLine(a: BorderLine | null, b: BorderLine | null): boolean {
  if (a === null || b === null) return a === b;
  return a.width === b.width && a.color === b.color && (a.style ?? 'single') === (b.style ?? 'single');
}

export function readTable(ctx: PartContext, tbl: XElement): Table {
  const { styles, theme } = ctx.doc;
  const tblPr = child(tbl, 'w:tblPr');
  const style = styles.tableStyle(childVal(tblPr, 'w:tblStyle'));
  const look = readLook(child(tblPr, 'w:tblLook'));
  const directBorders = readBorders(child(tblPr, 'w:tblBorders'), theme);
  const directMargins = child(tblPr, 'w:tblCellMar');
  const grid = children(child(tbl, 'w:tblGrid'), 'w:gridCol').map((g) => twips(g.attrs['w:w']) ?? 0);

  const rowEls = unwrap(ctx, tbl, 'w:tr');
  const nRows = rowEls.length;
  let headerRows = 0;
  while (headerRows < nRows && child(child(rowEls[headerRows], 'w:trPr'), 'w:tblHeader')) headerRows++;

  // First pass: grid positions, so conditional formatting knows first/last columns.
  const layout = rowEls.map((tr) => {
    const trPr = child(tr, 'w:trPr');
    const before = num(childVal(trPr, 'w:gridBefore')) ?? 0;
    const after = num(childVal(trPr, 'w:gridAfter')) ?? 0;
    let col = before;
    const cells = unwrap(ctx, tr, 'w:tc').map((tc) => {
      const tcPr = child(tc, 'w:tcPr');
      const span = Math.max(1, num(childVal(tcPr, 'w:gridSpan')) ?? 1);
      const start = col;
      col += span;
      return { tc, start, span };
    });
    return { tr, trPr, before, after, cells, end: col + after };
  });
  const nCols = Math.max(grid.length, ...layout.map((l) => l.end), 1);
  while (grid.length < nCols) grid.push(0);
  fillMissingWidths(grid, layout.flatMap((l) => l.cells.map((c) => ({ start: c.start, span: c.span, w: cellWidth(c.tc) }))));

  const rows: TableRow[] = [];
  const rawRows: RawCell[][] = [];
  const tableBase = mergeLayer(style.base, { p: {}, r: {}, tableBorders: directBorders });
  const padding = twips(child(directMargins, 'w:left')?.attrs['w:w'] ?? child(directMargins, 'w:start')?.attrs['w:w']) ?? tableBase.cellMargins?.left ?? 5.4;

  layout.forEach((row, r) => {
    const exceptions = readBorders(child(child(row.tr, 'w:tblPrEx'), 'w:tblBorders'), theme);
    const T: Borders = mergeBorders(tableBase.tableBorders, exceptions) ?? {};
    const rawCells: RawCell[] = [];
    if (row.before > 0) rawCells.push(spacerCell(row.before, 0));
    for (const { tc, start, span } of row.cells) {
      const tcPr = child(tc, 'w:tcPr');
      const layer = conditionalLayer(style, look, r, start, nRows, nCols, headerRows);
      const vm = child(tcPr, 'w:vMerge');
      const vMerge = vm ? (vm.attrs['w:val'] === 'restart' ? 'restart' : 'continue') : undefined;
      const blocks: Block[] = [];
      for (const item of ctx.readBlocks(tc, layer)) if (isBlock(item)) blocks.push(item);
      const cell: TableCell = { blocks };
      if (span > 1) cell.colSpan = span;
      const shading = readShading(child(tcPr, 'w:shd'), theme);
      const fill = shading !== undefined ? shading : layer.shading;
      if (fill) cell.shading = fill;
      const vAlign = childVal(tcPr, 'w:vAlign');
      if (vAlign === 'center') cell.vAlign = 'middle';
      else if (vAlign === 'bottom') cell.vAlign = 'bottom';
      const condBorders = layer === style.base ? undefined : layerEdges(layer);
      const B = mergeBorders(mergeBorders(style.base.cellBorders, condBorders), readBorders(child(tcPr, 'w:tcBorders'), theme)) ?? {};
      const pick = (own: BorderLine | null | undefined, outer: BorderLine | null | undefined, inner: BorderLine | null | undefined, isOuter: boolean): BorderLine | null =>
        own !== undefined ? own : ((isOuter ? outer : inner) ?? null);
      const edges = {
        top: pick(B.top, T.top, T.insideH, r === 0),
        bottom: pick(B.bottom, T.bottom, T.insideH, r === nRows - 1),
        left: pick(B.left, T.left, T.insideV, start === 0),
        right: pick(B.right, T.right, T.insideV, start + span >= nCols),
      };
      rawCells.push({ el: tc, gridStart: start, span, vMerge, cell, edges });
    }
    if (row.after > 0) rawCells.push(spacerCell(row.after, row.end - row.after));
    rawRows.push(rawCells);

    const tableRow: TableRow = { cells: [] };
    if (r < headerRows) tableRow.header = true;
    const height = child(row.trPr, 'w:trHeight');
    const h = twips(height?.attrs['w:val']);
    if (h && h > 0) tableRow.height = round2(h);
    if (child(row.trPr, 'w:cantSplit')) tableRow.cantSplit = true;
    rows.push(tableRow);
  });

  applyVerticalMerges(rawRows);
  const borders = decideBorders(rawRows);
  rawRows.forEach((rawCells, r) => {
    // Cells covered by a rowSpan from above are left out, as in HTML.
    for (const raw of rawCells) if (!raw.covered) rows[r].cells.push(raw.cell);
  });

  const table: Table = { type: 'table', columns: grid.map(round2), rows, style: { borders: borders.uniform, cellPadding: round2(padding) } };
  const jc = childVal(tblPr, 'w:jc');
  if (jc === 'center') table.style = { ...table.style, align: 'center' };
  else if (jc === 'right' || jc === 'end') table.style = { ...table.style, align: 'right' };
  return table;
}

const SPACER: XElement = { name: 'spacer', attrs: {}, children: [] };

/** An empty, borderless cell standing for w:gridBefore / w:gridAfter columns. */
function spacerCell(span: number, start: number): RawCell {
  const cell: TableCell = { blocks: [] };
  if (span > 1) cell.colSpan = span;
  return { el: SPACER, gridStart: start, span, cell, edges: { top: null, bottom: null, left: null, right: null } };
}

/** Edges a conditional layer sets, whether written as cell borders or as its own table borders. */
function layerEdges(layer: TableLayer): Borders | undefined {
  const t = layer.tableBorders;
  const fromTable: Borders | undefined = t ? { top: t.top, bottom: t.bottom, left: t.left, right: t.right } : undefined;
  if (fromTable) for (const k of Object.keys(fromTable) as (keyof Borders)[]) if (fromTable[k] === undefined) delete fromTable[k];
  return mergeBorders(fromTable, layer.cellBorders);
}

function cellWidth(tc: XElement): number | undefined {
  const w = child(child(tc, 'w:tcPr'), 'w:tcW');
  if (!w || (w.attrs['w:type'] !== undefined && w.attrs['w:type'] !== 'dxa')) return undefined;
  return twips(w.attrs['w:w']);
}

/** Grid columns Word left at zero (or a missing grid) take their width from the cells that cover them. */
function fillMissingWidths(grid: number[], cells: Array<{ start: number; span: number; w?: number }>): void {
  if (grid.every((w) => w > 0)) return;
  for (const c of cells) {
    if (c.span === 1 && c.w && grid[c.start] === 0) grid[c.start] = c.w;
  }
  const known = grid.filter((w) => w > 0);
  const fallback = known.length > 0 ? known.reduce((a, b) => a + b, 0) / known.length : 468 / grid.length;
  for (let i = 0; i < grid.length; i++) if (!(grid[i] > 0)) grid[i] = fallback;
}

/** vMerge="restart" opens a cell that grows down over the "continue" cells starting at the same grid column. */
function applyVerticalMerges(rows: RawCell[][]): void {
  const open = new Map<number, RawCell>();
  for (const row of rows) {
    const seen = new Set<number>();
    for (const raw of row) {
      seen.add(raw.gridStart);
      if (raw.vMerge === 'restart') {
        open.set(raw.gridStart, raw);
      } else if (raw.vMerge === 'continue') {
        const owner = open.get(raw.gridStart);
        if (owner) {
          owner.cell.rowSpan = (owner.cell.rowSpan ?? 1) + 1;
          owner.edges.bottom = raw.edges.bottom;
          raw.covered = true;
        }
      } else {
        open.delete(raw.gridStart);
      }
    }
    for (const col of [...open.keys()]) if (!seen.has(col)) open.delete(col);
  }
}

function decideBorders(rows: RawCell[][]): { uniform: BorderLine | null } {
  let first: BorderLine | null | undefined;
  let uniform = true;
  for (const row of rows) {
    for (const raw of row) {
      if (raw.el === SPACER) continue;
      for (const side of ['top', 'bottom', 'left', 'right'] as const) {
        const line = raw.edges[side];
        if (first === undefined) first = line;
        else if (!sameLine(first, line)) uniform = false;
      }
    }
  }
  if (uniform) return { uniform: first ?? null };
  for (const row of rows) {
    for (const raw of row) {
      const b: NonNullable<TableCell['borders']> = {};
      for (const side of ['top', 'bottom', 'left', 'right'] as const) {
        const line = raw.edges[side];
        if (line) b[side] = line;
      }
      if (Object.keys(b).length > 0) raw.cell.borders = b;
    }
  }
  return { uniform: null };
}
