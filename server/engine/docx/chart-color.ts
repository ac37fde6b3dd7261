/**
 * The automatic colour of each chart series. The colours a chart writes (with lumMod/lumOff for greys such as
 * "text 1, 65 %", shade and tint for the seventh series onwards) are read by drawing-color.ts like any shape's.
 */
import { rgbHex, type Rgb } from './drawing-color.js';
import { themeColor, type Theme } from './theme.js';

/**
 * The automatic colour of series (or point) `index`: the theme's six accents, then the same accents darker
 * (60 %), lighter (60 %), and so on, as Office's default chart colours cycle.
 */
export function accentColor(index: number, theme: Theme): string {
  const accent = themeColor(theme, `accent${(index % 6) + 1}`) ?? DEFAULT_ACCENTS[index % 6];
  const round = Math.floor(index / 6) % 4;
  if (round === 0) return accent;
  const rgb = [1, 3, 5].map((i) => parseInt(accent.slice(i, i + 2), 16) / 255) as Rgb;
  if (round === 1 || round === 3) return rgbHex(rgb.map((c) => c * (round === 1 ? 0.6 : 0.8)) as Rgb);
  return rgbHex(rgb.map((c) => c + (1 - c) * 0.4) as Rgb);
}

/** Office 2013's accents, for documents without a theme. */
const DEFAULT_ACCENTS = ['#4472c4', '#ed7d31', '#a5a5a5', '#ffc000', '#5b9bd5', '#70ad47'];
