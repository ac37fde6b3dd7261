/**
 * A w:tbl → model table: grid column widths, header rows (w:tblHeader), row heights, merged cells (gridSpan →
 * colSpan; vMerge → rowSpan with the covered cells left out, as in HTML), shading, borders and the table style
 * with its conditional parts (header row, first column, banded rows…) as the table's w:tblLook enables them.
 *
 * Borders: when every edge of every cell is the same line (or none), the table carries that one line in
 * `style.borders` and cells carry nothing. Otherwise `style.borders` is null and each cell lists exactly the
 * edges that are drawn (an edge it does not list has no line).
 */
import type { Block, BorderLine, CellMargins, Table, TableCell, TableRow } from '../model/types.js';
import { tablePlacement } from './frames.js';
import { isBlock, type PartContext } from './context.js';
import { mergeBorders, readBorders, readShading, type Borders } from './props.js';
import { mergeLayer, readCellMargins, type TableLayer, type TableStyle } from './styles.js';
import { num, onOff, round2, twips } from './units.js';
import { dropped } from './warnings.js';
import { textDirection } from './text-direction.js';
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
  const isFirstRow = look.firstRow && r < Math.max(1, headerRows);
  const isLastRow = look.lastRow && r === nRows - 1;
  const isFirstCol = look.firstColumn && c === 0;
  const isLastCol = look.lastColumn && c === nCols - 1;
  if (look.vBand && !isFirstCol && !isLastCol) layer = withConditional(layer, style, (c - (look.firstColumn ? 1 : 0)) % 2 === 0 ? 'band1Vert' : 'band2Vert');
  if (look.hBand && !isFirstRow && !isLastRow) {
    const offset = look.firstRow ? Math.max(1, headerRows) : 0;
    layer = withConditional(layer, style, (r - offset) % 2 === 0 ? 'band1Horz' : 'band2Horz');
  }
  if (isFirstCol) layer = withConditional(layer, style, 'firstCol');
  if (isLastCol) layer = withConditional(layer, style, 'lastCol');
  if (isFirstRow) layer = withConditional(layer, style, 'firstRow');
  if (isLastRow) layer = withConditional(layer, style, 'lastRow');
  if (isFirstRow && isFirstCol) layer = withConditional(layer, style, 'nwCell');
  if (isFirstRow && isLastCol) layer = withConditional(layer, style, 'neCell');
  if (isLastRow && isFirstCol) layer = withConditional(layer, style, 'swCell');
  if (isLastRow && isLastCol) layer = withConditional(layer, style, 'seCell');
  return layer;
}

/** `layer` with the table style's conditional formatting of `kind` over it, when the style has one. */
function withConditional(layer: TableLayer, style: TableStyle, kind: string): TableLayer {
  const l = style.conditional.get(kind);
  return l ? mergeLayer(layer, l) : layer;
}

function sameLine(a: BorderLine | null, b: BorderLine | null): boolean {
  if (a === null || b === null) return a === b;
  return a.width === b.width && a.color === b.color && (a.style ?? 'single') === (b.style ?? 'single');
}

/** Tables being read around the current one (a nested table's indent is measured differently). */
let nesting = 0;

/** An on/off element of w:trPr: present and not switched off by its w:val. */
function isOn(el: XElement | undefined): boolean {
  return el !== undefined && onOff(el.attrs['w:val']);
}

export function readTable(ctx: PartContext, tbl: XElement): Table {
  nesting++;
  try {
    return readTableAt(ctx, tbl, nesting > 1);
  } finally {
    nesting--;
  }
}

function readTableAt(ctx: PartContext, tbl: XElement, nested: boolean): Table {
  const { styles, theme } = ctx.doc;
  const tblPr = child(tbl, 'w:tblPr');
  const style = styles.tableStyle(childVal(tblPr, 'w:tblStyle'));
  const look = readLook(child(tblPr, 'w:tblLook'));
  const directBorders = readBorders(child(tblPr, 'w:tblBorders'), theme);
  const directMargins = child(tblPr, 'w:tblCellMar');
  const grid = children(child(tbl, 'w:tblGrid'), 'w:gridCol').map((g) => twips(g.attrs['w:w']) ?? 0);
  // A right-to-left table (w:bidiVisual): the first column is on the right, "left" edges and margins are its start.
  const bidiEl = child(tblPr, 'w:bidiVisual');
  const visual = bidiEl !== undefined && onOff(bidiEl.attrs['w:val']);

  const rowEls = unwrap(ctx, tbl, 'w:tr');
  const nRows = rowEls.length;
  let headerRows = 0;
  while (headerRows < nRows && isOn(child(child(rowEls[headerRows], 'w:trPr'), 'w:tblHeader'))) headerRows++;

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
  // A grid with fewer columns than the rows use was written by a tool that did not keep it (the cells' widths hold).
  const shortGrid = grid.length < nCols;
  while (grid.length < nCols) grid.push(0);
  const tblW = readWidth(child(tblPr, 'w:tblW'));
  const cellWidths = layout.flatMap((l) => l.cells.map((c) => ({ start: c.start, span: c.span, w: readWidth(child(child(c.tc, 'w:tcPr'), 'w:tcW')) })));
  // Cell widths in points; a pct cell width is a share of the table's width (a nominal one when that is a share too).
  const tablePt = tblW && 'pt' in tblW ? tblW.pt : NOMINAL_WIDTH;
  const inPoints = cellWidths.map((c) => ({ ...c, w: c.w === undefined ? undefined : 'pt' in c.w ? c.w.pt : c.w.share * tablePt }));
  const fromCells = placeholderGrid(grid, inPoints, shortGrid);
  if (fromCells) grid.splice(0, grid.length, ...fromCells);
  else fillMissingWidths(grid, inPoints);

  const rows: TableRow[] = [];
  const rawRows: RawCell[][] = [];
  const tableBase = mergeLayer(style.base, { p: {}, r: {}, tableBorders: directBorders });
  // Word's defaults (108 twips left and right, none above and below) under the table style's, under the table's.
  const margins = mergeMargins(mergeMargins(DEFAULT_MARGINS, tableBase.cellMargins), readCellMargins(directMargins));
  const padding = margins.left ?? 5.4;

  layout.forEach((row, r) => {
    const exceptions = readBorders(child(child(row.tr, 'w:tblPrEx'), 'w:tblBorders'), theme);
    const T: Borders = mergeBorders(tableBase.tableBorders, exceptions) ?? {};
    const rawCells: RawCell[] = [];
    if (row.before > 0) rawCells.push(spacerCell(row.before, 0));
    // Whether some cell of the row shows its end-of-cell mark (see dropHiddenMarks).
    let marksShown = row.cells.length === 0;
    for (const { tc, start, span } of row.cells) {
      const tcPr = child(tc, 'w:tcPr');
      const layer = conditionalLayer(style, look, r, start, nRows, nCols, headerRows);
      const vm = child(tcPr, 'w:vMerge');
      const vMerge = vm ? (vm.attrs['w:val'] === 'restart' ? 'restart' : 'continue') : undefined;
      const blocks: Block[] = [];
      for (const item of ctx.readBlocks(tc, layer)) if (isBlock(item)) blocks.push(item);
      dropMarkAfterTable(blocks);
      const hideMark = child(tcPr, 'w:hideMark');
      if (!hideMark || !onOff(hideMark.attrs['w:val']) || vMerge || blocks.length !== 1 || !isBareMark(blocks[0])) marksShown = true;
      const cell: TableCell = { blocks };
      if (span > 1) cell.colSpan = span;
      const shading = readShading(child(tcPr, 'w:shd'), theme);
      const fill = shading !== undefined ? shading : layer.shading;
      if (fill) cell.shading = fill;
      const own = readCellMargins(child(tcPr, 'w:tcMar'));
      if (own) {
        const m: CellMargins = {};
        for (const k of ['top', 'right', 'bottom', 'left'] as const) if (own[k] !== undefined) m[k] = round2(own[k]);
        if (Object.keys(m).length > 0) cell.margins = m;
      }
      const vAlign = childVal(tcPr, 'w:vAlign');
      if (vAlign === 'center') cell.vAlign = 'middle';
      else if (vAlign === 'bottom') cell.vAlign = 'bottom';
      const direction = textDirection(childVal(tcPr, 'w:textDirection'));
      if (direction) cell.textDirection = direction;
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
    if (visual) for (const raw of rawCells) mirrorCell(raw);
    rawRows.push(rawCells);

    const tableRow: TableRow = { cells: [] };
    if (r < headerRows) tableRow.header = true;
    const height = child(row.trPr, 'w:trHeight');
    const h = twips(height?.attrs['w:val']);
    // hRule: atLeast when absent with a value (ECMA-376 17.4.81), auto = no minimum, exact = that height whatever it holds.
    const rule = height?.attrs['w:hRule'];
    if (h && h > 0 && rule !== 'auto') {
      tableRow.height = round2(h);
      if (rule === 'exact') tableRow.heightRule = 'exact';
    }
    if (!marksShown) dropHiddenMarks(rawCells);
    if (isOn(child(row.trPr, 'w:cantSplit'))) tableRow.cantSplit = true;
    rows.push(tableRow);
  });

  applyVerticalMerges(rawRows);
  const borders = decideBorders(rawRows);
  rawRows.forEach((rawCells, r) => {
    // Cells covered by a rowSpan from above are left out, as in HTML.
    for (const raw of rawCells) if (!raw.covered) rows[r].cells.push(raw.cell);
  });

  const cellMargins: CellMargins = {};
  for (const k of ['top', 'right', 'bottom', 'left'] as const) cellMargins[k] = round2(margins[k] ?? 0);
  const tableStyle: NonNullable<Table['style']> = { borders: borders.uniform, cellPadding: round2(padding), cellMargins };
  const jc = childVal(tblPr, 'w:jc');
  if (jc === 'center') tableStyle.align = 'center';
  // In a right-to-left table "left" and "start" are the right side, the side it sits on by default.
  else if (visual) {
    if (jc !== 'right' && jc !== 'end') tableStyle.align = 'right';
  } else if (jc === 'right' || jc === 'end') tableStyle.align = 'right';
  if (tblW && 'pt' in tblW) tableStyle.width = round2(tblW.pt);
  else if (tblW) tableStyle.widthShare = Math.round(tblW.share * 10000) / 10000;
  else if (fromCells && inPoints.some((c) => c.w !== undefined) && cellWidths.every((c) => c.w === undefined || 'share' in c.w)) {
    // Only pct cell widths: the table is as wide as its widest row's share.
    const rowShare = layout.map((l) => l.cells.reduce((a, c) => { const w = readWidth(child(child(c.tc, 'w:tcPr'), 'w:tcW')); return a + (w && 'share' in w ? w.share : 0); }, 0));
    const widest = Math.max(...rowShare);
    if (widest > 0) tableStyle.widthShare = Math.round(widest * 10000) / 10000;
  }
  const ind = child(tblPr, 'w:tblInd');
  const indent = ind && (ind.attrs['w:type'] === undefined || ind.attrs['w:type'] === 'dxa') ? twips(ind.attrs['w:w']) : undefined;
  // Word 2010 and older (compatibilityMode below 15) measure a top-level table's indent — the stated one, or 0
  // when none is stated — to the text of its first cell: the edge sits that cell's left margin further left, so
  // a table without an indent has its text, not its border, on the margin (as Word and LibreOffice place it).
  let edge = indent;
  if (!nested && (ctx.doc.compatibilityMode ?? 0) < 15) {
    const first = rawRows[0]?.find((c) => c.el !== SPACER)?.cell;
    edge = (edge ?? 0) - (first?.margins?.left ?? margins.left ?? 0);
  }
  // The model's indent is from the left edge; a right-to-left table's is from the right, which it cannot say.
  if (edge && !visual) tableStyle.indent = round2(edge);
  if (child(tblPr, 'w:tblLayout')?.attrs['w:type'] === 'fixed') tableStyle.layout = 'fixed';
  // A table wider than the text column keeps its width, reaching into the margins, as Word draws it.
  if (!nested) tableStyle.keepWidth = true;
  if (visual) {
    // Mirrored columns: with covered cells left out (HTML-like rows), reversing each row's cells and the grid
    // puts every cell, spans included, in its mirrored place.
    grid.reverse();
    for (const row of rows) row.cells.reverse();
    const m = tableStyle.cellMargins;
    if (m) [m.left, m.right] = [m.right, m.left];
  }
  // A floating table in a table cell stays in the cell's flow, as LibreOffice 7.4 shows it (Word floats it).
  const float = nested ? null : tablePlacement(child(tblPr, 'w:tblpPr'));
  if (float) {
    // A floating table is placed by its position: its own indent and alignment do not move it.
    tableStyle.float = float;
    delete tableStyle.indent;
    delete tableStyle.align;
  }
  return { type: 'table', columns: grid.map(round2), rows, style: tableStyle };
}

/** A cell of a right-to-left table: its start (left in WordprocessingML terms) edge and margin go to the right. */
function mirrorCell(raw: RawCell): void {
  [raw.edges.left, raw.edges.right] = [raw.edges.right, raw.edges.left];
  const m = raw.cell.margins;
  if (m) {
    const { left, right } = m;
    delete m.left;
    delete m.right;
    if (right !== undefined) m.left = right;
    if (left !== undefined) m.right = left;
  }
}

/** Word's default cell margins: 108 twips left and right, none above and below. */
const DEFAULT_MARGINS: CellMargins = { top: 0, bottom: 0, left: 5.4, right: 5.4 };
/** What a share of a table's width is taken of when the table's own width is a share too (or unknown). */
const NOMINAL_WIDTH = 468;

function mergeMargins(a: CellMargins, b: CellMargins | undefined): CellMargins {
  const out: CellMargins = { ...a };
  if (b) for (const k of ['top', 'bottom', 'left', 'right'] as const) if (b[k] !== undefined) out[k] = b[k];
  return out;
}

type Width = { pt: number } | { share: number };

/** w:tblW / w:tcW: dxa (twips), pct (fiftieths of a percent, or written as "50%"); auto and nil give nothing. */
function readWidth(el: XElement | undefined): Width | undefined {
  const raw = el?.attrs['w:w']?.trim();
  if (!el || raw === undefined) return undefined;
  const type = el.attrs['w:type'] ?? 'dxa';
  if (raw.endsWith('%') || type === 'pct') {
    const v = parseFloat(raw);
    if (!Number.isFinite(v) || v <= 0) return undefined;
    return { share: Math.min(raw.endsWith('%') ? v / 100 : v / 5000, 10) };
  }
  if (type !== 'dxa') return undefined;
  const t = twips(raw);
  return t !== undefined && t > 0 ? { pt: t } : undefined;
}

/**
 * The grid from the cells' widths when w:tblGrid is a placeholder: missing or zero, short of the columns the rows
 * use, far narrower than the cells say (less than half), or all equal while the cells say otherwise. Null when the grid stands (or the cells do
 * not give every column a width).
 */
function placeholderGrid(grid: number[], cells: Array<{ start: number; span: number; w?: number }>, short: boolean): number[] | null {
  const derived: number[] = new Array<number>(grid.length).fill(0);
  for (const c of cells) if (c.span === 1 && c.w && c.w > 0 && derived[c.start] === 0) derived[c.start] = c.w;
  // Spanning cells give the one column of their span still unknown.
  for (const c of cells) {
    if (c.span <= 1 || !c.w) continue;
    const unknown = [];
    for (let i = c.start; i < Math.min(grid.length, c.start + c.span); i++) if (derived[i] === 0) unknown.push(i);
    if (unknown.length === 1) {
      const rest = c.w - derived.slice(c.start, c.start + c.span).reduce((a, b) => a + b, 0);
      if (rest > 0) derived[unknown[0]] = rest;
    }
  }
  if (!derived.every((w) => w > 0)) return null;
  if (short) return derived;
  const gridSum = grid.reduce((a, b) => a + Math.max(0, b), 0);
  const cellSum = derived.reduce((a, b) => a + b, 0);
  if (gridSum < cellSum * 0.5) return derived;
  const equal = grid.length > 1 && grid.every((w) => Math.abs(w - grid[0]) < 0.5);
  if (equal && derived.some((d, i) => Math.abs(d - grid[i]) > 0.1 * d)) return derived;
  return null;
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

/**
 * A cell must end with a paragraph, so Word writes an empty one after a table that ends a cell. Word and
 * LibreOffice give that mark no height: the cell ends with the nested table (docling__docx_rich_cells: the row is
 * a line shorter). Only an empty paragraph right after an inline table goes; one with text, a list number or
 * after anything else stays.
 */
function dropMarkAfterTable(blocks: Block[]): void {
  const last = blocks[blocks.length - 1];
  const before = blocks[blocks.length - 2];
  if (!last || !isBareMark(last) || !before || before.type !== 'table' || before.style?.float) return;
  blocks.pop();
  // Its line goes, its space after stays (LibreOffice: aspose__Newsletter_1's banner rows keep the 18 pt).
  const after = last.type === 'paragraph' ? (last.style?.spaceAfter ?? 0) : 0;
  if (after > 0) blocks.push({ type: 'paragraph', runs: [], style: { spaceBefore: 0, spaceAfter: after, lineExact: 0.01 } });
}

/** A paragraph that is nothing but its mark: no text, picture, tag, list number or note. */
function isBareMark(block: Block): boolean {
  return block.type === 'paragraph' && !block.list && !block.footnotes?.length && block.runs.every((r) => r.type === 'text' && r.text === '');
}

/**
 * w:hideMark (ECMA-376 §17.4.20): the end-of-cell mark does not count in the row's height. Applied where Word's
 * rule and LibreOffice's (writerfilter's lcl_hideMarks + lcl_emptyRow) agree: a row that declares a height and
 * whose cells all hide their mark and hold nothing else (no vertical merge) is exactly that height
 * (docx2python__Weekly_Schedule's spacer rows: ink 0.58 → 0.97). Word also drops the mark's height of such a cell
 * in a row with other content; LibreOffice does not, and neither does docloom (aspose__Newsletter_1's banner
 * rows with merged cells keep their marks' height, as LibreOffice draws them).
 */
function dropHiddenMarks(cells: RawCell[]): void {
  for (const raw of cells) raw.cell.blocks = [];
}
