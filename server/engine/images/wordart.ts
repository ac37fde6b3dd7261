/**
 * WordArt text (a VML v:textpath: Word's "CONFIDENTIAL", "DRAFT" watermarks) as a vector picture (drawing.ts): the
 * string's glyph outlines in the bundled stand-in for its font, stretched to fill the shape's box exactly as Word's
 * `fitshape` does (letters wider or taller than the font draws them), then turned about the box's middle by the
 * shape's rotation — the points may leave the box, which is only where the picture is anchored. Its colour keeps
 * its alpha, so a see-through watermark is see-through. Null when the font has no outline for some character
 * (a CFF font, a script it lacks): the caller then draws the string as text.
 */
import type { Drawing } from './drawing.js';
import type { Rgba } from './gdi.js';
import { glyphFont } from './glyphs.js';

export interface WordArtText {
  text: string;
  face: string;
  bold: boolean;
  italic: boolean;
  colour: Rgba;
  /** Degrees clockwise. */
  rotation: number;
  /** The shape's box, points. */
  width: number;
  height: number;
}

export function wordArtDrawing(art: WordArtText): Drawing | null {
  const glyphs = glyphFont(art.face, art.bold, art.italic);
  if (!glyphs || !(art.width > 0) || !(art.height > 0)) return null;
  const m = glyphs.metrics;
  // The string's outlines in ems, y up, along one baseline.
  const polys: number[][] = [];
  let pen = 0;
  for (const ch of art.text) {
    const code = ch.codePointAt(0) ?? 32;
    const glyph = code < m.glyphOf.length ? m.glyphOf[code] : 0;
    if (!glyph) return null;
    for (const contour of glyphs.outline(glyph)) polys.push(contour.map((v, k) => (k & 1 ? v : v + pen)));
    pen += m.advances[glyph] ?? 0.5;
  }
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of polys) {
    for (let i = 0; i + 1 < p.length; i += 2) {
      x0 = Math.min(x0, p[i]);
      x1 = Math.max(x1, p[i]);
      y0 = Math.min(y0, p[i + 1]);
      y1 = Math.max(y1, p[i + 1]);
    }
  }
  if (!(x1 > x0) || !(y1 > y0)) return null;
  const turn = (art.rotation * Math.PI) / 180;
  const [cos, sin] = [Math.cos(turn), Math.sin(turn)];
  const { width: w, height: h } = art;
  const fitted = polys.map((p) => {
    const out = new Array<number>(p.length);
    for (let i = 0; i + 1 < p.length; i += 2) {
      // Ink box → the shape's box (points from its middle, y down), turned clockwise, back to fractions of the box.
      const px = ((p[i] - x0) / (x1 - x0) - 0.5) * w;
      const py = ((y1 - p[i + 1]) / (y1 - y0) - 0.5) * h;
      out[i] = (px * cos - py * sin) / w + 0.5;
      out[i + 1] = (px * sin + py * cos) / h + 0.5;
    }
    return out;
  });
  return { ops: [{ kind: 'fill', polys: fitted, evenOdd: false, colour: art.colour }] };
}
