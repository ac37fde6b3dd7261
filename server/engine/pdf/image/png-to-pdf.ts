/**
 * A PNG as the image object jsPDF writes into the PDF ("processed image"), without jsPDF's processPNG, which
 * decodes every PNG to pixels (fast-png over pako) and deflates them again: 36 ms per picture on average over the
 * 108 distinct PNGs of the public corpus, the largest single cost of a first render of a Word file with pictures.
 *
 * - Opaque, non-interlaced PNGs (grey, RGB, or a palette without transparency; 8 bits or fewer, or 16-bit grey and
 *   RGB) go into the PDF as they are: PDF's FlateDecode with the PNG predictors (`/Predictor 15`) reads a PNG's
 *   IDAT stream unchanged, as PDF writers such as pdf-lib and PDFKit embed it. Nothing is inflated or compressed;
 *   every chunk's CRC is checked (so a damaged or truncated file is refused, as jsPDF refused it), and the zlib
 *   header of the stream.
 * - 8-bit non-interlaced PNGs with an alpha channel are inflated (node:zlib), unfiltered and split into the colour
 *   image and a soft mask, each deflated once at level 4 — the same pixels as jsPDF's output, without its second
 *   filter pass. An alpha channel that is 255 everywhere gives no soft mask.
 * - Anything else (interlaced, 16-bit with alpha, a transparent palette entry or colour key) returns null and goes
 *   through jsPDF's own path, which handles those cases.
 */
import { crc32 } from 'node:zlib';
// fflate only for an image stream node:zlib refuses (longer than its pixels, a wrong Adler-32); see splitAlpha.
import { unzlibSync } from 'fflate';
import { InflateOverflow, inflateSized, zlibDeflate } from '../../flate.js';
import { unfilterRows } from '../../images/png-unfilter.js';

/** The fields of jsPDF's processed image that its image writer (putImage) reads. */
export interface PdfImageObject {
  data: string;
  width: number;
  height: number;
  colorSpace: 'DeviceGray' | 'DeviceRGB' | 'Indexed';
  bitsPerComponent: number;
  filter: 'FlateDecode';
  decodeParameters?: string;
  /** For the soft mask's DecodeParms, which jsPDF writes as `/Predictor <predictor> …`. */
  predictor?: number;
  palette?: number[];
  sMask?: string;
  sMaskBitsPerComponent?: number;
}

export class PngError extends Error {}

interface Chunks {
  width: number;
  height: number;
  depth: number;
  colourType: number;
  interlaced: boolean;
  palette: Uint8Array | null;
  transparency: boolean;
  idat: Uint8Array[];
}

function readChunks(png: Uint8Array): Chunks {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let p = 8;
  let header: Omit<Chunks, 'palette' | 'transparency' | 'idat'> | null = null;
  let palette: Uint8Array | null = null;
  let transparency = false;
  const idat: Uint8Array[] = [];
  let ended = false;
  while (p + 12 <= png.length) {
    const length = view.getUint32(p);
    const end = p + 12 + length;
    if (end > png.length) throw new PngError('a chunk runs past the end of the file');
    const type = String.fromCharCode(png[p + 4], png[p + 5], png[p + 6], png[p + 7]);
    if (crc32(png.subarray(p + 4, p + 8 + length)) !== view.getUint32(p + 8 + length)) throw new PngError(`the ${type} chunk fails its CRC`);
    const body = png.subarray(p + 8, p + 8 + length);
    if (type === 'IHDR') {
      if (length < 13) throw new PngError('short IHDR');
      header = { width: view.getUint32(p + 8), height: view.getUint32(p + 12), depth: body[8], colourType: body[9], interlaced: body[12] === 1 };
    } else if (type === 'PLTE') palette = body;
    else if (type === 'tRNS') transparency = true;
    else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') {
      ended = true;
      break;
    }
    p = end;
  }
  if (!header) throw new PngError('no IHDR chunk');
  if (!ended) throw new PngError('the file ends before its IEND chunk');
  if (idat.length === 0) throw new PngError('no image data');
  if (header.width === 0 || header.height === 0) throw new PngError('an empty image');
  return { ...header, palette, transparency, idat };
}

function binary(bytes: Uint8Array): string {
  // Chunked: String.fromCharCode with a very long argument list overflows the stack.
  let out = '';
  for (let i = 0; i < bytes.length; i += 0x8000) out += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000) as unknown as number[]);
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const COLOURS: Record<number, { space: PdfImageObject['colorSpace']; colours: number }> = {
  0: { space: 'DeviceGray', colours: 1 },
  2: { space: 'DeviceRGB', colours: 3 },
  3: { space: 'Indexed', colours: 1 },
};

/** The PNG's IDAT stream, unchanged, as a PDF image with PNG predictors. */
function passThrough(c: Chunks): PdfImageObject {
  const { space, colours } = COLOURS[c.colourType];
  const stream = concat(c.idat);
  // A zlib stream: deflate (CM 8) with a header whose check bits are right; else the PDF would not open the image.
  if (stream.length < 2 || (stream[0] & 0x0f) !== 8 || ((stream[0] << 8) | stream[1]) % 31 !== 0) throw new PngError('the image data is not a zlib stream');
  const image: PdfImageObject = {
    data: binary(stream),
    width: c.width,
    height: c.height,
    colorSpace: space,
    bitsPerComponent: c.depth,
    filter: 'FlateDecode',
    decodeParameters: `/Predictor 15 /Colors ${colours} /BitsPerComponent ${c.depth} /Columns ${c.width}`,
  };
  if (space === 'Indexed') {
    if (!c.palette || c.palette.length < 3) throw new PngError('a palette image without a palette');
    image.palette = Array.from(c.palette.subarray(0, c.palette.length - (c.palette.length % 3)));
  }
  return image;
}

/**
 * zlib's level for the colour and soft-mask planes. On the corpus's 84 planes (49 MB) node:zlib at level 1 took 52 ms
 * but wrote 16 % more than fflate's level 1 did (448 ms); level 4, its first lazy-matching level, takes 132 ms and
 * writes 6 % less (docs/benchmarks.md, session 16).
 */
const PLANE_LEVEL = 4;

/** An 8-bit grey + alpha or RGBA PNG: colour and soft mask, each deflated once. */
function splitAlpha(c: Chunks): PdfImageObject {
  const channels = c.colourType === 6 ? 4 : 2;
  let raw: Uint8Array;
  const idat = concat(c.idat);
  const size = c.height * (c.width * channels + 1);
  try {
    try {
      raw = inflateSized(idat, size, 'zlib');
    } catch (err) {
      if (!(err instanceof InflateOverflow) && (err as NodeJS.ErrnoException).code !== 'Z_DATA_ERROR') throw err;
      // Read as before node:zlib, by fflate into a buffer of the pixels' size: more data than the pixels need (a
      // sloppy encoder; its first `size` bytes are the image, as decoders such as libpng read it), or a stream whose
      // Adler-32 is wrong after good data (node:zlib refuses it, fflate checks none). Damaged data fails there too.
      // Rare: not worth its own path.
      raw = unzlibSync(idat, { out: new Uint8Array(size) });
    }
  } catch (err) {
    throw new PngError(`the image data does not inflate (${(err as Error).message})`);
  }
  let pixels: Uint8Array;
  try {
    pixels = unfilterRows(raw, c.width, c.height, channels);
  } catch (err) {
    throw new PngError((err as Error).message);
  }
  const count = c.width * c.height;
  const colours = channels - 1;
  const colour = new Uint8Array(count * colours);
  const alpha = new Uint8Array(count);
  let opaque = true;
  if (channels === 4) {
    for (let i = 0, src = 0, dst = 0; i < count; i++, src += 4, dst += 3) {
      colour[dst] = pixels[src];
      colour[dst + 1] = pixels[src + 1];
      colour[dst + 2] = pixels[src + 2];
      alpha[i] = pixels[src + 3];
    }
  } else {
    for (let i = 0, src = 0; i < count; i++, src += 2) {
      colour[i] = pixels[src];
      alpha[i] = pixels[src + 1];
    }
  }
  for (let i = 0; i < count && opaque; i++) opaque = alpha[i] === 255;
  const image: PdfImageObject = {
    data: binary(zlibDeflate(colour, PLANE_LEVEL)),
    width: c.width,
    height: c.height,
    colorSpace: colours === 1 ? 'DeviceGray' : 'DeviceRGB',
    bitsPerComponent: 8,
    filter: 'FlateDecode',
    // No prediction (1): jsPDF writes the soft mask's DecodeParms from `predictor`.
    predictor: 1,
  };
  if (!opaque) {
    image.sMask = binary(zlibDeflate(alpha, PLANE_LEVEL));
    image.sMaskBitsPerComponent = 8;
  }
  return image;
}

/**
 * The PDF image for a PNG, or null when jsPDF's own path should take it (see the top of this file). Throws
 * PngError for a damaged file.
 */
export function pngToPdfImage(png: Uint8Array): PdfImageObject | null {
  const c = readChunks(png);
  if (c.interlaced) return null;
  if (c.colourType in COLOURS && !c.transparency && c.depth <= (c.colourType === 3 ? 8 : 16)) return passThrough(c);
  if ((c.colourType === 4 || c.colourType === 6) && c.depth === 8) return splitAlpha(c);
  return null;
}
