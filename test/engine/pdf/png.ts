/**
 * The renderer tests' view of the project's PNG codec (scripts/lib/png.ts): rendered pages as rasters to look at
 * pixels, and RGBA images drawn by a function (to feed the renderer images with alpha).
 */
import { decodePng as decodePixels, encodePng as encodePixels } from '../../../scripts/lib/png.js';

export interface Raster {
  width: number;
  height: number;
  /** RGB of a pixel (alpha ignored); coordinates are rounded and clamped to the image. */
  rgb(x: number, y: number): [number, number, number];
}

export function decodePng(buf: Buffer): Raster {
  const { width, height, channels, pixels } = decodePixels(buf);
  return {
    width,
    height,
    rgb(x: number, y: number): [number, number, number] {
      const o = (Math.min(height - 1, Math.max(0, Math.round(y))) * width + Math.min(width - 1, Math.max(0, Math.round(x)))) * channels;
      return channels >= 3 ? [pixels[o], pixels[o + 1], pixels[o + 2]] : [pixels[o], pixels[o], pixels[o]];
    },
  };
}

/** An RGBA PNG where pixel(x, y) gives [r, g, b, a]. */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => [number, number, number, number]): Buffer {
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rgba.set(pixel(x, y), (y * width + x) * 4);
  }
  return encodePixels(width, height, rgba);
}

export function pngDataUri(png: Buffer): string {
  return `data:image/png;base64,${png.toString('base64')}`;
}
