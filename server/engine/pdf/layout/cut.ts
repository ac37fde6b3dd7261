/** Cutting laid-out blocks between lines where the room ends: table rows split across pages or cut to an exact height. */
import type { LaidBlock, LaidParagraph } from './items.js';

function height(b: LaidBlock): number {
  if (b.kind === 'paragraph') return b.spaceBefore + b.spaceAfter + b.lines.reduce((a, l) => a + l.height, 0);
  if (b.kind === 'table') return b.heights.reduce((a, h) => a + h, 0);
  return 0;
}

/**
 * Cuts blocks where `limit` points are used up: `head` is what fits (whole lines; a nested table only whole),
 * `tail` the rest, a cut paragraph continuing without its space before. `head` is empty when not even the first
 * line fits.
 */
export function splitAt(blocks: LaidBlock[], limit: number): { head: LaidBlock[]; tail: LaidBlock[]; height: number } {
  const head: LaidBlock[] = [];
  let used = 0;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    if (b.kind !== 'paragraph') {
      const h = height(b);
      if (used + h > limit + 0.01) return { head, tail: blocks.slice(i), height: used };
      head.push(b);
      used += h;
      continue;
    }
    let y = used + b.spaceBefore;
    let n = 0;
    while (n < b.lines.length && y + b.lines[n].height <= limit + 0.01) y += b.lines[n++].height;
    if (n === b.lines.length) {
      head.push(b);
      // Space after a paragraph may run past the cut (it is not drawn).
      used = Math.min(y + b.spaceAfter, Math.max(limit, y));
      continue;
    }
    if (n > 0) {
      head.push({ ...b, lines: b.lines.slice(0, n), spaceAfter: 0 });
      used = y;
    }
    const rest: LaidParagraph = { ...b, lines: b.lines.slice(n), spaceBefore: n > 0 ? 0 : b.spaceBefore };
    return { head, tail: [rest, ...blocks.slice(i + 1)], height: used };
  }
  return { head, tail: [], height: used };
}
