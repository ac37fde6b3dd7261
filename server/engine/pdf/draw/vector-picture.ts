/**
 * Paints a vector picture (images/drawing.ts: an EMF or WMF from a .docx) into its box as PDF paths: each fill one
 * path (non-zero or even-odd, as the picture asked), each stroke one path with GDI's round caps and joins, each
 * bitmap through the ordinary image path. The operators are written directly, inside q…Q, so nothing the painter
 * tracks (colours, line width) changes; a translucent colour gets an ExtGState through jsPDF.
 */
import type { jsPDF } from 'jspdf';
import type { Rgba } from '../../images/gdi.js';
import { isWinAnsi } from '../fonts/faces.js';
import type { PreparedDrawing, PreparedImage } from '../images.js';

/** A hairline (GDI width 0, or thinner than this): one pixel at 150 dpi, as the metafile rasteriser drew it. */
const HAIRLINE = 72 / 150;

type DrawBitmap = (image: PreparedImage, x: number, y: number, w: number, h: number) => void;

/** Numbers in thousandths of a point, as the rest of the page (floatPrecision 3); String() of a rounded number is far cheaper than toFixed. */
function n(v: number): string {
  return String(Math.round(v * 1000) / 1000);
}

function rgbOp(c: Rgba, op: 'rg' | 'RG'): string {
  return `${n(c[0] / 255)} ${n(c[1] / 255)} ${n(c[2] / 255)} ${op}`;
}

export function drawVectorPicture(doc: jsPDF, drawing: PreparedDrawing, x: number, y: number, w: number, h: number, bitmap: DrawBitmap): void {
  if (!(w > 0) || !(h > 0)) return;
  const internal = doc.internal as unknown as { write(line: string): void };
  const pageHeight = doc.internal.pageSize.getHeight();
  const px = (u: number): string => n(x + u * w);
  const py = (v: number): string => n(pageHeight - (y + v * h));
  /** Adds a figure's path; false when it has too few points to draw. */
  const path = (points: number[], closed: boolean, out: string[]): boolean => {
    if (points.length < 4) return false;
    out.push(`${px(points[0])} ${py(points[1])} m`);
    for (let i = 2; i + 1 < points.length; i += 2) out.push(`${px(points[i])} ${py(points[i + 1])} l`);
    if (closed) out.push('h');
    return true;
  };
  for (const op of drawing.ops) {
    if (op.kind === 'image') {
      bitmap(op.image, x + op.x * w, y + op.y * h, op.w * w, op.h * h);
      continue;
    }
    if (op.kind === 'text') {
      invisibleText(doc, op.chars, x + op.x * w, y + op.baseline * h, op.size * h, op.width * w);
      continue;
    }
    const alpha = op.colour[3];
    if (alpha === 0) continue;
    const out: string[] = [];
    let drawn = false;
    if (op.kind === 'fill') {
      out.push(rgbOp(op.colour, 'rg'));
      for (const poly of op.polys) drawn = path(poly, true, out) || drawn;
      out.push(op.evenOdd ? 'f*' : 'f');
    } else {
      out.push(rgbOp(op.colour, 'RG'), `${n(Math.max(HAIRLINE, op.width * w))} w`, '1 J', '1 j');
      for (const line of op.lines) drawn = path(line.points, line.closed, out) || drawn;
      out.push('S');
    }
    // A painting operator with no path before it is an error to a PDF reader.
    if (!drawn) continue;
    doc.saveGraphicsState();
    if (alpha < 255) doc.setGState(doc.GState({ opacity: alpha / 255, 'stroke-opacity': alpha / 255 }));
    internal.write(out.join('\n'));
    doc.restoreGraphicsState();
  }
}

/** Horizontal scales past which the text layer would be nonsense (a damaged record): the text is left out. */
const MIN_SCALE = 0.05;
const MAX_SCALE = 20;

/**
 * A picture's text for the text layer only (copy, search, pdftotext): its glyphs are already drawn as outlines, so
 * this is rendering mode 3 (invisible), in Helvetica stretched to the drawn text's width so a selection covers it.
 * Helvetica is a standard font (nothing to embed); characters outside WinAnsi are left out of the layer. Inside
 * q…Q, which restores jsPDF's font, size and colour, so the painter's cached state stays true.
 */
function invisibleText(doc: jsPDF, chars: string, x: number, baseline: number, size: number, width: number): void {
  const text = Array.from(chars, (c) => (isWinAnsi(c.codePointAt(0) ?? 0) && c >= ' ' ? c : '')).join('');
  if (text.trim() === '' || !(size > 0)) return;
  doc.saveGraphicsState();
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(size);
  const natural = doc.getTextWidth(text);
  const scale = natural > 0 ? width / natural : 1;
  if (scale >= MIN_SCALE && scale <= MAX_SCALE) {
    doc.text(text, x, baseline, { renderingMode: 'invisible', horizontalScale: scale, isInputVisual: true, isOutputVisual: true });
  }
  doc.restoreGraphicsState();
}
