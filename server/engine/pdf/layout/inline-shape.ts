/**
 * A shape drawn in the line (model ShapeRun): its parts are floats (one-cell tables carrying a preset shape and
 * text), laid out and drawn as anchored floats are (layout/blocks.ts, flow/floats.ts), but placed from the corner
 * of the room the run takes in the line. The result is boxes relative to that corner, drawn where the line puts
 * the run, as a chart's are.
 */
import type { ShapeRun } from '../../model/types.js';
import type { Box } from '../flow/boxes.js';
import { Emitter } from '../flow/emit.js';
import { drawFloat, floatRect, type FloatFrame } from '../flow/floats.js';
import { layoutBlocks, outOfBody } from './blocks.js';
import { num } from './fmt.js';
import type { LayoutContext } from './paragraph.js';

/** Tables nested in a shape's text are laid out this deep below it, as in a cell (blocks.ts's depth guard). */
const PART_DEPTH = 1;

/** The boxes of an inline shape `width` × `height` points, or null when it has no room or nothing to draw. */
export function layoutInlineShape(run: ShapeRun, ctx: LayoutContext): { boxes: Box[]; width: number; height: number } | null {
  const width = num(run.width, 0);
  const height = num(run.height, 0);
  if (!(width > 0.01) || !(height > 0.01) || !Array.isArray(run.parts)) return null;
  const frame: FloatFrame = { pageWidth: width, pageHeight: height, left: 0, right: width, top: 0, bottom: height, columnLeft: 0, columnRight: width, anchorTop: 0 };
  // A page number inside the shape's text is drawn as the placeholder the line measures fields with.
  const fields = { page: 1, pages: 1 };
  const emitter = new Emitter();
  const boxes: Box[] = [];
  for (const laid of layoutBlocks(run.parts, width, outOfBody(ctx), PART_DEPTH)) {
    if (laid.kind !== 'table' || !laid.float) continue;
    for (const b of drawFloat(emitter, laid, laid.float, floatRect(laid.float, frame), fields)) boxes.push(b);
  }
  return boxes.length > 0 ? { boxes, width, height } : null;
}
