/**
 * Formatting properties as WordprocessingML states them (w:rPr, w:pPr, borders, shading), read into partial
 * objects that hold only what an element sets. Layers merge with a plain spread (later wins), which is exactly
 * how docDefaults → styles → direct formatting combine; the few exceptions (toggles, tab stops) are handled here.
 */
import type { BorderLine, TabStop } from '../model/types.js';
import type { Theme } from './theme.js';
import { themeColor, themeFont } from './theme.js';
import { flattenShading } from './shading.js';
import { eighthPoints, halfPoints, hexColor, num, onOff, twips } from './units.js';
import { child, children, type XElement } from './xml.js';

/** Run properties. `null` means "explicitly none" (colour auto, no highlight), so it overrides a style's value. */
export interface RProps {
  font?: string;
  csFont?: string;
  eaFont?: string;
  size?: number;
  sizeCs?: number;
  bold?: boolean;
  boldCs?: boolean;
  italic?: boolean;
  italicCs?: boolean;
  underline?: boolean;
  strike?: boolean;
  caps?: boolean;
  smallCaps?: boolean;
  vanish?: boolean;
  color?: string | null;
  highlight?: string | null;
  shading?: string | null;
  vertAlign?: 'superscript' | 'subscript' | null;
  rtl?: boolean;
  cs?: boolean;
  lang?: string;
  /** w:w: horizontal scale of the glyphs, percent. */
  scale?: number;
  /** w:spacing (in w:rPr): points added after each character (negative: condensed). */
  charSpacing?: number;
}

export interface TabDef extends TabStop {
  clear?: boolean;
}

export interface Borders {
  top?: BorderLine | null;
  bottom?: BorderLine | null;
  left?: BorderLine | null;
  right?: BorderLine | null;
  insideH?: BorderLine | null;
  insideV?: BorderLine | null;
}

/** Paragraph properties. */
export interface PProps {
  align?: 'left' | 'center' | 'right' | 'justify';
  indentLeft?: number;
  indentRight?: number;
  indentFirstLine?: number;
  spaceBefore?: number;
  spaceAfter?: number;
  beforeAuto?: boolean;
  afterAuto?: boolean;
  /** w:spacing/@w:line: 240ths of a line for 'auto', twips (as points here) for exact/atLeast. */
  line?: number;
  lineRule?: 'auto' | 'exact' | 'atLeast';
  outlineLevel?: number;
  keepNext?: boolean;
  pageBreakBefore?: boolean;
  /** w:widowControl: false lets a paragraph's first or last line stand alone at a page edge. */
  widowControl?: boolean;
  bidi?: boolean;
  tabs?: TabDef[];
  shading?: string | null;
  borders?: Borders;
  contextualSpacing?: boolean;
  /** False: the paragraph's lines ignore the section's document grid. */
  snapToGrid?: boolean;
  /** w:suppressLineNumbers: the paragraph's lines are neither numbered nor counted. */
  suppressLineNumbers?: boolean;
  /** Word's automatic space between East Asian text and Latin letters (autoSpaceDE) / digits (autoSpaceDN). */
  autoSpaceDE?: boolean;
  autoSpaceDN?: boolean;
  numId?: string;
  ilvl?: number;
}

const TOGGLES = ['bold', 'boldCs', 'italic', 'italicCs', 'strike', 'caps', 'smallCaps', 'vanish'] as const;

const HIGHLIGHTS: Record<string, string> = {
  yellow: '#ffff00',
  green: '#00ff00',
  cyan: '#00ffff',
  magenta: '#ff00ff',
  blue: '#0000ff',
  red: '#ff0000',
  darkBlue: '#000080',
  darkCyan: '#008080',
  darkGreen: '#008000',
  darkMagenta: '#800080',
  darkRed: '#800000',
  darkYellow: '#808000',
  darkGray: '#808080',
  lightGray: '#c0c0c0',
  black: '#000000',
  white: '#ffffff',
};

function flag(el: XElement | undefined): boolean | undefined {
  return el ? onOff(el.attrs['w:val']) : undefined;
}

/** A colour attribute set (`w:val`/`w:fill` plus theme colour) → '#rrggbb', null for auto, undefined when absent. */
function colorOf(el: XElement, attr: string, theme: Theme, themeAttr: string): string | null | undefined {
  const raw = el.attrs[attr];
  const direct = hexColor(raw);
  if (direct) return direct;
  const themed = el.attrs[themeAttr];
  if (themed) {
    // w:themeColor goes with w:themeTint/w:themeShade; w:themeFill with w:themeFillTint/w:themeFillShade.
    const base = themeAttr === 'w:themeFill' ? 'w:themeFill' : 'w:theme';
    const t = themeColor(theme, themed, el.attrs[`${base}Tint`], el.attrs[`${base}Shade`]);
    if (t) return t;
  }
  if (raw === 'auto') return null;
  return undefined;
}

/** Shading (w:shd): the colour its pattern and fill look like together, or null when it shows none. */
export function readShading(el: XElement | undefined, theme: Theme): string | null | undefined {
  if (!el) return undefined;
  const fill = colorOf(el, 'w:fill', theme, 'w:themeFill') ?? null;
  const pattern = colorOf(el, 'w:color', theme, 'w:themeColor') ?? null;
  return flattenShading(el.attrs['w:val'], pattern, fill);
}

export function readRPr(rPr: XElement | undefined, theme: Theme): RProps {
  const out: RProps = {};
  if (!rPr) return out;
  for (let i = 0; i < rPr.children.length; i++) {
    const el = rPr.children[i];
    if (typeof el === 'string') continue;
    const val = el.attrs['w:val'];
    switch (el.name) {
      case 'w:rFonts': {
        const ascii = (el.attrs['w:asciiTheme'] && themeFont(theme, el.attrs['w:asciiTheme'])) || el.attrs['w:ascii'] ||
          (el.attrs['w:hAnsiTheme'] && themeFont(theme, el.attrs['w:hAnsiTheme'])) || el.attrs['w:hAnsi'];
        if (ascii) out.font = ascii;
        const cs = (el.attrs['w:cstheme'] && themeFont(theme, el.attrs['w:cstheme'])) || el.attrs['w:cs'];
        if (cs) out.csFont = cs;
        const ea = (el.attrs['w:eastAsiaTheme'] && themeFont(theme, el.attrs['w:eastAsiaTheme'])) || el.attrs['w:eastAsia'];
        if (ea) out.eaFont = ea;
        break;
      }
      case 'w:sz': {
        const s = halfPoints(val);
        if (s !== undefined && s > 0) out.size = s;
        break;
      }
      case 'w:szCs': {
        const s = halfPoints(val);
        if (s !== undefined && s > 0) out.sizeCs = s;
        break;
      }
      case 'w:b':
        out.bold = flag(el);
        break;
      case 'w:bCs':
        out.boldCs = flag(el);
        break;
      case 'w:i':
        out.italic = flag(el);
        break;
      case 'w:iCs':
        out.italicCs = flag(el);
        break;
      case 'w:u':
        out.underline = val !== undefined && val !== 'none' && val !== '0';
        break;
      case 'w:strike':
      case 'w:dstrike':
        if (flag(el) || out.strike === undefined) out.strike = flag(el);
        break;
      case 'w:caps':
        out.caps = flag(el);
        break;
      case 'w:smallCaps':
        out.smallCaps = flag(el);
        break;
      case 'w:vanish':
        out.vanish = flag(el);
        break;
      case 'w:color': {
        const c = colorOf(el, 'w:val', theme, 'w:themeColor');
        if (c !== undefined) out.color = c;
        break;
      }
      case 'w:highlight':
        out.highlight = val && val !== 'none' ? (HIGHLIGHTS[val] ?? null) : null;
        break;
      case 'w:shd': {
        const s = readShading(el, theme);
        if (s !== undefined) out.shading = s;
        break;
      }
      case 'w:vertAlign':
        out.vertAlign = val === 'superscript' || val === 'subscript' ? val : null;
        break;
      case 'w:rtl':
        out.rtl = flag(el);
        break;
      case 'w:cs':
        out.cs = flag(el);
        break;
      case 'w:lang':
        if (val) out.lang = val;
        break;
      case 'w:spacing': {
        // ST_SignedTwipsMeasure: twentieths of a point after every character, expanded (> 0) or condensed (< 0).
        const pt = twips(val ?? undefined);
        if (pt !== undefined && Number.isFinite(pt)) out.charSpacing = Math.min(1584, Math.max(-1584, pt));
        break;
      }
      case 'w:w': {
        // ST_TextScale: a percentage from 1 to 600 (Word writes "95"; "95%" is the transitional form).
        const scale = parseFloat(val ?? '');
        if (Number.isFinite(scale) && scale > 0) out.scale = Math.min(600, Math.max(1, scale));
        break;
      }
      default:
        break;
    }
  }
  return out;
}

/** Hundredths of a line (ST_DecimalNumber of w:beforeLines/w:afterLines) as points, a line being 12 pt. */
function lines(value: string | undefined): number | undefined {
  const n = num(value);
  return n === undefined ? undefined : Math.max(0, n) * 0.12;
}

/** Layers run properties. With `toggle`, on/off properties switch instead of override (style over style). */
export function mergeR(base: RProps, over: RProps, toggle = false): RProps {
  const out = { ...base, ...over };
  if (toggle) {
    for (const key of TOGGLES) {
      if (base[key] && over[key]) out[key] = false;
    }
  }
  return out;
}

function borderLine(el: XElement | undefined, theme: Theme): BorderLine | null | undefined {
  if (!el) return undefined;
  const val = el.attrs['w:val'];
  if (!val || val === 'nil' || val === 'none') return null;
  const width = Math.max(0.25, eighthPoints(el.attrs['w:sz']) ?? 0.5);
  const color = colorOf(el, 'w:color', theme, 'w:themeColor') ?? '#000000';
  let style: BorderLine['style'] = 'single';
  if (val === 'double' || val.startsWith('triple') || val.startsWith('thinThick') || val.startsWith('thickThin')) style = 'double';
  else if (val.startsWith('dash')) style = 'dashed';
  else if (val === 'dotted' || val === 'dotDash' || val === 'dotDotDash') style = 'dotted';
  // w:space is in points (ST_PointMeasure, 0–31); only paragraph borders use it.
  const space = Number(el.attrs['w:space']);
  return Number.isFinite(space) && space > 0 ? { width, color, style, space: Math.min(space, 31) } : { width, color, style };
}

/** Borders of a paragraph (w:pBdr), a table (w:tblBorders) or a cell (w:tcBorders). */
export function readBorders(el: XElement | undefined, theme: Theme): Borders | undefined {
  if (!el) return undefined;
  const out: Borders = {};
  setBorder(out, 'top', borderLine(child(el, 'w:top'), theme));
  setBorder(out, 'bottom', borderLine(child(el, 'w:bottom'), theme));
  setBorder(out, 'left', borderLine(child(el, 'w:left') ?? child(el, 'w:start'), theme));
  setBorder(out, 'right', borderLine(child(el, 'w:right') ?? child(el, 'w:end'), theme));
  setBorder(out, 'insideH', borderLine(child(el, 'w:insideH'), theme));
  setBorder(out, 'insideV', borderLine(child(el, 'w:insideV'), theme));
  return out;
}

/** A side read from the XML (null: written as no border; undefined: not written, so left out). */
function setBorder(out: Borders, key: keyof Borders, line: BorderLine | null | undefined): void {
  if (line !== undefined) out[key] = line;
}

export function mergeBorders(base: Borders | undefined, over: Borders | undefined): Borders | undefined {
  if (!over) return base;
  if (!base) return over;
  return { ...base, ...over };
}

function readTabs(el: XElement): TabDef[] {
  const out: TabDef[] = [];
  for (const tab of children(el, 'w:tab')) {
    const pos = twips(tab.attrs['w:pos']);
    if (pos === undefined) continue;
    const val = tab.attrs['w:val'];
    if (val === 'clear') {
      out.push({ pos, align: 'left', clear: true });
      continue;
    }
    if (val === 'bar' || val === 'num') continue;
    const align = val === 'center' ? 'center' : val === 'right' || val === 'end' ? 'right' : val === 'decimal' ? 'decimal' : 'left';
    const leaderRaw = tab.attrs['w:leader'];
    const leader =
      leaderRaw === 'dot' ? 'dot' : leaderRaw === 'middleDot' ? 'middleDot' : leaderRaw === 'hyphen' ? 'hyphen' : leaderRaw === 'underscore' || leaderRaw === 'heavy' ? 'underscore' : undefined;
    out.push(leader ? { pos, align, leader } : { pos, align });
  }
  return out;
}

export function readPPr(pPr: XElement | undefined, theme: Theme): PProps {
  const out: PProps = {};
  if (!pPr) return out;
  for (let i = 0; i < pPr.children.length; i++) {
    const el = pPr.children[i];
    if (typeof el === 'string') continue;
    const val = el.attrs['w:val'];
    switch (el.name) {
      case 'w:jc':
        if (val === 'center') out.align = 'center';
        else if (val === 'right' || val === 'end') out.align = 'right';
        else if (val === 'both' || val === 'distribute' || val === 'thaiDistribute' || val?.startsWith('lowKashida') || val?.startsWith('mediumKashida') || val?.startsWith('highKashida')) out.align = 'justify';
        else if (val === 'left' || val === 'start') out.align = 'left';
        break;
      case 'w:ind': {
        const left = twips(el.attrs['w:left'] ?? el.attrs['w:start']);
        const right = twips(el.attrs['w:right'] ?? el.attrs['w:end']);
        const first = twips(el.attrs['w:firstLine']);
        const hanging = twips(el.attrs['w:hanging']);
        if (left !== undefined) out.indentLeft = left;
        if (right !== undefined) out.indentRight = right;
        if (hanging !== undefined) out.indentFirstLine = -hanging;
        else if (first !== undefined) out.indentFirstLine = first;
        break;
      }
      case 'w:spacing': {
        // Spacing in hundredths of a line (w:beforeLines/w:afterLines, a line being 12 pt) counts where the same
        // element gives no w:before/w:after: Word writes both, in agreement, when it writes both (LibreOffice's
        // import reads them so); files with only the line form (oxsdk__Outreach_Toolkit's bullets, 0.6 line
        // before and after) would otherwise lose that spacing.
        const before = twips(el.attrs['w:before']) ?? lines(el.attrs['w:beforeLines']);
        const after = twips(el.attrs['w:after']) ?? lines(el.attrs['w:afterLines']);
        if (before !== undefined) out.spaceBefore = before;
        if (after !== undefined) out.spaceAfter = after;
        // A length written without its auto flag is a length: it replaces an "auto" spacing inherited from the
        // style, as Word's page count shows (oxsdk__BackgroundReport: Normal (Web) auto spacing under direct
        // w:before="0" w:after="0" — Word 78 pages, as LibreOffice, whose writerfilter does the same).
        if (el.attrs['w:beforeAutospacing'] !== undefined) out.beforeAuto = onOff(el.attrs['w:beforeAutospacing']);
        else if (before !== undefined) out.beforeAuto = false;
        if (el.attrs['w:afterAutospacing'] !== undefined) out.afterAuto = onOff(el.attrs['w:afterAutospacing']);
        else if (after !== undefined) out.afterAuto = false;
        // In 240ths of a line for 'auto', twips otherwise; Strict writes a universal measure ("12.95pt" = 259).
        const lineTw = twips(el.attrs['w:line']);
        const line = lineTw === undefined ? undefined : lineTw * 20;
        if (line !== undefined && line > 0) {
          const rule = el.attrs['w:lineRule'];
          out.lineRule = rule === 'exact' ? 'exact' : rule === 'atLeast' ? 'atLeast' : 'auto';
          out.line = out.lineRule === 'auto' ? line : line / 20;
        }
        break;
      }
      case 'w:outlineLvl': {
        const n = num(val);
        if (n !== undefined) out.outlineLevel = n;
        break;
      }
      case 'w:keepNext':
        out.keepNext = flag(el);
        break;
      case 'w:pageBreakBefore':
        out.pageBreakBefore = flag(el);
        break;
      case 'w:widowControl':
        out.widowControl = flag(el);
        break;
      case 'w:bidi':
        out.bidi = flag(el);
        break;
      case 'w:contextualSpacing':
        out.contextualSpacing = flag(el);
        break;
      case 'w:snapToGrid':
        out.snapToGrid = flag(el);
        break;
      case 'w:suppressLineNumbers':
        out.suppressLineNumbers = flag(el);
        break;
      case 'w:autoSpaceDE':
        out.autoSpaceDE = flag(el);
        break;
      case 'w:autoSpaceDN':
        out.autoSpaceDN = flag(el);
        break;
      case 'w:tabs':
        out.tabs = readTabs(el);
        break;
      case 'w:shd': {
        const s = readShading(el, theme);
        if (s !== undefined) out.shading = s;
        break;
      }
      case 'w:pBdr':
        out.borders = readBorders(el, theme);
        break;
      case 'w:numPr': {
        const numId = child(el, 'w:numId')?.attrs['w:val'];
        const ilvl = num(child(el, 'w:ilvl')?.attrs['w:val']);
        if (numId !== undefined) out.numId = numId;
        if (ilvl !== undefined) out.ilvl = ilvl;
        break;
      }
      default:
        break;
    }
  }
  return out;
}

/**
 * A right-to-left paragraph's (w:bidi) properties with its sides made physical, as the model has them. In
 * WordprocessingML "left" means the start side of a right-to-left paragraph (Word's and LibreOffice's reading):
 * w:jc left/start aligns it to the right, w:jc right/end to the left, and w:ind left/start indents it from the
 * right. Without w:jc it aligns to its start, the right. Tab stops and list labels the layout mirrors itself.
 */
export function physicalSides(p: PProps): PProps {
  if (!p.bidi) return p;
  const align = p.align === 'left' || p.align === undefined ? 'right' : p.align === 'right' ? 'left' : p.align;
  const out: PProps = { ...p, align };
  delete out.indentLeft;
  delete out.indentRight;
  if (p.indentRight !== undefined) out.indentLeft = p.indentRight;
  if (p.indentLeft !== undefined) out.indentRight = p.indentLeft;
  if (p.borders) out.borders = { ...p.borders, left: p.borders.right, right: p.borders.left };
  return out;
}

/** Layers paragraph properties; tab stops accumulate (a 'clear' stop removes the inherited one at its position). */
export function mergeP(base: PProps, over: PProps): PProps {
  const out = { ...base, ...over };
  if (base.tabs && over.tabs) {
    const stops = base.tabs.filter((t) => !over.tabs?.some((o) => Math.abs(o.pos - t.pos) < 0.5));
    for (const t of over.tabs) stops.push(t);
    out.tabs = stops;
  }
  if (base.borders && over.borders) out.borders = { ...base.borders, ...over.borders };
  return out;
}
