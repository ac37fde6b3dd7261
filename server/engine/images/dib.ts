/**
 * Device-independent bitmaps ([MS-WMF] 2.2.2.9 DeviceIndependentBitmap), as EMF and WMF records embed them:
 * a BITMAPCOREHEADER or BITMAPINFOHEADER (V4/V5 too), a colour table, then rows bottom-up (top-down when the height
 * is negative), each padded to 4 bytes. Uncompressed 1/4/8/16/24/32 bits, bit fields and RLE4/RLE8 are decoded to
 * RGBA; embedded JPEG/PNG (BI_JPEG, BI_PNG) are not. Every size is checked against the bytes there are before
 * anything is allocated: a damaged bitmap gives null, never an exception or a huge buffer.
 */
import type { RgbaImage } from './rgba.js';

const BI_RGB = 0;
const BI_RLE8 = 1;
const BI_RLE4 = 2;
const BI_BITFIELDS = 3;

/**
 * Decodes a DIB. `info` holds the header and colour table; `bits` the pixel rows (when absent they follow the colour
 * table in `info`, as in WMF records). Null when the bitmap is damaged, in an unsupported form, or has more than
 * `maxPixels` pixels.
 */
export function decodeDib(info: Uint8Array, bits: Uint8Array | undefined, maxPixels: number): RgbaImage | null {
  if (info.length < 12) return null;
  const view = new DataView(info.buffer, info.byteOffset, info.byteLength);
  const headerSize = view.getUint32(0, true);
  let width: number;
  let height: number;
  let bitCount: number;
  let compression = BI_RGB;
  let colours = 0;
  let quadSize = 4;
  if (headerSize === 12) {
    width = view.getUint16(4, true);
    height = view.getInt16(6, true);
    bitCount = view.getUint16(10, true);
    quadSize = 3;
  } else if (headerSize >= 40 && headerSize <= info.length) {
    width = view.getInt32(4, true);
    height = view.getInt32(8, true);
    bitCount = view.getUint16(14, true);
    compression = view.getUint32(16, true);
    colours = view.getUint32(32, true);
  } else return null;
  const topDown = height < 0;
  height = Math.abs(height);
  if (width <= 0 || height <= 0 || width * height > maxPixels) return null;
  if (![1, 4, 8, 16, 24, 32].includes(bitCount)) return null;
  // Bit-field masks follow a 40-byte header; V4/V5 headers hold them inside.
  let masks: [number, number, number] | undefined;
  let tableStart = headerSize;
  if (compression === BI_BITFIELDS) {
    if (headerSize === 40) {
      if (info.length < 52) return null;
      tableStart = 52;
    }
    masks = [view.getUint32(40, true), view.getUint32(44, true), view.getUint32(48, true)];
  } else if (compression !== BI_RGB && compression !== BI_RLE8 && compression !== BI_RLE4) return null;
  if (bitCount === 16 && !masks) masks = [0x7c00, 0x03e0, 0x001f];
  const tableCount = bitCount <= 8 ? (colours > 0 && colours <= 1 << bitCount ? colours : 1 << bitCount) : 0;
  const palette = new Uint8Array(256 * 3);
  for (let i = 0; i < tableCount; i++) {
    const at = tableStart + i * quadSize;
    if (at + 3 > info.length) break;
    palette[i * 3] = info[at + 2];
    palette[i * 3 + 1] = info[at + 1];
    palette[i * 3 + 2] = info[at];
  }
  const data = bits ?? info.subarray(Math.min(info.length, tableStart + tableCount * quadSize));
  const out = new Uint8Array(width * height * 4);
  const rowOf = (y: number): number => (topDown ? y : height - 1 - y);
  if (compression === BI_RLE8 || compression === BI_RLE4) {
    if (compression === BI_RLE8 ? bitCount !== 8 : bitCount !== 4) return null;
    decodeRle(data, compression === BI_RLE4, width, height, palette, out, rowOf);
    return { width, height, data: out };
  }
  const stride = Math.floor((width * bitCount + 31) / 32) * 4;
  if (data.length < stride * (height - 1) + Math.ceil((width * bitCount) / 8)) return null;
  const shifts = masks?.map(maskShift);
  for (let y = 0; y < height; y++) {
    const row = rowOf(y) * stride;
    let o = y * width * 4;
    for (let x = 0; x < width; x++, o += 4) {
      let r: number;
      let g: number;
      let b: number;
      if (bitCount <= 8) {
        const bit = x * bitCount;
        const index = (data[row + (bit >> 3)] >> (8 - bitCount - (bit & 7))) & ((1 << bitCount) - 1);
        r = palette[index * 3];
        g = palette[index * 3 + 1];
        b = palette[index * 3 + 2];
      } else if (bitCount === 24) {
        const at = row + x * 3;
        b = data[at];
        g = data[at + 1];
        r = data[at + 2];
      } else if (bitCount === 32 && !masks) {
        // The fourth byte is reserved in BI_RGB: these pixels are opaque.
        const at = row + x * 4;
        b = data[at];
        g = data[at + 1];
        r = data[at + 2];
      } else {
        const at = row + x * (bitCount / 8);
        const value = bitCount === 16 ? data[at] | (data[at + 1] << 8) : (data[at] | (data[at + 1] << 8) | (data[at + 2] << 16) | (data[at + 3] << 24)) >>> 0;
        [r, g, b] = shifts!.map((s) => s(value));
      }
      out[o] = r;
      out[o + 1] = g;
      out[o + 2] = b;
      out[o + 3] = 255;
    }
  }
  return { width, height, data: out };
}

/** A bit-field mask as a function taking a pixel value to 0–255. */
function maskShift(mask: number): (value: number) => number {
  if (mask === 0) return () => 0;
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  const max = mask >>> shift;
  return (value) => Math.round((((value & mask) >>> shift) * 255) / max);
}

/** RLE8 / RLE4 ([MS-WMF] 3.1.6): runs, absolute runs, end of line, end of bitmap, delta; bounded by the output. */
function decodeRle(data: Uint8Array, four: boolean, width: number, height: number, palette: Uint8Array, out: Uint8Array, rowOf: (y: number) => number): void {
  let x = 0;
  let line = 0; // counted from the bottom, as stored
  const put = (index: number): void => {
    if (x < width && line < height) {
      const y = rowOf(line);
      const o = (y * width + x) * 4;
      out[o] = palette[index * 3];
      out[o + 1] = palette[index * 3 + 1];
      out[o + 2] = palette[index * 3 + 2];
      out[o + 3] = 255;
    }
    x++;
  };
  // Pixels not written stay transparent, as RLE leaves them.
  let i = 0;
  while (i + 1 < data.length && line < height) {
    const count = data[i];
    const value = data[i + 1];
    i += 2;
    if (count > 0) {
      for (let k = 0; k < count && x < width; k++) put(four ? (k & 1 ? value & 15 : value >> 4) : value);
      continue;
    }
    if (value === 0) {
      x = 0;
      line++;
    } else if (value === 1) break;
    else if (value === 2) {
      if (i + 1 >= data.length) break;
      x += data[i];
      line += data[i + 1];
      i += 2;
    } else {
      const bytes = four ? Math.ceil(value / 2) : value;
      for (let k = 0; k < value && i + (four ? k >> 1 : k) < data.length; k++) {
        const byte = data[i + (four ? k >> 1 : k)];
        put(four ? (k & 1 ? byte & 15 : byte >> 4) : byte);
      }
      i += bytes + (bytes & 1);
    }
  }
}
