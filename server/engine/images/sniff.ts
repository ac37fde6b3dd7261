/**
 * Recognises the image formats the PDF renderer can embed, by their magic bytes (never by a declared type,
 * which a client or a web server may get wrong), and reads their pixel size and JPEG EXIF orientation.
 */
import { imageSize } from 'image-size';
import { EngineError } from '../errors.js';

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export interface SniffedImage {
  mime: ImageMime;
  /** Pixels as stored (before any EXIF rotation). */
  width: number;
  height: number;
  /** JPEG EXIF orientation 1–8, when the file carries one. */
  orientation?: number;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  if (bytes.length < at + prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const GIF87 = [0x47, 0x49, 0x46, 0x38, 0x37, 0x61];
const GIF89 = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61];
const RIFF = [0x52, 0x49, 0x46, 0x46];
const WEBP = [0x57, 0x45, 0x42, 0x50];

function mimeOf(bytes: Uint8Array): ImageMime | null {
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  if (startsWith(bytes, GIF87) || startsWith(bytes, GIF89)) return 'image/gif';
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return 'image/webp';
  return null;
}

/** The image's type and size, or null when the bytes are not a PNG, JPEG, GIF or WebP image. Never throws. */
export function sniffImage(bytes: Uint8Array): SniffedImage | null {
  const mime = mimeOf(bytes);
  if (mime === null) return null;
  try {
    const size = imageSize(bytes);
    const width = size.width;
    const height = size.height;
    if (!Number.isFinite(width) || !Number.isFinite(height) || width <= 0 || height <= 0) return null;
    const result: SniffedImage = { mime, width, height };
    if (mime === 'image/jpeg' && typeof size.orientation === 'number' && size.orientation >= 1 && size.orientation <= 8) {
      result.orientation = size.orientation;
    }
    return result;
  } catch {
    // image-size throws on truncated or corrupt headers: for us that is simply "not an image".
    return null;
  }
}

export interface DecodedImage {
  data: Uint8Array;
  mime: ImageMime;
}

// Checked after whitespace is removed, so neither pattern can backtrack.
const BASE64_BODY = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64URL_BODY = /^[A-Za-z0-9\-_]*={0,2}$/;
const WHITESPACE = /\s+/g;

/**
 * Decodes a `data:` URI holding a PNG, JPEG, GIF or WebP image. The declared media type is not trusted: the
 * bytes decide. Throws EngineError('invalid_image') for anything else and ('image_too_large') over `maxBytes`.
 */
export function decodeDataUri(uri: string, maxBytes: number, field?: string): DecodedImage {
  const { data, image } = decodeDataUriImage(uri, maxBytes, field);
  return { data, mime: image.mime };
}

/** decodeDataUri plus the sniffed size, and whether the URI already declares the right type in base64. */
export function decodeDataUriImage(uri: string, maxBytes: number, field?: string): { data: Uint8Array; image: SniffedImage; canonical: boolean } {
  const what = field ? `The image for "${field}"` : 'The image';
  if (typeof uri !== 'string' || !/^data:/i.test(uri)) {
    throw new EngineError('invalid_image', `${what} is not a data: URI.`, field);
  }
  const comma = uri.indexOf(',');
  if (comma < 0) throw new EngineError('invalid_image', `${what} is a data: URI without a comma before its data.`, field);
  const header = uri.slice(5, comma).toLowerCase();
  const payload = uri.slice(comma + 1);
  const isBase64 = header.split(';').some((part) => part.trim() === 'base64');
  // Reject early from the encoded length, before allocating anything.
  const estimate = isBase64 ? Math.floor((payload.length * 3) / 4) - 2 : payload.length / 3;
  if (estimate > maxBytes) {
    throw new EngineError('image_too_large', `${what} is larger than the limit of ${formatBytes(maxBytes)}.`, field);
  }
  let data: Uint8Array;
  let cleanBase64 = false;
  if (isBase64) {
    const body = payload.replace(WHITESPACE, '');
    const standard = BASE64_BODY.test(body);
    cleanBase64 = standard && body.length === payload.length;
    if (!standard && !BASE64URL_BODY.test(body)) {
      throw new EngineError('invalid_image', `${what} is not valid base64 data.`, field);
    }
    data = Buffer.from(body, standard ? 'base64' : 'base64url');
  } else {
    try {
      data = Buffer.from(decodeURIComponent(payload), 'latin1');
    } catch {
      throw new EngineError('invalid_image', `${what} has badly percent-encoded data.`, field);
    }
  }
  if (data.length > maxBytes) {
    throw new EngineError('image_too_large', `${what} is larger than the limit of ${formatBytes(maxBytes)}.`, field);
  }
  const sniffed = sniffImage(data);
  if (sniffed === null) {
    throw new EngineError('invalid_image', `${what} is not a PNG, JPEG, GIF or WebP image.`, field);
  }
  const declared = header.split(';')[0].trim();
  return { data, image: sniffed, canonical: cleanBase64 && declared === sniffed.mime };
}

/** A base64 data: URI for image bytes. */
export function toDataUri(data: Uint8Array, mime: string): string {
  return `data:${mime};base64,${Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64')}`;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}
