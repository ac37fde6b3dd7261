/**
 * Cutting laid-out blocks into pieces no taller than a limit, between lines: used for table rows taller than
 * a page, which are drawn as several rows.
 */
import { blockHeight } from '../layout/blocks.js';
import type { LaidBlock, LaidParagraph } from '../layout/items.js';

/** Splits blocks into parts of at most `limit` points each (a single line or table taller than that stays whole). */
export function splitBlocks(blocks: LaidBlock[], limit: number): LaidBlock[][] {
  const parts: LaidBlock[][] = [];
  let part: LaidBlock[] = [];
  let used = 0;
  const flush = (): void => {
    parts.push(part);
    part = [];
    used = 0;
  };
  for (const b of blocks) {
    if (b.kind !== 'paragraph') {
      const h = blockHeight(b);
      if (used + h > limit && part.length > 0) flush();
      part.push(b);
      used += h;
      continue;
    }
    let lines: LaidParagraph['lines'] = [];
    let first = true;
    let top = b.spaceBefore;
    for (const line of b.lines) {
      if (used + top + line.height > limit && (part.length > 0 || lines.length > 0)) {
        if (lines.length > 0) part.push({ ...b, lines, spaceBefore: first ? b.spaceBefore : 0, spaceAfter: 0 });
        if (lines.length > 0) first = false;
        flush();
        lines = [];
        top = 0;
      }
      lines.push(line);
      used += top + line.height;
      top = 0;
    }
    part.push({ ...b, lines, spaceBefore: first ? b.spaceBefore : 0 });
    used += b.spaceAfter;
  }
  if (part.length > 0) parts.push(part);
  return parts;
}
