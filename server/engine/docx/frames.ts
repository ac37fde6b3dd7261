/**
 * Text frames (a paragraph's w:framePr) and floating tables (w:tblPr/w:tblpPr) → floating objects
 * (model/floats.ts). Both are positioned from the page, the margins or the text (column, anchor paragraph) by an
 * offset or an alignment, and text wraps around them; before, both stood in the flow where they were written.
 * Their size is their content's unless the frame gives one: width or height 0 in the placement (layout/blocks.ts
 * measures them).
 */
import type { Block, Table, TableCell } from '../model/types.js';
import type { FloatAxis, FloatFromX, FloatFromY, FloatPlacement } from '../model/floats.js';
import { textDirection } from './text-direction.js';
import { round2, twips } from './units.js';
import type { XElement } from './xml.js';

function alignOf(value: string | undefined): FloatAxis<never>['align'] {
  switch (value) {
    case 'left': case 'top': case 'inside': return 'start';
    case 'center': return 'center';
    case 'right': case 'bottom': case 'outside': return 'end';
    default: return undefined;
  }
}

function axis<F>(from: F, align: string | undefined, offset: string | undefined): FloatAxis<F> {
  const a = alignOf(align);
  return a ? { from, align: a } : { from, offset: round2(twips(offset) ?? 0) };
}

const ANCHOR_X: Record<string, FloatFromX> = { page: 'page', margin: 'margin', text: 'column' };
const ANCHOR_Y: Record<string, FloatFromY> = { page: 'page', margin: 'margin', text: 'paragraph' };

// ─── Frames ──────────────────────────────────────────────────────────────────────────────────────────────────

/** A paragraph frame: where it sits and the rule of its height. */
export interface FrameSpec {
  /** Consecutive paragraphs with the same key share one frame (Word draws them as one). */
  key: string;
  placement: FloatPlacement;
  heightRule: 'auto' | 'atLeast' | 'exact';
  /** Vertical text (the paragraph's w:textDirection): the frame's content turned, as in a table cell. */
  textDirection?: TableCell['textDirection'];
}

/**
 * The frame a w:framePr describes, or null when it places nothing: a drop cap (w:dropCap, drawn in the flow),
 * a frame in line with the text (yAlign="inline") or a w:framePr with no size or position at all (Word and
 * LibreOffice keep such paragraphs in the flow).
 */
export function frameOf(framePr: XElement | undefined, direction?: string): FrameSpec | null {
  if (!framePr) return null;
  const a = (name: string): string | undefined => framePr.attrs[`w:${name}`];
  const dropCap = a('dropCap');
  if (dropCap && dropCap !== 'none') return null;
  if (a('yAlign') === 'inline') return null;
  if (!['w', 'h', 'x', 'y', 'xAlign', 'yAlign'].some((n) => a(n) !== undefined)) return null;
  const x = axis(ANCHOR_X[a('hAnchor') ?? ''] ?? 'column', a('xAlign'), a('x'));
  const y = axis(ANCHOR_Y[a('vAnchor') ?? ''] ?? 'paragraph', a('yAlign'), a('y'));
  const h = Math.max(0, twips(a('h')) ?? 0);
  const rule = a('hRule');
  const heightRule = h === 0 ? 'auto' : rule === 'exact' ? 'exact' : rule === 'auto' ? 'auto' : 'atLeast';
  const wrapAttr = a('wrap');
  // around, tight, through and auto let text run beside the frame; notBeside keeps the lines beside it free;
  // none puts the frame over the text.
  const wrap: FloatPlacement['wrap'] = wrapAttr === 'notBeside' ? 'topAndBottom' : wrapAttr === 'none' ? 'none' : 'square';
  // around: text on both sides of the frame where there is room (LibreOffice's writerfilter maps it to
  // WrapTextMode_PARALLEL, auto and through to DYNAMIC, the wider side only).
  const side: FloatPlacement['side'] = wrapAttr === 'around' ? 'bothSides' : undefined;
  const hSpace = round2(Math.max(0, twips(a('hSpace')) ?? 0));
  const vSpace = round2(Math.max(0, twips(a('vSpace')) ?? 0));
  const placement: FloatPlacement = {
    x,
    y,
    width: round2(Math.max(0, twips(a('w')) ?? 0)),
    height: heightRule === 'auto' ? 0 : round2(h),
    wrap,
    withAnchor: true,
  };
  if (wrap !== 'none') placement.distance = { top: vSpace, bottom: vSpace, left: hSpace, right: hSpace };
  if (side) placement.side = side;
  const turn = textDirection(direction);
  const key = JSON.stringify([...['w', 'h', 'hRule', 'x', 'y', 'xAlign', 'yAlign', 'hAnchor', 'vAnchor', 'wrap', 'hSpace', 'vSpace'].map(a), turn]);
  return turn ? { key, placement, heightRule, textDirection: turn } : { key, placement, heightRule };
}

/** One frame's paragraphs (and what they anchor) as a one-cell floating table. */
export function frameTable(spec: FrameSpec, blocks: Block[]): Table {
  const margins = { left: 0, right: 0, top: 0, bottom: 0 };
  const { placement } = spec;
  const cell: TableCell = { blocks, margins };
  if (spec.textDirection) cell.textDirection = spec.textDirection;
  const row: Table['rows'][number] = { cells: [cell] };
  if (spec.heightRule !== 'auto') {
    row.height = placement.height;
    if (spec.heightRule === 'exact') row.heightRule = 'exact';
  }
  return {
    type: 'table',
    columns: [placement.width],
    rows: [row],
    style: { borders: null, cellMargins: margins, width: placement.width || undefined, layout: 'fixed', float: placement },
  };
}

// ─── Floating tables ─────────────────────────────────────────────────────────────────────────────────────────

/**
 * A table's w:tblpPr as a float placement, or null when the table stays in the flow (no w:tblpPr, or
 * tblpYSpec="inline"). Omitted anchors are the text's column horizontally and the margin vertically, as
 * LibreOffice reads them.
 */
export function tablePlacement(tblpPr: XElement | undefined): FloatPlacement | null {
  if (!tblpPr) return null;
  const a = (name: string): string | undefined => tblpPr.attrs[`w:${name}`];
  if (a('tblpYSpec') === 'inline') return null;
  const x = axis(ANCHOR_X[a('horzAnchor') ?? ''] ?? 'column', a('tblpXSpec'), a('tblpX'));
  const y = axis(ANCHOR_Y[a('vertAnchor') ?? ''] ?? 'margin', a('tblpYSpec'), a('tblpY'));
  const d = (name: string): number => round2(Math.max(0, twips(a(name)) ?? 0));
  return {
    x,
    y,
    width: 0,
    height: 0,
    wrap: 'square',
    // Word runs text on both sides of a floating table where there is room (its "Around" wrapping; ECMA-376
    // §17.4.57 gives no side to choose), as LibreOffice does with the frame it makes of one.
    side: 'bothSides',
    withAnchor: true,
    distance: { top: d('topFromText'), right: d('rightFromText'), bottom: d('bottomFromText'), left: d('leftFromText') },
  };
}
