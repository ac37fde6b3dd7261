/**
 * The only code that issues drawing operations: paints the pages of boxes the flow produces (flow/boxes.ts)
 * with jsPDF, one page at a time, skipping redundant state changes (font, size, colours, line width). Page
 * counts, known only at the end, are remembered by position and drawn by paintPageCounts.
 */
import type { jsPDF } from 'jspdf';
import type { DocumentFonts } from '../fonts/embed.js';
import type { Face } from '../fonts/faces.js';
import type { Rgb } from '../layout/color.js';
import type { Bookmark, Box, LaidPage, PageCountBox, PathBox, TextBox } from '../flow/boxes.js';
import { drawImage } from './image.js';
import { drawShape } from './shape.js';

function sameRgb(a: Rgb, b: Rgb | null): boolean {
  return b !== null && a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
}

const TEXT_OPTIONS = { isInputVisual: true, isOutputVisual: true };
/** The flags jsPDF's text() escapes a standard font's text with, and what it turns a tab into. */
const ESCAPE_FLAGS = { autoencode: true, noBOM: true };
const TAB_AS_SPACES = ' '.repeat(8);

/** Bookmarks: headings nest under the closest previous heading of a higher level. */
class Outline {
  private readonly stack: Array<{ level: number; node: unknown }> = [];

  constructor(private readonly doc: jsPDF) {}

  add(b: Bookmark, page: number): void {
    while (this.stack.length > 0 && this.stack[this.stack.length - 1].level >= b.level) this.stack.pop();
    const parent = this.stack.length > 0 ? this.stack[this.stack.length - 1].node : null;
    // jsPDF's outline API is untyped beyond `add(parent, title, options)`; parent is its own node object.
    const outline = (this.doc as unknown as { outline: { add(parent: unknown, title: string, options: { pageNumber: number }): unknown } }).outline;
    const node = outline.add(parent, b.title.slice(0, 250), { pageNumber: page });
    this.stack.push({ level: b.level, node });
  }
}

export class Painter {
  private face: Face | null = null;
  private size = -1;
  private color: Rgb | null = null;
  private drawColor: Rgb | null = null;
  private lineWidth = -1;
  /** jsPDF's resource name of the current font (F1, F2…) and the operator setting the current text colour. */
  private fontKey = '';
  private colorOp = '';
  /**
   * The text font (resource and size) and fill colour the current content stream has in effect from the painter's
   * own text objects ('' / -1: unknown). Text state and colour are graphics state, kept across text objects, so a
   * run of words in one font and colour sets them once instead of in every word's BT…ET (they were a third of a
   * page's content, which is deflated). Anything else that may set the fill colour or the font makes them unknown.
   */
  private streamFontKey = '';
  private streamSize = -1;
  private streamColorOp = '';
  /** The current page's height: text is placed from the page's bottom. */
  private pageHeight = -1;
  /** Faces jsPDF has drawn with at least once (so it writes their font into the PDF). */
  private readonly fontsMarkedUsed = new Set<Face>();
  private readonly outline: Outline;
  /** Page-count boxes by page, drawn once the count is known. */
  private readonly pageCounts: Array<{ page: number; box: PageCountBox }> = [];

  constructor(
    readonly doc: jsPDF,
    readonly fonts: DocumentFonts,
  ) {
    this.outline = new Outline(doc);
  }

  /** Forget the cached state (after code that draws behind our back: the page background). */
  invalidate(): void {
    this.face = null;
    this.size = -1;
    this.color = null;
    this.drawColor = null;
    this.lineWidth = -1;
    this.pageHeight = -1;
    this.forgetStream();
  }

  /** The content stream's text font and fill colour are no longer known (something else drew or set them). */
  private forgetStream(): void {
    this.streamFontKey = '';
    this.streamSize = -1;
    this.streamColorOp = '';
  }

  /** Paints a finished page of the body: page 1 is the document's first page, later ones are added. */
  paintPage(page: LaidPage): void {
    if (page.number > 1) {
      this.doc.addPage([page.width, page.height], page.width > page.height ? 'l' : 'p');
    }
    this.invalidate();
    for (const b of page.bookmarks) this.outline.add(b, page.number);
    this.paint(page.boxes, page.number);
    this.compact(page.number);
  }

  /**
   * Joins a painted page's content lines into one string, as jsPDF would when saving (`lines.join('\n')`), so the
   * output is the same. Until then jsPDF holds every page as thousands of short strings, which all survive young-
   * generation collections until the document is saved: each scavenge copied them again (a quarter of a long
   * document's render time was garbage collection). One string per page is one object to keep.
   */
  private compact(page: number): void {
    const lines = (this.doc.internal as unknown as { pages: unknown[][] }).pages[page];
    if (!Array.isArray(lines) || lines.length < 2) return;
    const joined = lines.join('\n');
    lines.length = 0;
    lines.push(joined);
  }

  /** Paints more boxes on an already painted page (headers, footers). */
  paintOn(page: number, boxes: Box[]): void {
    this.doc.setPage(page);
    this.invalidate();
    this.paint(boxes, page);
  }

  /** Draws every page count now that the number of pages is known. */
  paintPageCounts(pages: number): void {
    const text = String(pages);
    for (const { page, box } of this.pageCounts) {
      this.doc.setPage(page);
      this.invalidate();
      this.text(text, box.face, box.size, box.color, box.x, box.y);
      const w = box.face.width(text, box.size);
      const thickness = Math.max(0.4, box.size * 0.055);
      if (box.underline) this.line(box.x, box.y + box.size * 0.12, box.x + w, box.y + box.size * 0.12, thickness, box.color, null);
      if (box.strike) this.line(box.x, box.y - box.size * 0.28, box.x + w, box.y - box.size * 0.28, thickness, box.color, null);
    }
    this.pageCounts.length = 0;
  }

  private paint(boxes: Box[], page: number): void {
    const doc = this.doc;
    for (const b of boxes) {
      switch (b.kind) {
        case 'text':
          if (b.decorative) {
            // An empty ActualText: readers show the glyphs but copy, search and extract nothing for them.
            this.raw('/Span <</ActualText ()>> BDC');
            this.text(b.text, b.face, b.size, b.color, b.x, b.y, b.angle, true);
            this.raw('EMC');
          } else if ((b.scale !== undefined && b.scale !== 1) || b.charSpace) this.scaledText(b);
          else this.text(b.text, b.face, b.size, b.color, b.x, b.y, b.angle);
          break;
        case 'fill':
          if (!(b.w > 0) || !(b.h > 0)) break;
          this.streamColorOp = '';
          doc.setFillColor(b.color[0], b.color[1], b.color[2]);
          doc.rect(b.x, b.y, b.w, b.h, 'F');
          break;
        case 'line':
          this.line(b.x1, b.y1, b.x2, b.y2, b.width, b.color, b.dash);
          break;
        case 'frame':
          this.stroke(b.color, b.width);
          doc.rect(b.x, b.y, b.w, b.h, 'S');
          break;
        case 'image':
          // Inside q…Q, but a vector picture's text layer sets a font of its own: nothing is assumed after it.
          drawImage(doc, b.image, b.x, b.y, b.w, b.h);
          this.forgetStream();
          break;
        case 'link':
          if (b.w > 0 && b.h > 0) doc.link(b.x, b.y, b.w, b.h, { url: b.url });
          break;
        case 'pageCount':
          this.pageCounts.push({ page, box: b });
          break;
        case 'path':
          this.path(b);
          break;
        case 'shape':
          this.invalidate();
          drawShape(doc, b);
          this.invalidate();
          break;
      }
    }
  }

  private stroke(rgb: Rgb, width: number): void {
    if (!sameRgb(rgb, this.drawColor)) {
      this.doc.setDrawColor(rgb[0], rgb[1], rgb[2]);
      this.drawColor = rgb;
    }
    if (width !== this.lineWidth) {
      this.doc.setLineWidth(width);
      this.lineWidth = width;
    }
  }

  private line(x1: number, y1: number, x2: number, y2: number, width: number, rgb: Rgb, dash: number[] | null): void {
    this.stroke(rgb, width);
    if (dash) {
      this.doc.setLineDashPattern(dash, 0);
      this.doc.line(x1, y1, x2, y2);
      this.doc.setLineDashPattern([], 0);
    } else {
      this.doc.line(x1, y1, x2, y2);
    }
  }

  /** A polygon or polyline, as jsPDF's relative segments from its first point. */
  private path(b: PathBox): void {
    const p = b.points;
    if (p.length < 4 || (!b.fill && !b.stroke)) return;
    const segments: number[][] = [];
    for (let i = 2; i + 1 < p.length; i += 2) segments.push([p[i] - p[i - 2], p[i + 1] - p[i - 1]]);
    if (b.fill) {
      this.doc.setFillColor(b.fill[0], b.fill[1], b.fill[2]);
      this.streamColorOp = '';
    }
    if (b.stroke) this.stroke(b.stroke, b.width);
    const style = b.fill && b.closed ? (b.stroke ? 'FD' : 'F') : 'S';
    if (style === 'S' && !b.stroke) return;
    this.doc.lines(segments, p[0], p[1], [1, 1], style, b.closed);
  }

  /** A content-stream operator jsPDF has no method for (marked content), written as it is. */
  private raw(operator: string): void {
    // jsPDF's internal write is untyped; it appends a line to the current page's content stream.
    (this.doc.internal as unknown as { write(line: string): void }).write(operator);
  }

  /**
   * Text scaled horizontally (Word's w:w) with the PDF's horizontal scaling operator, Tz, and/or with space after
   * every character (Word's character spacing) with Tc, which jsPDF has no methods for. Both are part of the
   * graphics state and outlive the text object, so they are set back right after. Tz scales Tc too, hence the
   * division: the layout's spacing is in unscaled points.
   */
  private scaledText(b: TextBox): void {
    const scale = b.scale ?? 1;
    if (scale !== 1) this.raw(`${pdfNumber(scale * 100)} Tz`);
    const charSpace = b.charSpace ? b.charSpace / scale : 0;
    if (charSpace) this.raw(`${pdfNumber(charSpace)} Tc`);
    this.text(b.text, b.face, b.size, b.color, b.x, b.y, b.angle, false, charSpace);
    if (b.charSpace) this.raw('0 Tc');
    if (scale !== 1) this.raw('100 Tz');
  }

  private text(text: string, face: Face, size: number, rgb: Rgb, x: number, baseline: number, angle?: number, hidden = false, charSpace = 0): void {
    const original = text;
    text = this.fonts.drawable(face, text);
    if (!text) return;
    // Boxes drawn for characters no font has: the text layer (copy, search, pdftotext) keeps the characters (unless
    // the text is hidden from it altogether, inside the caller's empty ActualText).
    const actual = face.drawsAllAs !== null && !hidden;
    if (actual) this.raw(`/Span <</ActualText <FEFF${utf16Hex(original)}>>> BDC`);
    if (face !== this.face) {
      const [name, style] = this.fonts.select(face);
      this.doc.setFont(name, style);
      this.face = face;
      this.fontKey = (this.doc.internal as unknown as { getFont(): { id: string } }).getFont().id;
    }
    if (size !== this.size) {
      this.doc.setFontSize(size);
      this.size = size;
    }
    if (!sameRgb(rgb, this.color)) {
      this.doc.setTextColor(rgb[0], rgb[1], rgb[2]);
      this.color = rgb;
      this.colorOp = textColorOp(rgb);
    }
    if (!angle && this.fontsMarkedUsed.has(face)) {
      // What jsPDF's text() writes for one line, without the general-purpose work it does on every call (options,
      // line splitting, its bidi pass over each character, a linear search of the widths per character for an
      // embedded font): the text is already shaped, in visual order and drawable. That work was most of a
      // page's paint time.
      // An embedded font: its glyph codes (two bytes each); a standard font: its WinAnsi bytes, escaped, as
      // jsPDF's text() encodes them. Both as a literal string.
      const glyphs = this.fonts.glyphString(face, text);
      const content = `(${glyphs ?? winAnsiEscaped(this.doc, text.replace(/\t/g, TAB_AS_SPACES))})`;
      if (this.pageHeight < 0) this.pageHeight = this.doc.internal.pageSize.getHeight();
      let state = '';
      if (this.fontKey !== this.streamFontKey || size !== this.streamSize) {
        state = `/${this.fontKey} ${size} Tf\n`;
        this.streamFontKey = this.fontKey;
        this.streamSize = size;
      }
      if (this.colorOp !== this.streamColorOp) {
        state += `${this.colorOp}\n`;
        this.streamColorOp = this.colorOp;
      }
      this.raw(`BT\n${state}${pdfNumber(x)} ${pdfNumber(this.pageHeight - baseline)} Td\n${content} Tj\nET`);
    } else {
      // Input already in visual order and shaped: stop jsPDF's own bidi pass from touching it.
      // (jsPDF writes its own Tc into the text object once any text has been drawn: it is given the spacing.)
      const options = charSpace ? { ...TEXT_OPTIONS, charSpace } : TEXT_OPTIONS;
      this.doc.text(text, x, baseline, angle ? { ...options, angle } : options);
      this.forgetStream();
      // jsPDF puts a font into the PDF only once its own text() has drawn with it; after that, text is written directly.
      this.fontsMarkedUsed.add(face);
    }
    if (actual) this.raw('EMC');
  }
}

/**
 * A standard font's string as jsPDF's pdfEscape encodes it. Printable ASCII is the same in WinAnsi, so only the
 * backslash and parentheses change (what pdfEscape does after encoding); pdfEscape's per-character encoding pass
 * with an array join was a tenth of a long document's paint time.
 */
function winAnsiEscaped(doc: jsPDF, text: string): string {
  // Most words need nothing: one scan says so (the replace would scan again and copy).
  if (!ESCAPE_OR_ENCODE.test(text)) return text;
  return PRINTABLE_ASCII.test(text) ? text.replace(/[\\()]/g, '\\$&') : doc.pdfEscape(text, ESCAPE_FLAGS);
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** A character pdfEscape would escape or encode: outside printable ASCII, a backslash or a parenthesis. */
const ESCAPE_OR_ENCODE = /[^\x20-\x7e]|[\\()]/;

/** A number as jsPDF writes it with floatPrecision 3: three decimals, trailing zeros dropped ("12." for 12). */
function pdfNumber(n: number): string {
  // Two per word painted: the zeros trimmed by a loop rather than a regular expression's replace.
  const s = n.toFixed(3);
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x30) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** The fill colour operator jsPDF's setTextColor(r, g, b) produces: grey when the channels are equal. */
function textColorOp([r, g, b]: Rgb): string {
  return r === g && g === b ? `${pdfNumber(r / 255)} g` : `${pdfNumber(r / 255)} ${pdfNumber(g / 255)} ${pdfNumber(b / 255)} rg`;
}

/** UTF-16BE in hex, as a PDF text string's bytes after its byte-order mark. */
function utf16Hex(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += text.charCodeAt(i).toString(16).padStart(4, '0');
  return out;
}
