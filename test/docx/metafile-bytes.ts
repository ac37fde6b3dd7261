/**
 * Tiny EMF and WMF writers for tests: real metafiles ([MS-EMF], [MS-WMF]) with a filled shape and an embedded
 * bitmap, byte for byte as Word would embed them, so the tests exercise the importer's reader, not a mock.
 */

type Rgb = [number, number, number];

/** A bottom-up 24-bit BITMAPINFOHEADER DIB of one colour, w × h: [header, bits]. */
export function dib(w: number, h: number, [r, g, b]: Rgb): [Uint8Array, Uint8Array] {
  const info = new Uint8Array(40);
  const v = new DataView(info.buffer);
  v.setUint32(0, 40, true);
  v.setInt32(4, w, true);
  v.setInt32(8, h, true);
  v.setUint16(12, 1, true);
  v.setUint16(14, 24, true);
  const stride = Math.ceil((w * 3) / 4) * 4;
  const bits = new Uint8Array(stride * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) bits.set([b, g, r], y * stride + x * 3);
  return [info, bits];
}

/** A 1-bit DIB (two-colour table, all zero bits) of w × h: [header + colour table, bits]. */
export function dib1bit(w: number, h: number): [Uint8Array, Uint8Array] {
  const info = new Uint8Array(48);
  const v = new DataView(info.buffer);
  v.setUint32(0, 40, true);
  v.setInt32(4, w, true);
  v.setInt32(8, h, true);
  v.setUint16(12, 1, true);
  v.setUint16(14, 1, true);
  info.set([255, 255, 255, 0], 44);
  return [info, new Uint8Array(Math.ceil(w / 32) * 4 * h)];
}

class Records {
  private readonly parts: Uint8Array[] = [];
  count = 0;

  /** A record: type, then 32-bit fields (numbers) and raw bytes, padded to 4 bytes. */
  emf(type: number, ...fields: (number | Uint8Array)[]): this {
    const body = fields.map((f) => (typeof f === 'number' ? le32(f) : f));
    const len = 8 + body.reduce((n, b) => n + b.length, 0);
    const size = Math.ceil(len / 4) * 4;
    const out = new Uint8Array(size);
    out.set(le32(type), 0);
    out.set(le32(size), 4);
    let at = 8;
    for (const b of body) {
      out.set(b, at);
      at += b.length;
    }
    this.parts.push(out);
    this.count++;
    return this;
  }

  /** A WMF record: function, then 16-bit words and raw bytes (even length). */
  wmf(fn: number, ...fields: (number | Uint8Array)[]): this {
    const body = fields.map((f) => (typeof f === 'number' ? le16(f) : f));
    const len = 6 + body.reduce((n, b) => n + b.length, 0);
    const out = new Uint8Array(len + (len & 1));
    new DataView(out.buffer).setUint32(0, out.length / 2, true);
    new DataView(out.buffer).setUint16(4, fn, true);
    let at = 6;
    for (const b of body) {
      out.set(b, at);
      at += b.length;
    }
    this.parts.push(out);
    this.count++;
    return this;
  }

  bytes(): Uint8Array {
    return concat(this.parts);
  }
}

function le32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setInt32(0, n | 0, true);
  return b;
}

function le16(n: number): Uint8Array {
  const b = new Uint8Array(2);
  new DataView(b.buffer).setInt16(0, n, true);
  return b;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const colour = ([r, g, b]: Rgb): Uint8Array => Uint8Array.of(r, g, b, 0);

/**
 * An EMF whose frame is 100 × 50 mm on a 10 px/mm device (1000 × 500 device pixels, MM_TEXT): the left half a
 * rectangle filled with `fill` (no outline), the right half a 4 × 4 bitmap of `bitmap` (EMR_STRETCHDIBITS).
 * `records` adds records before EOF.
 */
export function emfPicture(fill: Rgb, bitmap: Rgb, records: (r: Records) => void = () => {}): Uint8Array {
  const r = new Records();
  r.emf(39, 1, 0, colour(fill), 0); // CREATEBRUSHINDIRECT #1, solid
  r.emf(37, 1); // SELECTOBJECT brush
  r.emf(37, 0x80000008); // SELECTOBJECT NULL_PEN
  r.emf(43, 0, 0, 500, 500); // RECTANGLE
  const [info, bits] = dib(4, 4, bitmap);
  // STRETCHDIBITS: bounds, dest x/y, src x/y/w/h, bmi and bits offsets/sizes, usage, rop, dest w/h
  r.emf(81, 500, 0, 999, 499, 500, 0, 0, 0, 4, 4, 80, 40, 120, bits.length, 0, 0x00cc0020, 500, 500, info, bits);
  records(r);
  r.emf(14, 0, 16, 20); // EOF
  const body = r.bytes();
  const header = new Uint8Array(108);
  const v = new DataView(header.buffer);
  v.setUint32(0, 1, true);
  v.setUint32(4, 108, true);
  [0, 0, 999, 499].forEach((n, i) => v.setInt32(8 + i * 4, n, true)); // bounds, device pixels
  [0, 0, 10000, 5000].forEach((n, i) => v.setInt32(24 + i * 4, n, true)); // frame, 0.01 mm
  v.setUint32(40, 0x464d4520, true); // " EMF"
  v.setUint32(44, 0x10000, true);
  v.setUint32(48, 108 + body.length, true);
  v.setUint32(52, r.count + 1, true);
  v.setUint16(56, 2, true);
  v.setInt32(72, 1000, true); // device 1000 × 1000 px
  v.setInt32(76, 1000, true);
  v.setInt32(80, 100, true); // = 100 × 100 mm
  v.setInt32(84, 100, true);
  v.setInt32(100, 100000, true);
  v.setInt32(104, 100000, true);
  return concat([header, body]);
}

/**
 * A placeable WMF, 1000 × 500 logical units at 1000 per inch (a 1 × 0.5 in frame): the left half an ellipse filled with `fill` (null pen), the right half a 4 × 4 bitmap of `bitmap` (META_STRETCHDIB).
 */
export function wmfPicture(fill: Rgb, bitmap: Rgb): Uint8Array {
  const r = new Records();
  r.wmf(0x02fc, 0, colour(fill), 0); // CREATEBRUSHINDIRECT → object 0
  r.wmf(0x012d, 0); // SELECTOBJECT 0
  r.wmf(0x02fa, 5, 0, 0, Uint8Array.of(0, 0, 0, 0)); // CREATEPENINDIRECT PS_NULL → object 1
  r.wmf(0x012d, 1);
  r.wmf(0x020b, 0, 0); // SETWINDOWORG
  r.wmf(0x020c, 500, 1000); // SETWINDOWEXT (y, x)
  r.wmf(0x0418, 500, 500, 0, 0); // ELLIPSE bottom, right, top, left
  const [info, bits] = dib(4, 4, bitmap);
  // STRETCHDIB: rop (2 words), usage, srcH, srcW, ySrc, xSrc, destH, destW, yDest, xDest, DIB
  r.wmf(0x0f43, 0x0020, 0x00cc, 0, 4, 4, 0, 0, 500, 500, 0, 500, info, bits);
  r.wmf(0x0000); // EOF
  const body = r.bytes();
  const placeable = new Uint8Array(22);
  const p = new DataView(placeable.buffer);
  p.setUint32(0, 0x9ac6cdd7, true);
  [0, 0, 1000, 500].forEach((n, i) => p.setInt16(6 + i * 2, n, true));
  p.setUint16(14, 1000, true);
  let sum = 0;
  for (let i = 0; i < 10; i++) sum ^= p.getUint16(i * 2, true);
  p.setUint16(20, sum, true);
  const header = new Uint8Array(18);
  const h = new DataView(header.buffer);
  h.setUint16(0, 1, true);
  h.setUint16(2, 9, true);
  h.setUint16(4, 0x0300, true);
  h.setUint32(6, (18 + body.length) / 2, true);
  h.setUint16(10, 2, true);
  h.setUint32(12, 64, true);
  return concat([placeable, header, body]);
}
