/**
 * EMF and WMF pictures drawn as PNG: the records become a display list (emf.ts, wmf.ts, gdi.ts) that is rasterised
 * (raster.ts) at about 150 dpi of the size it is shown at (else of its own frame), or finer where an embedded bitmap needs it to keep its
 * pixels, within a pixel budget. The PNG then takes the ordinary image path of the PDF renderer, so the painter
 * needs nothing new. A picture that cannot be read, is too complex, or draws nothing (text-only pictures, EMF+
 * only files) gives null: the caller puts a placeholder of the same size and a warning.
 */
import { readEmf, isEmf, type MetafilePicture } from './emf.js';
import { TooComplex } from './gdi.js';
import { encodePng } from './png-encode.js';
import { Raster, TooMuchWork } from './raster.js';
import { isWmf, readWmf } from './wmf.js';

const DPI = 150;
/** Longest side and pixel count of the raster, whatever the frame says. */
const MAX_SIDE = 4096;
const MAX_RASTER_PIXELS = 3_000_000;
const MIN_SIDE = 8;
const SMALL_PIXELS = 300_000;

export interface DrawnMetafile {
  png: Uint8Array;
  /** Drawn from records that stop before their end (truncated or damaged): the caller warns. */
  damaged: boolean;
  width: number;
  height: number;
}

export function metafileFormat(bytes: Uint8Array): 'EMF' | 'WMF' | undefined {
  return isEmf(bytes) ? 'EMF' : isWmf(bytes) ? 'WMF' : undefined;
}

/** Draws an EMF or WMF as a PNG; null when it cannot be drawn (see above). Never throws on bad bytes. */
export function drawMetafile(bytes: Uint8Array, maxPixels: number, shown?: { widthIn: number; heightIn: number }): DrawnMetafile | null {
  let picture: MetafilePicture | null;
  try {
    picture = isEmf(bytes) ? readEmf(bytes, maxPixels) : readWmf(bytes, maxPixels);
  } catch (err) {
    // Past the point/record limits, or a field read past the end of a truncated file: not drawn.
    if (err instanceof TooComplex || err instanceof RangeError) return null;
    throw err;
  }
  if (!picture || picture.gdi.ops.length === 0) return null;
  let raster: Raster | null;
  try {
    // Rasterised for the size it is shown at when known (it is stretched to it anyway), else its own frame.
    if (shown) [picture.widthIn, picture.heightIn] = [shown.widthIn, shown.heightIn];
    raster = rasterise(picture, Math.min(MAX_RASTER_PIXELS, maxPixels));
  } catch (err) {
    if (err instanceof TooMuchWork) return null;
    throw err;
  }
  if (!raster || !raster.inked()) return null;
  return { png: encodePng(raster), damaged: picture.damaged, width: raster.width, height: raster.height };
}

function rasterise(picture: MetafilePicture, budget: number): Raster | null {
  const wIn = Math.abs(picture.widthIn);
  const hIn = Math.abs(picture.heightIn);
  if (!(wIn > 0 && hIn > 0) || !Number.isFinite(wIn + hIn)) return null;
  // Small pictures (equations, icons) get up to 300 dpi within 0.3 MP: their text stays sharp for little cost.
  let scale = Math.max(DPI, Math.min(300, Math.sqrt(SMALL_PIXELS / (wIn * hIn))));
  // An embedded bitmap keeps its own resolution when it is finer than DPI.
  for (const op of picture.gdi.ops) {
    if (op.kind !== 'image' || op.w === 0 || op.h === 0) continue;
    scale = Math.max(scale, op.image.width / Math.abs(op.w * wIn), op.image.height / Math.abs(op.h * hIn));
  }
  scale = Math.min(scale, MAX_SIDE / Math.max(wIn, hIn), Math.sqrt(budget / (wIn * hIn)));
  const width = Math.max(MIN_SIDE, Math.floor(wIn * scale));
  const height = Math.max(MIN_SIDE, Math.floor(hIn * scale));
  if (width * height > Math.max(budget, MIN_SIDE * MIN_SIDE) || !Number.isFinite(width * height)) return null;
  const raster = new Raster(width, height);
  const px = (poly: number[]): number[] => poly.map((v, i) => v * (i & 1 ? height : width));
  for (const op of picture.gdi.ops) {
    if (op.kind === 'fill') raster.fill(op.polys.map(px), op.evenOdd, op.colour);
    else if (op.kind === 'stroke') raster.stroke(op.lines.map((l) => ({ points: px(l.points), closed: l.closed })), Math.max(1, op.width * width), op.colour);
    else raster.image(op.image, op.x * width, op.y * height, op.w * width, op.h * height, op.opaque);
  }
  return raster;
}
