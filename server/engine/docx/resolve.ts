/**
 * Turns resolved WordprocessingML properties into the model's styles (RunStyle, ParagraphStyle). The model
 * carries styles fully resolved, so what is written here is what the renderer draws.
 */
import type { ParagraphStyle, RunStyle, TabStop } from '../model/types.js';
import type { PProps, RProps } from './props.js';
import { round2 } from './units.js';

/** Word's own fallbacks when neither docDefaults nor a style say anything. */
export const WORD_DEFAULT_FONT = 'Times New Roman';
export const WORD_DEFAULT_SIZE = 10;
/** Word's "auto" paragraph spacing (w:beforeAutospacing, HTML-style) is 14 pt. */
export const AUTO_SPACING = 14;

/**
 * Which side of a paragraph style has "auto" spacing, for neighbours.ts: Word collapses auto spacing between
 * neighbours and drops it at the edges of a cell. Kept beside the model (keyed by the style object
 * toParagraphStyle makes) because the model's ParagraphStyle carries lengths only.
 */
export const autoSpacing = new WeakMap<ParagraphStyle, { before: boolean; after: boolean }>();

const RTL_TEXT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/;
/** East Asian characters: drawn with the run's w:eastAsia font. */
export const CJK_TEXT = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;

/** Complex-script runs (Hebrew, Arabic…) take the *Cs variants of font, size, bold and italic. */
export function toRunStyle(r: RProps, text: string, link?: string): RunStyle {
  const complex = r.cs === true || r.rtl === true || RTL_TEXT.test(text);
  const eastAsian = !complex && r.eaFont !== undefined && CJK_TEXT.test(text);
  const style: RunStyle = {
    font: (complex ? r.csFont : eastAsian ? r.eaFont : undefined) ?? r.font ?? WORD_DEFAULT_FONT,
    size: (complex ? (r.sizeCs ?? r.size) : r.size) ?? WORD_DEFAULT_SIZE,
  };
  if (complex ? (r.boldCs ?? r.bold) : r.bold) style.bold = true;
  if (complex ? (r.italicCs ?? r.italic) : r.italic) style.italic = true;
  if (r.underline) style.underline = true;
  if (r.strike) style.strike = true;
  if (r.color) style.color = r.color;
  const highlight = r.highlight ?? r.shading;
  if (highlight) style.highlight = highlight;
  if (r.vertAlign) style.vertAlign = r.vertAlign;
  // Word: all caps wins over small caps.
  if (r.caps) style.caps = true;
  else if (r.smallCaps) style.smallCaps = true;
  if (link) style.link = link;
  if (r.scale !== undefined && r.scale !== 100) style.scale = r.scale;
  if (r.charSpacing) style.charSpacing = r.charSpacing;
  return style;
}

/**
 * The paragraph style, complete (every spacing and indent value written, zero included), so the renderer
 * never has to combine it with anything.
 */
export function toParagraphStyle(p: PProps, heading?: number, styleId?: string): ParagraphStyle {
  const style: ParagraphStyle = {
    align: p.align ?? 'left',
    indentLeft: round2(p.indentLeft ?? 0),
    indentRight: round2(p.indentRight ?? 0),
    indentFirstLine: round2(p.indentFirstLine ?? 0),
    spaceBefore: round2(p.beforeAuto ? AUTO_SPACING : (p.spaceBefore ?? 0)),
    spaceAfter: round2(p.afterAuto ? AUTO_SPACING : (p.spaceAfter ?? 0)),
    lineHeight: lineHeight(p),
  };
  // Exact and at-least spacing are lengths, whatever the fonts of the line (not a multiple of the mark's size).
  if (p.line !== undefined && p.line > 0 && p.lineRule === 'exact') style.lineExact = round2(p.line);
  else if (p.line !== undefined && p.line > 0 && p.lineRule === 'atLeast') style.lineAtLeast = round2(p.line);
  if (heading !== undefined && heading >= 1 && heading <= 6) style.heading = heading as ParagraphStyle['heading'];
  if (p.keepNext) style.keepWithNext = true;
  if (p.pageBreakBefore) style.pageBreakBefore = true;
  // Widow/orphan control is on unless turned off (docDefaults, a style or the paragraph; ECMA-376 17.3.1.44), as
  // in a new Word document. Written either way: the document's defaults (model `defaults.paragraph`) may have
  // turned it off and the paragraph on again.
  if (p.widowControl !== undefined) style.widowControl = p.widowControl;
  if (p.bidi) style.rtl = true;
  if (p.tabs) {
    const tabs: TabStop[] = p.tabs
      .filter((t) => !t.clear)
      .sort((a, b) => a.pos - b.pos)
      .map((t) => (t.leader ? { pos: round2(t.pos), align: t.align, leader: t.leader } : { pos: round2(t.pos), align: t.align }));
    if (tabs.length > 0) style.tabs = tabs;
  }
  if (p.shading) style.shading = p.shading;
  if (p.beforeAuto || p.afterAuto) autoSpacing.set(style, { before: p.beforeAuto === true, after: p.afterAuto === true });
  if (p.contextualSpacing) style.contextualSpacing = styleId ?? '';
  if (p.snapToGrid === false) style.snapToGrid = false;
  if (p.suppressLineNumbers === true) style.suppressLineNumbers = true;
  // On unless a style or the paragraph turns it off (ECMA-376 §17.3.1.2/3; Word's and LibreOffice's default).
  // (written either way: the document defaults' paragraph style is merged under it).
  style.autoSpaceLatin = p.autoSpaceDE !== false;
  style.autoSpaceDigits = p.autoSpaceDN !== false;
  if (p.borders) {
    const b: NonNullable<ParagraphStyle['borders']> = {};
    if (p.borders.top) b.top = p.borders.top;
    if (p.borders.bottom) b.bottom = p.borders.bottom;
    if (p.borders.left) b.left = p.borders.left;
    if (p.borders.right) b.right = p.borders.right;
    if (Object.keys(b).length > 0) style.borders = b;
  }
  return style;
}

function lineHeight(p: PProps): number {
  if (p.line === undefined || p.lineRule !== 'auto') return 1;
  return round2(Math.max(0.5, p.line / 240));
}
