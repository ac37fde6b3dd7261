/**
 * DrawingML colours as charts write them: a base colour (srgbClr, schemeClr, prstClr, sysClr) with the
 * modifiers chart styles use everywhere (lumMod/lumOff for greys such as "text 1, 65 %", shade and tint for the
 * seventh series onwards). decoration.ts reads the base; the modifiers are applied here.
 */
import { drawingColor } from './decoration.js';
import { themeColor, type Theme } from './theme.js';
import { child, type XElement } from './xml.js';

const COLOR_ELEMENTS = ['a:srgbClr', 'a:schemeClr', 'a:prstClr', 'a:sysClr', 'a:scrgbClr', 'a:hslClr'];

type Rgb = [number, number, number];

function hex(rgb: Rgb): string {
  return `#${rgb.map((c) => Math.max(0, Math.min(255, Math.round(c))).toString(16).padStart(2, '0')).join('')}`;
}

function toRgb(color: string): Rgb {
  return [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16)) as Rgb;
}

function toHsl([r, g, b]: Rgb): [number, number, number] {
  const [R, G, B] = [r / 255, g / 255, b / 255];
  const max = Math.max(R, G, B);
  const min = Math.min(R, G, B);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === R ? (G - B) / d + (G < B ? 6 : 0) : max === G ? (B - R) / d + 2 : (R - G) / d + 4;
  return [h / 6, s, l];
}

function fromHsl([h, s, l]: [number, number, number]): Rgb {
  if (s === 0) return [l * 255, l * 255, l * 255];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number): number => {
    if (t < 0) t += 1;
    if (t > 1) t -= 1;
    if (t < 1 / 6) return p + (q - p) * 6 * t;
    if (t < 1 / 2) return q;
    if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
    return p;
  };
  return [channel(h + 1 / 3) * 255, channel(h) * 255, channel(h - 1 / 3) * 255];
}

/** A base colour with its modifiers applied (values in thousandths of a percent, as DrawingML writes them). */
function modified(base: string, colorEl: XElement): string {
  let rgb = toRgb(base);
  const val = (name: string): number | undefined => {
    const v = Number(child(colorEl, name)?.attrs.val);
    return Number.isFinite(v) ? v / 100000 : undefined;
  };
  const shade = val('a:shade');
  if (shade !== undefined) rgb = rgb.map((c) => c * shade) as Rgb;
  const tint = val('a:tint');
  if (tint !== undefined) rgb = rgb.map((c) => c + (255 - c) * (1 - tint)) as Rgb;
  const lumMod = val('a:lumMod');
  const lumOff = val('a:lumOff');
  if (lumMod !== undefined || lumOff !== undefined) {
    const [h, s, l] = toHsl(rgb);
    rgb = fromHsl([h, s, Math.max(0, Math.min(1, l * (lumMod ?? 1) + (lumOff ?? 0)))]);
  }
  return hex(rgb);
}

/** The colour inside a fill element (a:solidFill, a:fillRef…), modifiers applied; undefined when none is readable. */
export function chartColor(fill: XElement | undefined, theme: Theme): string | undefined {
  if (!fill) return undefined;
  const base = drawingColor(fill, theme);
  if (!base) return undefined;
  const colorEl = COLOR_ELEMENTS.map((n) => child(fill, n)).find((c) => c !== undefined);
  return colorEl ? modified(base, colorEl) : base;
}

/**
 * The automatic colour of series (or point) `index`: the theme's six accents, then the same accents darker
 * (60 %), lighter (60 %), and so on, as Office's default chart colours cycle.
 */
export function accentColor(index: number, theme: Theme): string {
  const accent = themeColor(theme, `accent${(index % 6) + 1}`) ?? DEFAULT_ACCENTS[index % 6];
  const round = Math.floor(index / 6) % 4;
  if (round === 0) return accent;
  const rgb = toRgb(accent);
  if (round === 1 || round === 3) return hex(rgb.map((c) => c * (round === 1 ? 0.6 : 0.8)) as Rgb);
  return hex(rgb.map((c) => c + (255 - c) * 0.4) as Rgb);
}

/** Office 2013's accents, for documents without a theme. */
const DEFAULT_ACCENTS = ['#4472c4', '#ed7d31', '#a5a5a5', '#ffc000', '#5b9bd5', '#70ad47'];
