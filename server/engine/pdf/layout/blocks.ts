/** Layout of a list of blocks: the body of a section, a table cell, a header or footer. */
import type { Block } from '../../model/types.js';
import type { LaidBlock, LaidParagraph } from './items.js';
import { layoutParagraph, type LayoutContext } from './paragraph.js';
import { layoutTable } from './table.js';
import { floatOf } from '../flow/floats.js';

/** Tables nested deeper than this are flattened to their text (a guard against pathological models). */
const MAX_TABLE_DEPTH = 8;

export function layoutBlocks(blocks: unknown, width: number, ctx: LayoutContext, depth = 0): LaidBlock[] {
  const out: LaidBlock[] = [];
  if (!Array.isArray(blocks)) return out;
  for (const block of blocks as Block[]) {
    if (!block || typeof block !== 'object') continue;
    ctx.budget?.tick();
    if (block.type === 'paragraph') {
      const laid = layoutParagraph(block, width, ctx);
      if (Array.isArray(block.footnotes) && depth < MAX_TABLE_DEPTH) {
        laid.footnotes = block.footnotes.flatMap((note) => layoutBlocks(note, width, ctx, depth + 1));
      }
      out.push(laid);
    }
    else if (block.type === 'pageBreak') out.push(block.column === true ? { kind: 'pageBreak', column: true } : { kind: 'pageBreak' });
    else if (block.type === 'table') {
      if (depth >= MAX_TABLE_DEPTH) continue;
      const float = floatOf(block);
      // A floating object is laid out at its own size, whatever the width of the text around it.
      const laid = layoutTable(block, float ? Math.max(1, float.width) : width, ctx, (b, w, c) => layoutStack(b, w, c, depth + 1));
      if (float) laid.float = float;
      out.push(laid);
    }
  }
  return out;
}

/** Height of a paragraph laid out in a stack (no page breaks). */
export function paragraphHeight(p: LaidParagraph): number {
  let h = p.spaceBefore + p.spaceAfter;
  for (const line of p.lines) h += line.height;
  return h;
}

export function blockHeight(b: LaidBlock): number {
  if (b.kind === 'paragraph') return paragraphHeight(b);
  // A floating object takes no room in the stack it is anchored in.
  if (b.kind === 'table') return b.float ? 0 : b.heights.reduce((a, h) => a + h, 0);
  return 0;
}

/** Lays out blocks that are drawn in one piece (cells, headers, footers): page breaks are ignored. */
export function layoutStack(blocks: unknown, width: number, ctx: LayoutContext, depth = 0): { blocks: LaidBlock[]; height: number } {
  const laid = layoutBlocks(blocks, width, ctx, depth).filter((b) => b.kind !== 'pageBreak');
  let height = 0;
  for (const b of laid) height += blockHeight(b);
  return { blocks: laid, height };
}
