/**
 * Glyph outlines of the bundled TrueType fonts, for text inside metafile pictures (EMF/WMF text records), which
 * are rasterised with the rest of the picture: the `glyf` table's quadratic contours (simple and composite glyphs)
 * flattened to polygons in em units, y up. The font is the bundled stand-in for the record's face name
 * (pdf/fonts/families.ts), so a picture's text looks like the document's. Damaged tables give no outline, never an
 * exception; composites nest at most 4 deep.
 */
import { familyFor, variantOf } from '../pdf/fonts/families.js';
import { fontFileBytes } from '../pdf/fonts/faces.js';
import { readTtfMetrics, type TtfMetrics } from '../pdf/fonts/ttf.js';

export interface GlyphFont {
  metrics: TtfMetrics;
  /** Contours of a glyph, flat [x0, y0, x1, y1, …] in em units (y up); cached. */
  outline(glyph: number): number[][];
}

const fonts = new Map<string, GlyphFont | null>();
const CURVE_STEPS = 4;

/** The bundled font for a face name and weight/italic; null when it cannot be read. */
export function glyphFont(face: string, bold: boolean, italic: boolean): GlyphFont | null {
  const family = familyFor(face);
  const file = family.files[variantOf(bold, italic)] ?? family.files.normal;
  if (fonts.has(file)) return fonts.get(file) ?? null;
  let font: GlyphFont | null;
  try {
    font = readGlyphFont(fontFileBytes(file));
  } catch {
    font = null;
  }
  fonts.set(file, font);
  return font;
}

function readGlyphFont(bytes: Uint8Array): GlyphFont | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tables = new Map<string, { offset: number; length: number }>();
  const count = view.getUint16(4);
  for (let i = 0; i < count; i++) {
    const rec = 12 + i * 16;
    const tag = String.fromCharCode(bytes[rec], bytes[rec + 1], bytes[rec + 2], bytes[rec + 3]);
    tables.set(tag, { offset: view.getUint32(rec + 8), length: view.getUint32(rec + 12) });
  }
  const head = tables.get('head');
  const loca = tables.get('loca');
  const glyf = tables.get('glyf');
  if (!head || !loca || !glyf) return null;
  const unitsPerEm = view.getUint16(head.offset + 18) || 1000;
  const longOffsets = view.getInt16(head.offset + 50) === 1;
  const metrics = readTtfMetrics(bytes);
  const glyphCount = Math.floor(loca.length / (longOffsets ? 4 : 2)) - 1;
  const range = (g: number): [number, number] | null => {
    if (g < 0 || g >= glyphCount) return null;
    const a = longOffsets ? view.getUint32(loca.offset + g * 4) : view.getUint16(loca.offset + g * 2) * 2;
    const b = longOffsets ? view.getUint32(loca.offset + g * 4 + 4) : view.getUint16(loca.offset + g * 2 + 2) * 2;
    if (b <= a || glyf.offset + b > bytes.length) return null;
    return [glyf.offset + a, glyf.offset + b];
  };
  const cache = new Map<number, number[][]>();
  const read = (g: number, depth: number): number[][] => {
    const r = range(g);
    if (!r || depth > 4) return [];
    const [start] = r;
    const contours = view.getInt16(start);
    if (contours >= 0) return simple(view, start, contours, unitsPerEm);
    // Composite: components placed at offsets (scales other than 1 are rare in text fonts: applied when present).
    const out: number[][] = [];
    let at = start + 10;
    for (let guard = 0; guard < 64; guard++) {
      const flags = view.getUint16(at);
      const component = view.getUint16(at + 2);
      at += 4;
      let dx: number;
      let dy: number;
      if (flags & 1) {
        dx = view.getInt16(at);
        dy = view.getInt16(at + 2);
        at += 4;
      } else {
        dx = view.getInt8(at);
        dy = view.getInt8(at + 1);
        at += 2;
      }
      let sx = 1;
      let sy = 1;
      if (flags & 8) {
        sx = sy = view.getInt16(at) / 16384;
        at += 2;
      } else if (flags & 0x40) {
        sx = view.getInt16(at) / 16384;
        sy = view.getInt16(at + 2) / 16384;
        at += 4;
      } else if (flags & 0x80) {
        sx = view.getInt16(at) / 16384;
        sy = view.getInt16(at + 6) / 16384;
        at += 8;
      }
      if (!(flags & 2)) dx = dy = 0; // point-matched components: not placed (rare)
      for (const c of read(component, depth + 1)) out.push(c.map((v, i) => (i & 1 ? v * sy + dy / unitsPerEm : v * sx + dx / unitsPerEm)));
      if (!(flags & 0x20)) break;
    }
    return out;
  };
  return {
    metrics,
    outline(g: number): number[][] {
      let c = cache.get(g);
      if (!c) {
        try {
          c = read(g, 0);
        } catch {
          c = [];
        }
        cache.set(g, c);
      }
      return c;
    },
  };
}

/** A simple glyph's contours: on- and off-curve points, quadratic segments flattened. */
function simple(view: DataView, start: number, contours: number, unitsPerEm: number): number[][] {
  const ends: number[] = [];
  for (let i = 0; i < contours; i++) ends.push(view.getUint16(start + 10 + i * 2));
  const points = contours > 0 ? ends[contours - 1] + 1 : 0;
  let at = start + 10 + contours * 2;
  at += 2 + view.getUint16(at); // instructions
  const flags: number[] = [];
  while (flags.length < points) {
    const f = view.getUint8(at++);
    flags.push(f);
    if (f & 8) {
      const repeat = view.getUint8(at++);
      for (let k = 0; k < repeat && flags.length < points; k++) flags.push(f);
    }
  }
  const coords = (short: number, same: number): number[] => {
    const out: number[] = [];
    let v = 0;
    for (const f of flags) {
      if (f & short) {
        const d = view.getUint8(at++);
        v += f & same ? d : -d;
      } else if (!(f & same)) {
        v += view.getInt16(at);
        at += 2;
      }
      out.push(v / unitsPerEm);
    }
    return out;
  };
  const xs = coords(2, 16);
  const ys = coords(4, 32);
  const out: number[][] = [];
  let from = 0;
  for (const end of ends) {
    const idx = Array.from({ length: end - from + 1 }, (_, k) => from + k);
    from = end + 1;
    if (idx.length < 2) continue;
    const on = (i: number): boolean => (flags[i] & 1) === 1;
    // Start at an on-curve point (or the midpoint of two off-curve ones).
    const first = idx.findIndex(on);
    const ring = first >= 0 ? [...idx.slice(first), ...idx.slice(0, first)] : idx;
    const poly: number[] = [];
    let sx = first >= 0 ? xs[ring[0]] : (xs[ring[0]] + xs[ring[1]]) / 2;
    let sy = first >= 0 ? ys[ring[0]] : (ys[ring[0]] + ys[ring[1]]) / 2;
    poly.push(sx, sy);
    let ctrl: [number, number] | null = null;
    const quad = (cx: number, cy: number, ex: number, ey: number): void => {
      for (let s = 1; s <= CURVE_STEPS; s++) {
        const t = s / CURVE_STEPS;
        const m = 1 - t;
        poly.push(m * m * sx + 2 * m * t * cx + t * t * ex, m * m * sy + 2 * m * t * cy + t * t * ey);
      }
      sx = ex;
      sy = ey;
    };
    for (let k = first >= 0 ? 1 : 0; k <= ring.length; k++) {
      const i = ring[k % ring.length];
      const x = k === ring.length ? poly[0] : xs[i];
      const y = k === ring.length ? poly[1] : ys[i];
      if (k === ring.length || on(i)) {
        if (ctrl) quad(ctrl[0], ctrl[1], x, y);
        else {
          poly.push(x, y);
          sx = x;
          sy = y;
        }
        ctrl = null;
      } else if (ctrl) {
        const mx = (ctrl[0] + x) / 2;
        const my = (ctrl[1] + y) / 2;
        quad(ctrl[0], ctrl[1], mx, my);
        ctrl = [x, y];
      } else ctrl = [x, y];
    }
    out.push(poly);
  }
  return out;
}
