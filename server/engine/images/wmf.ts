/**
 * WMF ([MS-WMF]) records → a display list (gdi.ts): the frame from the placeable header (or the first window),
 * the window mapping, the object table (every created object takes the lowest free slot, so unread kinds still
 * take theirs), pens, brushes, polylines, polygons, poly-polygons, rectangles, round rectangles, ellipses, arcs, chords, pies, lines,
 * PatBlt fills and embedded bitmaps (META_STRETCHDIB, META_DIBSTRETCHBLT, META_DIBBITBLT, META_SETDIBTODEV).
 * Text (META_TEXTOUT, META_EXTTEXTOUT) is drawn with the bundled fonts; clipping is not read. Parameters are 16-bit words, most stored in reverse order (y before x).
 */
import { crop, type MetafilePicture } from './emf.js';
import { brush, colorRef, Gdi, MAX_RECORDS, pen, type DrawState, type GdiObject } from './gdi.js';

const PLACEABLE = 0x9ac6cdd7;

export function isWmf(b: Uint8Array): boolean {
  if (b.length >= 4 && b[0] === 0xd7 && b[1] === 0xcd && b[2] === 0xc6 && b[3] === 0x9a) return true;
  return b.length >= 18 && (b[0] === 1 || b[0] === 2) && b[1] === 0 && b[2] === 9 && b[3] === 0;
}

interface Mapping {
  winOrg: [number, number];
  winExt: [number, number] | null;
}

/** Parses a WMF into a display list; null when the header is unusable. Throws TooComplex past the limits. */
export function readWmf(bytes: Uint8Array, maxPixels: number): MetafilePicture | null {
  if (!isWmf(bytes)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number): number => view.getUint16(at, true);
  const i16 = (at: number): number => view.getInt16(at, true);
  let start = 0;
  let box: [number, number, number, number] | null = null;
  let inch = 1440;
  if (view.getUint32(0, true) === PLACEABLE) {
    if (bytes.length < 22 + 18) return null;
    box = [i16(6), i16(8), i16(10), i16(12)];
    inch = u16(14) || 1440;
    start = 22;
  }
  const headerWords = u16(start + 2);
  if (headerWords !== 9) return null;
  const objectCount = Math.min(u16(start + 12), 65535);

  let map: Mapping = { winOrg: box ? [box[0], box[1]] : [0, 0], winExt: box ? [box[2] - box[0], box[3] - box[1]] : null };
  const saved: { map: Mapping; draw: DrawState }[] = [];
  /** The frame is the current window (WMF pictures are played into their frame by mapping the window onto it). */
  const gdi = new Gdi(
    (x, y) => {
      const ext = map.winExt;
      if (!ext || ext[0] === 0 || ext[1] === 0) return [NaN, NaN];
      return [(x - map.winOrg[0]) / ext[0], (y - map.winOrg[1]) / ext[1]];
    },
    (w) => (map.winExt && map.winExt[0] ? Math.abs(w / map.winExt[0]) : 0),
    maxPixels,
  );
  const objects: (GdiObject | undefined)[] = [];
  const create = (obj: GdiObject): void => {
    let slot = objects.findIndex((o) => o === undefined);
    if (slot < 0) slot = objects.length;
    if (slot < Math.max(objectCount, 1) || slot < 4096) objects[slot] = obj;
  };

  let at = start + headerWords * 2;
  let ended = false;
  for (let n = 0; n < MAX_RECORDS && at + 6 <= bytes.length; n++) {
    const words = view.getUint32(at, true);
    const fn = u16(at + 4);
    const size = words * 2;
    if (words < 3 || at + size > bytes.length) break;
    const rec = at;
    at += size;
    const p = rec + 6; // parameters
    const params = (size - 6) >> 1;
    const w = (i: number): number => (i < params ? i16(p + i * 2) : 0);
    if (fn === 0) {
      ended = true; // META_EOF
      break;
    }
    switch (fn) {
      case 0x020b: // SETWINDOWORG (y, x)
        map.winOrg = [w(1), w(0)];
        break;
      case 0x020c: // SETWINDOWEXT (y, x)
        // The window is mapped onto the whole frame (as a picture is played into its rectangle).
        map.winExt = [w(1), w(0)];
        break;
      case 0x020f: // OFFSETWINDOWORG
        map.winOrg = [map.winOrg[0] + w(1), map.winOrg[1] + w(0)];
        break;
      case 0x0106: gdi.state.evenOdd = w(0) !== 2; break;
      case 0x001e: if (saved.length < 1000) saved.push({ map: { ...map }, draw: { ...gdi.state } }); break;
      case 0x0127: { // RESTOREDC
        const rel = w(0);
        const index = rel < 0 ? saved.length + rel : rel - 1;
        if (index >= 0 && index < saved.length) {
          ({ map } = saved[index]);
          gdi.state = { ...saved[index].draw };
          saved.length = index;
        }
        break;
      }
      case 0x0214: gdi.cur = [w(1), w(0)]; break;
      case 0x0213: gdi.lineTo(w(1), w(0)); break;
      case 0x0325: case 0x0324: { // POLYLINE, POLYGON
        const count = w(0);
        if (count < 0 || 1 + count * 2 > params) break;
        const pts = Array.from({ length: count * 2 }, (_, i) => w(1 + i));
        if (fn === 0x0324) gdi.polygons([pts]);
        else gdi.polyline(pts);
        break;
      }
      case 0x0538: { // POLYPOLYGON
        const polys = u16(p);
        if (1 + polys > params) break;
        let k = 1 + polys;
        const lists: number[][] = [];
        for (let i = 0; i < polys; i++) {
          const c = u16(p + 2 + i * 2);
          if (k + c * 2 > params) break;
          lists.push(Array.from({ length: c * 2 }, (_, j) => w(k + j)));
          k += c * 2;
        }
        gdi.polygons(lists);
        break;
      }
      case 0x041b: gdi.rectangle(w(3), w(2), w(1), w(0)); break;
      case 0x0418: gdi.ellipse(w(3), w(2), w(1), w(0)); break;
      case 0x061c: gdi.roundRect(w(5), w(4), w(3), w(2), w(1), w(0)); break;
      case 0x0817: case 0x0830: case 0x081a: // ARC, CHORD, PIE: yEnd, xEnd, yStart, xStart, bottom, right, top, left
        gdi.arc(fn === 0x0817 ? 'arc' : fn === 0x0830 ? 'chord' : 'pie', w(7), w(6), w(5), w(4), w(3), w(2), w(1), w(0));
        break;
      case 0x061d: gdi.patternRect(w(5), w(4), w(3), w(2)); break; // PATBLT (rop, h, w, y, x)
      case 0x02fa: // CREATEPENINDIRECT: style, width (x, y), colour
        create(params >= 5 ? pen(u16(p), w(1), colorRef(view, p + 6)) : { kind: 'other' });
        break;
      case 0x02fc: // CREATEBRUSHINDIRECT: style, colour, hatch
        create(params >= 3 ? brush(u16(p), colorRef(view, p + 2)) : { kind: 'other' });
        break;
      case 0x01f9: case 0x0142: // CREATEPATTERNBRUSH, DIBCREATEPATTERNBRUSH
        create({ kind: 'brush', colour: null });
        break;
      case 0x02fb: { // CREATEFONTINDIRECT: height, width, escapement, orientation, weight, italic…, charset, …, face
        if (params < 9) {
          create({ kind: 'other' });
          break;
        }
        const face = new TextDecoder('latin1').decode(bytes.subarray(p + 18, Math.min(rec + size, p + 50))).replace(/\0.*$/s, '');
        create({ kind: 'font', height: w(0), escapement: w(2), bold: w(4) >= 600, italic: bytes[p + 10] !== 0, face, symbol: bytes[p + 13] === 2 || /^symbol$/i.test(face) });
        break;
      }
      case 0x012e: gdi.state.textAlign = u16(p); break; // SETTEXTALIGN
      case 0x0209: if (params >= 2) gdi.state.textColour = colorRef(view, p); break; // SETTEXTCOLOR
      case 0x0521: { // TEXTOUT: length, string (even), y, x
        const n = u16(p);
        const words = Math.ceil(n / 2);
        if (params < 1 + words + 2) break;
        gdi.text(w(2 + words), w(1 + words), new TextDecoder('latin1').decode(bytes.subarray(p + 2, p + 2 + n)));
        break;
      }
      case 0x0a32: { // EXTTEXTOUT: y, x, length, options, [rectangle], string (even), [dx]
        if (params < 4) break;
        const n = w(2);
        const from = u16(p + 6) & 6 ? 8 : 4;
        const words = Math.ceil(n / 2);
        if (n <= 0 || from + words > params) break;
        const dx = from + words + n <= params ? Array.from({ length: n }, (_, k) => w(from + words + k)) : undefined;
        gdi.text(w(1), w(0), new TextDecoder('latin1').decode(bytes.subarray(p + from * 2, p + from * 2 + n)), dx);
        break;
      }
      case 0x00f7: case 0x06ff: // CREATEPALETTE, CREATEREGION
        create({ kind: 'other' });
        break;
      case 0x012d: { // SELECTOBJECT
        const obj = objects[u16(p)];
        if (obj?.kind === 'pen') gdi.state.pen = obj;
        else if (obj?.kind === 'brush') gdi.state.brush = obj;
        else if (obj?.kind === 'font') gdi.state.font = obj;
        break;
      }
      case 0x01f0: objects[u16(p)] = undefined; break;
      case 0x0f43: { // STRETCHDIB: rop(2 words), usage, srcH, srcW, ySrc, xSrc, destH, destW, yDst, xDst, DIB
        if (params < 11) break;
        const image = gdi.dib(bytes.subarray(p + 22, rec + size), undefined);
        if (image) gdi.image(sourceRect(image, w(6), w(5), w(4), w(3)), w(10), w(9), w(8), w(7));
        break;
      }
      case 0x0b41: case 0x0940: { // DIBSTRETCHBLT, DIBBITBLT
        const stretch = fn === 0x0b41;
        const fixed = stretch ? 10 : 8; // words after the raster operation when there is a DIB
        if (params <= fixed + 1) {
          // No bitmap: a fill of the destination with the brush (one reserved word more).
          const d = stretch ? [w(10), w(9), w(8), w(7)] : [w(8), w(7), w(6), w(5)];
          gdi.patternRect(d[0], d[1], d[2], d[3]);
          break;
        }
        const image = gdi.dib(bytes.subarray(p + 4 + fixed * 2, rec + size), undefined);
        if (!image) break;
        if (stretch) gdi.image(sourceRect(image, w(5), w(4), w(3), w(2)), w(9), w(8), w(7), w(6));
        else gdi.image(sourceRect(image, w(3), w(2), w(5), w(4)), w(7), w(6), w(5), w(4));
        break;
      }
      case 0x0d33: { // SETDIBTODEV: usage, scanCount, startScan, yDib, xDib, h, w, yDst, xDst, DIB
        if (params < 10) break;
        const image = gdi.dib(bytes.subarray(p + 18, rec + size), undefined);
        if (image) gdi.image(image, w(8), w(7), w(6), w(5));
        break;
      }
      default:
        break;
    }
  }
  const ext = box ? [box[2] - box[0], box[3] - box[1]] : map.winExt;
  if (!ext || !ext[0] || !ext[1]) return null;
  return { gdi, damaged: !ended, widthIn: Math.abs(ext[0]) / inch, heightIn: Math.abs(ext[1]) / inch };
}

/** A source rectangle given as (x, y) from the top-left and width × height. */
function sourceRect(image: { width: number; height: number; data: Uint8Array }, x: number, y: number, width: number, height: number): ReturnType<typeof crop> {
  return crop(image, x, y, width, height);
}
