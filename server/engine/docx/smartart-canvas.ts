/**
 * A SmartArt diagram drawn as Word last laid it out: its drawing part's shapes (dsp:sp) as floats — each at its
 * own box, with its preset outline (rectangles, rounded ones, ellipses, block arrows, chevrons…), fill and line,
 * and its labels in its text box — inside a borderless one-cell table the size of the diagram, which holds the
 * diagram's place in the text. The floats are placed from the cell's paragraph, so they move with the diagram
 * to whatever page it lands on.
 */
import type { Block, Paragraph, Table } from '../model/types.js';
import type { FloatPlacement } from '../model/floats.js';
import type { PartContext } from './context.js';
import { diagramShapeDecoration } from './decoration.js';
import { floatTable, NO_MARGINS, shapeOf, xfrmRect, type Rect } from './floats.js';
import { toParagraphStyle } from './resolve.js';
import { round2 } from './units.js';
import { child, type XElement } from './xml.js';

/** A shape's labels laid out in its text box (smartart.ts): the box and its paragraphs. */
export interface ArtText {
  x: number;
  y: number;
  width: number;
  height: number;
  vAlign: 'top' | 'middle' | 'bottom';
  paragraphs: Paragraph[];
}

/** A shape's box from its a:xfrm; none when it has no size (a zero width means "as wide as its content" to a float). */
function rectOf(xfrm: XElement | undefined): Rect | undefined {
  const r = xfrmRect(xfrm);
  return r && (r.w > 0 || r.h > 0) ? r : undefined;
}

function placementAt(r: Rect): FloatPlacement {
  return { x: { from: 'column', offset: round2(r.x) }, y: { from: 'paragraph', offset: round2(r.y) }, width: round2(r.w), height: round2(r.h), wrap: 'none' };
}

const same = (a: Rect, b: Rect): boolean => Math.abs(a.x - b.x) < 0.5 && Math.abs(a.y - b.y) < 0.5 && Math.abs(a.w - b.w) < 0.5 && Math.abs(a.h - b.h) < 0.5;

/**
 * The shapes in the order their boxes are read — rows (shapes whose middles fall within one band) top to bottom,
 * left to right within a row — so the model holds the labels in the order the page shows them, whatever order the
 * drawing lists them in.
 */
function inReadingOrder(shapes: XElement[]): XElement[] {
  const boxed = shapes.map((sp) => ({ sp, r: rectOf(child(child(sp, 'dsp:spPr'), 'a:xfrm')) ?? { x: 0, y: 0, w: 0, h: 0 } }));
  boxed.sort((a, b) => a.r.y + a.r.h / 2 - (b.r.y + b.r.h / 2) || a.r.x - b.r.x);
  const rows: Array<{ top: number; bottom: number; items: typeof boxed }> = [];
  for (const item of boxed) {
    const middle = item.r.y + item.r.h / 2;
    const row = rows[rows.length - 1];
    if (row && middle >= row.top && middle <= row.bottom) {
      row.items.push(item);
      row.bottom = Math.max(row.bottom, item.r.y + item.r.h);
    } else rows.push({ top: item.r.y, bottom: item.r.y + item.r.h, items: [item] });
  }
  return rows.flatMap((row) => row.items.sort((a, b) => a.r.x - b.r.x).map((item) => item.sp));
}

/**
 * The diagram as a canvas table of `width` × `height` points; `text(sp)` gives a shape's labels (undefined when it
 * has none). Null when no shape can be drawn or labelled.
 */
export function smartArtCanvas(ctx: PartContext, shapes: XElement[], width: number, height: number, text: (sp: XElement) => ArtText | undefined): Table | null {
  const floats: Block[] = [];
  // Word paints the shapes in the drawing's order, later over earlier (a callout's wedge over its neighbour): the
  // model lists them in reading order, so each float carries its place in the drawing as its stacking order.
  const painted = new Map(shapes.map((sp, i) => [sp, i]));
  for (const sp of inReadingOrder(shapes)) {
    const spPr = child(sp, 'dsp:spPr');
    const xfrm = child(spPr, 'a:xfrm');
    const box = rectOf(xfrm);
    const label = text(sp);
    const decoration = diagramShapeDecoration(sp, ctx.doc.theme);
    // A custom outline (a:custGeom) is not drawn: its filled box stands in for it, as a filled area reads.
    const shape = !box ? undefined : (shapeOf(ctx, spPr, child(sp, 'dsp:style'), decoration, xfrm) ?? (decoration.fill ? { geometry: 'rect' as const, fill: decoration.fill } : undefined));
    const textRect = label ? { x: label.x, y: label.y, w: label.width, h: label.height } : undefined;
    if (box && shape) {
      const placement = placementAt(box);
      placement.shape = shape;
      placement.z = painted.get(sp) ?? 0;
      // The labels go in the shape's own float when its text box is the shape's box.
      const inside = label && textRect && same(textRect, box);
      floats.push(floatTable(placement, inside ? label.paragraphs : [], NO_MARGINS, inside ? label.vAlign : undefined));
      if (inside) continue;
    }
    if (label && textRect) floats.push(floatTable({ ...placementAt(textRect), z: painted.get(sp) ?? 0 }, label.paragraphs, NO_MARGINS, label.vAlign));
  }
  if (floats.length === 0) return null;
  const anchor: Paragraph = { type: 'paragraph', runs: [], style: { ...toParagraphStyle({ spaceBefore: 0, spaceAfter: 0 }), lineHeight: 0.1 } };
  return {
    type: 'table',
    columns: [round2(width)],
    rows: [{ cells: [{ blocks: [anchor, ...floats] }], height: round2(height), cantSplit: true }],
    style: { borders: null, cellPadding: 0, width: round2(width), layout: 'fixed' },
  };
}
