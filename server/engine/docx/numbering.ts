/**
 * Lists (word/numbering.xml): a paragraph's numId + ilvl → the level's format, text, start value and the indent
 * and label font the level sets. w:num instances point at an abstract definition (possibly through a numbering
 * style link) and may override a level's start or the whole level.
 */
import { LIST_FORMATS, type ListInfo } from '../model/types.js';
import { readPPr, readRPr, type PProps, type RProps } from './props.js';
import type { StyleSheet } from './styles.js';
import type { Theme } from './theme.js';
import { num } from './units.js';
import { child, children, type XElement } from './xml.js';

export interface ListLevel {
  list: ListInfo;
  /** Indentation (and any other paragraph property) the level sets. */
  p: PProps;
  /** Run properties of the label. */
  r: RProps;
  /** A w:numFmt the renderer cannot write (counted as decimal): reported as number_format_unsupported. */
  unsupported?: string;
}

const FORMATS = new Set<string>(LIST_FORMATS);

/** w:numFmt values that are plain digits under another name. */
const DECIMAL_ALIASES = new Set(['decimalHalfWidth', 'decimalFullWidth2']);

/**
 * Bullets set in symbol fonts are private-use code points (U+F0xx) that only mean something in that font;
 * they become the Unicode character they look like.
 */
const SYMBOL_BULLETS: Record<number, string> = {
  0xf0b7: '•',
  0xf0a7: '▪',
  0xf0a8: '□',
  0xf06c: '●',
  0xf06e: '■',
  0xf06f: '□',
  0xf071: '❑',
  0xf075: '◆',
  0xf076: '❖',
  0xf0d8: '➢',
  0xf0e0: '→',
  0xf0e8: '➔',
  0xf0fc: '✓',
  0xf0fb: '✗',
  0xf02d: '-',
  0xf02a: '*',
  0xf0a1: '○',
  0xf09f: '•',
};

export function bulletText(text: string): string {
  if (text === '') return text;
  const code = text.codePointAt(0) ?? 0;
  if (code >= 0xf000 && code <= 0xf0ff) return SYMBOL_BULLETS[code] ?? '•';
  return text;
}

interface LevelDef {
  format: ListInfo['format'];
  unsupported?: string;
  text?: string;
  start?: number;
  p: PProps;
  r: RProps;
}

/** Levels are kept as their w:lvl elements and read on first use (Numbering.levelDef). */
interface AbstractDef {
  levels: Map<number, XElement>;
  styleLink?: string;
}

interface NumDef {
  abstractId: string;
  startOverrides: Map<number, number>;
  levelOverrides: Map<number, XElement>;
}

/** Word 2010+ custom formats (w:format, the first items written out) that docloom writes, by their first item. */
const CUSTOM: Record<string, ListInfo['format']> = {
  '01': 'decimalZero', '001': 'decimalZero3', '0001': 'decimalZero4', '00001': 'decimalZero5', 'α': 'greekLower', 'Α': 'greekUpper',
};

function customFormat(el: XElement | undefined): ListInfo['format'] | undefined {
  if (el?.attrs['w:val'] !== 'custom') return undefined;
  return CUSTOM[(el.attrs['w:format'] ?? '').split(',')[0].trim()];
}

/**
 * The level's w:numFmt value. Word 2010+ writes custom formats in mc:AlternateContent (Choice: custom with
 * w:format; Fallback: a classic format): a custom format docloom writes wins, else the Fallback's — with
 * `unsupported` naming the custom format Word would have shown.
 */
function numFmtOf(lvl: XElement): { fmt: string; unsupported?: string } {
  const direct = child(lvl, 'w:numFmt');
  if (direct) return { fmt: customFormat(direct) ?? direct.attrs['w:val'] ?? 'decimal' };
  for (const alt of children(lvl, 'mc:AlternateContent')) {
    let unsupported: string | undefined;
    for (const choice of children(alt, 'mc:Choice')) {
      const el = child(choice, 'w:numFmt');
      const custom = customFormat(el);
      if (custom) return { fmt: custom };
      if (el?.attrs['w:val'] === 'custom') unsupported = `custom "${el.attrs['w:format'] ?? ''}"`;
    }
    const fallback = child(child(alt, 'mc:Fallback'), 'w:numFmt');
    if (fallback) return { fmt: fallback.attrs['w:val'] ?? 'decimal', unsupported };
  }
  return { fmt: 'decimal' };
}

function readLevel(lvl: XElement, theme: Theme): LevelDef {
  const { fmt, unsupported: customLost } = numFmtOf(lvl);
  let format: ListInfo['format'] = FORMATS.has(fmt) ? (fmt as ListInfo['format']) : 'decimal';
  const unsupported = customLost ?? (FORMATS.has(fmt) || DECIMAL_ALIASES.has(fmt) ? undefined : fmt);
  const rawText = child(lvl, 'w:lvlText')?.attrs['w:val'];
  let text = rawText;
  if (format === 'bullet') {
    text = bulletText(rawText ?? '•');
    if (text === '') format = 'none';
  }
  return {
    format,
    ...(unsupported ? { unsupported } : {}),
    text,
    start: num(child(lvl, 'w:start')?.attrs['w:val']),
    p: readPPr(child(lvl, 'w:pPr'), theme),
    r: readRPr(child(lvl, 'w:rPr'), theme),
  };
}

export class Numbering {
  /** The w:abstractNum elements by id; each indexed (abstract()) when a list first uses it. */
  private readonly abstractEls = new Map<string, XElement>();
  private readonly abstracts = new Map<string, AbstractDef>();
  private readonly nums = new Map<string, NumDef>();
  private readonly memo = new Map<string, ListLevel | null>();
  private readonly levelMemo = new Map<XElement, LevelDef>();

  /**
   * Lists and their levels are indexed here; a level's formatting is read when a paragraph first uses it. Word
   * copies every list ever pasted into numbering.xml (2.3 MB beside a 3 KB document in the corpus), so reading
   * every level up front cost more than the document.
   */
  constructor(
    root: XElement | undefined,
    private readonly theme: Theme,
    private readonly styles: StyleSheet,
    /** The numbering part's name (where number_format_unsupported points). */
    readonly part = 'word/numbering.xml',
  ) {
    for (const el of children(root, 'w:abstractNum')) {
      const id = el.attrs['w:abstractNumId'];
      if (id !== undefined) this.abstractEls.set(id, el);
    }
    for (const el of children(root, 'w:num')) {
      const id = el.attrs['w:numId'];
      const abstractId = child(el, 'w:abstractNumId')?.attrs['w:val'];
      if (id === undefined || abstractId === undefined) continue;
      const startOverrides = new Map<number, number>();
      const levelOverrides = new Map<number, XElement>();
      for (const o of children(el, 'w:lvlOverride')) {
        const ilvl = num(o.attrs['w:ilvl']);
        if (ilvl === undefined) continue;
        const start = num(child(o, 'w:startOverride')?.attrs['w:val']);
        if (start !== undefined) startOverrides.set(ilvl, start);
        const lvl = child(o, 'w:lvl');
        if (lvl) levelOverrides.set(ilvl, lvl);
      }
      this.nums.set(id, { abstractId, startOverrides, levelOverrides });
    }
  }

  /** An abstract list's levels and numbering-style link, read from its element once (its content is parsed then). */
  private abstract(id: string): AbstractDef | undefined {
    let abs = this.abstracts.get(id);
    if (abs) return abs;
    const el = this.abstractEls.get(id);
    if (!el) return undefined;
    const levels = new Map<number, XElement>();
    for (const lvl of children(el, 'w:lvl')) {
      const ilvl = num(lvl.attrs['w:ilvl']);
      if (ilvl !== undefined) levels.set(ilvl, lvl);
    }
    abs = { levels, styleLink: child(el, 'w:numStyleLink')?.attrs['w:val'] };
    this.abstracts.set(id, abs);
    return abs;
  }

  private levelDef(lvl: XElement | undefined): LevelDef | undefined {
    if (!lvl) return undefined;
    let def = this.levelMemo.get(lvl);
    if (!def) {
      def = readLevel(lvl, this.theme);
      this.levelMemo.set(lvl, def);
    }
    return def;
  }

  /** The abstract definition behind a num, following a numbering-style link (numStyleLink → style's numId). */
  private abstractOf(numId: string, depth = 0): [string, AbstractDef] | undefined {
    const def = this.nums.get(numId);
    if (!def) return undefined;
    const abs = this.abstract(def.abstractId);
    if (!abs) return undefined;
    if (abs.levels.size === 0 && abs.styleLink && depth < 4) {
      const linkedNum = this.styles.numberingStyleNumId(abs.styleLink);
      if (linkedNum && linkedNum !== numId) return this.abstractOf(linkedNum, depth + 1);
    }
    return [def.abstractId, abs];
  }

  /** The list level of a paragraph, or undefined when it is not in a list (numId 0 or unknown). */
  level(numId: string | undefined, ilvl: number | undefined): ListLevel | undefined {
    if (numId === undefined || numId === '0') return undefined;
    const level = Math.max(0, Math.min(8, ilvl ?? 0));
    const key = `${numId}:${level}`;
    if (this.memo.has(key)) return this.memo.get(key) ?? undefined;
    const numDef = this.nums.get(numId);
    const found = this.abstractOf(numId);
    let result: ListLevel | null = null;
    if (numDef && found) {
      const [abstractId, abs] = found;
      const lvl = this.levelDef(numDef.levelOverrides.get(level) ?? abs.levels.get(level));
      if (lvl) {
        const override = numDef.startOverrides.get(level);
        // Instances of one abstract list continue one numbering in Word, unless an instance restarts it.
        const id = numDef.startOverrides.size > 0 || numDef.levelOverrides.size > 0 ? `num${numId}` : `abs${abstractId}`;
        const list: ListInfo = { id, level, format: lvl.format };
        if (lvl.text !== undefined) list.text = lvl.text;
        const start = override ?? lvl.start;
        if (start !== undefined && lvl.format !== 'bullet') list.start = start;
        // A shallower level with no item yet shows its start value in this level's text ("%1.%2" → "5.1").
        const parents = Array.from({ length: level }, (_, l) => numDef.startOverrides.get(l) ?? this.levelDef(numDef.levelOverrides.get(l) ?? abs.levels.get(l))?.start ?? 1);
        if (parents.some((v) => v !== 1)) list.parentStarts = parents;
        result = { list, p: lvl.p, r: lvl.r };
        if (lvl.unsupported) result.unsupported = lvl.unsupported;
      }
    }
    this.memo.set(key, result);
    return result ?? undefined;
  }
}
