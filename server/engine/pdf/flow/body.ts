/**
 * The body flow: places laid-out blocks on pages, top to bottom, starting new pages when the content box is
 * full, for page breaks and for pageBreakBefore; keeps a heading with what follows (keepWithNext), avoids a
 * lone first or last line of a paragraph at a page edge, and records headings for the outline.
 */
import type { jsPDF } from 'jspdf';
import type { FieldValues, Painter } from '../draw/painter.js';
import type { FieldItem, LaidBlock, LaidParagraph, Line } from '../layout/items.js';
import { paragraphHeight } from '../layout/blocks.js';
import type { PageGeometry } from './section.js';
import { drawBodyTable } from './table.js';
import type { RenderBudget } from '../budget.js';

export interface DeferredField {
  page: number;
  item: FieldItem;
  x: number;
  baseline: number;
}

/** Bookmarks: headings nest under the closest previous heading of a higher level. */
export class Outline {
  private readonly stack: Array<{ level: number; node: unknown }> = [];

  constructor(private readonly doc: jsPDF) {}

  add(level: number, title: string, page: number): void {
    while (this.stack.length > 0 && this.stack[this.stack.length - 1].level >= level) this.stack.pop();
    const parent = this.stack.length > 0 ? this.stack[this.stack.length - 1].node : null;
    // jsPDF's outline API is untyped beyond `add(parent, title, options)`; parent is its own node object.
    const outline = (this.doc as unknown as { outline: { add(parent: unknown, title: string, options: { pageNumber: number }): unknown } }).outline;
    const node = outline.add(parent, title.slice(0, 250), { pageNumber: page });
    this.stack.push({ level, node });
  }
}

export class BodyFlow {
  page: number;
  private y: number;
  /** Nothing drawn yet in the content box of this page. */
  private atTop = true;
  /** This page was started because the previous one was full (space before is dropped at its top). */
  private overflowPage = false;

  constructor(
    private readonly painter: Painter,
    private readonly geo: PageGeometry,
    private readonly outline: Outline,
    private readonly deferred: DeferredField[],
    /** The render's limits: pages are counted as they are added, time checked per block and page. */
    private readonly budget?: RenderBudget,
  ) {
    this.page = painter.doc.getNumberOfPages();
    this.y = geo.top;
  }

  newPage(overflow = false): void {
    const { width, height } = this.geo;
    this.painter.doc.addPage([width, height], width > height ? 'l' : 'p');
    this.painter.invalidate();
    this.page = this.painter.doc.getNumberOfPages();
    this.budget?.pages(this.page);
    this.y = this.geo.top;
    this.atTop = true;
    this.overflowPage = overflow;
  }

  fields(): FieldValues {
    // From the document: autotable adds pages behind the flow's back while a table is drawn.
    const page = this.painter.doc.getCurrentPageInfo().pageNumber;
    return {
      page,
      pages: null,
      defer: (item, x, baseline) => this.deferred.push({ page, item, x, baseline }),
    };
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
        const frame = { left: this.geo.left, pageWidth: this.geo.width, pageHeight: this.geo.height, top: this.geo.top, bottom: this.geo.bottom };
        this.y = drawBodyTable(this.painter, b, frame, this.y, this.atTop, () => this.newPage(true), () => this.fields(),
          // autotable adds its own pages: counted at every cell it draws.
          () => this.budget?.pages(this.painter.doc.getNumberOfPages()));
        this.page = this.painter.doc.getCurrentPageInfo().pageNumber;
        this.atTop = false;
      }
    });
    for (; pendingBreaks > 1; pendingBreaks--) this.newPage();
  }

  private get room(): number {
    return this.geo.bottom - this.y;
  }

  /** How many of `lines` fit from the current y (at least one at the top of a page). */
  private fitting(lines: Line[], from: number, top: number): number {
    let y = top;
    let n = 0;
    for (let i = from; i < lines.length; i++) {
      if (y + lines[i].height > this.geo.bottom + 0.01) break;
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
      if (p.shading || p.borders) this.painter.paragraphBox(p, this.geo.left, this.y, height, i === 0, i + n === lines.length);
      if (first && p.heading) this.outline.add(p.heading.level, p.heading.title, this.page);
      const fields = this.fields();
      for (const line of chunk) {
        this.painter.line(line, this.geo.left, this.y, fields);
        this.y += line.height;
      }
      this.atTop = false;
      first = false;
      i += n;
      if (i < lines.length) this.newPage(true);
    }
    this.y += p.spaceAfter;
  }
}
