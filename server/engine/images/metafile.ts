/**
 * EMF and WMF pictures drawn as vectors: the records become a display list (emf.ts, wmf.ts, gdi.ts) that the model
 * carries as a vector picture (drawing.ts) and the PDF painter draws as paths, so a chart or an equation stays sharp
 * and costs no raster to fill and compress. A picture that cannot be read, is too complex, or draws nothing
 * (text-only pictures where no glyph could be drawn, EMF+ only files) gives null: the caller puts a placeholder of
 * the same size and a warning.
 */
import { drawingFromOps, encodeDrawing } from './drawing.js';
import { readEmf, isEmf, type MetafilePicture } from './emf.js';
import { TooComplex } from './gdi.js';
import { isWmf, readWmf } from './wmf.js';

export interface DrawnMetafile {
  /** The vector picture's bytes (drawing.ts, media type DRAWING_MIME). */
  drawing: Uint8Array;
  /** Drawn from records that stop before their end (truncated or damaged): the caller warns. */
  damaged: boolean;
}

export function metafileFormat(bytes: Uint8Array): 'EMF' | 'WMF' | undefined {
  return isEmf(bytes) ? 'EMF' : isWmf(bytes) ? 'WMF' : undefined;
}

/** Draws an EMF or WMF as a vector picture; null when it cannot be drawn (see above). Never throws on bad bytes. */
export function drawMetafile(bytes: Uint8Array, maxPixels: number): DrawnMetafile | null {
  let picture: MetafilePicture | null;
  try {
    // maxPixels bounds the embedded bitmaps (each, and all together).
    picture = isEmf(bytes) ? readEmf(bytes, maxPixels) : readWmf(bytes, maxPixels);
  } catch (err) {
    // Past the point/record limits, or a field read past the end of a truncated file: not drawn.
    if (err instanceof TooComplex || err instanceof RangeError) return null;
    throw err;
  }
  if (!picture || picture.gdi.ops.length === 0) return null;
  const wIn = Math.abs(picture.widthIn);
  const hIn = Math.abs(picture.heightIn);
  if (!(wIn > 0 && hIn > 0) || !Number.isFinite(wIn + hIn)) return null;
  const drawing = drawingFromOps(picture.gdi.ops);
  if (!drawing || drawing.ops.length === 0) return null;
  return { drawing: encodeDrawing(drawing), damaged: picture.damaged };
}
