/**
 * Draws a JPEG upright according to its EXIF orientation, the way photo viewers do, without decoding it: the
 * stored pixels are embedded as they are and the PDF's transformation matrix turns and mirrors them.
 *
 * The layout already gives orientations 5–8 their upright (swapped) width and height, so the box is the box the
 * picture must fill once turned. PDF paints an image into the unit square of its current space (first stored row at
 * the top); ORIENT maps that square onto the upright unit square, and the box matrix scales it onto the page.
 */
import type { jsPDF } from 'jspdf';

type Matrix = readonly [number, number, number, number, number, number];

/**
 * Unit square → unit square for EXIF orientations 1–8 (PDF matrix [a b c d e f]: x' = a·u + c·v + e,
 * y' = b·u + d·v + f, v pointing up). A stored pixel at column u, row 1 − v lands where a viewer shows it:
 * 2 mirrored left–right, 3 turned 180°, 4 mirrored top–bottom, 5 transposed, 6 turned 90° clockwise,
 * 7 transversed, 8 turned 90° counter-clockwise.
 */
const ORIENT: Record<number, Matrix> = {
  1: [1, 0, 0, 1, 0, 0],
  2: [-1, 0, 0, 1, 1, 0],
  3: [-1, 0, 0, -1, 1, 1],
  4: [1, 0, 0, -1, 0, 1],
  5: [0, -1, -1, 0, 1, 1],
  6: [0, -1, 1, 0, 0, 1],
  7: [0, 1, 1, 0, 0, 0],
  8: [0, 1, -1, 0, 1, 0],
};

/** True for an EXIF orientation that needs a transform (2–8). */
export function needsOrientation(orientation: number | undefined): orientation is number {
  return orientation !== undefined && orientation !== 1 && ORIENT[orientation] !== undefined;
}

/** The PDF matrix painting the unit square into the box (x, y from the page top, width × height), oriented. */
export function orientedImageMatrix(orientation: number, x: number, yTop: number, width: number, height: number, pageHeight: number): Matrix {
  const [a, b, c, d, e, f] = ORIENT[orientation] ?? ORIENT[1];
  const bottom = pageHeight - yTop - height;
  // Box ∘ orient: scale by (width, height), then move to (x, bottom).
  return [a * width, b * height, c * width, d * height, e * width + x, f * height + bottom];
}

function num(n: number): string {
  // Thousandths of a point, as the rest of the renderer writes; never exponent notation.
  const s = (Math.round(n * 1000) / 1000).toFixed(3).replace(/\.?0+$/, '');
  return s === '-0' ? '0' : s;
}

/**
 * Draws through `add` — which must call jsPDF's addImage(…, x, y, w, h, …) for the already registered image — with
 * the picture turned and mirrored by its EXIF `orientation`. For orientation 1 (or none) it is a plain `add`.
 */
export function drawOriented(
  doc: jsPDF,
  orientation: number | undefined,
  x: number,
  y: number,
  width: number,
  height: number,
  add: (x: number, y: number, width: number, height: number) => void,
): void {
  if (!needsOrientation(orientation)) {
    add(x, y, width, height);
    return;
  }
  const k = doc.internal.scaleFactor;
  const pageHeight = doc.internal.pageSize.getHeight();
  const m = orientedImageMatrix(orientation, x * k, y * k, width * k, height * k, pageHeight * k);
  const write = (doc.internal as unknown as { write(...s: string[]): void }).write;
  write('q');
  write(`${m.map(num).join(' ')} cm`);
  // addImage writes "q w 0 0 h x (pageHeight − y − h) cm /I Do Q"; at x = 0, y = pageHeight − 1 (user units)
  // and 1 × 1 that matrix is the identity, so the image lands exactly in the matrix set above.
  add(0, pageHeight - 1 / k, 1 / k, 1 / k);
  write('Q');
}
