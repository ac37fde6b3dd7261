/**
 * The drawing state EMF and WMF records share (GDI: a pen, a brush, a fill mode, a current position, an open path,
 * an object table) and the display list it produces. Shapes arrive in logical coordinates; the format's own
 * mapping (window/viewport, world transform) turns them into fractions of the picture's frame (0–1 on each axis),
 * so the display list is independent of the resolution it is rasterised at (metafile.ts).
 *
 * Text, clipping, raster operations other than copy, hatches and pattern brushes are not drawn (patterns fill
 * with their colour, or not at all). Every list is bounded (MAX_POINTS): a hostile picture cannot run away.
 */
import type { Poly, Rgba } from './raster.js';
import type { RgbaImage } from './rgba.js';

export type Op =
  | { kind: 'fill'; polys: Poly[]; evenOdd: boolean; colour: Rgba }
  /** `width` is a fraction of the frame's width; 0 = one device pixel (a cosmetic pen). */
  | { kind: 'stroke'; lines: { points: Poly; closed: boolean }[]; width: number; colour: Rgba }
  | { kind: 'image'; image: RgbaImage; x: number; y: number; w: number; h: number; opaque: boolean };

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

export type GdiObject = Pen | Brush | { kind: 'other' };

/** All points of a picture together: beyond this it is not drawn (a placeholder is). */
export const MAX_POINTS = 2_000_000;
/** Records read at most (each is at least 8 bytes anyway; this bounds the work on a huge file). */
export const MAX_RECORDS = 1_000_000;
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
}

export class Gdi {
  readonly ops: Op[] = [];
  state: DrawState = { pen: { kind: 'pen', colour: BLACK, width: 0 }, brush: { kind: 'brush', colour: [255, 255, 255, 255] }, evenOdd: true };
  /** Current position, logical. */
  cur: [number, number] = [0, 0];
  /** Open path (between BeginPath and EndPath): figures in frame fractions. */
  path: { points: Poly; closed: boolean }[] | null = null;
  private points = 0;

  /**
   * `toFrame` maps a logical point to frame fractions; `penScale` a logical pen width to a fraction of the frame's
   * width. Both follow the format's current mapping state.
   */
  constructor(
    readonly toFrame: (x: number, y: number) => [number, number],
    readonly penScale: (w: number) => number,
  ) {}

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
      this.path.push(...figures);
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
