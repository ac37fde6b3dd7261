/**
 * Paragraph layout: styled runs → lines of positioned items. Greedy line filling with break opportunities at
 * spaces and where UAX #14 and kinsoku allow (text/line-break.ts); words wider than a line are broken between
 * characters.
 * Tab stops (left, centre, right, decimal; leaders), alignment including justify, first-line and hanging
 * indents, list labels, line spacing, and bidi reordering of lines holding right-to-left text.
 *
 * Lines are built in logical order with x measured from the paragraph's start edge, then converted to
 * physical positions (visual order, alignment) when a line is finished.
 */
import type { RenderBudget } from '../budget.js';
import type { ChartRun, Paragraph, ParagraphStyle, RunStyle, TabStop, TextRun } from '../../model/types.js';
import type { Box } from '../flow/boxes.js';
import { layoutChart } from './chart.js';
import { layoutInlineShape } from './inline-shape.js';
import { familyFor, variantOf, type FamilyDef, type Variant } from '../fonts/families.js';
import type { Face } from '../fonts/faces.js';
import { fallbackLineFace, primaryFace, splitByFace } from '../fonts/resolve.js';
import { breakOpportunities } from '../text/line-break.js';
import type { DocumentFonts } from '../fonts/embed.js';
import { cleanText } from '../text/normalize.js';
import { hasArabic, shapeArabic } from '../text/arabic.js';
import { bidiLevels, hasRtl, mirrored, visualOrder } from '../text/bidi.js';
import { prepareImage, type PreparedImage } from '../images.js';
import { ensureProcessed } from '../draw/image.js';
import { parseColor } from './color.js';
import { makeFmt, merge, num, runField, runFmt, smallCapsFmt, textWidth } from './fmt.js';
import { padForBorders, sideSpace } from './paragraph-border-room.js';
import { splitWideRuns } from './justify-east-asian.js';
import type { Fmt, ImageOutline, ImagePad, Item, LaidParagraph, Line, TextItem } from './items.js';
import type { ListCounters } from './lists.js';
import { copyWith } from '../../copy.js';

export interface LayoutContext {
  fonts: DocumentFonts;
  defaults: { run: RunStyle; paragraph: ParagraphStyle };
  lists: ListCounters;
  /** Text of a page field when it is known (headers and footers, laid out per page); else a placeholder. */
  fieldText?: (field: 'page' | 'pages') => string;
  /**
   * Told of each page field measured with fieldText: its face and size. A layout depends on the page only through
   * these widths, so a header laid out for one page is the same for every page whose fields measure the same
   * (render.ts, FieldLayouts).
   */
  fieldMeasured?: (field: 'page' | 'pages', face: Face, size: number) => void;
  /** Largest image box (the page's content area): bigger images are scaled down to fit. */
  maxImage: { width: number; height: number };
  /** What decimal tab stops align on: the model locale's decimal separator ('.' when not given). */
  decimalSeparator?: string;
  /**
   * Distances from the box's left and right edges to the page's edges. Word honours explicit tab stops past the
   * right margin up to the page's edge (Word's footer style has a right tab at 468 pt, beyond the 432 pt column
   * of 1.25-inch margins), so they count here too. Absent: stops end at the box's edge (table cells).
   */
  pageMargins?: { left: number; right: number };
  /** The render's limits: time is checked per laid-out block. */
  budget?: RenderBudget;
  /**
   * When set, paragraphs record here the widest content they cannot break (a word or a picture, with the
   * paragraph's indents): what an autofit table's column needs so that no word is cut letter by letter.
   */
  minWidth?: { value: number };
  /** The model's locale: all-capitals and small-capitals text is upper-cased by its rules. */
  locale?: string;
  /** The section's document grid (points): lines of auto spacing take whole multiples of it. */
  linePitch?: number;
  /**
   * Bands of lines: lines `from` to `to` (excluded) start `start` points further right and end `end` points
   * earlier: the lines beside a float (flow/floats.ts), each band as the floats beside it leave room. Left-to-right
   * paragraphs only, but for a newspaper column's own edge (`column`, `edge`), which a right-to-left one keeps.
   */
  narrow?: readonly Narrow[];
  /**
   * A list item laid out again (beside a float, in a column of another width): its label as first counted, so that
   * its number does not advance twice. Only for the paragraph `source` (not for those its text boxes hold).
   */
  relabel?: { source: Paragraph; text: string };
}

export interface Narrow {
  from: number;
  to: number;
  start: number;
  end: number;
  /** The foot of the floats beside these lines, from the paragraph's top (where a clearing break resumes). */
  foot?: number;
  /**
   * A float in the middle of these lines that lets text pass on both sides (wrapText bothSides): from `start` to
   * `end` (points from the paragraph's left edge) the lines are interrupted; their text fills the part left of
   * it first, then continues right of it on the same line (flow/floats.ts widestGap).
   */
  hole?: { start: number; end: number };
  /**
   * The edge of the newspaper column these lines go in (columns of different widths: the paragraph is laid out
   * at the widest one's width, each line cut to its own column's), not a float: no line is left empty beside it
   * and a clearing break does not wait for it to end.
   */
  column?: boolean;
  /**
   * Lines beside a float in a newspaper column narrower than the width laid out at: the part of `end` that is the
   * column's own edge (the line may not reach past it whatever the float leaves).
   */
  edge?: number;
}

/** Word's default tab stops: every half inch (unless the document's w:defaultTabStop says otherwise). */
const DEFAULT_TAB = 36;
const EPS = 0.01;
const FIELD_PLACEHOLDER = '00';
const NO_TABS: TabStop[] = [];
export const DIGITS = '0123456789';

/** The face a page number or count is drawn with: the one `splitByFace` picks for digits. */
export function digitFace(family: Parameters<typeof splitByFace>[1], variant: Parameters<typeof splitByFace>[2]): Face {
  const runs = splitByFace(DIGITS, family, variant);
  return runs.length === 1 ? runs[0].face : primaryFace(family, variant);
}

// ───────────────────────────── segments and units ─────────────────────────────

interface TextSeg {
  kind: 'text';
  text: string;
  face: Face;
  fmt: Fmt;
  width: number;
}
interface ImageSeg {
  kind: 'image';
  image: PreparedImage;
  width: number;
  height: number;
  fmt: Fmt | null;
  outline?: ImageOutline;
  pad?: ImagePad;
  /** The ascent and descent (points) of the picture's run font (ImageItem.font). */
  font?: { ascent: number; descent: number };
}
/** A chart, or a shape drawn in the line (inline-shape.ts): boxes relative to its top-left corner. */
interface ChartSeg {
  kind: 'chart';
  boxes: Box[];
  width: number;
  height: number;
  pad?: ImagePad;
}
/** Word's automatic space between East Asian and Latin text (ParagraphStyle.autoSpaceLatin/Digits). */
interface AutoSpaceSeg {
  kind: 'autospace';
  face: Face;
  fmt: Fmt;
  width: number;
}
interface FieldSeg {
  kind: 'field';
  field: 'page' | 'pages';
  face: Face;
  fmt: Fmt;
  width: number;
}
type Seg = TextSeg | ImageSeg | FieldSeg | ChartSeg | AutoSpaceSeg;

type Unit =
  | { t: 'word'; segs: Seg[]; width: number }
  | { t: 'space'; seg: TextSeg; width: number }
  | { t: 'tab'; face: Face; fmt: Fmt }
  | { t: 'br'; face: Face; fmt: Fmt; clear?: TextRun['clear'] };

/** Word's automatic space: a fifth of the font size (LibreOffice draws 1.6 pt at 8 pt, 2.2 pt at 11 pt). */
const AUTO_SPACE_EM = 0.2;
/** Any East Asian letter (a quick test before looking character by character). */
const ASIAN_ANY = /[\u3041-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/;

/**
 * East Asian commas and full stops that may hang past the line's end (Word's w:overflowPunct, on by default;
 * LibreOffice's hanging punctuation): a line whose text fits but for one of these at its end keeps it there
 * rather than carrying the character before it down with it (kinsoku forbids the mark at a line's start).
 */
const HANGING = new Set(['\u3001', '\u3002', '\uff0c', '\uff0e', '\uff61', '\uff64']);
/** Below the first of them: most words end with a character tested by one comparison (this runs for every word). */
const HANGING_FROM = 0x3001;

/** The width of a word's last character when it may hang past the line's end, else 0. */
function hangingWidth(unit: { segs: Seg[] }): number {
  const last = unit.segs[unit.segs.length - 1];
  if (!last || last.kind !== 'text' || last.text.length === 0) return 0;
  if (last.text.charCodeAt(last.text.length - 1) < HANGING_FROM) return 0;
  const ch = last.text[last.text.length - 1];
  return HANGING.has(ch) ? textWidth(last.face, ch, last.fmt) : 0;
}

/** Which side of Word's automatic spacing a character is on: East Asian letter, Latin letter, digit, or neither. */
const enum SpaceClass { None, Asian, Latin, Digit }
function spaceClass(cp: number): SpaceClass {
  if (cp >= 0x30 && cp <= 0x39) return SpaceClass.Digit;
  if (cp < 0x3000) {
    // Latin (basic, Latin-1, extended A/B), Greek and Cyrillic letters.
    if ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return SpaceClass.Latin;
    if (cp >= 0xc0 && cp <= 0x4ff && cp !== 0xd7 && cp !== 0xf7 && (cp <= 0x24f || cp >= 0x370)) return SpaceClass.Latin;
    return SpaceClass.None;
  }
  // Ideographs (CJK and extension A, compatibility), hiragana and katakana letters (not their punctuation), hangul.
  if ((cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xac00 && cp <= 0xd7af)) return SpaceClass.Asian;
  if ((cp >= 0x3041 && cp <= 0x3096) || (cp >= 0x309d && cp <= 0x309f) || (cp >= 0x30a1 && cp <= 0x30fa) || (cp >= 0x30fc && cp <= 0x30ff)) return SpaceClass.Asian;
  return SpaceClass.None;
}

function isBreakingSpace(cp: number): boolean {
  return cp === 0x20 || (cp >= 0x2000 && cp <= 0x200a && cp !== 0x2007) || cp === 0x3000 || cp === 0x205f;
}

/** The segments of no word (never pushed to: a word's array is made with its first segment, at its size). */
const NO_SEGS: Seg[] = [];

class UnitBuilder {
  readonly units: Unit[] = [];
  private word: Seg[] = NO_SEGS;
  private seg: TextSeg | null = null;
  /** The end of the text added so far: the break opportunity at the next fragment's start depends on it. */
  private before = '';
  /** The class of the last character added, for Word's automatic spacing (none after a space or an object). */
  private lastClass = SpaceClass.None;

  constructor(
    private readonly fonts: DocumentFonts,
    /** Word's autoSpaceDE / autoSpaceDN: which neighbours of East Asian letters get a fifth of an em between. */
    private readonly autoSpace: { latin: boolean; digits: boolean } = { latin: false, digits: false },
  ) {}

  /** Whether Word puts its automatic space between characters of these two classes. */
  private spaced(a: SpaceClass, b: SpaceClass): boolean {
    if (a === SpaceClass.None || b === SpaceClass.None || a === b) return false;
    const other = a === SpaceClass.Asian ? b : b === SpaceClass.Asian ? a : SpaceClass.None;
    return other === SpaceClass.Latin ? this.autoSpace.latin : other === SpaceClass.Digit ? this.autoSpace.digits : false;
  }

  /**
   * Adds text drawn with one face and format, with Word's automatic space where East Asian letters meet Latin
   * letters or digits. The space starts the text after it, so a line broken there does not end with it.
   */
  text(text: string, face: Face, fmt: Fmt): void {
    if ((!this.autoSpace.latin && !this.autoSpace.digits) || text.length === 0) {
      this.plainText(text, face, fmt, null);
      return;
    }
    if (this.lastClass !== SpaceClass.Asian && !ASIAN_ANY.test(text)) {
      // No East Asian letter on either side of any character.
      this.plainText(text, face, fmt, null);
      this.lastClass = spaceClass(text.charCodeAt(text.length - 1));
      return;
    }
    const spaces: number[] = [];
    let prev = this.lastClass;
    for (let i = 0; i < text.length; i++) {
      const cls = spaceClass(text.charCodeAt(i));
      if (this.spaced(prev, cls)) spaces.push(i);
      prev = cls;
    }
    this.plainText(text, face, fmt, spaces.length > 0 ? spaces : null);
    this.lastClass = prev;
  }

  /** An automatic space waiting for the next character (so it goes to the word that character starts). */
  private pendingSpace = 0;

  private closeSeg(): void {
    if (this.seg && this.seg.text.length > 0) {
      this.seg.width = textWidth(this.seg.face, this.seg.text, this.seg.fmt);
      this.fonts.use(this.seg.face, this.seg.text);
      this.pushSeg(this.seg);
    }
    this.seg = null;
  }

  /** Adds a segment to the word being built (most words are one segment: an array of one, not an empty one grown). */
  private pushSeg(seg: Seg): void {
    if (this.word === NO_SEGS) this.word = [seg];
    else this.word.push(seg);
  }

  endWord(): void {
    this.closeSeg();
    if (this.word.length > 0) {
      let width = 0;
      for (const s of this.word) width += s.width;
      this.units.push({ t: 'word', segs: this.word, width });
      this.word = NO_SEGS;
    }
  }

  chars(text: string, face: Face, fmt: Fmt): void {
    if (this.pendingSpace > 0) {
      this.closeSeg();
      this.pushSeg({ kind: 'autospace', face, fmt, width: this.pendingSpace });
      this.pendingSpace = 0;
    }
    if (!this.seg || this.seg.face !== face || this.seg.fmt !== fmt) {
      this.closeSeg();
      this.seg = { kind: 'text', text: '', face, fmt, width: 0 };
    }
    this.seg.text += text;
  }

  /** The last space measured (face, format, character, width): most of a paragraph's spaces are alike. */
  private spaceFace: Face | null = null;
  private spaceFmt: Fmt | null = null;
  private spaceCh = '';
  private spaceWidth = 0;

  space(ch: string, face: Face, fmt: Fmt): void {
    this.pendingSpace = 0;
    this.lastClass = SpaceClass.None;
    this.endWord();
    const last = this.units[this.units.length - 1];
    if (face !== this.spaceFace || fmt !== this.spaceFmt || ch !== this.spaceCh) {
      this.spaceWidth = textWidth(face, ch, fmt);
      this.fonts.use(face, ch);
      this.spaceFace = face;
      this.spaceFmt = fmt;
      this.spaceCh = ch;
    }
    const w = this.spaceWidth;
    if (last && last.t === 'space' && last.seg.face === face && last.seg.fmt === fmt) {
      last.seg.text += ch;
      last.seg.width += w;
      last.width += w;
    } else {
      this.units.push({ t: 'space', seg: { kind: 'text', text: ch, face, fmt, width: w }, width: w });
    }
  }

  control(t: 'tab' | 'br', face: Face, fmt: Fmt): void {
    this.pendingSpace = 0;
    this.lastClass = SpaceClass.None;
    this.endWord();
    this.units.push({ t, face, fmt });
  }

  /** An inline object that is a word of its own (images). */
  object(seg: Seg): void {
    this.endWord();
    this.before = '';
    this.lastClass = SpaceClass.None;
    this.pendingSpace = 0;
    this.units.push({ t: 'word', segs: [seg], width: seg.width });
  }

  /** An inline object inside the current word (fields). */
  inline(seg: Seg): void {
    this.closeSeg();
    this.pushSeg(seg);
  }

  /** Adds text drawn with one face and format, finding break opportunities. */
  private plainText(text: string, face: Face, fmt: Fmt, autoSpaces: number[] | null): void {
    // Where a line may break inside words is text/line-break.ts's answer (UAX #14 + kinsoku); spaces, tabs and
    // line breaks are units of their own. Plain stretches are appended as slices.
    const breaks = breakOpportunities(text, this.before);
    this.before = (this.before + text.slice(-8)).slice(-8);
    let next = 0;
    let nextSpace = 0;
    let from = 0;
    const n = text.length;
    for (let i = 0; i < n; i++) {
      const cp = text.charCodeAt(i);
      const opportunity = next < breaks.length && breaks[next] === i;
      if (opportunity) next++;
      if (autoSpaces && nextSpace < autoSpaces.length && autoSpaces[nextSpace] === i) {
        // Word's automatic space before this character: it goes to the word this character is in.
        nextSpace++;
        if (i > from) this.chars(text.slice(from, i), face, fmt);
        from = i;
        if (opportunity) this.endWord();
        this.pendingSpace = fmt.drawSize * AUTO_SPACE_EM;
        continue;
      }
      const special = cp === 0x09 || cp === 0x0a || isBreakingSpace(cp);
      if (!special && !opportunity) continue;
      if (i > from) this.chars(text.slice(from, i), face, fmt);
      if (!special) {
        // A break opportunity before this character: the word so far ends here.
        this.endWord();
        from = i;
        continue;
      }
      from = i + 1;
      if (cp === 0x09) this.control('tab', face, fmt);
      else if (cp === 0x0a) this.control('br', face, fmt);
      else this.space(text[i], face, fmt);
    }
    if (from < n) this.chars(from === 0 ? text : text.slice(from), face, fmt);
  }
}

// ───────────────────────────── line building ─────────────────────────────

interface PendingTab {
  align: TabStop['align'];
  stop: number;
  /** Index of the gap item the tab made, and where the text after it started. */
  gapIndex: number;
  startX: number;
}

interface LineBuild {
  items: Item[];
  x: number;
  start: number;
  first: boolean;
  hasTabs: boolean;
  tab: PendingTab | null;
  /** Where content may extend to: the column's end, or the page's edge once a tab stop beyond the column is used. */
  end: number;
  /** Format of the last control character seen (for an empty line's height). */
  markFace: Face;
  markFmt: Fmt;
  /** How much earlier than the column this line ends (beside a float). */
  cut: number;
  /** The last left tab's gap with where the line stood before it (a word that does not fit after it takes it along). */
  lastTab?: { item: Item; x: number; end: number; face: Face; fmt: Fmt };
  /** Beside a float text passes on both sides of: the line's part left of it is being filled (see Narrow.hole). */
  hole?: { start: number; end: number };
}

interface ParaGeometry {
  width: number;
  indentStart: number;
  indentEnd: number;
  firstLine: number;
  rtl: boolean;
  align: 'left' | 'center' | 'right' | 'justify';
  tabs: TabStop[];
  /** The farthest explicit tab stop honoured (from the start edge): the page's edge, or the box's in cells. */
  tabLimit: number;
  lineSpacing: number;
  /** Word's exact / at-least line height in points (0: none). */
  lineExact: number;
  lineAtLeast: number;
  /** Document grid pitch (0: none). */
  pitch: number;
  /** Distance between default tab stops. */
  defaultTab: number;
}

function segToItem(seg: Seg, x: number): Item {
  switch (seg.kind) {
    case 'text':
      return { kind: 'text', x, width: seg.width, text: seg.text, face: seg.face, fmt: seg.fmt, space: false };
    case 'image':
      return { kind: 'image', x, width: seg.width, height: seg.height, image: seg.image, fmt: seg.fmt, outline: seg.outline, font: seg.font, ...(seg.pad ? { pad: seg.pad } : {}) };
    case 'field':
      return { kind: 'field', x, width: seg.width, field: seg.field, face: seg.face, fmt: seg.fmt };
    case 'chart':
      return { kind: 'chart', x, width: seg.width, height: seg.height, boxes: seg.boxes, ...(seg.pad ? { pad: seg.pad } : {}) };
    case 'autospace':
      return { kind: 'gap', x, width: seg.width, leader: null, face: seg.face, fmt: seg.fmt };
  }
}

/** A word of text (fields included), not a picture or a chart. */
function isText(unit: { segs: Seg[] }): boolean {
  return unit.segs.every((seg) => seg.kind !== 'image' && seg.kind !== 'chart');
}

/** Splits a word into pieces of at most `first` then `rest` points (at least one character each). */
function splitWord(unit: { segs: Seg[]; width: number }, first: number, rest: number): Array<{ segs: Seg[]; width: number }> {
  const pieces: Array<{ segs: Seg[]; width: number }> = [];
  let limit = first;
  let cur: Seg[] = [];
  let curW = 0;
  const flush = (): void => {
    if (cur.length > 0) pieces.push({ segs: cur, width: curW });
    cur = [];
    curW = 0;
    limit = rest;
  };
  for (const seg of unit.segs) {
    if (seg.kind !== 'text') {
      if (curW + seg.width > limit + EPS && cur.length > 0) flush();
      cur.push(seg);
      curW += seg.width;
      continue;
    }
    let text = '';
    let textW = 0;
    for (let i = 0; i < seg.text.length; i++) {
      const ch = seg.text[i];
      const code = seg.text.charCodeAt(i);
      // Character spacing once per character: not again for the second half of a surrogate pair.
      const w = seg.face.advance(code) * seg.fmt.drawSize * seg.fmt.scale + (code >= 0xdc00 && code <= 0xdfff ? 0 : seg.fmt.spacing);
      if (curW + textW + w > limit + EPS && (cur.length > 0 || text.length > 0)) {
        if (text) cur.push({ ...seg, text, width: textW });
        curW += textW;
        flush();
        text = '';
        textW = 0;
      }
      text += ch;
      textW += w;
    }
    if (text) {
      cur.push({ ...seg, text, width: textW });
      curW += textW;
    }
  }
  flush();
  return pieces;
}

class LineBreaker {
  readonly lines: Line[] = [];
  private line: LineBuild;
  /** The finished part left of a float of the line being filled right of it (see jumpHole). */
  private leftPart: Line | null = null;

  constructor(
    private readonly geo: ParaGeometry,
    private readonly label: { items: Item[]; end: number } | null,
    private readonly markFace: Face,
    private readonly markFmt: Fmt,
    private readonly fonts: DocumentFonts,
    private readonly decimal: string,
    private readonly minWidth?: { value: number },
    private readonly narrow?: readonly Narrow[],
  ) {
    this.line = this.newLine(true);
  }

  /** The narrowing of the line being started (beside a float), if any. */
  private get narrowing(): Narrow | null {
    const i = this.lines.length;
    return this.narrow?.find((n) => i >= n.from && i < n.to) ?? null;
  }

  private lineStart(first: boolean): number {
    return this.columnStart(first) + (this.narrowing?.start ?? 0);
  }

  private columnStart(first: boolean): number {
    const base = this.geo.indentStart + (first ? this.geo.firstLine : 0);
    if (first && this.label) {
      // Text after a label starts at the hanging indent, or after the label when it is wider.
      const gap = this.label.end + 2;
      return gap <= this.geo.indentStart + EPS ? Math.max(this.geo.indentStart, base) : this.nextTabStop(gap - 2, true) ?? gap;
    }
    return base;
  }

  /** The line's width without the narrowing of floats (a column's own edge counts). */
  private columnWidth(first: boolean): number {
    const n = this.narrowing;
    return this.geo.width - this.geo.indentEnd - this.columnStart(first) - (n?.column ? n.end : n?.edge ?? 0);
  }

  private get lineEnd(): number {
    return this.geo.width - this.geo.indentEnd - (this.narrowing?.end ?? 0);
  }

  /**
   * The list label a line starts with (its first): moved as far as its text beside a float (a left-to-right line
   * narrowed on its start side starts right of the float, its label with it).
   */
  private labelOf(line: LineBuild): Item[] | null {
    if (!this.label || !line.first) return null;
    const shift = this.geo.rtl ? 0 : line.start - this.columnStart(true);
    return shift > EPS ? this.label.items.map((it) => ({ ...it, x: it.x + shift })) : this.label.items;
  }

  private newLine(first: boolean): LineBuild {
    const start = this.lineStart(first);
    const line: LineBuild = { items: [], x: start, start, first, hasTabs: false, tab: null, end: this.lineEnd, markFace: this.markFace, markFmt: this.markFmt, cut: this.narrowing?.end ?? 0 };
    const hole = this.narrowing?.hole;
    if (!hole) return line;
    const leftRoom = hole.start > start + EPS;
    const rightRoom = hole.end < line.end - EPS;
    if (leftRoom) {
      // The part left of the float first: it ends where the float's room begins (the text goes on right of it
      // when there is room there: jumpHole).
      line.end = hole.start;
      line.cut = this.geo.width - this.geo.indentEnd - hole.start;
      if (rightRoom) line.hole = hole;
    } else {
      // An indent that reaches into the float: the line starts right of it.
      line.start = line.x = Math.max(start, hole.end);
    }
    return line;
  }

  /**
   * Ends the part of the line left of a float text passes on both sides of (aligned and justified on its own, as
   * Word sets each part) and goes on right of the float, on the same line.
   */
  private jumpHole(): void {
    const line = this.line;
    const hole = line.hole;
    if (!hole) return;
    this.resolveTab();
    trimTrailingSpaces(line);
    this.leftPart = finishLine(line, this.geo, false, this.labelOf(line));
    const cut = this.narrowing?.end ?? 0;
    this.line = { items: [], x: hole.end, start: hole.end, first: line.first, hasTabs: false, tab: null, end: this.geo.width - this.geo.indentEnd - cut, markFace: line.markFace, markFmt: line.markFmt, cut };
  }

  /**
   * The next explicit tab stop after x, unless the hanging indent comes first. A first line that starts left of the
   * paragraph's indent (a hanging indent) has a stop there of its own, taken before any explicit stop beyond it
   * (Word's implicit hanging-indent stop, which w:noTabHangInd would turn off; LibreOffice's
   * SwTextFormatter::NewTabPortion likewise goes to the left margin when the next stop lies past it): a TOC line
   * "A.<tab>Entry<tab>14" with only a dotted right stop puts "Entry" at the indent, not at the page number.
   */
  private explicitStop(x: number): TabStop | undefined {
    const t = this.geo.tabs.find((s) => s.pos > x + EPS && s.pos <= this.geo.tabLimit + 0.5);
    const hanging = this.geo.firstLine < 0 && x < this.geo.indentStart - EPS ? this.geo.indentStart : null;
    return t && (hanging === null || t.pos <= hanging + EPS) ? t : undefined;
  }

  /** The next tab stop after x: explicit stops, the hanging indent, then the default half-inch grid. */
  private nextTabStop(x: number, labelOnly = false): number | null {
    const end = this.lineEnd;
    if (!labelOnly) {
      const t = this.explicitStop(x);
      if (t) return t.pos;
    }
    if (this.geo.firstLine < 0 && x < this.geo.indentStart - EPS) return this.geo.indentStart;
    const lastExplicit = this.geo.tabs.length > 0 ? this.geo.tabs[this.geo.tabs.length - 1].pos : 0;
    const from = Math.max(x, labelOnly ? x : lastExplicit);
    const step = this.geo.defaultTab;
    const stop = (Math.floor(from / step + EPS) + 1) * step;
    return stop <= end + 0.5 ? stop : null;
  }

  /**
   * Where the line would end with `extra` more points of content, counting the shift a pending right,
   * centre or decimal tab will apply to the text after it.
   */
  private endWith(extra: number): number {
    const tab = this.line.tab;
    if (!tab || tab.align === 'left') return this.line.x + extra;
    const segW = this.line.x - tab.startX + extra;
    if (tab.align === 'center') return Math.max(tab.startX, tab.stop - segW / 2) + segW;
    return Math.max(tab.startX + segW, tab.stop);
  }

  private resolveTab(): void {
    const line = this.line;
    const tab = line.tab;
    if (!tab) return;
    line.tab = null;
    if (tab.align === 'left') return;
    const segW = line.x - tab.startX;
    let anchor = segW;
    if (tab.align === 'center') anchor = segW / 2;
    else if (tab.align === 'decimal') {
      // Align on the locale's decimal separator in the text after the tab (its end when there is none).
      let before = 0;
      let found = false;
      for (let i = tab.gapIndex + 1; i < line.items.length && !found; i++) {
        const it = line.items[i];
        if (it.kind === 'text') {
          const dot = it.text.indexOf(this.decimal);
          if (dot >= 0) {
            before += textWidth(it.face, it.text.slice(0, dot), it.fmt);
            found = true;
          } else before += it.width;
        } else before += it.width;
      }
      anchor = found ? before : segW;
    }
    const shift = Math.max(0, tab.stop - anchor - tab.startX);
    if (shift <= 0) return;
    const gap = line.items[tab.gapIndex];
    gap.width += shift;
    for (let i = tab.gapIndex + 1; i < line.items.length; i++) line.items[i].x += shift;
    line.x += shift;
  }

  private tab(face: Face, fmt: Fmt): void {
    this.resolveTab();
    // Spaces may hang past the line's end, a tab may not: one that starts there begins the next line (LibreOffice
    // 7.4 puts "Echo", 200 spaces, a tab and a space on two lines).
    if (this.line.x > this.line.end + EPS && this.hasContent()) this.finish(false);
    const line = this.line;
    line.hasTabs = true;
    const x = line.x;
    const explicit = this.explicitStop(x);
    const stop = explicit ? explicit.pos : this.nextTabStop(x);
    const leaderOf = (t: TabStop | undefined): string | null =>
      t?.leader === 'dot' ? '.' : t?.leader === 'middleDot' ? '\u00b7' : t?.leader === 'hyphen' ? '-' : t?.leader === 'underscore' ? '_' : null;
    if (stop === null) {
      // No stop left on this line: the tab acts as a space.
      const w = face.width(' ', fmt.drawSize);
      const item: Item = { kind: 'gap', x, width: w, leader: null, face, fmt };
      line.lastTab = { item, x, end: line.end, face, fmt };
      line.items.push(item);
      line.x += w;
      return;
    }
    const lineEndBefore = line.end;
    // A stop past the column (Word honours them up to the page's edge): this line's text may go as far.
    if (stop > this.lineEnd + 0.5) line.end = Math.max(line.end, this.geo.tabLimit);
    const align = explicit ? explicit.align : 'left';
    const leader = leaderOf(explicit);
    if (leader) this.fonts.use(face, leader);
    const gapW = align === 'left' ? stop - x : 0;
    const item: Item = { kind: 'gap', x, width: gapW, leader, face, fmt };
    if (align === 'left') line.lastTab = { item, x, end: lineEndBefore, face, fmt };
    line.items.push(item);
    line.x += gapW;
    if (align !== 'left') line.tab = { align, stop, gapIndex: line.items.length - 1, startX: line.x };
  }

  private place(segs: Seg[]): void {
    for (const seg of segs) {
      // Word's automatic space is not drawn at a line's start.
      if (seg.kind === 'autospace' && !this.hasContent()) continue;
      this.line.items.push(segToItem(seg, this.line.x));
      this.line.x += seg.width;
    }
  }

  private hasContent(): boolean {
    return this.line.items.length > 0;
  }

  add(unit: Unit): void {
    switch (unit.t) {
      case 'br':
        this.line.markFace = unit.face;
        this.line.markFmt = unit.fmt;
        this.finish(true);
        if (unit.clear) this.clear(unit.clear);
        return;
      case 'tab':
        this.tab(unit.face, unit.fmt);
        return;
      case 'space': {
        const item: TextItem = { kind: 'text', x: this.line.x, width: unit.width, text: unit.seg.text, face: unit.seg.face, fmt: unit.seg.fmt, space: true };
        this.line.items.push(item);
        this.line.x += unit.width;
        return;
      }
      case 'word': {
        if (this.minWidth) this.minWidth.value = Math.max(this.minWidth.value, unit.width + this.geo.indentStart + this.geo.indentEnd);
        const fits = unit.width - hangingWidth(unit);
        if (this.line.hole && this.endWith(fits) > this.line.end + EPS) this.jumpHole();
        if (this.endWith(fits) > this.line.end + EPS && this.hasContent()) {
          // A word that does not fit right after a left tab takes the tab to the next line, where it goes to the
          // first stop (LibreOffice 7.4: text ending 10 pt before the margin, a tab, "Yank": "Yank" at 36 pt on
          // the next line, not at its start).
          const line = this.line;
          const tab = line.lastTab;
          const carry = tab && line.items.length > 1 && line.items[line.items.length - 1] === tab.item ? tab : null;
          if (carry) {
            line.items.pop();
            line.x = carry.x;
            line.end = carry.end;
          }
          this.finish(false);
          if (carry) this.tab(carry.face, carry.fmt);
        }
        // Beside a float, a word too wide for the room left but not for the column is not cut letter by letter:
        // Word leaves that line empty and sets the word lower, where the float no longer narrows the line.
        // (Pictures and charts keep overflowing the room as before: where Word puts them is not checked.)
        while (this.narrowing && !this.narrowing.column && !this.hasContent() && !(this.label && this.line.first) && isText(unit) && this.endWith(fits) > this.line.end + EPS && fits <= this.columnWidth(this.line.first) + EPS) {
          this.skipLine();
        }
        if (this.endWith(fits) > this.line.end + EPS) {
          const room = this.line.end - this.endWith(0);
          const full = this.lineEnd - this.lineStart(false);
          const pieces = splitWord(unit, Math.max(room, 1), Math.max(full, 1));
          pieces.forEach((piece, i) => {
            if (i > 0) this.finish(false);
            this.place(piece.segs);
          });
        } else {
          this.place(unit.segs);
        }
      }
    }
  }

  /** Ends the current line; `forced` = ended by a line break (never justified). */
  finish(forced: boolean, last = false): void {
    this.resolveTab();
    const line = this.line;
    trimTrailingSpaces(line);
    const left = this.leftPart;
    this.leftPart = null;
    this.lines.push(left ? joinParts(left, finishLine(line, this.geo, forced || last, null)) : finishLine(line, this.geo, forced || last, this.labelOf(line)));
    this.line = this.newLine(false);
  }

  end(): void {
    this.finish(true, true);
  }

  /**
   * After a break that clears floats (ECMA-376 17.3.3.1, w:clear): the lines beside them on that side stay
   * empty, and the text resumes at their foot (the last empty line ends there, not a whole line lower).
   */
  private clear(side: 'left' | 'right' | 'all'): void {
    let foot = 0;
    let skipped = 0;
    while (this.clearing(side)) {
      foot = Math.max(foot, this.narrowing?.foot ?? 0);
      this.skipLine();
      skipped++;
    }
    const top = this.lines.reduce((a, l) => a + l.height, 0);
    const last = this.lines[this.lines.length - 1];
    if (skipped > 0 && foot > 0 && top > foot) last.height = Math.max(0, last.height - (top - foot));
  }

  /** Whether a float narrows the line being started on the side a clearing break names. */
  private clearing(side: 'left' | 'right' | 'all'): boolean {
    const n = this.narrowing;
    if (!n || n.column) return false;
    const end = n.end - (n.edge ?? 0);
    return side === 'left' ? n.start > EPS : side === 'right' ? end > EPS : n.start > EPS || end > EPS || n.hole !== undefined;
  }

  /** Leaves the line being started empty (beside a float); a first line's indent passes to the next one. */
  private skipLine(): void {
    const first = this.line.first;
    const left = this.leftPart;
    this.leftPart = null;
    const part = finishLine(this.line, this.geo, true, null);
    this.lines.push(left ? joinParts(left, part) : part);
    this.line = this.newLine(first);
  }
}

/** Drops the spaces a line ends with (they are not drawn and do not count in its alignment). */
function trimTrailingSpaces(line: LineBuild): void {
  while (line.items.length > 0) {
    const tail = line.items[line.items.length - 1];
    if (tail.kind === 'text' && tail.space) line.items.pop();
    else break;
  }
}

/** One line of the parts left and right of a float: on a common baseline, as tall as the taller part needs. */
function joinParts(left: Line, right: Line): Line {
  const baseline = Math.max(left.baseline, right.baseline);
  const height = baseline + Math.max(left.height - left.baseline, right.height - right.baseline);
  return { baseline, height, items: [...left.items, ...right.items] };
}

/** Fallback-drawn text's format with the face its line height comes from (one copy per format and face). */
const lineFmts = new WeakMap<Fmt, Map<Face, Fmt>>();
function lineFmt(fmt: Fmt, face: Face, family: FamilyDef, variant: Variant): Fmt {
  const lineFace = fallbackLineFace(face, family, variant);
  if (!lineFace) return fmt;
  let byFace = lineFmts.get(fmt);
  if (!byFace) lineFmts.set(fmt, (byFace = new Map()));
  let out = byFace.get(lineFace);
  if (!out) byFace.set(lineFace, (out = copyWith(fmt, { lineFace })));
  return out;
}

// ───────────────────────────── finishing a line ─────────────────────────────

function lineMetrics(items: Item[], markFace: Face, markFmt: Fmt, geo: ParaGeometry, first: boolean): { baseline: number; height: number } {
  const spacing = geo.lineSpacing;
  let asc = 0;
  let desc = 0;
  let textAsc = 0;
  let textDesc = 0;
  for (const it of items) {
    if (it.kind === 'image' || it.kind === 'chart') {
      asc = Math.max(asc, it.height);
      continue;
    }
    const m = it.fmt.lineFace ?? it.face;
    const a = m.ascent * it.fmt.size;
    const d = m.descent * it.fmt.size;
    textAsc = Math.max(textAsc, a, it.fmt.rise + m.ascent * it.fmt.drawSize);
    textDesc = Math.max(textDesc, d, -it.fmt.rise + m.descent * it.fmt.drawSize);
  }
  const pictureAsc = asc;
  const noText = textAsc === 0 && textDesc === 0;
  if (noText) {
    // An empty line is as tall as the paragraph mark's font; a line of pictures alone as their runs' font (the
    // mark's when the model does not say: LibreOffice 7.4 sizes it by the picture's run, not by the mark).
    const fonts = items.flatMap((it) => (it.kind === 'image' && it.font ? [it.font] : []));
    textAsc = fonts.length > 0 ? Math.max(...fonts.map((f) => f.ascent)) : markFace.ascent * markFmt.size;
    textDesc = fonts.length > 0 ? Math.max(...fonts.map((f) => f.descent)) : markFace.descent * markFmt.size;
  }
  if (noText && pictureAsc > 0) {
    // A line of pictures alone is still a line of the paragraph's text: it is at least as tall as its font's
    // line (a 1-pt separator picture takes a whole text line in Word and LibreOffice, not 1 pt), and "multiple"
    // spacing adds its share of that font's line. A picture taller than that line sets the height alone,
    // standing on the line's foot (LibreOffice 7.4: a 100-pt picture's line is 100 pt at 11 pt).
    asc = Math.max(pictureAsc, textAsc);
    desc = Math.max(0, textAsc + textDesc - asc);
  } else {
    asc = Math.max(asc, textAsc);
    desc = Math.max(desc, textDesc);
  }
  if (geo.lineExact > 0 || geo.lineAtLeast > 0) {
    // A length, whatever the line holds: exactly it (taller content is cut off at the top, as in Word), or at
    // least it; the room above the text grows or shrinks, the descent stays at the bottom.
    const height = geo.lineExact > 0 ? geo.lineExact : Math.max(geo.lineAtLeast, snap(asc + desc, geo.pitch));
    return { baseline: Math.max(height - desc, Math.min(asc, height) * 0.5), height };
  }
  const extra = (spacing - 1) * (textAsc + textDesc);
  const natural = Math.max(1, asc + desc + extra);
  if (geo.pitch > 0) {
    // On a document grid the line's content takes whole pitches; multiple spacing then multiplies that height
    // (1.15 lines on a 21.15 pt grid: 24.3 pt), except on a paragraph's first line, which gets the multiple's
    // room of its font's own line instead — LibreOffice's SwTextFormatter::CalcRealHeight (grid branch) applies
    // the proportion to the following lines only, and SwFlowFrame::CalcUpperSpace adds the font's extra above
    // the first; less than single spacing is ignored on the grid. Text sits at the foot of its pitches (the
    // room goes above it), a picture in their middle.
    const snapped = snap(asc + desc, geo.pitch);
    const height = extra <= 0 ? snapped : first ? snapped + extra : snapped * spacing;
    const baseline = pictureAsc > textAsc ? height - snapped + asc + (snapped - asc - desc) * 0.5 : height - desc;
    return { baseline, height };
  }
  // Off the grid, the extra room of "multiple" spacing goes below the text: Word and LibreOffice keep the
  // baseline at the line's ascent (a double-spaced first line starts as high as a single one); less than single
  // spacing takes the room from above the text.
  return { baseline: extra >= 0 ? asc : Math.max(asc * 0.5, asc + extra), height: natural };
}

/** `h` rounded up to whole grid pitches (unchanged without a grid); a hair over a pitch does not take another. */
function snap(h: number, pitch: number): number {
  return pitch > 0 ? Math.max(1, Math.ceil(h / pitch - 0.05)) * pitch : h;
}

function isMark(cp: number): boolean {
  return (cp >= 0x0300 && cp <= 0x036f) || (cp >= 0x0591 && cp <= 0x05c7 && cp !== 0x05be && cp !== 0x05c0 && cp !== 0x05c3 && cp !== 0x05c6) ||
    (cp >= 0x0610 && cp <= 0x061a) || (cp >= 0x064b && cp <= 0x065f) || cp === 0x0670 || (cp >= 0x06d6 && cp <= 0x06ed);
}

/** Characters of a right-to-left run in visual order: clusters (letter + marks) reversed, brackets mirrored. */
function reverseClusters(text: string): string {
  const clusters: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (isMark(text.charCodeAt(i)) && clusters.length > 0) clusters[clusters.length - 1] += ch;
    else clusters.push(mirrored(ch));
  }
  return clusters.reverse().join('');
}

/** Reorders a line's items into visual order (splitting text items at direction changes); x from 0. */
function visualItems(items: Item[], base: 0 | 1): Item[] {
  let str = '';
  const owner: number[] = [];
  items.forEach((it, idx) => {
    const s = it.kind === 'text' ? it.text : it.kind === 'gap' ? '\t' : '\ufffc';
    str += s;
    for (let k = 0; k < s.length; k++) owner.push(idx);
  });
  if (str.length === 0) return [];
  const levels = bidiLevels(str, base);
  const order = visualOrder(levels);
  const out: Item[] = [];
  let x = 0;
  let i = 0;
  while (i < order.length) {
    const idx = owner[order[i]];
    const level = levels[order[i]];
    let j = i + 1;
    while (j < order.length && owner[order[j]] === idx && levels[order[j]] === level &&
      Math.abs(order[j] - order[j - 1]) === 1) j++;
    const it = items[idx];
    if (it.kind === 'text') {
      const from = Math.min(order[i], order[j - 1]);
      const to = Math.max(order[i], order[j - 1]);
      const logical = str.slice(from, to + 1);
      const text = level % 2 === 1 ? reverseClusters(logical) : logical;
      const width = textWidth(it.face, text, it.fmt);
      out.push(copyWith(it, { x, text, width }));
      x += width;
    } else {
      out.push(copyWith(it, { x }));
      x += it.width;
    }
    i = j;
  }
  return out;
}

/**
 * Joins neighbouring text items drawn alike into one (fewer text operations in the PDF). Items are the line's
 * own. With `keepSpaces` (lines holding right-to-left text) spaces stay undrawn gaps: text extractors put a
 * space glyph drawn inside a right-to-left run on the wrong side of the word.
 */
function mergeItems(items: Item[], keepSpaces: boolean): Item[] {
  const out: Item[] = [];
  // The texts of the item being merged into, joined once it is complete: a line's words and spaces become one flat
  // string rather than a chain of concatenations that is flattened again when it is painted.
  let parts: string[] | null = null;
  for (const it of items) {
    const prev = out[out.length - 1];
    if (prev && prev.kind === 'text' && it.kind === 'text' && prev.face === it.face && prev.fmt === it.fmt &&
      (!keepSpaces || prev.space === it.space) && Math.abs(prev.x + prev.width - it.x) < 0.001) {
      (parts ??= [prev.text]).push(it.text);
      prev.width += it.width;
      prev.space = prev.space && it.space;
    } else {
      if (parts) (prev as TextItem).text = parts.join('');
      parts = null;
      out.push(it);
    }
  }
  if (parts) (out[out.length - 1] as TextItem).text = parts.join('');
  return out;
}

function finishLine(line: LineBuild, geo: ParaGeometry, lastOrForced: boolean, label: Item[] | null): Line {
  let items = line.items;
  const metrics = lineMetrics(label ? [...items, ...label] : items, line.markFace, line.markFmt, geo, line.first);
  const needsBidi = geo.rtl || items.some((it) => it.kind === 'text' && hasRtl(it.text));
  const start = line.start;
  const physLeft = geo.rtl ? geo.indentEnd : start;
  // A right-to-left line's cut is only ever its newspaper column's edge (rightToLeft), on the physical right.
  const physRight = geo.rtl ? geo.width - start - line.cut : geo.width - geo.indentEnd - line.cut;
  let contentWidth: number;
  if (needsBidi) {
    items = visualItems(items, geo.rtl ? 1 : 0);
    contentWidth = items.reduce((w, it) => w + it.width, 0);
  } else {
    let end = start;
    for (const it of items) end = Math.max(end, it.x + it.width);
    contentWidth = end - start;
    for (const it of items) it.x -= start;
  }
  // Items now run from x = 0; place them between the physical edges.
  const avail = physRight - physLeft;
  // A comma or full stop hanging past the end (hangingWidth) does not count when the line is centred or right-aligned.
  const tail = items[items.length - 1];
  if (!needsBidi && contentWidth > avail && tail?.kind === 'text' && HANGING.has(tail.text[tail.text.length - 1])) {
    contentWidth -= Math.min(contentWidth - avail, textWidth(tail.face, tail.text[tail.text.length - 1], tail.fmt));
  }
  let offset = 0;
  let extraPerSpace = 0;
  let wide: Set<TextItem> | null = null;
  const align = geo.align;
  if (align === 'justify' && !lastOrForced && !line.hasTabs) {
    if (!needsBidi && contentWidth < avail) ({ items, wide } = splitWideRuns(items));
    // The spare room goes to the spaces and to the gaps after East Asian characters alike.
    let slots = items.filter((it) => it.kind === 'text' && it.space).length;
    if (wide) for (const run of wide) slots += run.text.length;
    if (slots > 0 && contentWidth < avail) extraPerSpace = (avail - contentWidth) / slots;
    if (geo.rtl && slots === 0) offset = avail - contentWidth;
  } else if (!line.hasTabs || needsBidi) {
    const effective = align === 'justify' ? (geo.rtl ? 'right' : 'left') : align;
    if (effective === 'center') offset = (avail - contentWidth) / 2;
    else if (effective === 'right') offset = avail - contentWidth;
  }
  let shift = physLeft + offset;
  for (const it of items) {
    it.x += shift;
    if (extraPerSpace > 0 && it.kind === 'text' && it.space) {
      it.width += extraPerSpace;
      shift += extraPerSpace;
    } else if (extraPerSpace > 0 && it.kind === 'text' && wide?.has(it)) {
      // After each of its characters (East Asian justification).
      it.expand = extraPerSpace;
      it.width += extraPerSpace * it.text.length;
      shift += extraPerSpace * it.text.length;
    }
  }
  const all = extraPerSpace > 0 ? items : mergeItems(items, needsBidi);
  if (label) {
    const labelItems = geo.rtl
      ? label.map((it) => ({ ...it, x: geo.width - line.cut - it.x - it.width }))
      : label;
    all.unshift(...labelItems);
  }
  return { baseline: metrics.baseline, height: metrics.height, items: all };
}

// ───────────────────────────── the paragraph ─────────────────────────────

const LOWER = /\p{Ll}/u;
const LOWER_RUNS = /(\p{Ll}+)/u;

/** Upper-cases by the locale's rules (Turkish i → İ), the default rules for a locale the runtime does not know. */
function upperCase(text: string, locale: string | undefined): string {
  if (locale) {
    try {
      return text.toLocaleUpperCase(locale);
    } catch {
      // An invalid tag: fall through.
    }
  }
  return text.toUpperCase();
}

function textOfRuns(p: Paragraph): string {
  let s = '';
  for (const r of p.runs ?? []) if (r && r.type === 'text' && typeof r.text === 'string') s += r.text;
  return cleanText(s).replace(/\s+/g, ' ').trim();
}

/** A picture's outline from the model, when it is one that can be drawn (a .json model may hold anything). */
function outlineOf(value: unknown): ImageOutline | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const o = value as { width?: unknown; color?: unknown };
  const width = Math.min(num(o.width, 0), 12);
  const color = typeof o.color === 'string' ? parseColor(o.color) : null;
  return width > 0 && color ? { width, color } : undefined;
}

/** The room kept around a picture (ImageRun.pad): none unless some side is a positive length (a model may hold anything). */
function padOf(value: unknown): ImagePad | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const o = value as Record<string, unknown>;
  const side = (v: unknown): number => Math.min(Math.max(num(v, 0), 0), 720);
  const pad = { left: side(o.left), top: side(o.top), right: side(o.right), bottom: side(o.bottom) };
  return pad.left + pad.top + pad.right + pad.bottom > 0 ? pad : undefined;
}

function imageSeg(run: { src: string; width: number; height: number; outline?: unknown; pad?: unknown }, fmt: Fmt | null, ctx: LayoutContext): ImageSeg | null {
  let w = num(run.width, 0);
  let h = num(run.height, 0);
  if (!(w > 0.01) || !(h > 0.01)) return null;
  const image = prepareImage(run.src);
  ensureProcessed(image);
  // Too big for the page: scale down, keeping the aspect ratio.
  const scale = Math.min(1, ctx.maxImage.width / w, ctx.maxImage.height / h);
  w *= scale;
  h *= scale;
  return padded({ kind: 'image', image, width: w, height: h, fmt, outline: outlineOf(run.outline) }, padOf(run.pad));
}

/** A picture's or chart's segment widened by the room kept around it (the item draws it inside: flow/emit.ts). */
function padded<S extends ImageSeg | ChartSeg>(seg: S, pad: ImagePad | undefined): S {
  if (!pad) return seg;
  seg.width += pad.left + pad.right;
  seg.height += pad.top + pad.bottom;
  seg.pad = pad;
  return seg;
}

/** A chart laid out at its size (scaled down, like a picture, when it is larger than the page's content area). */
function chartSeg(run: ChartRun, ctx: LayoutContext): ChartSeg | null {
  let w = num(run.width, 0);
  let h = num(run.height, 0);
  if (!(w > 1) || !(h > 1) || !run.chart || typeof run.chart !== 'object') return null;
  const scale = Math.min(1, ctx.maxImage.width / w, ctx.maxImage.height / h);
  w *= scale;
  h *= scale;
  return padded({ kind: 'chart', boxes: layoutChart(run.chart, w, h, ctx.fonts), width: w, height: h }, padOf(run.pad));
}

function geometry(style: ParagraphStyle, width: number, list: Paragraph['list'], pageMargins: LayoutContext['pageMargins'], linePitch: number | undefined): ParaGeometry {
  const level = list ? Math.max(0, Math.min(8, Math.floor(num(list.level, 0)))) : 0;
  let indentLeft = num(style.indentLeft, list ? 36 * (level + 1) : 0);
  let indentRight = num(style.indentRight, 0);
  let firstLine = num(style.indentFirstLine, list && style.indentFirstLine === undefined ? -18 : 0);
  const rtl = style.rtl === true;
  // Keep at least a sliver of line whatever the indents say.
  const minLine = Math.min(24, width / 2);
  if (width - indentLeft - indentRight < minLine) {
    indentLeft = Math.max(0, Math.min(indentLeft, width - minLine));
    indentRight = Math.max(0, width - minLine - indentLeft);
  }
  let indentStart = rtl ? indentRight : indentLeft;
  const indentEnd = rtl ? indentLeft : indentRight;
  if (indentStart + firstLine < -width) firstLine = -width - indentStart;
  if (indentStart + firstLine > width - indentEnd - minLine) firstLine = width - indentEnd - minLine - indentStart;
  if (indentStart < -width) indentStart = -width;
  const tabs = Array.isArray(style.tabs) && style.tabs.length > 0
    ? style.tabs
      .filter((t) => t && Number.isFinite(Number(t.pos)))
      .map((t) => ({ ...t, pos: Number(t.pos) }))
      .sort((a, b) => a.pos - b.pos)
    : NO_TABS;
  const align = style.align === 'center' || style.align === 'right' || style.align === 'justify' || style.align === 'left'
    ? style.align
    : rtl ? 'right' : 'left';
  const lineSpacing = Math.min(Math.max(num(style.lineHeight, 1), 0.5), 10);
  const lineExact = Math.min(Math.max(num(style.lineExact, 0), 0), 1584);
  const lineAtLeast = lineExact > 0 ? 0 : Math.min(Math.max(num(style.lineAtLeast, 0), 0), 1584);
  const beyond = pageMargins ? Math.max(0, num(rtl ? pageMargins.left : pageMargins.right, 0)) : 0;
  const pitch = style.snapToGrid === false ? 0 : Math.min(Math.max(num(linePitch, 0), 0), 720);
  const defaultTab = Math.min(Math.max(num(style.defaultTab, DEFAULT_TAB), 1), 1584);
  return { width, indentStart, indentEnd, firstLine, rtl, align, tabs, tabLimit: width + beyond, lineSpacing, lineExact, lineAtLeast, pitch, defaultTab };
}

/** Lays out one paragraph in a box `width` points wide. */
export function layoutParagraph(p: Paragraph, width: number, ctx: LayoutContext): LaidParagraph {
  const style = merge(ctx.defaults.paragraph, p.style);
  const list = p.list && typeof p.list === 'object' ? p.list : undefined;
  const geo = geometry(style, width, list, ctx.pageMargins, ctx.linePitch);
  const runs = Array.isArray(p.runs) ? p.runs : [];

  // The paragraph mark's style: that of the first text run (sizes empty lines and list labels).
  const firstText = runs.find((r) => r && (r.type === 'text' || r.type === 'field'));
  const markOver = firstText && 'style' in firstText ? firstText.style : undefined;
  const markFamily = familyFor(runField(ctx.defaults.run, markOver, 'font'));
  const markFace = primaryFace(markFamily, variantOf(runField(ctx.defaults.run, markOver, 'bold'), runField(ctx.defaults.run, markOver, 'italic')));
  // Only its size and face matter (empty lines); decorations of the mark are never drawn.
  const markFmt = runFmt(ctx.defaults.run, markOver);

  const builder = new UnitBuilder(ctx.fonts, { latin: style.autoSpaceLatin === true, digits: style.autoSpaceDigits === true });
  let hasFields = false;
  for (const run of runs) {
    if (!run || typeof run !== 'object') continue;
    if (run.type === 'text') {
      if (typeof run.text !== 'string' || run.text.length === 0) continue;
      // The run's style fields read through the defaults, not a merged copy per run (runField, runFmt).
      const base = ctx.defaults.run;
      const over = run.style;
      const caps = runField(base, over, 'caps') === true;
      // A footnote's mark gets a format of its own that names the note (never shared, so never joined).
      const fmt = typeof run.footnote === 'number' ? copyWith(runFmt(base, over), { note: run.footnote }) : runFmt(base, over);
      let text = cleanText(run.text);
      if (caps) text = upperCase(text, ctx.locale);
      if (hasArabic(text)) text = shapeArabic(text);
      const family = familyFor(runField(base, over, 'font'));
      const variant = variantOf(runField(base, over, 'bold'), runField(base, over, 'italic'));
      if (runField(base, over, 'smallCaps') === true && !caps && LOWER.test(text)) {
        // Word's synthetic small capitals: stretches of lower-case letters drawn as capitals at 80 % size.
        const small = smallCapsFmt(fmt);
        for (const part of text.split(LOWER_RUNS)) {
          if (part === '') continue;
          const lower = LOWER.test(part);
          const shown = lower ? upperCase(part, ctx.locale) : part;
          for (const fr of splitByFace(shown, family, variant)) builder.text(fr.text, fr.face, lineFmt(lower ? small : fmt, fr.face, family, variant));
        }
      } else {
        for (const fr of splitByFace(text, family, variant)) builder.text(fr.text, fr.face, lineFmt(fmt, fr.face, family, variant));
      }
      // A break that clears floats (TextRun.clear): the line breaker ends it below them.
      const last = builder.units[builder.units.length - 1];
      if (run.clear && last?.t === 'br' && (run.clear === 'left' || run.clear === 'right' || run.clear === 'all')) last.clear = run.clear;
    } else if (run.type === 'field') {
      if (run.field !== 'page' && run.field !== 'pages') continue;
      hasFields = true;
      const rs = merge(ctx.defaults.run, run.style);
      const fmt = makeFmt(rs);
      // The face that draws digits: a family whose own face has none (a CJK font drawn by a fallback for Latin
      // text) would draw the number with no glyph at all.
      const face = digitFace(familyFor(rs.font), variantOf(rs.bold, rs.italic));
      ctx.fonts.use(face, DIGITS);
      const text = ctx.fieldText?.(run.field) ?? FIELD_PLACEHOLDER;
      ctx.fieldMeasured?.(run.field, face, fmt.drawSize);
      builder.inline({ kind: 'field', field: run.field, face, fmt, width: face.width(text, fmt.drawSize) });
    } else if (run.type === 'image') {
      const seg = imageSeg(run, null, ctx);
      if (seg && run.style && typeof run.style === 'object') {
        // The picture's run font sizes a line of pictures alone (lineMetrics), as the mark's sizes an empty line.
        const rs = merge(ctx.defaults.run, run.style);
        const face = primaryFace(familyFor(rs.font), variantOf(rs.bold, rs.italic));
        const size = makeFmt(rs).size;
        seg.font = { ascent: face.ascent * size, descent: face.descent * size };
      }
      if (seg) builder.object(seg);
    } else if (run.type === 'chart') {
      const seg = chartSeg(run, ctx);
      if (seg) builder.object(seg);
    } else if (run.type === 'shape') {
      const shape = layoutInlineShape(run, ctx);
      if (shape) builder.object({ kind: 'chart', ...shape });
    }
  }
  builder.endWord();

  let label: { items: Item[]; end: number } | null = null;
  let counted: string | undefined;
  if (list) {
    counted = ctx.relabel?.source === p ? ctx.relabel.text : ctx.lists.next(list);
    let text = cleanText(counted);
    // The label takes the paragraph mark's capitals, as Word draws it ("a." in an all-caps heading is "A.").
    if (runField(ctx.defaults.run, markOver, 'caps') === true) text = upperCase(text, ctx.locale);
    // Hebrew and Arabic numbers (hebrew1, arabicAbjad…) are drawn in visual order, like the paragraph's own text.
    if (hasRtl(text)) {
      if (hasArabic(text)) text = shapeArabic(text);
      const levels = bidiLevels(text, geo.rtl ? 1 : 0);
      text = visualOrder(levels).map((i) => (levels[i] % 2 ? mirrored(text[i]) : text[i])).join('');
    }
    if (text) {
      const labelStyle = copyWith(merge(ctx.defaults.run, markOver), { underline: false, strike: false, link: undefined, highlight: undefined });
      const fmt = makeFmt(labelStyle);
      const family = familyFor(labelStyle.font);
      let x = geo.indentStart + geo.firstLine;
      const items: Item[] = [];
      for (const fr of splitByFace(text, family, variantOf(labelStyle.bold, labelStyle.italic))) {
        const w = textWidth(fr.face, fr.text, fmt);
        ctx.fonts.use(fr.face, fr.text);
        items.push({ kind: 'text', x, width: w, text: fr.text, face: fr.face, fmt, space: false });
        x += w;
      }
      label = { items, end: x };
    }
  }

  const breaker = new LineBreaker(geo, label, markFace, markFmt, ctx.fonts, ctx.decimalSeparator ?? '.', ctx.minWidth, geo.rtl ? rightToLeft(ctx.narrow) : ctx.narrow);
  for (const unit of builder.units) breaker.add(unit);
  breaker.end();

  const heading = Number.isInteger(style.heading) && style.heading! >= 1 && style.heading! <= 6
    ? { level: style.heading!, title: textOfRuns(p) }
    : null;
  const borders = style.borders && typeof style.borders === 'object' ? style.borders : null;
  padForBorders(breaker.lines, borders);
  return {
    kind: 'paragraph',
    source: p,
    lines: breaker.lines,
    spaceBefore: Math.max(0, num(style.spaceBefore, 0)),
    spaceAfter: Math.max(0, num(style.spaceAfter, 0)),
    // Side borders sit their w:space (4 pt when absent) outside the text; shading reaches them.
    boxLeft: Math.max(-width, (geo.rtl ? geo.indentEnd : geo.indentStart + Math.min(0, geo.firstLine)) - sideSpace(borders?.left)),
    boxRight: Math.min(2 * width, width - (geo.rtl ? geo.indentStart : geo.indentEnd) + sideSpace(borders?.right)),
    shading: parseColor(style.shading),
    borders: borders && (borders.top || borders.bottom || borders.left || borders.right) ? borders : null,
    keepWithNext: style.keepWithNext === true,
    pageBreakBefore: style.pageBreakBefore === true,
    widowControl: style.widowControl !== false,
    heading: heading && heading.title ? heading : null,
    hasFields,
    ...(counted !== undefined ? { listLabel: counted } : {}),
  };
}

/**
 * The narrowing a right-to-left paragraph takes: only its newspaper column's edge (floats do not narrow its lines),
 * which is on the physical right of a box laid out at the widest column's width.
 */
function rightToLeft(narrow: readonly Narrow[] | undefined): Narrow[] | undefined {
  const out: Narrow[] = [];
  for (const n of narrow ?? []) {
    const edge = n.column ? n.end : n.edge;
    if (edge !== undefined) out.push({ from: n.from, to: n.to, start: 0, end: edge, column: true });
  }
  return out.length > 0 ? out : undefined;
}
