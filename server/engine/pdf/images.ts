/**
 * Images of a bound model: `data:` URIs decoded, checked and typed once, cached across documents (a logo used
 * by every invoice is decoded once per process). jsPDF embeds each distinct image once per document (alias).
 *
 * The pixel count is checked from the header before anything is decoded (here or in jsPDF). GIF and WebP are
 * decoded to RGBA (first frame of an animation; omggif and libwebp, see images/gif.ts and images/webp.ts) and handed
 * to jsPDF as PNG, whose path keeps alpha as a soft mask (jsPDF's own GIF/WebP paths re-encode to JPEG and lose it). JPEGs keep their bytes; their EXIF orientation
 * is applied when drawing (image/orient.ts).
 */
import { imageSize } from 'image-size';
import { EngineError } from '../errors.js';
import { DRAWING_MIME, readDrawing, type DrawingOp } from '../images/drawing.js';
import { decodeGifFirstFrame } from '../images/gif.js';
import { checkPixelLimit, maxImagePixels } from '../images/pixel-limit.js';
import { encodePng } from '../images/png-encode.js';
import type { RgbaImage } from '../images/rgba.js';
import { decodeWebp } from '../images/webp.js';

export type ImageFormat = 'PNG' | 'JPEG' | 'GIF' | 'WEBP' | 'BMP';

/** A vector picture (images/drawing.ts) with its bitmaps prepared like any image. */
export interface PreparedDrawing {
  ops: Array<Exclude<DrawingOp, { kind: 'image' }> | { kind: 'image'; image: PreparedImage; x: number; y: number; w: number; h: number }>;
}

export interface PreparedImage {
  /** Alias in the PDF: the same key is embedded once however often it is drawn. */
  key: string;
  /** What `data` holds now: a GIF or WebP has become a PNG. */
  format: ImageFormat;
  data: Uint8Array;
  /** Stored pixels (before any EXIF turn). */
  pixelWidth: number;
  pixelHeight: number;
  /** JPEG EXIF orientation 2–8 (absent when upright): drawImage turns and mirrors the picture by it. */
  orientation?: number;
  /** A vector picture (an EMF or WMF from a .docx): drawn as paths; `data` then holds its JSON. */
  drawing?: PreparedDrawing;
}

/**
 * The most pixels an image may have (the service's limits.imagePixels), kept in images/pixel-limit.ts. The binder
 * checks tagged images with the same limit; this also covers images a template carries itself (a logo inside a
 * .docx, which the importer already replaces by a placeholder when it is over the limit).
 */
export { DEFAULT_MAX_IMAGE_PIXELS, setMaxImagePixels } from '../images/pixel-limit.js';

const MAX_CACHED_BYTES = 64 * 1024 * 1024;
const cache = new Map<string, PreparedImage>();
let cachedBytes = 0;
let nextKey = 1;

function formatOf(data: Uint8Array): ImageFormat | null {
  const b = data;
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'PNG';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'JPEG';
  if (b.length >= 6 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38) return 'GIF';
  if (b.length >= 12 && b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46 &&
    b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50) return 'WEBP';
  if (b.length >= 2 && b[0] === 0x42 && b[1] === 0x4d) return 'BMP';
  return null;
}

function describe(src: string): string {
  return src.length > 40 ? `${src.slice(0, 40)}…` : src;
}

/** Decodes a `data:` URI image. Throws EngineError for anything that is not a PNG, JPEG, GIF, WebP or BMP image. */
export function prepareImage(src: string): PreparedImage {
  const hit = cache.get(src);
  if (hit) {
    // The limit may have been lowered since the image was cached (a drawing's bitmaps were checked on their own).
    if (!hit.drawing) checkPixels(hit.format, hit.pixelWidth, hit.pixelHeight);
    return hit;
  }
  if (typeof src !== 'string' || !src.startsWith('data:')) {
    throw new EngineError('invalid_image', `An image must be given as a data: URI by the time it is drawn, got "${describe(String(src))}".`);
  }
  const comma = src.indexOf(',');
  if (comma < 0) throw new EngineError('invalid_image', 'An image data: URI has no data.');
  const header = src.slice(5, comma).toLowerCase();
  const payload = src.slice(comma + 1);
  let data: Uint8Array;
  try {
    data = header.endsWith(';base64')
      ? new Uint8Array(Buffer.from(payload, 'base64'))
      : new Uint8Array(Buffer.from(decodeURIComponent(payload), 'latin1'));
  } catch {
    throw new EngineError('invalid_image', 'An image data: URI has badly percent-encoded data.');
  }
  if (header.split(';')[0] === DRAWING_MIME) return remember(src, prepareDrawing(data));
  const format = formatOf(data);
  if (!format) {
    const mime = header.split(';')[0] || 'unknown';
    throw new EngineError('image_unsupported', `Images must be PNG, JPEG, GIF, WebP or BMP; this one is ${mime}.`);
  }
  let size: { width?: number; height?: number; orientation?: number };
  try {
    size = imageSize(data);
  } catch {
    throw new EngineError('invalid_image', `The ${format} image is damaged or truncated.`);
  }
  if (!size.width || !size.height) throw new EngineError('invalid_image', `The ${format} image has no size.`);
  checkPixels(format, size.width, size.height);
  const image = convert(format, data, size.width, size.height);
  if (format === 'JPEG' && typeof size.orientation === 'number' && size.orientation >= 2 && size.orientation <= 8) {
    image.orientation = size.orientation;
  }
  return remember(src, image);
}

function remember(src: string, image: PreparedImage): PreparedImage {
  cache.set(src, image);
  cachedBytes += image.data.length;
  for (const [k, v] of cache) {
    if (cachedBytes <= MAX_CACHED_BYTES) break;
    cache.delete(k);
    cachedBytes -= v.data.length;
  }
  return image;
}

/** A vector picture, checked (readDrawing throws invalid_image), its bitmaps prepared; it has no pixels of its own. */
function prepareDrawing(data: Uint8Array): PreparedImage {
  const ops = readDrawing(data).ops.map((op) => (op.kind === 'image' ? { ...op, image: prepareImage(op.src) } : op));
  return { key: `img${nextKey++}`, format: 'PNG', data, pixelWidth: 0, pixelHeight: 0, drawing: { ops } };
}

function checkPixels(format: ImageFormat, width: number, height: number): void {
  checkPixelLimit(format, width, height, maxImagePixels());
}

/** GIF and WebP → PNG with alpha (each decoder checks its frames' sizes first); other formats keep their bytes. */
function convert(format: ImageFormat, data: Uint8Array, width: number, height: number): PreparedImage {
  let rgba: RgbaImage | null = null;
  if (format === 'GIF') rgba = decodeGifFirstFrame(data, maxImagePixels());
  else if (format === 'WEBP') rgba = decodeWebp(data, maxImagePixels());
  if (rgba) return { key: `img${nextKey++}`, format: 'PNG', data: encodePng(rgba), pixelWidth: rgba.width, pixelHeight: rgba.height };
  return { key: `img${nextKey++}`, format, data, pixelWidth: width, pixelHeight: height };
}
