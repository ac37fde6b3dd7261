/**
 * The pixel limit (CONTRACT.md §8, limits.imagePixels), checked from headers before any pixel buffer is allocated:
 * a small file can declare a huge picture, and a decoder allocates what the file declares. The limit in force is
 * kept here so that the renderer (pdf/images.ts) and the .docx importer (a template's own pictures) use the same.
 */
import { EngineError } from '../errors.js';

/** The default of limits.imagePixels (CONTRACT §8): 40 megapixels. */
export const DEFAULT_MAX_IMAGE_PIXELS = 40_000_000;
let maxPixels = DEFAULT_MAX_IMAGE_PIXELS;

/** Sets the most pixels an image may have (the service's limits.imagePixels). */
export function setMaxImagePixels(pixels: number): void {
  if (Number.isFinite(pixels) && pixels > 0) maxPixels = Math.floor(pixels);
}

/** The most pixels an image may have now. */
export function maxImagePixels(): number {
  return maxPixels;
}

/** Throws EngineError('image_too_large') when width × height is over `maxPixels`. */
export function checkPixelLimit(format: string, width: number, height: number, maxPixels: number): void {
  if (width * height > maxPixels) {
    throw new EngineError(
      'image_too_large',
      `The ${format} image has ${width}×${height} pixels, more than the limit of ${maxPixels.toLocaleString('en-US')} pixels.`,
    );
  }
}
