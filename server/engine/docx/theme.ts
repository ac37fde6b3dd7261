/**
 * The theme (word/theme/theme1.xml): the fonts behind `w:asciiTheme="minorHAnsi"` and friends, and the colours
 * behind `w:themeColor="accent1"`.
 */
import { child, children, type XElement } from './xml.js';

export interface Theme {
  fonts: Record<string, string>;
  colors: Record<string, string>;
}

const EMPTY: Theme = { fonts: {}, colors: {} };

/** Word's theme font slot names → (major|minor, script). */
const FONT_SLOTS: Record<string, [string, string]> = {
  majorAscii: ['major', 'latin'],
  majorHAnsi: ['major', 'latin'],
  majorEastAsia: ['major', 'ea'],
  majorBidi: ['major', 'cs'],
  minorAscii: ['minor', 'latin'],
  minorHAnsi: ['minor', 'latin'],
  minorEastAsia: ['minor', 'ea'],
  minorBidi: ['minor', 'cs'],
};

/** WordprocessingML's theme colour names → the theme's colour scheme slots. */
const COLOR_ALIASES: Record<string, string> = {
  text1: 'dk1',
  dark1: 'dk1',
  text2: 'dk2',
  dark2: 'dk2',
  background1: 'lt1',
  light1: 'lt1',
  background2: 'lt2',
  light2: 'lt2',
  hyperlink: 'hlink',
  followedHyperlink: 'folHlink',
};

/** The theme's per-script font (`<a:font script="Hans">`) for an East Asian language tag. */
function scriptOf(lang: string | undefined): string | undefined {
  const l = (lang ?? '').toLowerCase();
  if (l.startsWith('zh')) return /-(tw|hk|mo|hant)/.test(l) ? 'Hant' : 'Hans';
  if (l.startsWith('ja')) return 'Jpan';
  if (l.startsWith('ko')) return 'Hang';
  return undefined;
}

/**
 * `eastAsiaLang` is the document's default East Asian language (docDefaults' w:lang w:eastAsia): a theme whose
 * `<a:ea typeface="">` is empty names its East Asian font per script, and Word (and LibreOffice) take the one of
 * that language — 宋体 for zh-CN in poitl__sdt_cell.docx, drawn with the bundled CJK font and its line height.
 */
export function readTheme(root: XElement | undefined, eastAsiaLang?: string): Theme {
  if (!root) return EMPTY;
  const elements = child(root, 'a:themeElements');
  const theme: Theme = { fonts: {}, colors: {} };
  const scheme = child(elements, 'a:fontScheme');
  for (const kind of ['major', 'minor']) {
    const font = child(scheme, kind === 'major' ? 'a:majorFont' : 'a:minorFont');
    for (const script of ['latin', 'ea', 'cs']) {
      const face = child(font, `a:${script}`)?.attrs.typeface;
      if (face) theme.fonts[`${kind}:${script}`] = face;
    }
    const script = scriptOf(eastAsiaLang);
    const byScript = script && children(font, 'a:font').find((f) => f.attrs.script === script)?.attrs.typeface;
    if (!theme.fonts[`${kind}:ea`] && byScript) theme.fonts[`${kind}:ea`] = byScript;
  }
  for (const slot of children(child(elements, 'a:clrScheme'))) {
    const name = slot.name.slice(2);
    const srgb = child(slot, 'a:srgbClr')?.attrs.val;
    const sys = child(slot, 'a:sysClr')?.attrs.lastClr;
    const value = srgb ?? sys;
    if (value && /^[0-9a-fA-F]{6}$/.test(value)) theme.colors[name] = `#${value.toLowerCase()}`;
  }
  return theme;
}

/** The typeface of a theme font slot ('minorHAnsi' → 'Calibri'). */
export function themeFont(theme: Theme, slot: string): string | undefined {
  const key = FONT_SLOTS[slot];
  return key ? theme.fonts[`${key[0]}:${key[1]}`] : undefined;
}

/** A theme colour with Word's tint/shade (hex bytes, 'FF' = unchanged) applied. */
export function themeColor(theme: Theme, name: string, tint?: string, shade?: string): string | undefined {
  const base = theme.colors[COLOR_ALIASES[name] ?? name];
  if (!base) return undefined;
  let rgb = [1, 3, 5].map((i) => parseInt(base.slice(i, i + 2), 16));
  if (shade && /^[0-9a-fA-F]{2}$/.test(shade)) {
    const s = parseInt(shade, 16) / 255;
    rgb = rgb.map((c) => Math.round(c * s));
  }
  if (tint && /^[0-9a-fA-F]{2}$/.test(tint)) {
    const t = parseInt(tint, 16) / 255;
    rgb = rgb.map((c) => Math.round(c + (255 - c) * (1 - t)));
  }
  return `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}
