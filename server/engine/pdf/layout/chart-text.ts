/**
 * Text and shapes of a chart as boxes (flow/boxes.ts), relative to the chart's top-left corner: what the chart
 * layout (chart.ts) draws with. Text is split by the fonts covering it (CJK category names fall back like body
 * text) and recorded for embedding, so chart labels are real, searchable text in the PDF.
 */
import type { ChartText } from '../../model/types.js';
import type { DocumentFonts } from '../fonts/embed.js';
import { familyFor, variantOf } from '../fonts/families.js';
import { splitByFace } from '../fonts/resolve.js';
import type { Box } from '../flow/boxes.js';
import { cleanText } from '../text/normalize.js';
import { parseColor, type Rgb } from './color.js';

/** Office's chart text: 10 pt, dark grey, the theme's body font (Calibri when the chart does not say). */
export const CHART_TEXT: Required<Omit<ChartText, 'italic'>> = { font: 'Calibri', size: 10, bold: false, color: '#595959' };

export const rgb = (color: string | undefined, fallback: Rgb): Rgb => parseColor(color) ?? fallback;

export class ChartPen {
  readonly boxes: Box[] = [];

  constructor(private readonly fonts: DocumentFonts) {}

  private runs(text: string, style: ChartText): Array<{ text: string; face: ReturnType<typeof splitByFace>[number]['face'] }> {
    return splitByFace(cleanText(text), familyFor(style.font ?? CHART_TEXT.font), variantOf(style.bold, style.italic));
  }

  size(style: ChartText): number {
    const s = style.size ?? CHART_TEXT.size;
    return s > 0 && s < 200 ? s : CHART_TEXT.size;
  }

  /** Advance width of `text` in `style`. */
  width(text: string, style: ChartText): number {
    const size = this.size(style);
    let w = 0;
    for (const run of this.runs(text, style)) w += run.face.width(run.text, size);
    return w;
  }

  /** Draws one line of text: x is its left edge, centre or right edge by `align`, y its baseline. */
  text(text: string, style: ChartText, x: number, y: number, align: 'left' | 'center' | 'right' = 'left', angle?: number): void {
    if (!text) return;
    const size = this.size(style);
    const color = rgb(style.color, rgb(CHART_TEXT.color, [89, 89, 89]));
    const runs = this.runs(text, style);
    const total = runs.reduce((a, r) => a + r.face.width(r.text, size), 0);
    const shift = align === 'center' ? total / 2 : align === 'right' ? total : 0;
    // Rotated text (a vertical axis title, 90° counter-clockwise) advances upwards.
    const up = angle === 90;
    let cx = up ? x : x - shift;
    let cy = up ? y + shift : y;
    for (const run of runs) {
      const w = run.face.width(run.text, size);
      this.fonts.use(run.face, run.text);
      const box: Box = { kind: 'text', x: cx, y: cy, width: w, text: run.text, face: run.face, size, color };
      if (up) box.angle = 90;
      this.boxes.push(box);
      if (up) cy -= w;
      else cx += w;
    }
  }

  fill(x: number, y: number, w: number, h: number, color: Rgb): void {
    if (w > 0 && h > 0) this.boxes.push({ kind: 'fill', x, y, w, h, color });
  }

  line(x1: number, y1: number, x2: number, y2: number, width: number, color: Rgb): void {
    this.boxes.push({ kind: 'line', x1, y1, x2, y2, width, color, dash: null });
  }

  frame(x: number, y: number, w: number, h: number, width: number, color: Rgb): void {
    this.boxes.push({ kind: 'frame', x, y, w, h, width, color });
  }

  /** A polygon (filled, stroked or both) or an open polyline (stroked). */
  path(points: number[], closed: boolean, fill: Rgb | null, stroke: Rgb | null, width = 0.75): void {
    if (points.length < 4) return;
    this.boxes.push({ kind: 'path', points, closed, fill, stroke, width });
  }
}
