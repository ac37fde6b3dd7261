/**
 * SmartArt. The model has no drawings, so a diagram becomes what a reader sees of it: its labels, where Word
 * last laid them out. The diagram's drawing part (dsp:sp shapes with their boxes and text, as Word saved them)
 * becomes a borderless table the size of the diagram: shapes whose middles share a band form one row, their
 * edges make the columns, empty space stays as empty cells and spacer rows. Each label keeps its size, weight,
 * colour, alignment and vertical anchor, and its shape's fill (so white text on a coloured shape stays
 * readable; the cell is a rectangle whatever the shape's outline). Read as text, that is row by row, left to
 * right — the order the labels are seen in. Without a drawing part, the diagram data's text points become
 * paragraphs in the order of the data, in a frame of the diagram's size.
 */
import type { Block, Paragraph, RunStyle, Table, TableCell, TableRow } from '../model/types.js';
import type { PartContext } from './context.js';
import { diagramShapeDecoration, drawingColor, styleFontColor } from './decoration.js';
import { mergeR } from './props.js';
import { smartArtCanvas } from './smartart-canvas.js';
import { toParagraphStyle, toRunStyle } from './resolve.js';
import { emu, round2 } from './units.js';
import { child, children, descendant, descendants, textOf, type XElement } from './xml.js';

interface Label {
  text: string;
  style: RunStyle;
  align: 'left' | 'center' | 'right';
}

interface ArtShape {
  x: number;
  y: number;
  width: number;
  height: number;
  labels: Label[];
  fill?: string;
  vAlign: 'top' | 'middle' | 'bottom';
  insetLeft: number;
  insetRight: number;
}

/** Gaps smaller than this (points) are not worth an empty column or row. */
const MIN_GAP = 1;
/** DrawingML text box insets when bodyPr does not say (0.1 inch left/right). */
const DEFAULT_INSET = 7.2;

export function smartArtBlocks(ctx: PartContext, relIds: XElement | undefined, frameWidth?: number, frameHeight?: number): Block[] {
  const relId = relIds?.attrs['r:dm'];
  const rels = ctx.doc.pkg.rels(ctx.part);
  const rel = relId ? rels.get(relId) : undefined;
  if (!rel || rel.external) return [];
  const dataModel = ctx.doc.pkg.xml(rel.target, true);
  // The data model names its drawing part (dsp:dataModelExt relId, a relationship of the part showing it).
  const drawingRel = rels.get(descendant(dataModel, 'dsp:dataModelExt')?.attrs.relId ?? '');
  const drawing = drawingRel && !drawingRel.external ? ctx.doc.pkg.xml(drawingRel.target, true) : undefined;
  const sps = descendants(drawing, 'dsp:sp');
  if (frameWidth && frameHeight && sps.length > 0) {
    const canvas = smartArtCanvas(ctx, sps, frameWidth, frameHeight, (sp) => {
      const s = readShape(ctx, sp);
      return s && { x: s.x, y: s.y, width: s.width, height: s.height, vAlign: s.vAlign, paragraphs: s.labels.map((label) => labelParagraph(label, s)) };
    });
    if (canvas) return [canvas];
  }
  const shapes = sps.map((sp) => readShape(ctx, sp)).filter((s): s is ArtShape => s !== undefined);
  if (shapes.length > 0) return [layoutTable(shapes, frameWidth, frameHeight)];
  const points = dataPointParagraphs(ctx, dataModel);
  return frameWidth && frameHeight ? [frameTable(points, frameWidth, frameHeight)] : points;
}

/**
 * The data's text points in a borderless one-cell table of the diagram's size: Word lays the diagram out again
 * from its data into the inline's wp:extent, so the diagram takes that room in the text whatever it holds
 * (oxsdk__SmartArt1, four diagrams without drawing parts: Word's docProps/app.xml says 2 pages, its
 * w:lastRenderedPageBreak falls before the fourth; as a bare list of labels they fitted on one).
 */
function frameTable(blocks: Block[], width: number, height: number): Table {
  return {
    type: 'table',
    columns: [round2(width)],
    rows: [{ cells: [{ blocks }], height: round2(height), cantSplit: true }],
    style: { borders: null, cellPadding: 0, width: round2(width), layout: 'fixed' },
  };
}

function baseRun(ctx: PartContext): ReturnType<typeof mergeR> {
  const styles = ctx.doc.styles;
  return mergeR(styles.docR, styles.paragraphStyle(undefined).r);
}

/** The text points of the diagram data (type "node", the default), one paragraph each, in the document's style. */
function dataPointParagraphs(ctx: PartContext, dataModel: XElement | undefined): Block[] {
  const styles = ctx.doc.styles;
  const base = styles.paragraphStyle(undefined);
  const r = baseRun(ctx);
  const out: Block[] = [];
  for (const pt of descendants(child(dataModel, 'dgm:ptLst'), 'dgm:pt')) {
    const type = pt.attrs.type;
    if (type !== undefined && type !== 'node') continue;
    for (const p of children(child(pt, 'dgm:t'), 'a:p')) {
      const text = descendants(p, 'a:t').map((t) => textOf(t)).join('');
      if (text.trim() === '') continue;
      const style = toRunStyle(r, text);
      out.push({ type: 'paragraph', runs: [{ type: 'text', text, style }], style: toParagraphStyle({ ...styles.docP, ...base.p }) });
    }
  }
  return out;
}

const ALIGN: Record<string, Label['align']> = { ctr: 'center', r: 'right', just: 'left', l: 'left', dist: 'center' };
const ANCHOR: Record<string, ArtShape['vAlign']> = { t: 'top', ctr: 'middle', b: 'bottom' };

/** A shape with text: its text box (dsp:txXfrm, else the shape's own box), labels and looks. */
function readShape(ctx: PartContext, sp: XElement): ArtShape | undefined {
  const body = child(sp, 'dsp:txBody');
  const paras = children(body, 'a:p');
  if (!paras.some((p) => descendants(p, 'a:t').some((t) => textOf(t).trim() !== ''))) return undefined;
  const xfrm = child(sp, 'dsp:txXfrm') ?? child(child(sp, 'dsp:spPr'), 'a:xfrm');
  const off = child(xfrm, 'a:off');
  const ext = child(xfrm, 'a:ext');
  const width = emu(ext?.attrs.cx) ?? 0;
  const height = emu(ext?.attrs.cy) ?? 0;
  if (!(width > 0 && height > 0)) return undefined;
  const theme = ctx.doc.theme;
  const style = child(sp, 'dsp:style');
  const bodyPr = child(body, 'a:bodyPr');
  const lvl1 = child(child(body, 'a:lstStyle'), 'a:lvl1pPr');
  const listSize = hundredths(child(lvl1, 'a:defRPr')?.attrs.sz);
  const fontRef = child(style, 'a:fontRef')?.attrs.idx;
  const themeFace = fontRef === 'major' || fontRef === 'minor' ? theme.fonts[`${fontRef}:latin`] : undefined;
  const textColor = styleFontColor(style, theme);
  const r = baseRun(ctx);
  const labels: Label[] = [];
  for (const p of paras) {
    const runs = children(p, 'a:r');
    const text = runs.map((run) => descendants(run, 'a:t').map((t) => textOf(t)).join('')).join('');
    if (text.trim() === '') continue;
    const rPr = child(runs[0], 'a:rPr');
    const runStyle: RunStyle = { ...toRunStyle(r, text) };
    if (themeFace) runStyle.font = themeFace;
    const size = hundredths(rPr?.attrs.sz) ?? listSize;
    if (size) runStyle.size = size;
    if (rPr?.attrs.b === '1' || rPr?.attrs.b === 'true') runStyle.bold = true;
    if (rPr?.attrs.i === '1' || rPr?.attrs.i === 'true') runStyle.italic = true;
    const color = drawingColor(child(rPr, 'a:solidFill'), theme) ?? textColor;
    if (color) runStyle.color = color;
    const algn = child(p, 'a:pPr')?.attrs.algn ?? lvl1?.attrs.algn;
    labels.push({ text, style: runStyle, align: ALIGN[algn ?? 'l'] ?? 'left' });
  }
  const decoration = diagramShapeDecoration(sp, theme);
  // Light text needs the shape's fill behind it; without one it would vanish on white paper.
  if (!decoration.fill) for (const label of labels) if (isLight(label.style.color)) delete label.style.color;
  const shape: ArtShape = {
    x: emu(off?.attrs.x) ?? 0,
    y: emu(off?.attrs.y) ?? 0,
    width,
    height,
    labels,
    vAlign: ANCHOR[bodyPr?.attrs.anchor ?? 't'] ?? 'top',
    insetLeft: emu(bodyPr?.attrs.lIns) ?? DEFAULT_INSET,
    insetRight: emu(bodyPr?.attrs.rIns) ?? DEFAULT_INSET,
  };
  if (decoration.fill) shape.fill = decoration.fill;
  return shape;
}

function hundredths(value: string | undefined): number | undefined {
  const n = value === undefined ? NaN : Number(value);
  return Number.isFinite(n) && n > 0 ? n / 100 : undefined;
}

function isLight(color: string | undefined): boolean {
  if (!color) return false;
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 200;
}

/** Shapes whose vertical middles fall within one band are a row; rows top to bottom, shapes left to right. */
function rowsOf(shapes: ArtShape[]): ArtShape[][] {
  const sorted = [...shapes].sort((a, b) => a.y + a.height / 2 - (b.y + b.height / 2) || a.x - b.x);
  const rows: Array<{ top: number; bottom: number; shapes: ArtShape[] }> = [];
  for (const shape of sorted) {
    const middle = shape.y + shape.height / 2;
    const row = rows[rows.length - 1];
    const overlaps = row?.shapes.some((o) => shape.x < o.x + o.width - MIN_GAP && o.x < shape.x + shape.width - MIN_GAP);
    if (row && middle >= row.top && middle <= row.bottom && !overlaps) {
      row.shapes.push(shape);
      row.top = Math.min(row.top, shape.y);
      row.bottom = Math.max(row.bottom, shape.y + shape.height);
    } else rows.push({ top: shape.y, bottom: shape.y + shape.height, shapes: [shape] });
  }
  return rows.map((row) => row.shapes.sort((a, b) => a.x - b.x));
}

/** Sorted column edges: every shape's left and right, the frame's edges, near-equal ones merged. */
function edgesOf(shapes: ArtShape[], frameWidth: number): number[] {
  const all = [0, frameWidth, ...shapes.flatMap((s) => [s.x, s.x + s.width])].sort((a, b) => a - b);
  const edges: number[] = [];
  for (const x of all) if (edges.length === 0 || x - edges[edges.length - 1] > MIN_GAP) edges.push(x);
  return edges;
}

function nearestEdge(edges: number[], x: number): number {
  let best = 0;
  for (let i = 1; i < edges.length; i++) if (Math.abs(edges[i] - x) < Math.abs(edges[best] - x)) best = i;
  return best;
}

function layoutTable(shapes: ArtShape[], frameWidth?: number, frameHeight?: number): Table {
  const right = Math.max(...shapes.map((s) => s.x + s.width));
  const bottom = Math.max(...shapes.map((s) => s.y + s.height));
  const width = Math.max(frameWidth ?? 0, right);
  const height = Math.max(frameHeight ?? 0, bottom);
  const edges = edgesOf(shapes, width);
  const columns = edges.slice(1).map((x, i) => round2(x - edges[i]));
  const spacer = (h: number): TableRow => ({ cells: [columns.length > 1 ? { blocks: [], colSpan: columns.length } : { blocks: [] }], height: round2(h) });
  const rows: TableRow[] = [];
  let y = 0;
  for (const rowShapes of rowsOf(shapes)) {
    const top = Math.min(...rowShapes.map((s) => s.y));
    const rowBottom = Math.max(...rowShapes.map((s) => s.y + s.height));
    if (top - y > MIN_GAP) rows.push(spacer(top - y));
    const cells: TableCell[] = [];
    let col = 0;
    for (const shape of rowShapes) {
      const from = Math.max(col, nearestEdge(edges, shape.x));
      const to = Math.max(from + 1, nearestEdge(edges, shape.x + shape.width));
      if (from > col) cells.push(from - col > 1 ? { blocks: [], colSpan: from - col } : { blocks: [] });
      const cell: TableCell = { blocks: shape.labels.map((label) => labelParagraph(label, shape)), vAlign: shape.vAlign };
      if (to - from > 1) cell.colSpan = to - from;
      if (shape.fill) cell.shading = shape.fill;
      cells.push(cell);
      col = to;
    }
    if (col < columns.length) cells.push(columns.length - col > 1 ? { blocks: [], colSpan: columns.length - col } : { blocks: [] });
    rows.push({ cells, height: round2(rowBottom - Math.max(top, y)), cantSplit: true });
    y = Math.max(y, rowBottom);
  }
  if (height - y > MIN_GAP) rows.push(spacer(height - y));
  return { type: 'table', columns, rows, style: { borders: null, cellPadding: 0 } };
}

function labelParagraph(label: Label, shape: ArtShape): Paragraph {
  const style = toParagraphStyle({ spaceBefore: 0, spaceAfter: 0 });
  style.align = label.align;
  style.indentLeft = round2(shape.insetLeft);
  style.indentRight = round2(shape.insetRight);
  return { type: 'paragraph', runs: [{ type: 'text', text: label.text, style: label.style }], style };
}
