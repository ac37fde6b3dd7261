/**
 * Images of a bound model: `data:` URIs decoded, checked and typed once, cached across documents (a logo used
 * by every invoice is decoded once per process). jsPDF embeds each distinct image once per document (alias).
 */
import { imageSize } from 'image-size';
import { EngineError } from '../errors.js';

export type ImageFormat = 'PNG' | 'JPEG' | 'GIF' | 'WEBP' | 'BMP';

export interface PreparedImage {
  /** Alias in the PDF: the same key is embedded once however often it is drawn. */
  key: string;
  format: ImageFormat;
  data: Uint8Array;
  pixelWidth: number;
  pixelHeight: number;
}

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
  if (hit) return hit;
  if (typeof src !== 'string' || !src.startsWith('data:')) {
    throw new EngineError('image_invalid', `An image must be given as a data: URI by the time it is drawn, got "${describe(String(src))}".`);
  }
  const comma = src.indexOf(',');
  if (comma < 0) throw new EngineError('image_invalid', 'An image data: URI has no data.');
  const header = src.slice(5, comma).toLowerCase();
  const payload = src.slice(comma + 1);
  const data = header.endsWith(';base64')
    ? new Uint8Array(Buffer.from(payload, 'base64'))
    : new Uint8Array(Buffer.from(decodeURIComponent(payload), 'latin1'));
  const format = formatOf(data);
  if (!format) {
    const mime = header.split(';')[0] || 'unknown';
    throw new EngineError('image_unsupported', `Images must be PNG, JPEG, GIF, WebP or BMP; this one is ${mime}.`);
  }
  let size: { width?: number; height?: number };
  try {
    size = imageSize(data);
  } catch {
    throw new EngineError('image_invalid', `The ${format} image is damaged or truncated.`);
  }
  if (!size.width || !size.height) throw new EngineError('image_invalid', `The ${format} image has no size.`);
  const image: PreparedImage = { key: `img${nextKey++}`, format, data, pixelWidth: size.width, pixelHeight: size.height };
  cache.set(src, image);
  cachedBytes += data.length;
  for (const [k, v] of cache) {
    if (cachedBytes <= MAX_CACHED_BYTES) break;
    cache.delete(k);
    cachedBytes -= v.data.length;
  }
  return image;
}
