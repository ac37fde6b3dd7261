/**
 * Vertical text in a table cell (Word's w:textDirection btLr / tbRl): the cell's content is drawn as if upright,
 * its lines `length` long, and then each box is turned a quarter into the cell's inner rectangle. The text stays
 * text (the painter draws it at an angle), so it can be selected and extracted.
 */
import type { Box } from './boxes.js';

/** Where a turned cell's content goes: the inner rectangle of the cell and the offset across its lines. */
export interface TurnFrame {
  direction: 'btLr' | 'tbRl';
  /** Inner rectangle of the cell (inside its margins). */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** How far the first line sits from the edge it starts at (the cell's vertical alignment, turned). */
  shift: number;
}

/**
 * Turns boxes drawn upright with their origin at (0, 0) — u along the lines, v down across them — into the cell.
 * btLr: lines read upwards, the first at the left edge (90° counter-clockwise); tbRl: lines read downwards, the
 * first at the right edge (90° clockwise).
 */
export function turnBoxes(boxes: Box[], f: TurnFrame): void {
  const ccw = f.direction === 'btLr';
  // A quarter turn: the page's x follows v (across the lines), its y follows u (along them).
  const px = (v: number): number => (ccw ? f.x0 + f.shift + v : f.x1 - f.shift - v);
  const py = (u: number): number => (ccw ? f.y1 - u : f.y0 + u);
  // A rectangle (u, v, w, h) becomes one h wide and w tall; its top-left corner is the turned corner nearest the
  // page's top-left.
  const rect = (b: { x: number; y: number; w: number; h: number }): void => {
    const [u, v, w, h] = [b.x, b.y, b.w, b.h];
    b.x = ccw ? px(v) : px(v) - h;
    b.y = ccw ? py(u) - w : py(u);
    b.w = h;
    b.h = w;
  };
  for (const b of boxes) {
    switch (b.kind) {
      case 'text':
        [b.x, b.y] = [px(b.y), py(b.x)];
        b.angle = (((b.angle ?? 0) + (ccw ? 90 : 270)) % 360 + 360) % 360;
        break;
      case 'pageCount':
        [b.x, b.y] = [px(b.y), py(b.x)];
        break;
      case 'line':
        [b.x1, b.y1, b.x2, b.y2] = [px(b.y1), py(b.x1), px(b.y2), py(b.x2)];
        break;
      case 'path':
        for (let i = 0; i + 1 < b.points.length; i += 2) [b.points[i], b.points[i + 1]] = [px(b.points[i + 1]), py(b.points[i])];
        break;
      case 'image': {
        // A picture is not turned (the painter draws images upright): its middle moves where the turn takes it.
        const [u, v] = [b.x + b.w / 2, b.y + b.h / 2];
        [b.x, b.y] = [px(v) - b.w / 2, py(u) - b.h / 2];
        break;
      }
      default:
        // Fills, frames, links and shapes: their rectangle turns.
        rect(b);
    }
  }
}
