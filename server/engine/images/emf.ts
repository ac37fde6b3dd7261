/**
 * EMF ([MS-EMF]) records → a display list (gdi.ts): the picture frame from the header, the page mapping (map
 * modes, window/viewport) and world transform, pens, brushes, paths, polylines/polygons (32- and 16-bit), rectangles,
 * ellipses, round rectangles, arcs, chords, pies, and embedded bitmaps (EMR_BITBLT, EMR_STRETCHBLT, EMR_STRETCHDIBITS,
 * EMR_SETDIBITSTODEVICE, EMR_ALPHABLEND), text (EMR_EXTTEXTOUTW/A, with the bundled fonts). Clipping and EMF+
 * records (in comments) are not read: dual EMF+ files carry the same picture in plain EMF records too. Every offset is checked against the record it belongs to.
 */
import { brush, colorRef, Gdi, MAX_RECORDS, pen, stockObject, type DrawState, type GdiObject } from './gdi.js';
import type { RgbaImage } from './rgba.js';

export interface MetafilePicture {
  gdi: Gdi;
  /** The records stop before their end-of-file record (a truncated or damaged file): what was read is drawn. */
  damaged: boolean;
  /** Frame size in inches (for the resolution it is rasterised at). */
  widthIn: number;
  heightIn: number;
}

/** Smallest valid size of the records read (header fields included). */
const MIN_SIZE: Record<number, number> = {
  9: 16, 10: 16, 11: 16, 12: 16, 17: 12, 19: 12, 27: 16, 54: 16, 33: 8, 34: 12, 37: 12, 38: 28, 39: 24, 40: 12,
  42: 24, 43: 24, 44: 32, 49: 12, 82: 12, 22: 12, 24: 12, 93: 12, 94: 12, 95: 44,
};

type Xform = [number, number, number, number, number, number];
const IDENTITY: Xform = [1, 0, 0, 1, 0, 0];

interface Dc {
  mapMode: number;
  winOrg: [number, number];
  winExt: [number, number];
  vpOrg: [number, number];
  vpExt: [number, number];
  world: Xform;
  draw: DrawState;
}

/** a × b for XFORMs (a applied first). */
function multiply(a: Xform, b: Xform): Xform {
  return [
    a[0] * b[0] + a[1] * b[2],
    a[0] * b[1] + a[1] * b[3],
    a[2] * b[0] + a[3] * b[2],
    a[2] * b[1] + a[3] * b[3],
    a[4] * b[0] + a[5] * b[2] + b[4],
    a[4] * b[1] + a[5] * b[3] + b[5],
  ];
}

export function isEmf(b: Uint8Array): boolean {
  return b.length >= 88 && b[0] === 1 && b[1] === 0 && b[2] === 0 && b[3] === 0 && b[40] === 0x20 && b[41] === 0x45 && b[42] === 0x4d && b[43] === 0x46;
}

/** Parses an EMF into a display list; null when the header is unusable. Throws TooComplex past the limits. */
export function readEmf(bytes: Uint8Array, maxPixels: number): MetafilePicture | null {
  if (!isEmf(bytes)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const i32 = (at: number): number => view.getInt32(at, true);
  const u32 = (at: number): number => view.getUint32(at, true);
  const headerSize = u32(4);
  if (headerSize < 88 || headerSize > bytes.length) return null;
  const bounds = [i32(8), i32(12), i32(16), i32(20)];
  const frame = [i32(24), i32(28), i32(32), i32(36)]; // 0.01 mm
  const devPx = [i32(72), i32(76)];
  const devMm = [i32(80), i32(84)];
  if (devPx[0] <= 0 || devPx[1] <= 0 || devMm[0] <= 0 || devMm[1] <= 0) return null;
  const pxPerMm = [devPx[0] / devMm[0], devPx[1] / devMm[1]];
  // The frame in device pixels; the bounds when the frame is empty.
  let fl = (frame[0] / 100) * pxPerMm[0];
  let ft = (frame[1] / 100) * pxPerMm[1];
  let fw = ((frame[2] - frame[0]) / 100) * pxPerMm[0];
  let fh = ((frame[3] - frame[1]) / 100) * pxPerMm[1];
  if (!(fw > 0 && fh > 0)) {
    [fl, ft, fw, fh] = [bounds[0], bounds[1], bounds[2] - bounds[0] + 1, bounds[3] - bounds[1] + 1];
    if (!(fw > 0 && fh > 0)) return null;
  }

  let dc: Dc = { mapMode: 1, winOrg: [0, 0], winExt: [1, 1], vpOrg: [0, 0], vpExt: [1, 1], world: IDENTITY, draw: undefined as unknown as DrawState };
  const saved: Dc[] = [];
  /** Logical → device pixels: world transform, then the page mapping of the map mode. */
  const toDevice = (x: number, y: number): [number, number] => {
    const w = dc.world;
    const wx = x * w[0] + y * w[2] + w[4];
    const wy = x * w[1] + y * w[3] + w[5];
    const metric: Record<number, number> = { 2: 0.1, 3: 0.01, 4: 0.254, 5: 0.0254, 6: 25.4 / 1440 };
    const mm = metric[dc.mapMode];
    if (mm !== undefined) {
      return [(wx - dc.winOrg[0]) * mm * pxPerMm[0] + dc.vpOrg[0], -(wy - dc.winOrg[1]) * mm * pxPerMm[1] + dc.vpOrg[1]];
    }
    if (dc.mapMode === 7 || dc.mapMode === 8) {
      const sx = dc.winExt[0] ? dc.vpExt[0] / dc.winExt[0] : 1;
      let sy = dc.winExt[1] ? dc.vpExt[1] / dc.winExt[1] : 1;
      if (dc.mapMode === 7) sy = Math.sign(sy) * Math.abs(sx);
      return [(wx - dc.winOrg[0]) * sx + dc.vpOrg[0], (wy - dc.winOrg[1]) * sy + dc.vpOrg[1]];
    }
    return [wx - dc.winOrg[0] + dc.vpOrg[0], wy - dc.winOrg[1] + dc.vpOrg[1]];
  };
  const gdi = new Gdi(
    (x, y) => {
      const [dx, dy] = toDevice(x, y);
      return [(dx - fl) / fw, (dy - ft) / fh];
    },
    (w) => {
      const [ax, ay] = toDevice(0, 0);
      const [bx, by] = toDevice(w, 0);
      return Math.hypot(bx - ax, by - ay) / fw;
    },
    maxPixels,
  );
  dc.draw = gdi.state;
  const objects = new Map<number, GdiObject>();
  const select = (index: number): void => {
    const obj = index & 0x80000000 ? stockObject(index & 0x7fffffff) : objects.get(index);
    if (obj?.kind === 'pen') gdi.state.pen = obj;
    else if (obj?.kind === 'brush') gdi.state.brush = obj;
    else if (obj?.kind === 'font') gdi.state.font = obj;
  };

  let at = 0;
  let ended = false;
  for (let n = 0; n < MAX_RECORDS && at + 8 <= bytes.length; n++) {
    const type = u32(at);
    const size = u32(at + 4);
    if (size < 8 || size % 4 !== 0 || at + size > bytes.length) break;
    const rec = at;
    at += size;
    /** A record field exists: offsets past the record's end leave the record unread. */
    const has = (offset: number): boolean => offset <= size;
    const points = (count: number, start: number, short: boolean): number[] | null => {
      if (count < 0 || !has(start + count * (short ? 4 : 8))) return null;
      const out = new Array<number>(count * 2);
      for (let i = 0; i < count * 2; i++) out[i] = short ? view.getInt16(rec + start + i * 2, true) : i32(rec + start + i * 4);
      return out;
    };
    // A record shorter than its fields says it is damaged: reading stops there, what was read is drawn.
    if (size < (MIN_SIZE[type] ?? 8)) break;
    switch (type) {
      case 14: // EMR_EOF
        at = bytes.length;
        ended = true;
        break;
      case 2: case 3: case 4: case 5: case 6: // POLYBEZIER, POLYGON, POLYLINE, POLYBEZIERTO, POLYLINETO
      case 85: case 86: case 87: case 88: case 89: {
        if (!has(28)) break;
        const short = type >= 85;
        const kind = short ? type - 83 : type;
        const pts = points(u32(rec + 24), 28, short);
        if (!pts || pts.length < 2) break;
        if (kind === 3) gdi.polygons([pts]);
        else if (kind === 4) gdi.polyline(pts);
        else if (kind === 6) {
          gdi.polyline([...gdi.cur, ...pts]);
          gdi.cur = [pts[pts.length - 2], pts[pts.length - 1]];
        } else if (kind === 2) gdi.polyline(gdi.bezier(pts[0], pts[1], pts.slice(2)));
        else {
          gdi.polyline(gdi.bezier(gdi.cur[0], gdi.cur[1], pts));
          gdi.cur = [pts[pts.length - 2], pts[pts.length - 1]];
        }
        break;
      }
      case 7: case 8: case 90: case 91: { // POLYPOLYLINE, POLYPOLYGON (+16)
        if (!has(32)) break;
        const short = type >= 90;
        const polys = u32(rec + 24);
        const total = u32(rec + 28);
        if (!has(32 + polys * 4)) break;
        const all = points(total, 32 + polys * 4, short);
        if (!all) break;
        const lists: number[][] = [];
        let from = 0;
        for (let i = 0; i < polys; i++) {
          const c = u32(rec + 32 + i * 4);
          if (from + c > total) break;
          lists.push(all.slice(from * 2, (from + c) * 2));
          from += c;
        }
        if (type === 8 || type === 91) gdi.polygons(lists);
        else for (const l of lists) gdi.polyline(l);
        break;
      }
      case 9: dc.winExt = [i32(rec + 8), i32(rec + 12)]; break;
      case 10: dc.winOrg = [i32(rec + 8), i32(rec + 12)]; break;
      case 11: dc.vpExt = [i32(rec + 8), i32(rec + 12)]; break;
      case 12: dc.vpOrg = [i32(rec + 8), i32(rec + 12)]; break;
      case 17: dc.mapMode = u32(rec + 8); break;
      case 19: gdi.state.evenOdd = u32(rec + 8) !== 2; break;
      case 27: gdi.cur = [i32(rec + 8), i32(rec + 12)]; if (gdi.path) gdi.path.push({ points: gdi.map(gdi.cur), closed: false }); break;
      case 54: gdi.lineTo(i32(rec + 8), i32(rec + 12)); break;
      case 33: // SAVEDC
        if (saved.length < 1000) saved.push({ ...dc, draw: { ...gdi.state } });
        break;
      case 34: { // RESTOREDC (relative, negative)
        const rel = i32(rec + 8);
        const index = rel < 0 ? saved.length + rel : rel - 1;
        if (index >= 0 && index < saved.length) {
          dc = saved[index];
          saved.length = index;
          gdi.state = { ...dc.draw };
        }
        break;
      }
      case 35: case 36: { // SETWORLDTRANSFORM, MODIFYWORLDTRANSFORM
        if (!has(32)) break;
        const xf: Xform = [0, 4, 8, 12, 16, 20].map((o) => view.getFloat32(rec + 8 + o, true)) as Xform;
        if (!xf.every(Number.isFinite)) break;
        const mode = type === 35 ? 4 : u32(rec + 32);
        if (mode === 1) dc.world = IDENTITY;
        else if (mode === 2) dc.world = multiply(xf, dc.world);
        else if (mode === 3) dc.world = multiply(dc.world, xf);
        else if (mode === 4) dc.world = xf;
        break;
      }
      case 37: select(u32(rec + 8)); break;
      case 38: // CREATEPEN
        if (has(28)) objects.set(u32(rec + 8), pen(u32(rec + 12), i32(rec + 16), colorRef(view, rec + 24)));
        break;
      case 39: // CREATEBRUSHINDIRECT
        if (has(24)) objects.set(u32(rec + 8), brush(u32(rec + 12), colorRef(view, rec + 16)));
        break;
      case 95: // EXTCREATEPEN
        if (has(44)) objects.set(u32(rec + 8), { ...pen(u32(rec + 28), u32(rec + 32), colorRef(view, rec + 40)), ...(u32(rec + 36) === 1 ? { colour: null } : {}) });
        break;
      case 82: { // EXTCREATEFONTINDIRECTW: LogFont (height, width, escapement, orientation, weight, italic…, face name)
        if (!has(104)) break;
        const face = new TextDecoder('utf-16le').decode(bytes.subarray(rec + 40, rec + 104)).replace(/\0.*$/s, '');
        objects.set(u32(rec + 8), { kind: 'font', height: i32(rec + 12), escapement: i32(rec + 20), bold: i32(rec + 28) >= 600, italic: bytes[rec + 32] !== 0, face, symbol: bytes[rec + 35] === 2 || /^symbol$/i.test(face) });
        break;
      }
      case 22: gdi.state.textAlign = u32(rec + 8); break; // SETTEXTALIGN
      case 24: gdi.state.textColour = colorRef(view, rec + 8); break; // SETTEXTCOLOR
      case 83: case 84: { // EXTTEXTOUTA, EXTTEXTOUTW: EmrText at +36 (reference, count, string offset, options, rect, dx offset)
        if (!has(76)) break;
        const wide = type === 84;
        const n = u32(rec + 44);
        const offString = u32(rec + 48);
        const offDx = u32(rec + 72);
        if (n === 0 || n > 65536 || !has(offString + n * (wide ? 2 : 1))) break;
        const raw = bytes.subarray(rec + offString, rec + offString + n * (wide ? 2 : 1));
        const chars = wide ? new TextDecoder('utf-16le').decode(raw) : new TextDecoder('latin1').decode(raw);
        const dx = offDx > 0 && has(offDx + n * 4) ? Array.from({ length: n }, (_, k) => i32(rec + offDx + k * 4)) : undefined;
        gdi.text(i32(rec + 36), i32(rec + 40), chars, dx);
        break;
      }
      case 93: case 94: // CREATEMONOBRUSH, CREATEDIBPATTERNBRUSHPT: a pattern, not drawn
      case 49: // CREATEPALETTE
        objects.set(u32(rec + 8), type === 93 || type === 94 ? { kind: 'brush', colour: null } : { kind: 'other' });
        break;
      case 40: objects.delete(u32(rec + 8)); break;
      case 42: gdi.ellipse(i32(rec + 8), i32(rec + 12), i32(rec + 16), i32(rec + 20)); break;
      case 43: gdi.rectangle(i32(rec + 8), i32(rec + 12), i32(rec + 16), i32(rec + 20)); break;
      case 44: if (has(32)) gdi.roundRect(i32(rec + 8), i32(rec + 12), i32(rec + 16), i32(rec + 20), i32(rec + 24), i32(rec + 28)); break;
      case 45: case 46: case 47: // ARC, CHORD, PIE: box, start, end
        if (has(40)) gdi.arc(type === 45 ? 'arc' : type === 46 ? 'chord' : 'pie', i32(rec + 8), i32(rec + 12), i32(rec + 16), i32(rec + 20), i32(rec + 24), i32(rec + 28), i32(rec + 32), i32(rec + 36));
        break;
      case 59: gdi.path = []; break; // BEGINPATH
      case 60: break; // ENDPATH: the path stays until it is used
      case 61: { // CLOSEFIGURE
        const last = gdi.path?.[gdi.path.length - 1];
        if (last) last.closed = true;
        break;
      }
      case 62: case 63: case 64: { // FILLPATH, STROKEANDFILLPATH, STROKEPATH
        const figures = gdi.path ?? [];
        gdi.path = null;
        if (type !== 64) gdi.fillFigures(figures);
        if (type !== 62) gdi.strokeFigures(figures);
        break;
      }
      case 68: gdi.path = null; break; // ABORTPATH
      case 76: case 77: case 114: { // BITBLT, STRETCHBLT, ALPHABLEND
        if (!has(100)) break;
        const [x, y, w, h] = [i32(rec + 24), i32(rec + 28), i32(rec + 32), i32(rec + 36)];
        const cbBmi = u32(rec + 88);
        if (cbBmi === 0) {
          if (type !== 114) gdi.patternRect(x, y, w, h);
          break;
        }
        const src = type === 76 ? [i32(rec + 44), i32(rec + 48), w, h] : has(108) ? [i32(rec + 44), i32(rec + 48), i32(rec + 100), i32(rec + 104)] : null;
        const image = src && bitmap(gdi, bytes, rec, size, u32(rec + 84), cbBmi, u32(rec + 92), u32(rec + 96));
        if (image) gdi.image(crop(image, src[0], src[1], src[2], src[3]), x, y, w, h, type !== 114);
        break;
      }
      case 81: case 80: { // STRETCHDIBITS, SETDIBITSTODEVICE
        if (!has(type === 81 ? 80 : 76)) break;
        const [x, y] = [i32(rec + 24), i32(rec + 28)];
        const [sx, sy, sw, sh] = [i32(rec + 32), i32(rec + 36), i32(rec + 40), i32(rec + 44)];
        const image = bitmap(gdi, bytes, rec, size, u32(rec + 48), u32(rec + 52), u32(rec + 56), u32(rec + 60));
        if (!image) break;
        const [w, h] = type === 81 ? [i32(rec + 72), i32(rec + 76)] : [sw, sh];
        // Source y counts from the bottom row of a bottom-up DIB.
        const top = bottomUp(bytes, rec, u32(rec + 48)) ? image.height - sy - sh : sy;
        gdi.image(crop(image, sx, top, sw, sh), x, y, w, h);
        break;
      }
      default:
        break;
    }
  }
  return { gdi, damaged: !ended, widthIn: (frame[2] - frame[0]) / 2540 || fw / 96, heightIn: (frame[3] - frame[1]) / 2540 || fh / 96 };
}

/** The DIB of a blit record, from its offsets (relative to the record), or null when they leave the record. */
function bitmap(gdi: Gdi, bytes: Uint8Array, rec: number, size: number, offBmi: number, cbBmi: number, offBits: number, cbBits: number): RgbaImage | null {
  if (offBmi + cbBmi > size || offBits + cbBits > size || cbBmi < 12) return null;
  return gdi.dib(bytes.subarray(rec + offBmi, rec + offBmi + cbBmi), bytes.subarray(rec + offBits, rec + offBits + cbBits));
}

/** Whether the DIB header of a record stores rows bottom-up (a positive height), where source y counts from the bottom. */
function bottomUp(bytes: Uint8Array, rec: number, offBmi: number): boolean {
  const at = rec + offBmi;
  if (at + 12 > bytes.length) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getUint32(at, true) === 12 ? view.getInt16(at + 6, true) > 0 : at + 12 <= bytes.length && view.getInt32(at + 8, true) > 0;
}

/** The source rectangle of a bitmap (top-down rows); the whole bitmap when the rectangle is it or is unusable. */
export function crop(image: RgbaImage, x: number, y: number, w: number, h: number): RgbaImage {
  if (x === 0 && y === 0 && w === image.width && h === image.height) return image;
  const x0 = Math.max(0, Math.min(x, image.width));
  const y0 = Math.max(0, Math.min(y, image.height));
  const cw = Math.min(Math.abs(w), image.width - x0);
  const ch = Math.min(Math.abs(h), image.height - y0);
  if (cw <= 0 || ch <= 0) return image;
  const out = new Uint8Array(cw * ch * 4);
  for (let row = 0; row < ch; row++) out.set(image.data.subarray(((y0 + row) * image.width + x0) * 4, ((y0 + row) * image.width + x0 + cw) * 4), row * cw * 4);
  return { width: cw, height: ch, data: out };
}
