/**
 * The style sheet (word/styles.xml): document defaults, paragraph / character / table styles and their basedOn
 * chains, resolved once per style id and memoised. Callers layer the results in Word's order:
 *   docDefaults → table style → paragraph style (basedOn chain) → numbering level → direct paragraph formatting
 *   docDefaults → table style → paragraph style → character style (toggles switch) → direct run formatting
 */
import type { Theme } from './theme.js';
import { mergeBorders, mergeP, mergeR, readBorders, readPPr, readRPr, readShading, type Borders, type PProps, type RProps } from './props.js';
import { twips } from './units.js';
import { child, children, type XElement } from './xml.js';

export interface CellMargins {
  top?: number;
  bottom?: number;
  left?: number;
  right?: number;
}

/** What a table style (or one of its conditional parts: firstRow, band1Horz, …) contributes. */
export interface TableLayer {
  p: PProps;
  r: RProps;
  shading?: string | null;
  /** Borders of the table (w:tblBorders). */
  tableBorders?: Borders;
  /** Borders of the cells this layer covers (w:tcBorders). */
  cellBorders?: Borders;
  cellMargins?: CellMargins;
}

export interface TableStyle {
  base: TableLayer;
  conditional: Map<string, TableLayer>;
}

interface StyleDef {
  id: string;
  type: string;
  /** The w:style element: its name, basedOn and formatting are read on first use (its content is parsed then). */
  el: XElement;
}

/** A style's name (w:name), or its id when it has none. */
function nameOf(def: StyleDef): string {
  return child(def.el, 'w:name')?.attrs['w:val'] ?? def.id;
}

function basedOnOf(def: StyleDef): string | undefined {
  return child(def.el, 'w:basedOn')?.attrs['w:val'];
}

interface StyleFormatting {
  p: PProps;
  r: RProps;
  table?: TableStyle;
}

export interface ResolvedParagraphStyle {
  p: PProps;
  r: RProps;
  /** 1-based heading level from the style's name ('heading 2') anywhere in its chain. */
  headingFromName?: number;
}

const MAX_CHAIN = 32;

export function readCellMargins(el: XElement | undefined): CellMargins | undefined {
  if (!el) return undefined;
  return { top: marginSide(el, 'w:top'), bottom: marginSide(el, 'w:bottom'), left: marginSide(el, 'w:left', 'w:start'), right: marginSide(el, 'w:right', 'w:end') };
}

/** One side's margin in twips: the first of its names written as a width in dxa (or with no type), else undefined. */
function marginSide(el: XElement, name: string, alias?: string): number | undefined {
  const c = child(el, name);
  if (c && (c.attrs['w:type'] === undefined || c.attrs['w:type'] === 'dxa')) return twips(c.attrs['w:w']);
  return alias === undefined ? undefined : marginSide(el, alias);
}

function readTableLayer(el: XElement, theme: Theme): TableLayer {
  const tblPr = child(el, 'w:tblPr');
  const tcPr = child(el, 'w:tcPr');
  return {
    p: readPPr(child(el, 'w:pPr'), theme),
    r: readRPr(child(el, 'w:rPr'), theme),
    shading: readShading(child(tcPr, 'w:shd'), theme) ?? readShading(child(tblPr, 'w:shd'), theme),
    tableBorders: readBorders(child(tblPr, 'w:tblBorders'), theme),
    cellBorders: readBorders(child(tcPr, 'w:tcBorders'), theme),
    cellMargins: readCellMargins(child(tblPr, 'w:tblCellMar')),
  };
}

function mergeMargins(a: CellMargins | undefined, b: CellMargins | undefined): CellMargins | undefined {
  if (!b) return a;
  if (!a) return b;
  const out: CellMargins = { ...a };
  for (const k of ['top', 'bottom', 'left', 'right'] as const) if (b[k] !== undefined) out[k] = b[k];
  return out;
}

export function mergeLayer(a: TableLayer, b: TableLayer): TableLayer {
  return {
    p: mergeP(a.p, b.p),
    r: mergeR(a.r, b.r),
    shading: b.shading !== undefined ? b.shading : a.shading,
    tableBorders: mergeBorders(a.tableBorders, b.tableBorders),
    cellBorders: mergeBorders(a.cellBorders, b.cellBorders),
    cellMargins: mergeMargins(a.cellMargins, b.cellMargins),
  };
}

const EMPTY_LAYER: TableLayer = { p: {}, r: {} };

export class StyleSheet {
  readonly docR: RProps;
  readonly docP: PProps;
  readonly defaultParagraphStyle?: string;
  readonly defaultCharacterStyle?: string;
  readonly defaultTableStyle?: string;
  private readonly defs = new Map<string, StyleDef>();
  private readonly paraMemo = new Map<string, ResolvedParagraphStyle>();
  private readonly charMemo = new Map<string, RProps>();
  private readonly tableMemo = new Map<string, TableStyle>();
  private readonly formattingMemo = new Map<StyleDef, StyleFormatting>();

  /**
   * Only a style's id and type (attributes of w:style) are read here; its name, basedOn and formatting when a chain
   * first needs them. A sheet holds every style the producer ever wrote (hundreds of latent and table styles, up to
   * 0.8 MB in the corpus) while a document uses a handful: reading all of them up front was most of the import of a
   * short document, and the package parses a w:style's content only when it is first read (package.ts, LAZY).
   */
  constructor(root: XElement | undefined, private readonly theme: Theme) {
    const defaults = child(root, 'w:docDefaults');
    this.docR = readRPr(child(child(defaults, 'w:rPrDefault'), 'w:rPr'), theme);
    this.docP = readPPr(child(child(defaults, 'w:pPrDefault'), 'w:pPr'), theme);
    for (const el of children(root, 'w:style')) {
      const id = el.attrs['w:styleId'];
      if (!id) continue;
      const type = el.attrs['w:type'] ?? 'paragraph';
      const def: StyleDef = { id, type, el };
      if (!this.defs.has(id)) this.defs.set(id, def);
      const isDefault = el.attrs['w:default'] === '1' || el.attrs['w:default'] === 'true';
      if (isDefault) {
        const self = this as { -readonly [K in keyof StyleSheet]: StyleSheet[K] };
        if (type === 'paragraph' && !this.defaultParagraphStyle) self.defaultParagraphStyle = id;
        if (type === 'character' && !this.defaultCharacterStyle) self.defaultCharacterStyle = id;
        if (type === 'table' && !this.defaultTableStyle) self.defaultTableStyle = id;
      }
    }
  }

  /** A style's own formatting (not its basedOn chain's), read from its element once. */
  private formatting(def: StyleDef): StyleFormatting {
    let f = this.formattingMemo.get(def);
    if (f) return f;
    const { el } = def;
    f = { p: readPPr(child(el, 'w:pPr'), this.theme), r: readRPr(child(el, 'w:rPr'), this.theme) };
    if (def.type === 'table') {
      const conditional = new Map<string, TableLayer>();
      for (const part of children(el, 'w:tblStylePr')) {
        const kind = part.attrs['w:type'];
        if (kind) conditional.set(kind, readTableLayer(part, this.theme));
      }
      f.table = { base: readTableLayer(el, this.theme), conditional };
    }
    this.formattingMemo.set(def, f);
    return f;
  }

  /** The chain of a style, root first (basedOn loops and missing parents end it). */
  private chain(id: string | undefined, type: string): StyleDef[] {
    const out: StyleDef[] = [];
    const seen = new Set<string>();
    let cur = id;
    while (cur !== undefined && !seen.has(cur) && out.length < MAX_CHAIN) {
      seen.add(cur);
      const def = this.defs.get(cur);
      if (!def || def.type !== type) break;
      out.unshift(def);
      cur = basedOnOf(def);
    }
    return out;
  }

  /** Does a paragraph style exist? (An unknown pStyle falls back to the default paragraph style, as in Word.) */
  hasParagraphStyle(id: string | undefined): boolean {
    return id !== undefined && this.defs.get(id)?.type === 'paragraph';
  }

  paragraphStyle(id: string | undefined): ResolvedParagraphStyle {
    const key = this.hasParagraphStyle(id) ? (id as string) : (this.defaultParagraphStyle ?? '');
    const memo = this.paraMemo.get(key);
    if (memo) return memo;
    let p: PProps = {};
    let r: RProps = {};
    let headingFromName: number | undefined;
    for (const def of this.chain(key, 'paragraph')) {
      const own = this.formatting(def);
      p = mergeP(p, own.p);
      r = mergeR(r, own.r);
      const m = /^heading\s*([1-9])$/i.exec(nameOf(def));
      if (m) headingFromName = Number(m[1]);
    }
    const resolved = { p, r, headingFromName };
    this.paraMemo.set(key, resolved);
    return resolved;
  }

  /** The numId a numbering style (w:type="numbering") points at, for abstract lists linked to it. */
  numberingStyleNumId(id: string): string | undefined {
    const def = this.defs.get(id);
    return def?.type === 'numbering' ? this.formatting(def).p.numId : undefined;
  }

  characterStyle(id: string | undefined): RProps {
    const key = id ?? this.defaultCharacterStyle ?? '';
    const memo = this.charMemo.get(key);
    if (memo) return memo;
    let r: RProps = {};
    for (const def of this.chain(key, 'character')) r = mergeR(r, this.formatting(def).r);
    this.charMemo.set(key, r);
    return r;
  }

  tableStyle(id: string | undefined): TableStyle {
    const key = id !== undefined && this.defs.get(id)?.type === 'table' ? id : (this.defaultTableStyle ?? '');
    const memo = this.tableMemo.get(key);
    if (memo) return memo;
    let base: TableLayer = EMPTY_LAYER;
    const conditional = new Map<string, TableLayer>();
    for (const def of this.chain(key, 'table')) {
      const table = this.formatting(def).table;
      if (!table) continue;
      base = mergeLayer(base, table.base);
      for (const [kind, layer] of table.conditional) {
        conditional.set(kind, mergeLayer(conditional.get(kind) ?? EMPTY_LAYER, layer));
      }
    }
    const resolved = { base, conditional };
    this.tableMemo.set(key, resolved);
    return resolved;
  }
}
