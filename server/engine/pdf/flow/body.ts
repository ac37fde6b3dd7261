/**
 * The body flow: places laid-out blocks on pages (as boxes, flow/boxes.ts), top to bottom, starting new pages
 * when the content box is full, for page breaks and for pageBreakBefore; keeps a heading with what follows
 * (keepWithNext), avoids a lone first or last line of a paragraph at a page edge, and records headings for the
 * outline. Footnotes go to the foot of the page their paragraph ends on (flow/notes.ts), shortening its body.
 * A section in newspaper columns (flow/columns.ts) fills column 1, then 2… of each page (a column break moves on
 * to the next one), draws the line between them when asked, and evens them out when the section ends in a
 * continuous section break; a continuous section starts below the one before it, on its page.
 */
import type { Emitter, FieldValues } from './emit.js';
import type { LaidBlock, LaidParagraph, Line } from '../layout/items.js';
import { blockHeight, paragraphHeight } from '../layout/blocks.js';
import type { PageGeometry } from './section.js';
import type { PageSequence } from './pages.js';
import { flowBodyTable } from './table.js';
import { footnotesOf, notesByLine, PageNotes } from './notes.js';
import type { RenderBudget } from '../budget.js';
import { balancedHeight, balancedHeightUnequal, columnBands, type ColumnSet, type ColumnStart } from './columns.js';
import { floatRect, frameOf, holeOf, placeFloat, placeFloatsInStacks, sameHole, wrapAround, type Exclusion } from './floats.js';
import type { LaidTable } from '../layout/items.js';
import type { Box } from './boxes.js';
import type { Narrow } from '../layout/paragraph.js';
import type { LineNumbers } from './line-numbers.js';

export interface FlowOptions {
  /** The section's columns (null: one). */
  columns?: ColumnSet | null;
  /** A continuous section: starts at this y on the open page instead of on a new page. */
  continueAt?: number;
  /** Even out the columns (the section ends in a continuous section break). */
  balance?: boolean;
  /** The geometry of the section's first page when it differs (a title page's own header or footer). */
  firstGeo?: PageGeometry;
  /** Counts the body's lines and numbers them (w:lnNumType; the count goes on across sections). */
  lineNumbers?: LineNumbers;
}

/** Lines of one paragraph followed beside floats one by one (a bound on a page-tall float of tiny lines). */
const MAX_BANDED_LINES = 400;

/**
 * Lines one paragraph is laid out again for as it goes on in columns of other widths (each time whole: toColumn).
 * Past them the rest of a longer one is cut to the narrowest column, which fits every column: one paragraph of
 * 20,000 words over 56 columns of two widths took 5 s laid out again for each, quadratic in its length (67 ms in
 * equal columns). A paragraph of 1,000 lines (some 7,000 words in a 2-inch column) still goes on at each column's width.
 */
const MAX_RELAID_LINES = 20_000;

const SEPARATOR: readonly [number, number, number] = [0, 0, 0];

/** Lays a paragraph out again with some lines narrowed (beside a float). */
export type Relayout = (p: LaidParagraph, narrow: Narrow[], width?: number) => LaidParagraph;

export class BodyFlow {
  private y: number;
  /** Nothing placed yet in the content box of this page. */
  private atTop = true;
  /** This page was started because the previous one was full (space before is dropped at its top). */
  private overflowPage = false;
  /** The footnotes of the open page. */
  private readonly notes = new PageNotes();
  private readonly columns: ColumnSet | null;
  /** The column being filled, where the columns start on this page, and the lowest y each has reached. */
  private col = 0;
  private colTop: number;
  private colEnds: number[] = [];
  /** The balanced columns' foot on this page (all but the last column stop there); null: the page's foot. */
  private limit: number | null = null;
  /** The areas floats on the open page keep free of text. */
  private exclusions: Exclusion[] = [];
  /** Boxes of the open page's floats in front of the text: added when the page is full. */
  private front: Box[] = [];
  /** The open page's geometry: the section's, or its first page's (options.firstGeo). */
  private geo: PageGeometry;
  /** Pages this section has started. */
  private started = 0;
  /**
   * Where blocks() is: the block being placed and, in a paragraph, its first line not yet placed — what is left
   * of the section when it runs onto a new page, whose columns are evened out once the rest fits on it.
   */
  private cursor: {
    blocks: LaidBlock[];
    index: number;
    line: number;
    /** The paragraph as the flow places it (laid out again beside floats or for its column), when it is. */
    placed?: LaidParagraph;
    /** The column widths its placed lines were cut to (columns of different widths: toColumn's bands). */
    bands?: Narrow[];
    /** Its lines beside floats there (columns of different widths: toColumn's floats). */
    floats?: Narrow[];
  } | null = null;
  /** While a table goes on in the next column or page: the heights of its rows not yet placed (flowBodyTable). */
  private tableRest: number[] | null = null;

  /** Starts the section on a new page. */
  constructor(
    private readonly emitter: Emitter,
    private readonly pages: PageSequence,
    private readonly sectionGeo: PageGeometry,
    /** The render's limits: time checked per block and table row. */
    private readonly budget?: RenderBudget,
    private readonly options: FlowOptions = {},
    /** Narrows paragraphs beside floats; without it text runs over them. */
    private readonly relayout?: Relayout,
  ) {
    this.columns = options.columns ?? null;
    this.geo = sectionGeo;
    this.y = sectionGeo.top;
    this.colTop = sectionGeo.top;
    placeFloatsInStacks(emitter, () => this.geo);
    if (options.continueAt !== undefined && pages.number > 0) {
      this.y = this.colTop = Math.min(options.continueAt, sectionGeo.bottom);
      this.atTop = false;
      this.started = 1; // the page it goes on is not its own first page
    } else this.newPage();
  }

  /** Left edge of the column being filled. */
  private get left(): number {
    return this.geo.left + (this.columns ? this.columns.x[this.col] : 0);
  }

  /** Right edge of the column being filled. */
  private get right(): number {
    return this.columns ? this.left + this.columns.width[this.col] : this.geo.right;
  }

  /** The lowest y the body reached on the open page (the next continuous section starts there). */
  get endY(): number {
    return Math.max(this.y, ...this.colEnds);
  }

  get page(): number {
    return this.pages.number;
  }

  newPage(overflow = false): void {
    this.finishPage();
    this.geo = this.started === 0 && this.options.firstGeo ? this.options.firstGeo : this.sectionGeo;
    this.started++;
    this.pages.start(this.geo.width, this.geo.height);
    this.notes.continueOn(this.geo.bottom - this.geo.top);
    this.y = this.colTop = this.geo.top;
    this.col = 0;
    this.colEnds = [];
    this.limit = null;
    this.atTop = true;
    this.exclusions = [];
    this.front = [];
    this.overflowPage = overflow;
  }

  /** Goes on in the next column, or on the next page after the last one. */
  private nextColumn(): void {
    if (!this.columns || this.col >= this.columns.x.length - 1) {
      this.newPage(true);
      this.balanceRest();
      return;
    }
    this.colEnds[this.col] = this.y;
    this.col++;
    this.y = this.colTop;
    this.atTop = true;
    this.overflowPage = true;
  }

  /**
   * A section balanced at its end that did not fit on its first page: Word evens out the columns of the page it
   * ends on, so on each page it overflows onto, the columns are balanced once what is left fits there
   * (oxsdk__complex2010's three-column section ends five lines a column on page 2, as in LibreOffice, not fourteen
   * lines in the first). In the middle of a table, its rows not yet placed (tableRest, the repeated header rows
   * counted once) go first.
   */
  private balanceRest(): void {
    const c = this.cursor;
    if (!this.columns || !this.options.balance || !c) return;
    const current = c.blocks[c.index];
    let head: LaidBlock;
    if (current?.kind === 'paragraph') {
      // c.line counts the lines the flow places, which differ from the block's own beside floats or in columns of
      // different widths.
      const placed = c.placed ?? current;
      head = { ...placed, lines: placed.lines.slice(c.line), spaceBefore: c.line > 0 ? 0 : placed.spaceBefore };
    } else if (current?.kind === 'table' && !current.float && this.tableRest) head = { ...current, heights: this.tableRest, inColumn: undefined };
    else return;
    const count = this.columns.x.length;
    const room = this.geo.bottom - this.colTop;
    const rest: LaidBlock[] = [head];
    // What is left is gathered only while it could still fit on this page (a long section is not summed again
    // on each of its pages). Columns of different widths: the blocks are counted at the narrowest one's width,
    // so up to widest / narrowest times as much may fit.
    const widths = this.columns.width;
    const cap = count * room * (this.unequal() ? Math.max(...widths) / Math.min(...widths) : 1);
    let total = blockHeight(head);
    for (let k = c.index + 1; k < c.blocks.length && total <= cap; k++) {
      const b = c.blocks[k];
      rest.push(b);
      total += blockHeight(b);
    }
    if (total > cap) return;
    const lay = (q: LaidParagraph, starts: ColumnStart[]): Line[] => (q === head && current.kind === 'paragraph' ? this.restLines(current, q, c, starts) : this.linesIn(q, starts));
    const h = this.unequal() ? balancedHeightUnequal(rest, count, room, this.linesMemo(lay)) : balancedHeight(rest, count, room);
    if (h !== null) this.limit = this.colTop + h;
  }

  /**
   * What is left of the paragraph being placed (`head`: its lines from `c.line` on) as it goes in the columns
   * `starts` names (counted from `c.line`): the lines placed keep their columns' widths (toColumn). As placed when
   * it is not laid out per column (its lines cut to the narrowest column past MAX_RELAID_LINES).
   */
  private restLines(laid: LaidParagraph, head: LaidParagraph, c: NonNullable<BodyFlow['cursor']>, starts: ColumnStart[]): Line[] {
    const own = this.columnWidths();
    if (!own || !c.bands || c.bands.length === 0) return head.lines;
    const bands = c.bands.map((b) => ({ ...b }));
    bands[bands.length - 1].to = c.line;
    bands.push(...columnBands(starts, own, c.line));
    // The floats beside its first column's lines narrow none of those left (toColumn).
    const floats = (c.floats ?? []).map((f) => ({ ...f, to: Math.min(f.to, Math.max(f.from, c.line)) }));
    return this.relayout!(laid, [...floats, ...bands], own.widest).lines.slice(c.line);
  }

  /** The line between columns, as long as the longest column on this page (w:sep). */
  private separators(): void {
    const c = this.columns;
    if (!c?.separator || this.pages.number === 0) return;
    const ends = [...this.colEnds];
    ends[this.col] = this.y;
    const foot = Math.max(...ends.filter((v) => v !== undefined));
    if (!(foot > this.colTop + 1)) return;
    for (let i = 1; i <= this.col; i++) {
      const x = this.geo.left + (c.x[i - 1] + c.width[i - 1] + c.x[i]) / 2;
      this.emitter.rule(x, this.colTop, x, foot, 0.5, SEPARATOR);
    }
  }

  /** Draws the open page's footnotes (at a page's end: before the next starts, and after the section's body). */
  finishPage(): void {
    this.separators();
    if (this.pages.number === 0) return;
    this.notes.flush(this.emitter, this.geo, this.fields());
    this.flushFront();
  }

  /** The open page's floats in front of the text, drawn over it. */
  private flushFront(): void {
    for (const b of this.front) this.emitter.out.push(b);
    this.front = [];
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
    if (this.columns && this.options.balance) {
      const room = this.geo.bottom - this.colTop;
      const count = this.columns.x.length;
      const h = this.unequal() ? balancedHeightUnequal(blocks, count, room, this.linesMemo()) : balancedHeight(blocks, count, room);
      if (h !== null) this.limit = this.colTop + h;
    }
    let pendingBreaks = 0;
    for (let i = 0; i < blocks.length; i++) {
      const b = blocks[i];
      if (b.kind === 'pageBreak') {
        if (b.column && this.columns) {
          for (; pendingBreaks > 0; pendingBreaks--) this.newPage();
          this.nextColumn();
        } else {
          // The empty line a break starts its paragraph with goes to the next page when this one has no room
          // for it: the break then starts the page after (a page left empty, as in Word and LibreOffice).
          if (pendingBreaks === 0 && !this.atTop && b.room !== undefined && this.y + b.room > this.bottom + 0.01) pendingBreaks++;
          pendingBreaks++;
        }
        continue;
      }
      for (; pendingBreaks > 0; pendingBreaks--) this.newPage();
      this.cursor = { blocks, index: i, line: 0 };
      this.budget?.tick();
      if (b.kind === 'table' && b.float) {
        // Anchored in nothing that follows (a table comes next): it moves to the next page alone.
        if (!this.atTop && this.passesFoot(b)) this.newPage(true);
        this.float(b, this.y);
      }
      else if (b.kind === 'paragraph') {
        // The floats anchored in this paragraph follow it: placed first, so that its lines can go around them.
        let j = i + 1;
        const floats: LaidTable[] = [];
        for (let next = blocks[j]; next?.kind === 'table' && next.float; next = blocks[++j]) floats.push(next);
        if (floats.length > 0) {
          this.anchorPage(b, floats);
          for (const f of floats) this.float(f, this.y);
        }
        this.paragraph(b, blocks[j]);
        i = j - 1;
      } else {
        // A table does not flow beside a float: it starts below those in its way.
        if (this.exclusions.length > 0) {
          const hits = this.exclusions.map((e) => ({ ...e, wrap: 'topAndBottom' as const }));
          this.y = wrapAround(hits, this.left, this.right, this.y, b.heights[0] ?? 0).top;
        }
        const t = this.tableIn(b);
        // A table that goes on in the next newspaper column (or page) moves with it: the frame follows the column.
        const frame = { left: this.left, top: this.colTop, bottom: this.bottom };
        const onward = (rest: number[]): void => {
          this.tableRest = rest;
          this.nextColumn();
          this.tableRest = null;
          frame.left = this.left;
          frame.top = this.colTop;
          frame.bottom = this.bottom;
        };
        // A table's footnotes go to the page it ends on (not re-fitted: a table's rows are placed by table.ts);
        // collected first, as the table flow drops its rows while it places them.
        const notes = footnotesOf([t]);
        this.y = flowBodyTable(this.emitter, t, frame, this.y, this.atTop, onward, () => this.fields(), () => this.budget?.tick());
        this.atTop = false;
        this.notes.add(notes, this.noteRoom());
      }
    }
    for (; pendingBreaks > 1; pendingBreaks--) this.newPage();
    // Notes continued past the section's last page get pages of their own (Word adds them too).
    while (this.notes.carrying && this.pages.number > 0) this.newPage(true);
    if (this.options.balance) {
      // The next section goes on below this one, on this page: its columns' lines and notes are drawn now.
      this.separators();
      this.colEnds[this.col] = this.y;
      if (this.pages.number > 0) this.notes.flush(this.emitter, this.geo, this.fields());
      this.flushFront();
    } else this.finishPage();
  }

  /**
   * Starts the page an anchor paragraph goes on before its floats are placed (its own page break, a full page,
   * or a floating table or frame that would pass the page's foot: it goes to the next page with its paragraph).
   */
  private anchorPage(p: LaidParagraph, floats: LaidTable[]): void {
    if (this.atTop) return;
    if (p.pageBreakBefore) this.newPage();
    else if (this.y + p.spaceBefore + (p.lines[0]?.height ?? 0) > this.bottom + 0.01) this.newPage(true);
    else if (floats.some((f) => this.passesFoot(f))) this.newPage(true);
  }

  /**
   * A float placed from its paragraph that would not fit here, so it goes to the next page with the paragraph:
   * a frame or floating table (model/floats.ts `withAnchor`) that would end below the body's foot, or a picture
   * or shape that text wraps around (square, top and bottom) that would end below the page's edge — it may hang
   * into the bottom margin, as Word lets it (aspose__Various_shapes' text box stays on page 1; oxsdk__hyperlink's
   * charts then land on the pages its table of figures names). Floats in front of or behind the text stay.
   */
  private passesFoot(t: LaidTable): boolean {
    const f = t.float;
    if (!f || !(f.withAnchor || f.wrap !== 'none') || (f.y.from !== 'paragraph' && f.y.from !== 'line')) return false;
    const r = floatRect(f, frameOf(this.geo, this.left, this.right, this.y));
    const foot = f.withAnchor ? this.bottom : this.geo.height;
    return r.y + r.h > foot + 0.01 && r.h <= this.bottom - this.colTop;
  }

  /** Places a float anchored at `anchorTop` on the open page. */
  private float(t: LaidTable, anchorTop: number): void {
    const excl = placeFloat(this.emitter, t, frameOf(this.geo, this.left, this.right, anchorTop), this.fields(), this.front);
    if (excl) this.exclusions.push(excl);
  }

  /**
   * Newspaper columns of different widths (w:col): the body was laid out at the narrowest one's width, so a
   * paragraph is laid out again for the column it goes in — at the widest column's width, each line cut to its
   * own column's (Narrow.column), so that the lines already placed keep their breaks when it goes on in a column of
   * another width. A list item keeps the label it was counted with (LayoutContext.relabel); a right-to-left one is
   * cut on its physical right too. Null when that is not needed (one width).
   */
  private columnWidths(): { widths: number[]; widest: number } | null {
    const widths = this.columns?.width;
    if (!widths || !this.relayout) return null;
    const widest = Math.max(...widths);
    return widths.some((w) => widest - w > 0.5) ? { widths, widest } : null;
  }

  /**
   * `p` laid out again with its lines from `from` on at `width`, the open column's (`bands`: the placed ones'); the
   * lines beside floats (`floats`, of the column it started in) keep their narrowing up to `from` only.
   */
  private toColumn(p: LaidParagraph, floats: Narrow[], bands: Narrow[], from: number, own: { widths: number[]; widest: number }, width = own.widths[this.col]): LaidParagraph {
    const last = bands[bands.length - 1];
    if (last) {
      // On in another column: the floats beside the first one's lines narrow none of those left.
      last.to = from;
      for (const f of floats) f.to = Math.min(f.to, Math.max(f.from, from));
    }
    const end = own.widest - width;
    bands.push({ from, to: Number.MAX_SAFE_INTEGER, start: 0, end, column: true });
    const again = this.relayout!(p, [...floats, ...bands], own.widest);
    // Shading and borders reach the column's edge, not the widest column's.
    again.boxRight -= end;
    return again;
  }

  /**
   * The table as laid out for the open column (columns of different widths, LaidTable.inColumn) when it ends in
   * it; one that goes on in another column keeps the narrowest column's layout, which every column holds.
   */
  private tableIn(b: LaidTable): LaidTable {
    const t = b.inColumn?.[this.col];
    if (!t || t === b) return b;
    const height = t.heights.reduce((a, h) => a + h, 0);
    return this.y + height <= this.bottom + 0.01 ? t : b;
  }

  /** Columns of different widths. */
  private unequal(): boolean {
    const w = this.columns?.width;
    return !!w && w.some((x) => Math.abs(x - w[0]) > 0.5);
  }

  /** `lay`, each paragraph laid out once per set of columns (the bisection tries the same ones again). */
  private linesMemo(lay = (p: LaidParagraph, starts: ColumnStart[]): Line[] => this.linesIn(p, starts)): (p: LaidParagraph, starts: ColumnStart[]) => Line[] {
    const memo = new Map<LaidParagraph, Map<string, Line[]>>();
    return (p, starts) => {
      const key = starts.map((s) => `${s.from}:${s.col}`).join(' ');
      let byKey = memo.get(p);
      if (!byKey) memo.set(p, (byKey = new Map()));
      let lines = byKey.get(key);
      if (!lines) byKey.set(key, (lines = lay(p, starts)));
      return lines;
    };
  }

  /** A paragraph's lines as they go in the columns `starts` names (for balancing columns of different widths). */
  private linesIn(p: LaidParagraph, starts: ColumnStart[]): Line[] {
    const own = this.columnWidths();
    if (!own) return p.lines;
    return this.relayout!(p, columnBands(starts, own, 0), own.widest).lines;
  }

  /** The paragraph as it goes beside the floats in its way: its lines there narrowed, or the whole lower. */
  private aroundFloats(p: LaidParagraph): LaidParagraph {
    const bands = this.floatBands(p, 0);
    // A list item too: laid out again with the label it was counted with (LayoutContext.relabel), which moves
    // with its text (Word wraps a numbered paragraph around a float like any other).
    return bands.length > 0 && this.relayout ? this.relayout(p, bands) : p;
  }

  /**
   * Moves below the floats a paragraph cannot go beside and gives the bands of its lines beside floats (none when
   * nothing narrows them). `edge`: the open column's cut from the width it is laid out at (columns of different
   * widths, Narrow.edge), added to each band's end.
   */
  private floatBands(p: LaidParagraph, edge: number): Narrow[] {
    const left = this.left;
    const right = this.right;
    const height = p.lines.reduce((a, l) => a + l.height, 0);
    const around = wrapAround(this.exclusions, left, right, this.y, height);
    if (around.top > this.y) {
      this.y = around.top;
      this.atTop = false;
    }
    if ((around.left === left && around.right === right && !around.hole) || !this.relayout) return [];
    // The lines beside the floats: counted with the present lines' height (narrower lines are more of them).
    const lineHeight = height / Math.max(1, p.lines.length);
    if (!(lineHeight > 0)) return [];
    const cut = (n: Narrow): Narrow => (edge > 0 ? { ...n, end: n.end + edge, edge } : n);
    const bands = this.bandsBeside(lineHeight);
    if (bands) return bands.map(cut);
    const from = Math.max(0, Math.floor((around.y1 - this.y) / lineHeight + 0.01));
    const to = Math.ceil((around.y2 - this.y) / lineHeight - 0.01);
    if (from >= to) return [];
    return [cut({ from, to, start: around.left - left, end: right - around.right, foot: around.y2 - this.y, ...holeOf(around, left) })];
  }

  /**
   * Line by line from this.y, the span each line of `lineHeight` has beside the floats (floats of different
   * heights leave different room: above the lower one, text reaches past it), as bands of lines with equal spans;
   * null when a line there has no room at all (the paragraph then takes one span beside all of them).
   */
  private bandsBeside(lineHeight: number): Narrow[] | null {
    const [left, right] = [this.left, this.right];
    const foot = Math.max(...this.exclusions.filter((e) => e.y2 > this.y).map((e) => e.y2));
    const bands: Narrow[] = [];
    for (let i = 0; this.y + i * lineHeight < foot && i < MAX_BANDED_LINES; i++) {
      const y = this.y + i * lineHeight;
      const at = wrapAround(this.exclusions, left, right, y, lineHeight);
      if (at.top > y + 0.01) return null;
      const [start, end] = [at.left - left, right - at.right];
      if (start === 0 && end === 0 && !at.hole) continue;
      const { hole } = holeOf(at, left);
      const last = bands[bands.length - 1];
      if (last && last.to === i && last.start === start && last.end === end && sameHole(last.hole, hole)) {
        last.to = i + 1;
        last.foot = Math.max(last.foot ?? 0, at.y2 - this.y);
      } else bands.push({ from: i, to: i + 1, start, end, foot: at.y2 - this.y, ...(hole ? { hole } : {}) });
    }
    return bands;
  }

  /** The foot of the body in this column: above the page's footnotes, or where balanced columns end. */
  private get bottom(): number {
    return this.footWith(this.notes.height);
  }

  /** The foot of the body in this column were the page's notes `notes` points tall. */
  private footWith(notes: number): number {
    const foot = this.geo.bottom - notes;
    const last = !this.columns || this.col >= this.columns.x.length - 1;
    return this.limit !== null && !last ? Math.min(foot, this.limit) : foot;
  }

  /** Room for notes below the lowest text of this page (in any column). */
  private noteRoom(): number {
    let low = this.y;
    for (const end of this.colEnds) if (end !== undefined && end > low) low = end;
    return this.geo.bottom - low;
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

  /**
   * How many of `lines` fit from the current y when each brings the footnotes its marks call (`byLine`): they must
   * fit below it, all of them, or at least their first line (the rest goes on the next page), which ends the page.
   */
  private fittingWithNotes(lines: Line[], from: number, byLine: (LaidBlock[] | undefined)[]): number {
    let y = this.y;
    let n = 0;
    let taken: LaidBlock[] = [];
    for (let i = from; i < lines.length; i++) {
      const h = lines[i].height;
      const notes = byLine[i];
      if (!notes) {
        if (y + h > this.footWith(this.notes.height + this.notes.need(taken)) + 0.01) break;
      } else {
        const all = [...taken, ...notes];
        if (y + h > this.footWith(this.notes.height + this.notes.need(all)) + 0.01) {
          if (y + h <= this.footWith(this.notes.height + this.notes.least(notes, taken)) + 0.01) n++;
          break;
        }
        taken = all;
      }
      y += h;
      n++;
    }
    return n;
  }

  private paragraph(laid: LaidParagraph, next: LaidBlock | undefined): void {
    let p = laid;
    if (p.pageBreakBefore && !this.atTop) this.newPage();
    const contentHeight = this.geo.bottom - this.colTop;
    if (p.keepWithNext && !this.atTop) {
      // Its own space after needs no room at the page's foot when nothing follows it here (the last paragraph of
      // a section before a new page: aspose__Rendering's empty heading that ends a section fits as in LibreOffice).
      let need = paragraphHeight(p) - (next ? 0 : p.spaceAfter);
      if (next?.kind === 'paragraph') need += next.spaceBefore + (next.lines[0]?.height ?? 0);
      else if (next?.kind === 'table') need += next.heights[0] ?? 0;
      if (need > this.room && need <= contentHeight) this.nextColumn();
    }
    if (!(this.atTop && this.overflowPage)) this.y += p.spaceBefore;
    const own = this.columnWidths();
    // Beside floats in a column of another width, the lines are narrowed from that column's edges.
    let floats: Narrow[] = [];
    if (this.exclusions.length > 0) {
      if (own) floats = this.floatBands(p, own.widest - own.widths[this.col]);
      else p = this.aroundFloats(p);
    }
    const bands: Narrow[] = [];
    if (own) p = this.toColumn(laid, floats, bands, 0, own);
    if (this.cursor) Object.assign(this.cursor, { placed: p, bands: own ? bands : undefined, floats });
    let lines = p.lines;
    let byLine = notesByLine(p);
    let i = 0;
    let first = true;
    let relaid = lines.length;
    let cut = false;
    while (i < lines.length) {
      if (this.cursor) this.cursor.line = i;
      if (own && !cut && bands[bands.length - 1].end !== own.widest - own.widths[this.col]) {
        // On in a column of another width: the lines left are laid out again at its width (its shading too).
        relaid += lines.length;
        cut = relaid > MAX_RELAID_LINES;
        p = this.toColumn(laid, floats, bands, i, own, cut ? Math.min(...own.widths) : undefined);
        // Once cut, its lines stay as they are in every column (restLines).
        if (this.cursor) Object.assign(this.cursor, { placed: p, bands: cut ? undefined : bands });
        lines = p.lines;
        byLine = notesByLine(p);
      }
      // A line that holds footnote marks brings their notes: they must fit below it on the same page.
      let n = byLine ? this.fittingWithNotes(lines, i, byLine) : this.fitting(lines, i, this.y);
      const remaining = lines.length - i;
      if (!this.atTop && p.widowControl) {
        // Widow/orphan control: no lone first line at a page bottom, no lone last line at the next top. Keeping
        // two lines for the next page can leave the first alone here: then the paragraph moves whole (a
        // three-line paragraph never splits — Word's and LibreOffice's 2 + 2 rule).
        if (n > 1 && remaining - n === 1 && remaining > 2) n -= 1;
        if (n === 1 && remaining > 1 && first) n = 0;
      }
      if (n === 0) {
        if (this.atTop) n = 1; // taller than a page: draw it anyway, clipped by the page edge
        else {
          this.nextColumn();
          continue;
        }
      }
      const chunk = lines.slice(i, i + n);
      const height = chunk.reduce((a, l) => a + l.height, 0);
      if (p.shading || p.borders) this.emitter.paragraphBox(p, this.left, this.y, height, i === 0, i + n === lines.length);
      if (first && p.heading) this.pages.current.bookmarks.push({ level: p.heading.level, title: p.heading.title });
      const fields = this.fields();
      const numbers = p.source.style?.suppressLineNumbers === true ? undefined : this.options.lineNumbers;
      chunk.forEach((line, k) => {
        this.emitter.line(line, this.left, this.y, fields);
        const number = numbers?.line(this.pages.number, this.left, this.y + line.baseline);
        if (number) this.emitter.out.push(number);
        this.y += line.height;
        const notes = byLine?.[i + k];
        if (notes) this.notes.add(notes, this.noteRoom());
      });
      this.atTop = false;
      first = false;
      i += n;
      // A new page balances what is left from here (balanceRest), not from the line this column started with.
      if (this.cursor) this.cursor.line = i;
      if (i < lines.length) this.nextColumn();
    }
    this.y += p.spaceAfter;
  }
}
