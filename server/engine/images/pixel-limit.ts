/**
 * The pixel limit (CONTRACT.md §8, limits.imagePixels), checked from headers before any pixel buffer is allocated:
 * a small file can declare a huge picture, and a decoder allocates what the file declares.
 */
import { EngineError } from '../errors.js';

/** Throws EngineError('image_too_large') when width × height is over `maxPixels`. */
export function checkPixelLimit(format: string, width: number, height: number, maxPixels: number): void {
  if (width * height > maxPixels) {
    throw new EngineError(
      'image_too_large',
      `The ${format} image has ${width}×${height} pixels, more than the limit of ${maxPixels.toLocaleString('en-US')} pixels.`,
    );
  }
}
