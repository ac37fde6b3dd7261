/**
 * The body flow: places laid-out blocks on pages (as boxes, flow/boxes.ts), top to bottom, starting new pages
 * when the content box is full, for page breaks and for pageBreakBefore; keeps a heading with what follows
 * (keepWithNext), avoids a lone first or last line of a paragraph at a page edge, and records headings for the
 * outline. Footnotes go to the foot of the page their paragraph ends on (flow/notes.ts), shortening its body.
 */
import type { Emitter, FieldValues } from './emit.js';
import type { LaidBlock, LaidParagraph, Line } from '../layout/items.js';
import { paragraphHeight } from '../layout/blocks.js';
import type { PageGeometry } from './section.js';
import type { PageSequence } from './pages.js';
import { flowBodyTable } from './table.js';
import { footnotesOf, PageNotes } from './notes.js';
import type { RenderBudget } from '../budget.js';

export class BodyFlow {
  private y: number;
  /** Nothing placed yet in the content box of this page. */
  private atTop = true;
  /** This page was started because the previous one was full (space before is dropped at its top). */
  private overflowPage = false;
  /** The footnotes of the open page. */
  private readonly notes = new PageNotes();

  /** Starts the section on a new page. */
  constructor(
    private readonly emitter: Emitter,
    private readonly pages: PageSequence,
    private readonly geo: PageGeometry,
    /** The render's limits: time checked per block and table row. */
    private readonly budget?: RenderBudget,
  ) {
    this.y = geo.top;
    this.newPage();
  }

  get page(): number {
    return this.pages.number;
  }

  newPage(overflow = false): void {
    this.finishPage();
    this.pages.start(this.geo.width, this.geo.height);
    this.y = this.geo.top;
    this.atTop = true;
    this.overflowPage = overflow;
  }

  /** Draws the open page's footnotes (at a page's end: before the next starts, and after the section's body). */
  finishPage(): void {
    if (this.pages.number > 0) this.notes.flush(this.emitter, this.geo, this.fields());
  }

  fields(): FieldValues {
    return { page: this.pages.number, pages: null };
  }

  /**
   * Places a section's body. A page break starts its page only when something follows it: a break that ends
   * the section adds no page (Word since 2013 keeps the paragraph mark after a break that ends its paragraph on
   * the break's page; LibreOffice agrees), while breaks before it still do (two breaks in a row make an empty page).
   */
  blocks(blocks: LaidBlock[]): void {
    let pendingBreaks = 0;
    blocks.forEach((b, i) => {
      if (b.kind === 'pageBreak') {
        pendingBreaks++;
        return;
      }
      for (; pendingBreaks > 0; pendingBreaks--) this.newPage();
      this.budget?.tick();
      if (b.kind === 'paragraph') this.paragraph(b, blocks[i + 1]);
      else {
        const frame = { left: this.geo.left, top: this.geo.top, bottom: this.geo.bottom };
        // A table's footnotes go to the page it ends on (not re-fitted: a table's rows are placed by table.ts);
        // collected first, as the table flow drops its rows while it places them.
        const notes = footnotesOf([b]);
        this.y = flowBodyTable(this.emitter, b, frame, this.y, this.atTop, () => this.newPage(true), () => this.fields(),
          () => this.budget?.tick());
        this.atTop = false;
        this.notes.add(notes);
      }
    });
    for (; pendingBreaks > 1; pendingBreaks--) this.newPage();
    this.finishPage();
  }

  /** The foot of the body on this page: above its footnotes. */
  private get bottom(): number {
    return this.geo.bottom - this.notes.height;
  }

  private get room(): number {
    return this.bottom - this.y;
  }

  /** How many of `lines` fit from the current y (at least one at the top of a page); `reserve` is kept free below. */
  private fitting(lines: Line[], from: number, top: number, reserve = 0): number {
    let y = top;
    let n = 0;
    for (let i = from; i < lines.length; i++) {
      if (y + lines[i].height > this.bottom - reserve + 0.01) break;
      y += lines[i].height;
      n++;
    }
    return n;
  }

  private paragraph(p: LaidParagraph, next: LaidBlock | undefined): void {
    if (p.pageBreakBefore && !this.atTop) this.newPage();
    const contentHeight = this.geo.bottom - this.geo.top;
    if (p.keepWithNext && !this.atTop) {
      let need = paragraphHeight(p);
      if (next?.kind === 'paragraph') need += next.spaceBefore + (next.lines[0]?.height ?? 0);
      else if (next?.kind === 'table') need += next.heights[0] ?? 0;
      if (need > this.room && need <= contentHeight) this.newPage(true);
    }
    if (!(this.atTop && this.overflowPage)) this.y += p.spaceBefore;
    const lines = p.lines;
    let i = 0;
    let first = true;
    while (i < lines.length) {
      let n = this.fitting(lines, i, this.y);
      const remaining = lines.length - i;
      // The chunk that ends the paragraph brings its footnotes: they must fit below it on the same page.
      const noteNeed = p.footnotes ? this.notes.need(p.footnotes) : 0;
      if (noteNeed > 0 && n === remaining) n = this.fitting(lines, i, this.y, noteNeed);
      if (!this.atTop) {
        // Widow/orphan control: no lone first line at a page bottom, no lone last line at the next top.
        if (n === 1 && remaining > 1 && first) n = 0;
        else if (n > 1 && remaining - n === 1 && remaining > 2) n -= 1;
      }
      if (n === 0) {
        if (this.atTop) n = 1; // taller than a page: draw it anyway, clipped by the page edge
        else {
          this.newPage(true);
          continue;
        }
      }
      const chunk = lines.slice(i, i + n);
      const height = chunk.reduce((a, l) => a + l.height, 0);
      if (p.shading || p.borders) this.emitter.paragraphBox(p, this.geo.left, this.y, height, i === 0, i + n === lines.length);
      if (first && p.heading) this.pages.current.bookmarks.push({ level: p.heading.level, title: p.heading.title });
      const fields = this.fields();
      for (const line of chunk) {
        this.emitter.line(line, this.geo.left, this.y, fields);
        this.y += line.height;
      }
      this.atTop = false;
      first = false;
      i += n;
      if (i === lines.length && p.footnotes) this.notes.add(p.footnotes);
      if (i < lines.length) this.newPage(true);
    }
    this.y += p.spaceAfter;
  }
}
