/**
 * Footnotes at the foot of a page: the body flow reserves their height below the body as it places the line that
 * holds their reference mark (the body of that page gets shorter), and draws them when the page is done,
 * bottom-aligned above the bottom margin under a short separator line, as Word does (its separator is 2 inches of
 * 0.5 pt rule in a line of its own).
 *
 * A note taller than the room left on its page is split between lines, as Word and LibreOffice do: what fits
 * stays under its reference, the rest opens the note area of the next page under a continuation separator (a rule
 * as wide as the text) before that page's own notes.
 */
import type { LaidBlock, LaidParagraph } from '../layout/items.js';
import { blockHeight } from '../layout/blocks.js';
import type { Emitter, FieldValues } from './emit.js';
import type { PageGeometry } from './section.js';

/** The separator's line of its own (points) and its rule's length and width. */
const SEPARATOR_HEIGHT = 12;
const SEPARATOR_LENGTH = 144;
const SEPARATOR_WIDTH = 0.5;
/** Room a page full of continued notes still leaves to the body (points): about two lines. */
const BODY_KEPT = 28;

/** Every footnote of laid blocks, table cells included, in reading order. */
export function footnotesOf(blocks: LaidBlock[]): LaidBlock[] {
  const out: LaidBlock[] = [];
  for (const b of blocks) {
    if (b.kind === 'paragraph' && b.footnotes) out.push(...b.footnotes);
    else if (b.kind === 'table') for (const row of b.rows) for (const cell of row.cells) out.push(...footnotesOf(cell.blocks));
  }
  return out;
}

/**
 * A paragraph's footnotes by the line that holds their mark (index: line; a note whose mark is not found, such as a
 * custom mark, goes with the last line). Undefined when the paragraph has none.
 */
export function notesByLine(p: LaidParagraph): (LaidBlock[] | undefined)[] | undefined {
  const notes = p.footnotes;
  if (!notes || notes.length === 0 || p.lines.length === 0) return undefined;
  const lineOf = new Map<number, number>();
  p.lines.forEach((line, i) => {
    for (const it of line.items) if (it.kind === 'text' && it.fmt.note !== undefined && !lineOf.has(it.fmt.note)) lineOf.set(it.fmt.note, i);
  });
  const out: (LaidBlock[] | undefined)[] = new Array(p.lines.length);
  const last = p.lines.length - 1;
  notes.forEach((b, k) => {
    const note = p.footnoteOf?.[k];
    const i = note === undefined ? last : lineOf.get(note) ?? last;
    (out[i] ??= []).push(b);
  });
  return out;
}

/** The first `n` lines of a note paragraph, and the rest (the split keeps its space before above, after below). */
function splitParagraph(p: LaidParagraph, n: number): [LaidParagraph, LaidParagraph] {
  return [
    { ...p, lines: p.lines.slice(0, n), spaceAfter: 0 },
    { ...p, lines: p.lines.slice(n), spaceBefore: 0, heading: null },
  ];
}

export class PageNotes {
  private blocks: LaidBlock[] = [];
  /** What did not fit on the page: continued on the next one (`continueOn`). */
  private carry: LaidBlock[] = [];
  /** This page's notes start with the rest of a note begun on the page before. */
  private continued = false;
  /** Height the notes take at the foot of this page, the separator included (0 without notes). */
  height = 0;

  /** Notes wait for the next page. */
  get carrying(): boolean {
    return this.carry.length > 0;
  }

  /** The height `notes` would add to this page. */
  need(notes: LaidBlock[]): number {
    if (notes.length === 0) return 0;
    if (this.carry.length > 0) return 0; // they follow notes already continued on the next page
    return notes.reduce((h, b) => h + blockHeight(b), this.blocks.length === 0 ? SEPARATOR_HEIGHT : 0);
  }

  /**
   * The least height `notes` must add to this page, after notes `before` that fit whole, to stay with their
   * reference: the first line of the first one (the rest can go on the next page).
   */
  least(notes: LaidBlock[], before: LaidBlock[] = []): number {
    const first = notes[0];
    if (!first || this.carry.length > 0) return 0;
    const head = before.length > 0 ? this.need(before) : this.blocks.length === 0 ? SEPARATOR_HEIGHT : 0;
    if (first.kind !== 'paragraph' || first.lines.length === 0) return head + blockHeight(first);
    return head + first.spaceBefore + first.lines[0].height;
  }

  /** Adds notes to this page within `room` points (separator included); what does not fit goes to the next page. */
  add(notes: LaidBlock[], room = Infinity): void {
    if (notes.length === 0) return;
    let left = room - this.height - (this.blocks.length === 0 && this.carry.length === 0 ? SEPARATOR_HEIGHT : 0);
    for (const b of notes) {
      if (this.carry.length > 0) {
        this.carry.push(b);
        continue;
      }
      const h = blockHeight(b);
      if (h <= left + 0.01) {
        this.take(b);
        left -= h;
        continue;
      }
      const n = b.kind === 'paragraph' ? linesWithin(b, left) : 0;
      if (b.kind === 'paragraph' && n === b.lines.length) {
        // Only its space after passes the foot: it stays whole.
        this.take(b);
        left = 0;
      } else if (b.kind === 'paragraph' && n > 0) {
        const [head, tail] = splitParagraph(b, n);
        this.take(head);
        this.carry.push(tail);
      } else this.carry.push(b);
    }
  }

  private take(b: LaidBlock): void {
    if (this.blocks.length === 0) this.height += SEPARATOR_HEIGHT;
    this.blocks.push(b);
    this.height += blockHeight(b);
  }

  /** Draws this page's notes above the bottom of its content box, then starts empty for the next page. */
  flush(emitter: Emitter, geo: PageGeometry, fields: FieldValues): void {
    if (this.blocks.length > 0) {
      const top = geo.bottom - this.height;
      const rule = top + SEPARATOR_HEIGHT / 2;
      const length = this.continued ? geo.right - geo.left : Math.min(SEPARATOR_LENGTH, geo.right - geo.left);
      emitter.rule(geo.left, rule, geo.left + length, rule, SEPARATOR_WIDTH, [0, 0, 0]);
      emitter.stack(this.blocks, geo.left, top + SEPARATOR_HEIGHT, fields);
    }
    this.blocks = [];
    this.height = 0;
    this.continued = false;
  }

  /** Opens a new page's note area with the notes carried over, within the page's content height. */
  continueOn(contentHeight: number): void {
    if (this.carry.length === 0) return;
    const carried = this.carry;
    this.carry = [];
    this.continued = true;
    this.add(carried, Math.max(SEPARATOR_HEIGHT + 1, contentHeight - BODY_KEPT));
  }
}

/** How many lines of a note paragraph fit in `room` points (with its space before). */
function linesWithin(p: LaidParagraph, room: number): number {
  let h = p.spaceBefore;
  let n = 0;
  for (const line of p.lines) {
    if (h + line.height > room + 0.01) break;
    h += line.height;
    n++;
  }
  return n;
}
