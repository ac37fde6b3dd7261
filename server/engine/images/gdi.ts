/**
 * The drawing state EMF and WMF records share (GDI: a pen, a brush, a fill mode, a current position, an open path,
 * an object table) and the display list it produces. Shapes arrive in logical coordinates; the format's own
 * mapping (window/viewport, world transform) turns them into fractions of the picture's frame (0–1 on each axis),
 * so the display list is independent of the size it is drawn at (metafile.ts, drawing.ts).
 *
 * Text is drawn with the bundled fonts' outlines (glyphs.ts), upright only. Clipping, raster operations other than copy, hatches and pattern brushes are not drawn (hatches fill
 * with their colour, patterns not at all). Every list is bounded (MAX_POINTS): a hostile picture cannot run away.
 */
import { decodeDib } from './dib.js';
import { glyphFont } from './glyphs.js';
import type { RgbaImage } from './rgba.js';

/** A colour with alpha, 0–255 each. */
export type Rgba = readonly [number, number, number, number];

/** A polygon as flat [x0, y0, x1, y1, …]. */
export type Poly = number[];

export type Op =
  | { kind: 'fill'; polys: Poly[]; evenOdd: boolean; colour: Rgba }
  /** `width` is a fraction of the frame's width; 0 = one device pixel (a cosmetic pen). */
  | { kind: 'stroke'; lines: { points: Poly; closed: boolean }[]; width: number; colour: Rgba }
  | { kind: 'image'; image: RgbaImage; x: number; y: number; w: number; h: number; opaque: boolean }
  /**
   * The characters a text record drew (as outlines, in a fill), for the PDF's text layer, so a picture's words can
   * be searched, copied and extracted: `x` and `baseline` where the text starts, `size` the em's height and `width`
   * the whole advance, all in the frame.
   */
  | { kind: 'text'; chars: string; x: number; baseline: number; size: number; width: number };

export interface Pen {
  kind: 'pen';
  colour: Rgba | null;
  /** Logical width (0 = cosmetic, one pixel). */
  width: number;
}

export interface Brush {
  kind: 'brush';
  colour: Rgba | null;
}

export interface Font {
  kind: 'font';
  /** Logical height: < 0 the em size, > 0 the cell height (em + internal leading), 0 a default. */
  height: number;
  bold: boolean;
  italic: boolean;
  face: string;
  /** Tenths of a degree: rotated text is not drawn. */
  escapement: number;
  /** The Symbol font (SYMBOL_CHARSET, or a face named Symbol): its codes are mapped to Unicode (symbolChar). */
  symbol: boolean;
}

const SYMBOL_UPPER = 'ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ';
const SYMBOL_LOWER = 'αβχδεφγηιϕκλμνοπθρστυϖωξψζ';
const SYMBOL_OTHER: Record<number, string> = {
  0x22: '∀', 0x24: '∃', 0x27: '∋', 0x2a: '∗', 0x2d: '−', 0x40: '≅', 0x5c: '∴', 0x5e: '⊥', 0x7e: '∼', 0xa2: '′', 0xa3: '≤',
  0xa5: '∞', 0xa7: '♣', 0xab: '↔', 0xac: '←', 0xad: '↑', 0xae: '→', 0xaf: '↓', 0xb0: '°', 0xb1: '±', 0xb2: '″', 0xb3: '≥',
  0xb4: '×', 0xb5: '∝', 0xb6: '∂', 0xb7: '•', 0xb8: '÷', 0xb9: '≠', 0xba: '≡', 0xbb: '≈', 0xbc: '…', 0xc4: '⊗', 0xc5: '⊕',
  0xc6: '∅', 0xc7: '∩', 0xc8: '∪', 0xc9: '⊃', 0xca: '⊇', 0xcb: '⊄', 0xcc: '⊂', 0xcd: '⊆', 0xce: '∈', 0xcf: '∉', 0xd0: '∠',
  0xd1: '∇', 0xd5: '∏', 0xd6: '√', 0xd7: '⋅', 0xd8: '¬', 0xd9: '∧', 0xda: '∨', 0xdb: '⇔', 0xdc: '⇐', 0xde: '⇒', 0xe1: '〈',
  0xe5: '∑', 0xf1: '〉', 0xf2: '∫',
};

/** A character of the Symbol font (its code, or the code in the U+F0xx private range) as Unicode. */
export function symbolChar(code: number): number {
  const c = code >= 0xf000 && code <= 0xf0ff ? code - 0xf000 : code;
  if (c >= 0x41 && c <= 0x5a) return SYMBOL_UPPER.codePointAt(c - 0x41) ?? c;
  if (c >= 0x61 && c <= 0x7a) return SYMBOL_LOWER.codePointAt(c - 0x61) ?? c;
  return SYMBOL_OTHER[c]?.codePointAt(0) ?? c;
}

export type GdiObject = Pen | Brush | Font | { kind: 'other' };

/** All points of a picture together: beyond this it is not drawn (a placeholder is). */
export const MAX_POINTS = 2_000_000;
/** Records read at most (each is at least 8 bytes anyway; this bounds the work on a huge file). */
export const MAX_RECORDS = 1_000_000;
/** Bitmap pixels one picture may decode in all (each costs 4 bytes; a 1-bit bitmap compresses to nothing in a zip). */
export const MAX_BITMAP_PIXELS = 50_000_000;
const CURVE_STEPS = 16;
const ELLIPSE_STEPS = 72;

export class TooComplex extends Error {}

export const BLACK: Rgba = [0, 0, 0, 255];

/** A COLORREF (red, green, blue, reserved: little-endian bytes). */
export function colorRef(view: DataView, at: number): Rgba {
  return [view.getUint8(at), view.getUint8(at + 1), view.getUint8(at + 2), 255];
}

/** The stock objects ([MS-EMF] 2.1.31) a record selects with the high bit set. */
export function stockObject(index: number): GdiObject {
  const brushes: Record<number, Rgba | null> = { 0: [255, 255, 255, 255], 1: [192, 192, 192, 255], 2: [128, 128, 128, 255], 3: [64, 64, 64, 255], 4: BLACK, 5: null, 18: [255, 255, 255, 255] };
  if (index in brushes) return { kind: 'brush', colour: brushes[index] };
  if (index === 6) return { kind: 'pen', colour: [255, 255, 255, 255], width: 0 };
  if (index === 7 || index === 19) return { kind: 'pen', colour: BLACK, width: 0 };
  if (index === 8) return { kind: 'pen', colour: null, width: 0 };
  return { kind: 'other' };
}

/** Pen styles ([MS-WMF] 2.1.1.23): PS_NULL draws nothing; dashes are drawn solid. */
export function pen(style: number, width: number, colour: Rgba): Pen {
  return { kind: 'pen', colour: (style & 0xf) === 5 ? null : colour, width: Math.abs(width) };
}

/** Brush styles ([MS-WMF] 2.1.1.4): solid and hatched fill with their colour; null and patterns do not fill. */
export function brush(style: number, colour: Rgba): Brush {
  return { kind: 'brush', colour: style === 0 || style === 2 ? colour : null };
}

export interface DrawState {
  pen: Pen;
  brush: Brush;
  evenOdd: boolean;
  font: Font | null;
  textColour: Rgba;
  /** TA_* flags: horizontal (left 0, right 2, centre 6) and vertical (top 0, bottom 8, baseline 24). */
  textAlign: number;
}

export class Gdi {
  readonly ops: Op[] = [];
  state: DrawState = { pen: { kind: 'pen', colour: BLACK, width: 0 }, brush: { kind: 'brush', colour: [255, 255, 255, 255] }, evenOdd: true, font: null, textColour: BLACK, textAlign: 0 };
  /** Current position, logical. */
  cur: [number, number] = [0, 0];
  /** Open path (between BeginPath and EndPath): figures in frame fractions. */
  path: { points: Poly; closed: boolean }[] | null = null;
  private points = 0;
  /** Bitmap pixels this picture may still decode (all its bitmaps together). */
  private pixelsLeft: number;

  /**
   * `toFrame` maps a logical point to frame fractions; `penScale` a logical pen width to a fraction of the frame's
   * width. Both follow the format's current mapping state.
   */
  constructor(
    readonly toFrame: (x: number, y: number) => [number, number],
    readonly penScale: (w: number) => number,
    maxPixels: number,
  ) {
    this.pixelsLeft = Math.min(maxPixels, MAX_BITMAP_PIXELS);
  }

  /** Decodes an embedded DIB within what is left of the picture's bitmap budget; null past it or when damaged. */
  dib(info: Uint8Array, bits: Uint8Array | undefined): RgbaImage | null {
    const image = decodeDib(info, bits, this.pixelsLeft);
    if (image) this.pixelsLeft -= image.width * image.height;
    return image;
  }

  private count(n: number): void {
    this.points += n;
    if (this.points > MAX_POINTS) throw new TooComplex('too many points');
  }

  /** Logical [x0, y0, x1, y1, …] → frame fractions. */
  map(logical: ArrayLike<number>): Poly {
    this.count(logical.length >> 1);
    const out: Poly = new Array<number>(logical.length);
    for (let i = 0; i + 1 < logical.length; i += 2) {
      const [u, v] = this.toFrame(logical[i], logical[i + 1]);
      out[i] = u;
      out[i + 1] = v;
    }
    return out;
  }

  /** Draws figures (or adds them to the open path): filled with the brush when closed and `filled`, then outlined. */
  shape(figures: { points: Poly; closed: boolean }[], filled: boolean): void {
    if (this.path) {
      for (const f of figures) {
        // An open piece that starts where the open figure ends (MoveTo, LineTo, PolyBezierTo…) continues it.
        const last = this.path[this.path.length - 1];
        const n = last?.points.length ?? 0;
        if (last && !last.closed && !f.closed && n >= 2 && last.points[n - 2] === f.points[0] && last.points[n - 1] === f.points[1]) {
          for (let i = 2; i < f.points.length; i++) last.points.push(f.points[i]);
        } else this.path.push(f);
      }
      return;
    }
    if (filled) this.fillFigures(figures);
    this.strokeFigures(figures);
  }

  fillFigures(figures: { points: Poly; closed: boolean }[]): void {
    const colour = this.state.brush.colour;
    const polys = figures.map((f) => f.points).filter((p) => p.length >= 6);
    if (colour && polys.length > 0) this.ops.push({ kind: 'fill', polys, evenOdd: this.state.evenOdd, colour });
  }

  strokeFigures(figures: { points: Poly; closed: boolean }[]): void {
    const { colour, width } = this.state.pen;
    const lines = figures.filter((f) => f.points.length >= 4);
    if (colour && lines.length > 0) this.ops.push({ kind: 'stroke', lines, width: width > 0 ? this.penScale(width) : 0, colour });
  }

  polyline(logical: ArrayLike<number>): void {
    this.shape([{ points: this.map(logical), closed: false }], false);
  }

  polygons(logical: ArrayLike<number>[]): void {
    this.shape(logical.map((l) => ({ points: this.map(l), closed: true })), true);
  }

  /** Cubic Béziers from (x0, y0) through triples of control points, flattened to a polyline (logical). */
  bezier(x0: number, y0: number, triples: ArrayLike<number>): number[] {
    const out = [x0, y0];
    let px = x0;
    let py = y0;
    this.count(((triples.length / 6) | 0) * CURVE_STEPS);
    for (let i = 0; i + 5 < triples.length; i += 6) {
      const [ax, ay, bx, by, cx, cy] = [triples[i], triples[i + 1], triples[i + 2], triples[i + 3], triples[i + 4], triples[i + 5]];
      for (let s = 1; s <= CURVE_STEPS; s++) {
        const t = s / CURVE_STEPS;
        const m = 1 - t;
        out.push(m * m * m * px + 3 * m * m * t * ax + 3 * m * t * t * bx + t * t * t * cx, m * m * m * py + 3 * m * m * t * ay + 3 * m * t * t * by + t * t * t * cy);
      }
      px = cx;
      py = cy;
    }
    return out;
  }

  rectangle(l: number, t: number, r: number, b: number): void {
    this.polygons([[l, t, r, t, r, b, l, b]]);
  }

  ellipse(l: number, t: number, r: number, b: number): void {
    const cx = (l + r) / 2;
    const cy = (t + b) / 2;
    const out: number[] = [];
    for (let i = 0; i < ELLIPSE_STEPS; i++) {
      const a = (i / ELLIPSE_STEPS) * 2 * Math.PI;
      out.push(cx + (Math.cos(a) * (r - l)) / 2, cy + (Math.sin(a) * (b - t)) / 2);
    }
    this.polygons([out]);
  }

  roundRect(l: number, t: number, r: number, b: number, w: number, h: number): void {
    const [x0, x1] = l < r ? [l, r] : [r, l];
    const [y0, y1] = t < b ? [t, b] : [b, t];
    const rx = Math.min(Math.abs(w) / 2, (x1 - x0) / 2);
    const ry = Math.min(Math.abs(h) / 2, (y1 - y0) / 2);
    const out: number[] = [];
    const corner = (cx: number, cy: number, from: number): void => {
      for (let s = 0; s <= 8; s++) {
        const a = from + (s / 8) * (Math.PI / 2);
        out.push(cx + Math.cos(a) * rx, cy + Math.sin(a) * ry);
      }
    };
    corner(x1 - rx, y1 - ry, 0);
    corner(x0 + rx, y1 - ry, Math.PI / 2);
    corner(x0 + rx, y0 + ry, Math.PI);
    corner(x1 - rx, y0 + ry, (3 * Math.PI) / 2);
    this.polygons([out]);
  }

  /**
   * An elliptic arc of the box (l, t, r, b) from the radial through (xs, ys) to the one through (xe, ye),
   * counter-clockwise as drawn (GDI's default direction): outlined (arc), closed by its chord, or a pie slice.
   */
  arc(kind: 'arc' | 'chord' | 'pie', l: number, t: number, r: number, b: number, xs: number, ys: number, xe: number, ye: number): void {
    const cx = (l + r) / 2;
    const cy = (t + b) / 2;
    const rx = Math.abs(r - l) / 2;
    const ry = Math.abs(b - t) / 2;
    if (rx === 0 || ry === 0) return;
    // Angles measured with y up, so that increasing angles run counter-clockwise on the page.
    const angle = (x: number, y: number): number => Math.atan2(-(y - cy) / ry, (x - cx) / rx);
    const from = angle(xs, ys);
    let to = angle(xe, ye);
    if (to <= from) to += 2 * Math.PI;
    const steps = Math.max(2, Math.ceil(((to - from) / (2 * Math.PI)) * ELLIPSE_STEPS));
    const out: number[] = [];
    for (let i = 0; i <= steps; i++) {
      const a = from + ((to - from) * i) / steps;
      out.push(cx + rx * Math.cos(a), cy - ry * Math.sin(a));
    }
    if (kind === 'arc') this.polyline(out);
    else this.polygons([kind === 'pie' ? [cx, cy, ...out] : out]);
  }

  lineTo(x: number, y: number): void {
    const points = this.map([this.cur[0], this.cur[1], x, y]);
    this.cur = [x, y];
    if (this.path) {
      // Continue the open figure when it ends where this line starts.
      const last = this.path[this.path.length - 1];
      if (last && !last.closed && last.points.length >= 2 && last.points[last.points.length - 2] === points[0] && last.points[last.points.length - 1] === points[1]) {
        last.points.push(points[2], points[3]);
      } else this.path.push({ points, closed: false });
      return;
    }
    this.strokeFigures([{ points, closed: false }]);
  }

  /**
   * Text at the logical point (x, y), aligned by the text-align flags, in the selected font's bundled stand-in,
   * filled with the text colour; `dx` (logical advances per character), when the record gives them, place each
   * character as the file did. Upright on the page whatever the mapping (as GDI draws it); rotated text is skipped.
   */
  text(x: number, y: number, chars: string, dx?: number[]): void {
    const font = this.state.font;
    // TA_UPDATECP: the text starts at the current position, which it then advances (equation editors use it).
    const updateCp = (this.state.textAlign & 1) === 1;
    if (updateCp) [x, y] = this.cur;
    if (chars.length === 0 || (font && font.escapement % 3600 !== 0)) return;
    // Symbol characters are mapped to Unicode, which the default family (with its fallbacks' coverage) draws.
    const glyphs = glyphFont(font && !font.symbol ? font.face : 'Arial', font?.bold ?? false, font?.italic ?? false);
    if (!glyphs) return;
    const m = glyphs.metrics;
    const h = font?.height ?? 0;
    const em = h < 0 ? -h : h > 0 ? h / (m.ascent + m.descent) : 12;
    const [u0, v0] = this.toFrame(x, y);
    const su = Math.abs(this.toFrame(x + em, y)[0] - u0);
    const sv = Math.abs(this.toFrame(x, y + em)[1] - v0);
    if (!Number.isFinite(su + sv) || su === 0 || sv === 0) return;
    const codes = Array.from(chars, (c) => (font?.symbol ? symbolChar(c.codePointAt(0) ?? 32) : (c.codePointAt(0) ?? 32)));
    const advance = (i: number): number => (dx && dx[i] !== undefined ? (Math.abs(dx[i]) / em) * su : (m.advances[m.glyphOf[codes[i]] ?? 0] ?? 0.5) * su);
    let total = 0;
    for (let i = 0; i < codes.length; i++) total += advance(i);
    if (updateCp) this.cur = [x + (total / su) * em * Math.sign(this.toFrame(x + em, y)[0] - u0 || 1), y];
    const align = this.state.textAlign;
    let pen = (align & 6) === 6 ? u0 - total / 2 : align & 2 ? u0 - total : u0;
    const cellDescent = m.ascent + m.descent - m.cellAscent;
    const baseline = (align & 24) === 24 ? v0 : align & 8 ? v0 - cellDescent * sv : v0 + m.cellAscent * sv;
    const polys: Poly[] = [];
    for (let i = 0; i < codes.length; i++) {
      const glyph = codes[i] < m.glyphOf.length ? m.glyphOf[codes[i]] : 0;
      if (glyph) {
        for (const contour of glyphs.outline(glyph)) {
          this.count(contour.length >> 1);
          polys.push(contour.map((v, k) => (k & 1 ? baseline - v * sv : pen + v * su)));
        }
      }
      pen += advance(i);
    }
    if (polys.length > 0) {
      this.ops.push({ kind: 'fill', polys, evenOdd: false, colour: this.state.textColour });
      this.ops.push({ kind: 'text', chars: font?.symbol ? codes.map((c) => String.fromCodePoint(c)).join('') : chars, x: pen - total, baseline, size: sv, width: total });
    }
  }

  /** A bitmap into the logical rectangle (x, y, w, h), as the frame maps it (axis-aligned). */
  image(image: RgbaImage, x: number, y: number, w: number, h: number, opaque = true): void {
    const [u0, v0] = this.toFrame(x, y);
    const [u1, v1] = this.toFrame(x + w, y + h);
    this.ops.push({ kind: 'image', image, x: u0, y: v0, w: u1 - u0, h: v1 - v0, opaque });
  }

  /** Fills a logical rectangle with the brush (a blit without a source bitmap: PATCOPY). */
  patternRect(x: number, y: number, w: number, h: number): void {
    const colour = this.state.brush.colour;
    if (!colour) return;
    this.ops.push({ kind: 'fill', polys: [this.map([x, y, x + w, y, x + w, y + h, x, y + h])], evenOdd: false, colour });
  }
}
