/**
 * Footnotes at the foot of a page: the body flow reserves their height below the body as it places the paragraph
 * that references them (the body of that page gets shorter), and draws them when the page is done, bottom-aligned
 * above the bottom margin under a short separator line, as Word does (its separator is 2 inches of 0.5 pt rule in
 * a line of its own).
 */
import type { LaidBlock } from '../layout/items.js';
import { blockHeight } from '../layout/blocks.js';
import type { Emitter, FieldValues } from './emit.js';
import type { PageGeometry } from './section.js';

/** The separator's line of its own (points) and its rule's length and width. */
const SEPARATOR_HEIGHT = 12;
const SEPARATOR_LENGTH = 144;
const SEPARATOR_WIDTH = 0.5;

/** Every footnote of laid blocks, table cells included, in reading order. */
export function footnotesOf(blocks: LaidBlock[]): LaidBlock[] {
  const out: LaidBlock[] = [];
  for (const b of blocks) {
    if (b.kind === 'paragraph' && b.footnotes) out.push(...b.footnotes);
    else if (b.kind === 'table') for (const row of b.rows) for (const cell of row.cells) out.push(...footnotesOf(cell.blocks));
  }
  return out;
}

export class PageNotes {
  private blocks: LaidBlock[] = [];
  /** Height the notes take at the foot of this page, the separator included (0 without notes). */
  height = 0;

  /** The height `notes` would add to this page. */
  need(notes: LaidBlock[]): number {
    if (notes.length === 0) return 0;
    return notes.reduce((h, b) => h + blockHeight(b), this.blocks.length === 0 ? SEPARATOR_HEIGHT : 0);
  }

  add(notes: LaidBlock[]): void {
    this.height += this.need(notes);
    this.blocks.push(...notes);
  }

  /** Draws this page's notes above the bottom of its content box, then starts empty for the next page. */
  flush(emitter: Emitter, geo: PageGeometry, fields: FieldValues): void {
    if (this.blocks.length === 0) return;
    const top = geo.bottom - this.height;
    const rule = top + SEPARATOR_HEIGHT / 2;
    emitter.rule(geo.left, rule, geo.left + Math.min(SEPARATOR_LENGTH, geo.right - geo.left), rule, SEPARATOR_WIDTH, [0, 0, 0]);
    emitter.stack(this.blocks, geo.left, top + SEPARATOR_HEIGHT, fields);
    this.blocks = [];
    this.height = 0;
  }
}
