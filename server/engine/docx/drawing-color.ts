/**
 * DrawingML colours (ECMA-376 §20.1.2.3): a base colour — srgbClr, scrgbClr, hslClr, schemeClr, prstClr, sysClr —
 * followed by transforms applied in the order written (tint, shade, lumMod, lumOff, hueOff, satMod, …). Shapes,
 * text boxes, SmartArt and charts all write their colours this way: a SmartArt box is typically "accent1, hue
 * −30°, tint 67 %", a chart's grey "text 1, lumMod 65 %, lumOff 35 %". Ignoring the transforms paints every such
 * box in the raw accent.
 *
 * Arithmetic as LibreOffice does it (oox, drawingml/color.cxx), since it is the yardstick: tint and shade work on
 * linear RGB (gamma 2.3), the hue, saturation and luminance transforms on HSL; alpha is ignored (the painter
 * draws opaque colours).
 */
import { themeColor, type Theme } from './theme.js';
import { child, children, type XElement } from './xml.js';

export type Rgb = [number, number, number];

const BASE_COLORS = new Set(['a:srgbClr', 'a:scrgbClr', 'a:hslClr', 'a:schemeClr', 'a:prstClr', 'a:sysClr']);

/** DrawingML scheme colour names → WordprocessingML theme colour names. */
const SCHEME: Record<string, string> = { bg1: 'lt1', bg2: 'lt2', tx1: 'dk1', tx2: 'dk2', phClr: 'accent1' };

/** The preset colours documents actually use (the full list is the CSS named colours). */
const PRESET: Record<string, string> = {
  black: '000000', white: 'ffffff', red: 'ff0000', green: '008000', blue: '0000ff', yellow: 'ffff00', gray: '808080',
  grey: '808080', silver: 'c0c0c0', orange: 'ffa500', purple: '800080', navy: '000080', maroon: '800000',
  teal: '008080', olive: '808000', lime: '00ff00', aqua: '00ffff', cyan: '00ffff', fuchsia: 'ff00ff', magenta: 'ff00ff',
  ltGray: 'd3d3d3', dkGray: 'a9a9a9', darkBlue: '00008b', darkRed: '8b0000', darkGreen: '006400', gold: 'ffd700',
};

const DEC_GAMMA = 2.3;

const clamp01 = (v: number): number => Math.max(0, Math.min(1, v));

function fromHex(hex: string): Rgb | undefined {
  return /^[0-9a-fA-F]{6}$/.test(hex) ? ([0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as Rgb) : undefined;
}

export function rgbHex(rgb: Rgb): string {
  return `#${rgb.map((c) => Math.round(clamp01(c) * 255).toString(16).padStart(2, '0')).join('')}`;
}

export function rgbToHsl([r, g, b]: Rgb): Rgb {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return [h / 6, s, l];
}

export function hslToRgb([h, s, l]: Rgb): Rgb {
  if (s === 0) return [l, l, l];
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
  return [channel(h + 1 / 3), channel(h), channel(h - 1 / 3)];
}

const toLinear = (rgb: Rgb): Rgb => rgb.map((c) => Math.pow(clamp01(c), DEC_GAMMA)) as Rgb;
const fromLinear = (rgb: Rgb): Rgb => rgb.map((c) => Math.pow(clamp01(c), 1 / DEC_GAMMA)) as Rgb;

/** The base colour of `el` (one of BASE_COLORS), as 0–1 sRGB. */
function baseColor(el: XElement, theme: Theme): Rgb | undefined {
  const val = el.attrs.val ?? '';
  switch (el.name) {
    case 'a:srgbClr':
      return fromHex(val);
    case 'a:sysClr':
      return fromHex(el.attrs.lastClr ?? '') ?? (val === 'window' ? [1, 1, 1] : val === 'windowText' ? [0, 0, 0] : undefined);
    case 'a:prstClr':
      return PRESET[val] ? fromHex(PRESET[val]) : undefined;
    case 'a:schemeClr': {
      const hex = themeColor(theme, SCHEME[val] ?? val);
      return hex ? fromHex(hex.slice(1)) : undefined;
    }
    case 'a:scrgbClr': {
      const pct = (name: string): number => clamp01(Number(el.attrs[name] ?? 0) / 100000);
      return fromLinear([pct('r'), pct('g'), pct('b')]);
    }
    case 'a:hslClr': {
      const hue = (Number(el.attrs.hue ?? 0) / 21600000) % 1;
      return hslToRgb([hue, clamp01(Number(el.attrs.sat ?? 0) / 100000), clamp01(Number(el.attrs.lum ?? 0) / 100000)]);
    }
    default:
      return undefined;
  }
}

/** `rgb` with the transforms inside `el` applied in document order. */
function transformed(rgb: Rgb, el: XElement): Rgb {
  for (const t of children(el)) {
    const raw = Number(t.attrs.val);
    const v = Number.isFinite(raw) ? raw / 100000 : undefined;
    const hsl = (f: (hsl: Rgb) => Rgb): Rgb => hslToRgb(f(rgbToHsl(rgb)));
    switch (t.name) {
      case 'a:tint':
        if (v !== undefined && v >= 0 && v < 1) rgb = fromLinear(toLinear(rgb).map((c) => 1 - (1 - c) * v) as Rgb);
        break;
      case 'a:shade':
        if (v !== undefined && v >= 0 && v < 1) rgb = fromLinear(toLinear(rgb).map((c) => c * v) as Rgb);
        break;
      case 'a:lumMod':
        if (v !== undefined) rgb = hsl(([h, s, l]) => [h, s, clamp01(l * v)]);
        break;
      case 'a:lumOff':
        if (v !== undefined) rgb = hsl(([h, s, l]) => [h, s, clamp01(l + v)]);
        break;
      case 'a:lum':
        if (v !== undefined) rgb = hsl(([h, s]) => [h, s, clamp01(v)]);
        break;
      case 'a:satMod':
        if (v !== undefined) rgb = hsl(([h, s, l]) => [h, clamp01(s * v), l]);
        break;
      case 'a:satOff':
        if (v !== undefined) rgb = hsl(([h, s, l]) => [h, clamp01(s + v), l]);
        break;
      case 'a:sat':
        if (v !== undefined) rgb = hsl(([h, , l]) => [h, clamp01(v), l]);
        break;
      case 'a:hueOff':
        // Angles are in 60,000ths of a degree: val / 100000 is not the unit here.
        if (Number.isFinite(raw)) rgb = hsl(([h, s, l]) => [(((h + raw / 21600000) % 1) + 1) % 1, s, l]);
        break;
      case 'a:hueMod':
        if (v !== undefined) rgb = hsl(([h, s, l]) => [(h * v) % 1, s, l]);
        break;
      case 'a:hue':
        if (Number.isFinite(raw)) rgb = hsl(([, s, l]) => [((raw / 21600000) % 1 + 1) % 1, s, l]);
        break;
      case 'a:comp':
        rgb = hsl(([h, s, l]) => [(h + 0.5) % 1, s, l]);
        break;
      case 'a:inv':
        rgb = rgb.map((c) => 1 - c) as Rgb;
        break;
      case 'a:gray': {
        const y = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2];
        rgb = [y, y, y];
        break;
      }
      default:
        // alpha, alphaMod, alphaOff, gamma, invGamma, red/green/blue mods: not drawn (opaque painter) or unused.
        break;
    }
  }
  return rgb;
}

/** The colour element inside `el` (a fill, a style reference, a gradient stop), transforms applied, as 0–1 sRGB. */
export function drawingRgb(el: XElement | undefined, theme: Theme): Rgb | undefined {
  const colorEl = children(el).find((c) => BASE_COLORS.has(c.name));
  if (!colorEl) return undefined;
  const base = baseColor(colorEl, theme);
  return base ? transformed(base, colorEl) : undefined;
}

/** The same as '#rrggbb'. */
export function drawingColor(el: XElement | undefined, theme: Theme): string | undefined {
  const rgb = drawingRgb(el, theme);
  return rgb ? rgbHex(rgb) : undefined;
}

/**
 * The one colour a fill is drawn with (the painter fills with flat colours): a solid fill's colour, or a gradient's
 * mean colour — each stretch between two stops weighs by its length, so a box shaded from light to a little darker
 * blue shows as that blue rather than as nothing.
 */
export function fillColor(spPr: XElement | undefined, theme: Theme): string | undefined {
  const solid = child(spPr, 'a:solidFill');
  if (solid) return drawingColor(solid, theme);
  const stops = children(child(child(spPr, 'a:gradFill'), 'a:gsLst'), 'a:gs')
    .map((gs) => ({ pos: clamp01(Number(gs.attrs.pos ?? 0) / 100000), rgb: drawingRgb(gs, theme) }))
    .filter((s): s is { pos: number; rgb: Rgb } => s.rgb !== undefined)
    .sort((a, b) => a.pos - b.pos);
  if (stops.length === 0) return undefined;
  if (stops.length === 1) return rgbHex(stops[0].rgb);
  // The colour before the first stop is the first stop's, after the last the last's (§20.1.8.36).
  const spans: Array<{ w: number; rgb: Rgb }> = [{ w: stops[0].pos, rgb: stops[0].rgb }, { w: 1 - stops[stops.length - 1].pos, rgb: stops[stops.length - 1].rgb }];
  for (let i = 1; i < stops.length; i++) {
    const w = stops[i].pos - stops[i - 1].pos;
    spans.push({ w, rgb: stops[i - 1].rgb.map((c, k) => (c + stops[i].rgb[k]) / 2) as Rgb });
  }
  const total = spans.reduce((a, s) => a + s.w, 0);
  if (total <= 0) return rgbHex(stops[0].rgb);
  return rgbHex([0, 1, 2].map((k) => spans.reduce((a, s) => a + s.w * s.rgb[k], 0) / total) as Rgb);
}
