/**
 * The "TEST DOCUMENT" watermark of test documents: diagonal, light grey and semi-transparent over the page
 * (the content stays readable through it), as real text so text extraction and search find it.
 */
import type { jsPDF } from 'jspdf';

export const WATERMARK_TEXT = 'TEST DOCUMENT';
/** Drawn colour and opacity: over white it shows as about rgb(209, 209, 209). */
export const WATERMARK_RGB: readonly [number, number, number] = [140, 140, 140];
export const WATERMARK_OPACITY = 0.33;

export function drawWatermark(doc: jsPDF, width: number, height: number): void {
  const angle = Math.atan2(height, width);
  const diagonal = Math.hypot(width, height);
  doc.setFont('helvetica', 'bold');
  const unitWidth = doc.getStringUnitWidth(WATERMARK_TEXT);
  const size = Math.min(Math.max((diagonal * 0.7) / unitWidth, 12), 400);
  const textWidth = unitWidth * size;
  const capHeight = 0.72 * size;
  // Start of the baseline so that the text's centre is the page's centre (y grows downwards).
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const x = width / 2 - (textWidth / 2) * cos + (capHeight / 2) * sin;
  const y = height / 2 + (textWidth / 2) * sin + (capHeight / 2) * cos;
  doc.saveGraphicsState();
  doc.setGState(doc.GState({ opacity: WATERMARK_OPACITY }));
  doc.setFontSize(size);
  doc.setTextColor(WATERMARK_RGB[0], WATERMARK_RGB[1], WATERMARK_RGB[2]);
  // ActualText tells text extractors what the glyphs say as one string: laid diagonally, they would
  // otherwise be cut into fragments ("TE", "ST", …) between the page's other words.
  const write = (doc.internal as unknown as { write(...s: string[]): void }).write;
  write(`/Span <</ActualText (${WATERMARK_TEXT})>> BDC`);
  doc.text(WATERMARK_TEXT, x, y, { angle: (angle * 180) / Math.PI });
  write('EMC');
  doc.restoreGraphicsState();
}
