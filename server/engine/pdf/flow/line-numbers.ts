/**
 * Line numbers beside the body (Word's w:lnNumType, model `PageSetup.lineNumbers`). Every line of a body paragraph
 * counts — empty paragraphs too — except in paragraphs with w:suppressLineNumbers; lines in tables, headers,
 * footers, notes and floats neither count nor show a number. Every `countBy`-th line shows its number right-aligned
 * `distance` points left of its column, on the line's baseline, in the document's default run font. A section
 * without numbering neither counts nor shows; the count restarts on each page, at each section, or goes on from
 * the section before (ECMA-376 §17.6.8).
 */
import type { LineNumbering } from '../../model/types.js';
import type { Face } from '../fonts/faces.js';
import { familyFor, variantOf } from '../fonts/families.js';
import type { Rgb } from '../layout/color.js';
import { makeFmt } from '../layout/fmt.js';
import { DIGITS, digitFace, type LayoutContext } from '../layout/paragraph.js';
import type { TextBox } from './boxes.js';

/** The face, size and colour numbers are written in. */
export interface NumberFont {
  face: Face;
  size: number;
  color: Rgb;
}

/**
 * Numbers are written in the document's default run font and size, upright and plain (Word's "Line Number"
 * character style is based on the default paragraph font), in a face that has digits.
 */
export function lineNumberFont(ctx: Pick<LayoutContext, 'fonts' | 'defaults'>): NumberFont {
  const style = ctx.defaults.run;
  const face = digitFace(familyFor(style.font), variantOf(false, false));
  ctx.fonts.use(face, DIGITS);
  const fmt = makeFmt({ font: style.font, size: style.size, color: style.color });
  return { face, size: fmt.drawSize, color: fmt.color };
}

/** The settings as the renderer can use them (a model from JSON may hold anything): null without a valid countBy. */
function sane(s: LineNumbering | undefined): LineNumbering | null {
  if (!s || typeof s !== 'object') return null;
  const countBy = Math.floor(Number(s.countBy));
  if (!(countBy >= 1)) return null;
  const start = Math.floor(Number(s.start));
  const distance = Number(s.distance);
  return {
    countBy: Math.min(countBy, 100),
    start: Number.isFinite(start) ? Math.min(Math.max(start, 0), 32767) : 1,
    restart: s.restart === 'newSection' || s.restart === 'continuous' ? s.restart : 'newPage',
    distance: Number.isFinite(distance) ? Math.min(Math.max(distance, 0), 144) : 18,
  };
}

export class LineNumbers {
  private settings: LineNumbering | null = null;
  /** The number of the last counted line. */
  private count = 0;
  /** The page the last counted line is on. */
  private page = 0;

  constructor(private readonly font: NumberFont) {}

  /** A section begins: its numbering (none: its lines are not counted). */
  section(given: LineNumbering | undefined): void {
    const before = this.settings;
    const settings = sane(given);
    this.settings = settings;
    if (!settings) return;
    // Numbering restarted on each page goes on where a section begins mid-page; continuous numbering goes on from
    // the section before, when that one counted.
    if (settings.restart === 'newSection' || !before) {
      this.count = settings.start - 1;
      this.page = Number.NaN;
    }
  }

  /**
   * Counts a body line on `page` whose column starts at `left` and whose baseline is at `baseline`; the box of
   * its number when it shows one.
   */
  line(page: number, left: number, baseline: number): TextBox | null {
    const s = this.settings;
    if (!s) return null;
    if (s.restart === 'newPage' && page !== this.page && !Number.isNaN(this.page)) this.count = s.start - 1;
    this.page = page;
    this.count++;
    if (this.count % s.countBy !== 0) return null;
    const text = String(this.count);
    const { face, size, color } = this.font;
    const width = face.width(text, size);
    return { kind: 'text', x: left - s.distance - width, y: baseline, width, text, face, size, color };
  }
}
