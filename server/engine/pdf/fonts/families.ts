/**
 * Font families: which bundled font stands in for the family a template names, and which fonts cover the
 * scripts the named family cannot. The table is documented in docs/fonts.md; keep the two in step.
 */

export type Variant = 'normal' | 'bold' | 'italic' | 'bolditalic';
export type StandardFont = 'helvetica' | 'times' | 'courier';

export interface FamilyDef {
  /** Name used in docs and error messages. */
  readonly name: string;
  /** The standard PDF font (no embedding) used for WinAnsi text, when the family maps to one. */
  readonly standard?: StandardFont;
  /** TTF file per variant; a missing variant falls back to `normal`. */
  readonly files: Readonly<Partial<Record<Variant, string>>> & { readonly normal: string };
}

function four(prefix: string, regular = 'Regular', bold = 'Bold', italic = 'Italic', boldItalic = 'BoldItalic'): FamilyDef['files'] {
  return {
    normal: `${prefix}-${regular}.ttf`,
    bold: `${prefix}-${bold}.ttf`,
    italic: `${prefix}-${italic}.ttf`,
    bolditalic: `${prefix}-${boldItalic}.ttf`,
  };
}

export const SANS: FamilyDef = { name: 'Liberation Sans (Helvetica)', standard: 'helvetica', files: four('LiberationSans') };
export const SERIF: FamilyDef = { name: 'Liberation Serif (Times)', standard: 'times', files: four('LiberationSerif') };
export const MONO: FamilyDef = { name: 'Liberation Mono (Courier)', standard: 'courier', files: four('LiberationMono') };
export const CARLITO: FamilyDef = { name: 'Carlito', files: four('Carlito') };
export const CALADEA: FamilyDef = { name: 'Caladea', files: four('Caladea') };
export const DEJAVU_SANS: FamilyDef = {
  name: 'DejaVu Sans',
  files: { normal: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf', italic: 'DejaVuSans-Oblique.ttf', bolditalic: 'DejaVuSans-BoldOblique.ttf' },
};
export const DEJAVU_SERIF: FamilyDef = { name: 'DejaVu Serif', files: { normal: 'DejaVuSerif.ttf' } };
export const DEJAVU_MONO: FamilyDef = { name: 'DejaVu Sans Mono', files: { normal: 'DejaVuSansMono.ttf' } };
export const HEBREW: FamilyDef = {
  name: 'Noto Sans Hebrew',
  files: { normal: 'NotoSansHebrew-Regular.ttf', bold: 'NotoSansHebrew-Bold.ttf' },
};
export const ARABIC: FamilyDef = {
  name: 'Noto Sans Arabic',
  files: { normal: 'NotoSansArabic-Regular.ttf', bold: 'NotoSansArabic-Bold.ttf' },
};
export const CJK: FamilyDef = { name: 'Droid Sans Fallback', files: { normal: 'DroidSansFallbackFull.ttf' } };

/** The family used when a template names none, or one not in the table. */
export const DEFAULT_FAMILY = SANS;

/** Author-facing family names (lower case) → bundled family. */
const BY_NAME: ReadonlyMap<string, FamilyDef> = new Map<string, FamilyDef>([
  // Sans: Arial and Helvetica are metric-compatible with Liberation Sans.
  ...['arial', 'helvetica', 'helvetica neue', 'liberation sans', 'arimo', 'arial nova', 'sans-serif', 'sans serif', 'sans']
    .map((n) => [n, SANS] as [string, FamilyDef]),
  ...['times new roman', 'times', 'times-roman', 'liberation serif', 'tinos', 'serif']
    .map((n) => [n, SERIF] as [string, FamilyDef]),
  ...['courier new', 'courier', 'liberation mono', 'cousine', 'monospace', 'mono', 'consolas', 'lucida console']
    .map((n) => [n, MONO] as [string, FamilyDef]),
  // Calibri (Office 2007–2023 default) and Aptos (its successor, no metric twin) → Carlito.
  ...['calibri', 'calibri light', 'carlito', 'aptos'].map((n) => [n, CARLITO] as [string, FamilyDef]),
  ...['cambria', 'caladea'].map((n) => [n, CALADEA] as [string, FamilyDef]),
  ...['dejavu sans', 'verdana', 'bitstream vera sans'].map((n) => [n, DEJAVU_SANS] as [string, FamilyDef]),
  ...['dejavu serif', 'bitstream vera serif'].map((n) => [n, DEJAVU_SERIF] as [string, FamilyDef]),
  ...['dejavu sans mono', 'bitstream vera sans mono'].map((n) => [n, DEJAVU_MONO] as [string, FamilyDef]),
  ...['noto sans hebrew'].map((n) => [n, HEBREW] as [string, FamilyDef]),
  ...['noto sans arabic', 'noto naskh arabic'].map((n) => [n, ARABIC] as [string, FamilyDef]),
  // East Asian faces (w:eastAsia, theme minorEastAsia), by their English and their own names: one bundled CJK font.
  ...['droid sans fallback', 'simsun', 'ms mincho', 'ms gothic', 'malgun gothic', 'microsoft yahei', 'noto sans cjk',
    'nsimsun', 'simhei', 'dengxian', 'kaiti', 'fangsong', 'stsong', 'stheiti', 'stkaiti', 'ms pmincho', 'ms pgothic',
    'ms ui gothic', 'yu mincho', 'yu gothic', 'meiryo', 'mingliu', 'pmingliu', 'microsoft jhenghei', 'batang', 'gulim',
    'dotum', 'gungsuh', 'noto sans cjk sc', 'noto sans cjk jp', 'noto serif cjk sc', 'source han sans', 'source han serif',
    '宋体', '新宋体', '黑体', '等线', '楷体', '仿宋', '微软雅黑', '华文宋体', '华文楷体', 'ｍｓ 明朝', 'ｍｓ ゴシック', 'ｍｓ ｐ明朝',
    'ｍｓ ｐゴシック', 'ms 明朝', 'ms ゴシック', '游明朝', '游ゴシック', 'メイリオ', '細明體', '新細明體', '微軟正黑體', '바탕', '굴림', '돋움',
    '맑은 고딕', '궁서']
    .map((n) => [n, CJK] as [string, FamilyDef]),
]);

const cache = new Map<string, FamilyDef>();

/** The bundled family standing in for `name` (any case, quotes and fallbacks list tolerated). */
export function familyFor(name: string | undefined): FamilyDef {
  if (!name || typeof name !== 'string') return DEFAULT_FAMILY;
  const hit = cache.get(name);
  if (hit) return hit;
  let found: FamilyDef | undefined;
  // A CSS-like list ("Calibri, Arial, sans-serif") picks the first family we know.
  for (const part of name.split(',')) {
    const key = part.trim().replace(/^["']|["']$/g, '').trim().toLowerCase();
    found = BY_NAME.get(key);
    if (found) break;
  }
  const family = found ?? DEFAULT_FAMILY;
  if (cache.size < 1000) cache.set(name, family);
  return family;
}

export function variantOf(bold: boolean | undefined, italic: boolean | undefined): Variant {
  if (bold) return italic ? 'bolditalic' : 'bold';
  return italic ? 'italic' : 'normal';
}
