/**
 * Drawing prepared images with jsPDF without paying its image processing per document. jsPDF decodes a PNG
 * and recompresses it (40–110 ms for a 600×200 logo), and turns GIF, WebP and BMP into JPEG, on every
 * addImage in every new document. Here each image is processed once per process (in a scratch document),
 * and later documents receive the processed result through an image "format" of our own, which jsPDF's
 * plugin mechanism (API.process<FORMAT>) lets us add. PNGs do not go through jsPDF's processing at all where
 * image/png-to-pdf.ts can embed them faster (most of them).
 */
import { jsPDF } from 'jspdf';
import { EngineError } from '../../errors.js';
import { copyWith } from '../../copy.js';
import type { PreparedImage } from '../images.js';
import { drawOriented } from '../image/orient.js';
import { pngToPdfImage } from '../image/png-to-pdf.js';
import { drawVectorPicture } from './vector-picture.js';

const FORMAT = 'DOCLOOMCACHED';
const IMAGES_COLLECTION = 'addImage_images';

/** jsPDF's processed image: the fields its image writer reads (data, size, colour space, filters, masks). */
type ProcessedImage = Record<string, unknown>;

const processed = new Map<string, ProcessedImage>();
const MAX_PROCESSED = 64;

// Registered once: jsPDF calls API.process<FORMAT>(data, index, alias) for images of that format.
// eslint-disable-next-line no-restricted-syntax -- installed once per process: a long-lived method belongs in old space.
(jsPDF.API as unknown as Record<string, unknown>)[`process${FORMAT}`] = function processCached(
  _data: unknown,
  index: number,
  alias: string,
): ProcessedImage {
  const image = processed.get(alias);
  if (!image) throw new Error(`docloom: image ${alias} was not processed`);
  // A copy: jsPDF writes its object number into the image while saving the document.
  return copyWith(image, { index, alias, objectId: undefined });
};

function processOnce(image: PreparedImage): ProcessedImage {
  const hit = processed.get(image.key);
  if (hit) return hit;
  const direct = image.format === 'PNG' ? pngDirect(image) : null;
  if (direct) {
    remember(image.key, direct);
    return direct;
  }
  const scratch = new jsPDF({ unit: 'pt', compress: true });
  try {
    scratch.addImage(image.data, image.format, 0, 0, 1, 1, image.key, 'FAST');
  } catch (err) {
    throw new EngineError('invalid_image', `The ${image.format} image could not be decoded: ${(err as Error).message}`);
  }
  const collections = (scratch as unknown as { internal: { collections: Record<string, Record<string, ProcessedImage>> } })
    .internal.collections;
  const result = Object.values(collections[IMAGES_COLLECTION] ?? {})[0];
  if (!result) throw new EngineError('invalid_image', `The ${image.format} image could not be decoded.`);
  remember(image.key, result);
  return result;
}

function remember(key: string, image: ProcessedImage): void {
  processed.set(key, image);
  if (processed.size > MAX_PROCESSED) processed.delete(processed.keys().next().value!);
}

/** Our own PNG path (image/png-to-pdf.ts); null hands the rare cases it leaves to jsPDF's. */
function pngDirect(image: PreparedImage): ProcessedImage | null {
  try {
    const pdfImage = pngToPdfImage(image.data);
    return pdfImage ? { ...pdfImage } : null;
  } catch (err) {
    // PngError (damaged file) or fast-png's own error for pixels it cannot read: the same refusal as jsPDF's.
    throw new EngineError('invalid_image', `The PNG image could not be decoded: ${(err as Error).message}`);
  }
}

/** Checks an image can be embedded (decoding it once); throws EngineError when jsPDF cannot read it. */
export function ensureProcessed(image: PreparedImage): void {
  if (image.drawing) {
    for (const op of image.drawing.ops) if (op.kind === 'image') processOnce(op.image);
  } else processOnce(image);
}

const DUMMY = new Uint8Array([0]);

/**
 * Draws `image` with its top-left corner at (x, y), filling width × height points; a JPEG with an EXIF orientation
 * is turned and mirrored upright into that box (its bytes are embedded as stored).
 */
export function drawImage(doc: jsPDF, image: PreparedImage, x: number, y: number, width: number, height: number): void {
  if (image.drawing) {
    drawVectorPicture(doc, image.drawing, x, y, width, height, (bitmap, bx, by, bw, bh) => drawImage(doc, bitmap, bx, by, bw, bh));
    return;
  }
  processOnce(image);
  drawOriented(doc, image.orientation, x, y, width, height, (ax, ay, aw, ah) => {
    doc.addImage(DUMMY, FORMAT, ax, ay, aw, ah, image.key);
  });
}
