/**
 * The sequence of pages the flow fills. One page is open at a time; when the next one starts, the finished page
 * goes to `onPage` (the renderer paints it and drops it; tests keep it), so a long document never holds every
 * page's boxes at once.
 */
import type { RenderBudget } from '../budget.js';
import type { Box, LaidPage } from './boxes.js';
import type { Emitter } from './emit.js';

export class PageSequence {
  private page: LaidPage | null = null;
  private count = 0;

  constructor(
    private readonly emitter: Emitter,
    private readonly onPage: (page: LaidPage) => void,
    /** Pages are counted against the render's limit as they start. */
    private readonly budget?: RenderBudget,
  ) {}

  /** Number of the open page (0 before the first). */
  get number(): number {
    return this.count;
  }

  get current(): LaidPage {
    if (!this.page) throw new Error('docloom: no page open');
    return this.page;
  }

  /** Closes the open page (if any) and opens the next one, `width` × `height` points. */
  start(width: number, height: number): LaidPage {
    this.close();
    this.count++;
    this.budget?.pages(this.count);
    const boxes: Box[] = [];
    this.page = { number: this.count, width, height, boxes, bookmarks: [] };
    this.emitter.out = boxes;
    return this.page;
  }

  /** Hands the open page over; nothing is open afterwards. */
  close(): void {
    if (!this.page) return;
    const page = this.page;
    this.page = null;
    this.emitter.out = [];
    this.onPage(page);
  }
}
