/**
 * Vertical text in table cells (Word's w:textDirection btLr / tbRl): how long the turned lines are.
 * Word lays a turned cell's content out with the row's height as its line length. A row that gives a height
 * (exact, or at least) wraps the text at that height — LibreOffice wraps a tbRl frame of at least 162 pt at its
 * height (oxsdk__textDirection-tbRl-frame) — and an at-least row then grows only if its other cells need it. A
 * row of auto height grows to the text's unwrapped length, at most a page: a "rotated" header cell makes its
 * row as tall as its words.
 */
import type { LaidBlock } from './items.js';

/** The length of the longest line of laid-out blocks (points), as wide as they need to be on one line each. */
export function lineExtent(blocks: LaidBlock[]): number {
  let widest = 0;
  for (const b of blocks) {
    if (b.kind === 'table') widest = Math.max(widest, b.x + b.width);
    if (b.kind !== 'paragraph') continue;
    const align = b.source.style?.align;
    // A centred or right-aligned line's start is the room left of it, not an indent: measure from it.
    let lead = Infinity;
    let right = 0;
    for (const line of b.lines) for (const it of line.items) {
      lead = Math.min(lead, it.x);
      right = Math.max(right, it.x + it.width);
    }
    if (lead === Infinity) continue;
    widest = Math.max(widest, align === 'center' || align === 'right' ? right - lead : right);
  }
  return widest;
}
