/**
 * Undoes the PNG row filters (PNG specification, section 9: None, Sub, Up, Average, Paeth) of inflated, 8-bit,
 * non-interlaced image data (`height` rows of a filter byte and `width × bpp` bytes); returns the pixel rows
 * without their filter bytes. The product's PDF path (pdf/image/png-to-pdf.ts) and the project's tool codec
 * (scripts/lib/png.ts) share it. Not fast-png's decoder (which jsPDF uses): it inflates with pako and unfilters
 * with a branch per byte, slower than the inflate used here (node:zlib; fflate's before) and this loop on the
 * corpus's RGBA pictures.
 */
export function unfilterRows(raw: Uint8Array, width: number, height: number, bpp: number): Uint8Array {
  const stride = width * bpp;
  if (raw.length < height * (stride + 1)) throw new Error('the PNG image data is short');
  const out = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const type = raw[y * (stride + 1)];
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    const up = row - stride; // the row above in `out`
    // One loop per filter type (the type is per row): a branch per byte made this slower than fast-png.
    if (type === 0 || (type === 2 && y === 0)) {
      out.set(raw.subarray(src, src + stride), row);
    } else if (type === 1) {
      for (let x = 0; x < bpp; x++) out[row + x] = raw[src + x];
      for (let x = bpp; x < stride; x++) out[row + x] = raw[src + x] + out[row + x - bpp];
    } else if (type === 2) {
      for (let x = 0; x < stride; x++) out[row + x] = raw[src + x] + out[up + x];
    } else if (type === 3) {
      if (y === 0) {
        for (let x = 0; x < bpp; x++) out[row + x] = raw[src + x];
        for (let x = bpp; x < stride; x++) out[row + x] = raw[src + x] + (out[row + x - bpp] >>> 1);
      } else {
        for (let x = 0; x < bpp; x++) out[row + x] = raw[src + x] + (out[up + x] >>> 1);
        for (let x = bpp; x < stride; x++) out[row + x] = raw[src + x] + ((out[row + x - bpp] + out[up + x]) >>> 1);
      }
    } else if (type === 4) {
      if (y === 0) {
        // Paeth with no row above is Sub.
        for (let x = 0; x < bpp; x++) out[row + x] = raw[src + x];
        for (let x = bpp; x < stride; x++) out[row + x] = raw[src + x] + out[row + x - bpp];
      } else {
        for (let x = 0; x < bpp; x++) out[row + x] = raw[src + x] + out[up + x];
        for (let x = bpp; x < stride; x++) {
          const a = out[row + x - bpp];
          const b = out[up + x];
          const c = out[up + x - bpp];
          const pa = Math.abs(b - c);
          const pb = Math.abs(a - c);
          const pc = Math.abs(a + b - c - c);
          out[row + x] = raw[src + x] + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
        }
      }
    } else {
      throw new Error(`unknown PNG row filter ${type}`);
    }
  }
  return out; // Uint8Array stores modulo 256, as the filters are defined
}
