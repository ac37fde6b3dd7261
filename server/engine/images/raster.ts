/**
 * A small RGBA rasteriser for metafile pictures (EMF/WMF): filled polygons (non-zero or even-odd), stroked
 * polylines (as the union of one quad per segment and a square per joint) and scaled bitmaps. The PDF painter is
 * not touched: a metafile becomes one PNG (png-encode.ts) that the existing image path draws. No anti-aliasing;
 * pictures are rasterised at a print resolution, so edges stay fine.
 */
import type { RgbaImage } from './rgba.js';

export type Rgba = readonly [number, number, number, number];

/** A polygon as flat [x0, y0, x1, y1, …] in pixels. */
export type Poly = number[];

interface Edge {
  yTop: number;
  yBottom: number;
  x: number;
  slope: number;
  dir: number;
}

/** Pixels and edge crossings a picture may cost at most: about 20 layers over the largest raster (≈ 1 s). */
export const MAX_WORK = 60_000_000;

/** Thrown when a picture costs more than MAX_WORK to draw (a hostile file, or absurdly complex). */
export class TooMuchWork extends Error {}

export class Raster implements RgbaImage {
  readonly data: Uint8Array;
  private work = 0;

  private spend(n: number): void {
    this.work += n;
    if (this.work > MAX_WORK) throw new TooMuchWork('picture too costly to draw');
  }

  /** The same pixels as 32-bit words (little-endian RGBA, as on every platform Node runs on here). */
  private readonly words: Uint32Array;

  constructor(readonly width: number, readonly height: number) {
    this.data = new Uint8Array(width * height * 4);
    this.words = new Uint32Array(this.data.buffer);
  }

  /** Fills polygons together (holes by the rule), sampling pixel centres. */
  fill(polys: Poly[], evenOdd: boolean, colour: Rgba): void {
    const edges: Edge[] = [];
    for (const poly of polys) {
      const n = poly.length >> 1;
      for (let i = 0; i < n; i++) {
        const x0 = poly[i * 2];
        const y0 = poly[i * 2 + 1];
        const x1 = poly[((i + 1) % n) * 2];
        const y1 = poly[((i + 1) % n) * 2 + 1];
        if (y0 === y1 || !Number.isFinite(x0 + y0 + x1 + y1)) continue;
        const down = y1 > y0;
        const [xa, ya, yb] = down ? [x0, y0, y1] : [x1, y1, y0];
        const slope = (down ? x1 - x0 : x0 - x1) / (yb - ya);
        edges.push({ yTop: ya, yBottom: yb, x: xa, slope, dir: down ? 1 : -1 });
      }
    }
    if (edges.length === 0) return;
    edges.sort((a, b) => a.yTop - b.yTop);
    let next = 0;
    const active: Edge[] = [];
    // Crossings of the current scanline, sorted by x (insertion sort: a few per line), in reused arrays.
    const xs: number[] = [];
    const dirs: number[] = [];
    const yStart = Math.max(0, Math.floor(edges[0].yTop));
    for (let y = yStart; y < this.height; y++) {
      const cy = y + 0.5;
      while (next < edges.length && edges[next].yTop <= cy) active.push(edges[next++]);
      let kept = 0;
      for (const e of active) if (e.yBottom > cy) active[kept++] = e;
      active.length = kept;
      if (kept === 0) {
        if (next >= edges.length) break;
        continue;
      }
      this.spend(kept);
      let n = 0;
      for (const e of active) {
        if (e.yTop > cy) continue;
        const x = e.x + (cy - e.yTop) * e.slope;
        let i = n++;
        while (i > 0 && xs[i - 1] > x) {
          xs[i] = xs[i - 1];
          dirs[i] = dirs[i - 1];
          i--;
        }
        xs[i] = x;
        dirs[i] = e.dir;
      }
      let winding = 0;
      for (let i = 0; i < n - 1; i++) {
        winding += evenOdd ? 1 : dirs[i];
        const inside = evenOdd ? (winding & 1) === 1 : winding !== 0;
        if (inside) this.span(y, xs[i], xs[i + 1], colour);
      }
    }
  }

  /** Pixels whose centre lies in [xa, xb) on row y. */
  private span(y: number, xa: number, xb: number, c: Rgba): void {
    const from = Math.max(0, Math.ceil(xa - 0.5));
    const to = Math.min(this.width, Math.ceil(xb - 0.5));
    if (to <= from) return;
    this.spend(to - from);
    const row = y * this.width;
    // Opaque colours are written four bytes at a time.
    if (c[3] >= 255) this.words.fill(c[0] | (c[1] << 8) | (c[2] << 16) | (255 << 24), row + from, row + to);
    else for (let x = from; x < to; x++) this.blend((row + x) * 4, c[0], c[1], c[2], c[3]);
  }

  private blend(o: number, r: number, g: number, b: number, a: number): void {
    const d = this.data;
    if (a >= 255 || d[o + 3] === 0) {
      d[o] = r;
      d[o + 1] = g;
      d[o + 2] = b;
      d[o + 3] = a;
      return;
    }
    if (a <= 0) return;
    const da = d[o + 3] / 255;
    const sa = a / 255;
    const oa = sa + da * (1 - sa);
    d[o] = Math.round((r * sa + d[o] * da * (1 - sa)) / oa);
    d[o + 1] = Math.round((g * sa + d[o + 1] * da * (1 - sa)) / oa);
    d[o + 2] = Math.round((b * sa + d[o + 2] * da * (1 - sa)) / oa);
    d[o + 3] = Math.round(oa * 255);
  }

  /** Strokes open (or closed) polylines `width` pixels wide. */
  stroke(lines: { points: Poly; closed: boolean }[], width: number, colour: Rgba): void {
    const half = Math.max(0.5, width / 2);
    const polys: Poly[] = [];
    for (const { points, closed } of lines) {
      const n = points.length >> 1;
      const segments = closed ? n : n - 1;
      for (let i = 0; i < segments; i++) {
        const x0 = points[i * 2];
        const y0 = points[i * 2 + 1];
        const x1 = points[((i + 1) % n) * 2];
        const y1 = points[((i + 1) % n) * 2 + 1];
        const len = Math.hypot(x1 - x0, y1 - y0);
        if (len === 0) continue;
        const nx = (-(y1 - y0) / len) * half;
        const ny = ((x1 - x0) / len) * half;
        polys.push([x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny]);
      }
      // Joints (and ends) as squares: quads alone leave notches at corners. Same orientation as the quads above
      // for every direction, so the non-zero union never cancels out.
      if (half > 0.75) {
        for (let i = 0; i < n; i++) {
          const x = points[i * 2];
          const y = points[i * 2 + 1];
          polys.push([x - half, y - half, x - half, y + half, x + half, y + half, x + half, y - half]);
        }
      }
    }
    this.fillOriented(polys, colour);
  }

  /** Non-zero fill of shapes each oriented the same way (flipped where needed), so overlaps add up. */
  private fillOriented(polys: Poly[], colour: Rgba): void {
    for (const p of polys) {
      if (signedArea(p) < 0) {
        const n = p.length >> 1;
        for (let i = 0; i < n >> 1; i++) {
          const j = n - 1 - i;
          [p[i * 2], p[j * 2]] = [p[j * 2], p[i * 2]];
          [p[i * 2 + 1], p[j * 2 + 1]] = [p[j * 2 + 1], p[i * 2 + 1]];
        }
      }
    }
    this.fill(polys, false, colour);
  }

  /**
   * Draws a bitmap into the rectangle at (x, y) of size w × h pixels (negative sizes mirror it), nearest pixel;
   * `opaque` ignores the bitmap's alpha.
   */
  image(src: RgbaImage, x: number, y: number, w: number, h: number, opaque = true): void {
    if (w === 0 || h === 0 || src.width === 0 || src.height === 0) return;
    const left = Math.min(x, x + w);
    const top = Math.min(y, y + h);
    const aw = Math.abs(w);
    const ah = Math.abs(h);
    const x0 = Math.max(0, Math.ceil(left - 0.5));
    const x1 = Math.min(this.width, Math.ceil(left + aw - 0.5));
    const y0 = Math.max(0, Math.ceil(top - 0.5));
    const y1 = Math.min(this.height, Math.ceil(top + ah - 0.5));
    const s = src.data;
    const d = this.data;
    // Source column of each destination column, computed once.
    const columns = new Int32Array(Math.max(0, x1 - x0));
    for (let px = x0; px < x1; px++) {
      let sx = Math.floor(((px + 0.5 - left) / aw) * src.width);
      if (w < 0) sx = src.width - 1 - sx;
      columns[px - x0] = Math.min(src.width - 1, Math.max(0, sx)) * 4;
    }
    for (let py = y0; py < y1; py++) {
      this.spend(columns.length);
      let sy = Math.floor(((py + 0.5 - top) / ah) * src.height);
      if (h < 0) sy = src.height - 1 - sy;
      const row = Math.min(src.height - 1, Math.max(0, sy)) * src.width * 4;
      let o = (py * this.width + x0) * 4;
      for (let k = 0; k < columns.length; k++, o += 4) {
        const i = row + columns[k];
        if (opaque || s[i + 3] === 255) {
          d[o] = s[i];
          d[o + 1] = s[i + 1];
          d[o + 2] = s[i + 2];
          d[o + 3] = 255;
        } else this.blend(o, s[i], s[i + 1], s[i + 2], s[i + 3]);
      }
    }
  }

  /** True when some pixel was drawn. */
  inked(): boolean {
    for (let i = 3; i < this.data.length; i += 4) if (this.data[i] !== 0) return true;
    return false;
  }
}

function signedArea(p: Poly): number {
  let a = 0;
  const n = p.length >> 1;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    a += p[i * 2] * p[j * 2 + 1] - p[j * 2] * p[i * 2 + 1];
  }
  return a;
}
