/** Run and paragraph styles resolved against the document defaults. */
import type { RunStyle } from '../../model/types.js';
import { parseColor, type Rgb } from './color.js';
import type { Face } from '../fonts/faces.js';
import type { Fmt } from './items.js';
import { copyOf } from '../../copy.js';

const BLACK: Rgb = [0, 0, 0];
export const DEFAULT_FONT_SIZE = 11;

let merged = new WeakMap<object, WeakMap<object, object>>();

/**
 * `base` overridden by the fields `over` defines (an explicit `undefined` does not erase a default). Results
 * are remembered per (base, over) pair: styles are shared by many runs and never mutated during a render.
 */
export function merge<T extends object>(base: T | undefined, over: T | undefined): T {
  if (!over || typeof over !== 'object') return (base ?? {}) as T;
  if (!base) return over;
  let byOver = merged.get(base);
  if (!byOver) {
    byOver = new WeakMap();
    merged.set(base, byOver);
  }
  const hit = byOver.get(over);
  if (hit) return hit as T;
  const out = copyOf(base) as Record<string, unknown>;
  for (const k in over) {
    const v = (over as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  byOver.set(over, out);
  return out as T;
}

export function fontSize(style: RunStyle): number {
  const size = Number(style.size);
  return Number.isFinite(size) && size > 0 ? Math.min(Math.max(size, 1), 500) : DEFAULT_FONT_SIZE;
}

/** Formats are interned: equal styles give the same object, so text in equal styles merges into one operation. */
const interned = new Map<string, Fmt>();
let byStyle = new WeakMap<RunStyle, Fmt>();

/**
 * Forgets the per-object caches: called when a render starts, so a model changed between two renders is
 * read afresh (within one render nothing changes).
 */
export function resetStyleCaches(): void {
  merged = new WeakMap();
  byStyle = new WeakMap();
  smallCaps = new WeakMap();
  byValues = new Map();
  byObjects = new WeakMap();
  recent.fill(undefined);
}

export function makeFmt(style: RunStyle): Fmt {
  const known = byStyle.get(style);
  if (known) return known;
  const fmt = buildFmt(style);
  const key = `${fmt.size}|${fmt.drawSize}|${fmt.rise}|${fmt.color.join(',')}|${fmt.underline}|${fmt.strike}|${fmt.highlight?.join(',') ?? ''}|${fmt.link ?? ''}|${fmt.scale}|${fmt.spacing}`;
  let shared = interned.get(key);
  if (!shared) {
    shared = fmt;
    if (interned.size > 10_000) {
      interned.clear();
      // What it found must stay the interned format (text drawn alike merges only with the same object).
      byValues.clear();
      byObjects = new WeakMap();
      recent.fill(undefined);
    }
    interned.set(key, shared);
  }
  byStyle.set(style, shared);
  return shared;
}

let smallCaps = new WeakMap<Fmt, Fmt>();

/** The fields of a run style that make its format (buildFmt reads these and nothing else). */
const FORMAT_FIELDS = ['size', 'vertAlign', 'color', 'underline', 'strike', 'highlight', 'link', 'scale', 'charSpacing'] as const;

/**
 * Formats of text runs by the values of their format's fields, within one render (reset with the other caches). An
 * imported document gives every run a style object of its own, so makeFmt's lookup by object missed for nearly every
 * run and merged, built and interned its format again (a few per cent of a long document's render).
 */
let byValues = new Map<string, Fmt>();

/** A field of `base` overridden by `over`, as merge(base, over) would hold it (without building the merged style). */
export function runField<K extends keyof RunStyle>(base: RunStyle | undefined, over: RunStyle | undefined, key: K): RunStyle[K] | undefined {
  const v = over && typeof over === 'object' ? over[key] : undefined;
  return v !== undefined ? v : base?.[key];
}

/**
 * makeFmt(merge(base, over)), the same interned object, found by the values of the fields it is made of. Values
 * that JSON writes alike (null, undefined, NaN, infinities) build alike; a field holding an object (not from a model
 * read as JSON) goes the long way.
 */
export function runFmt(base: RunStyle | undefined, over: RunStyle | undefined): Fmt {
  // The same style objects again (a template's runs repeated by its data, a header laid out on every page, a
  // paragraph's mark and its first run): found by identity among the last few, without building the key.
  for (let i = 0; i < RECENT * 3; i += 3) if (recent[i] === over && recent[i + 1] === base && over !== undefined) return recent[i + 2] as Fmt;
  // Style objects shared by many runs (the Word import gives runs of equal style one object): by identity, as
  // merge and makeFmt remember them; a style of its own per run is keyed by its values.
  let byOver: WeakMap<object, Fmt> | undefined;
  if (base && over && typeof over === 'object') {
    byOver = byObjects.get(base);
    if (!byOver) byObjects.set(base, (byOver = new WeakMap()));
  }
  let fmt = byOver?.get(over!);
  if (!fmt) {
    fmt = fmtByValues(base, over);
    byOver?.set(over!, fmt);
  }
  recent[recentNext] = over;
  recent[recentNext + 1] = base;
  recent[recentNext + 2] = fmt;
  recentNext = (recentNext + 3) % (RECENT * 3);
  return fmt;
}

/** Formats by defaults and style object (within one render). */
let byObjects = new WeakMap<object, WeakMap<object, Fmt>>();

/** How many (over, base) → format pairs runFmt remembers by identity. */
const RECENT = 16;
/** Triples over, base, format; the oldest replaced first. */
const recent: unknown[] = new Array(RECENT * 3).fill(undefined);
let recentNext = 0;

function fmtByValues(base: RunStyle | undefined, over: RunStyle | undefined): Fmt {
  const values: unknown[] = [];
  for (const field of FORMAT_FIELDS) {
    const v = runField(base, over, field);
    if (v !== null && typeof v === 'object') return makeFmt(merge(base, over));
    values.push(v);
  }
  const key = JSON.stringify(values);
  let fmt = byValues.get(key);
  if (!fmt) {
    fmt = makeFmt(merge(base, over));
    byValues.set(key, fmt);
  }
  return fmt;
}

/** The format of small-capital letters: 80 % of the drawn size (Word's synthetic small caps), same line metrics. */
export function smallCapsFmt(fmt: Fmt): Fmt {
  let small = smallCaps.get(fmt);
  if (!small) {
    small = { ...fmt, drawSize: fmt.drawSize * 0.8 };
    smallCaps.set(fmt, small);
  }
  return small;
}

function buildFmt(style: RunStyle): Fmt {
  const size = fontSize(style);
  let drawSize = size;
  let rise = 0;
  if (style.vertAlign === 'superscript') {
    drawSize = size * 0.65;
    rise = size * 0.33;
  } else if (style.vertAlign === 'subscript') {
    drawSize = size * 0.65;
    rise = -size * 0.14;
  }
  const link = typeof style.link === 'string' && /^(https?:|mailto:|tel:)/i.test(style.link.trim()) ? style.link.trim() : null;
  return {
    size,
    drawSize,
    rise,
    color: parseColor(style.color) ?? BLACK,
    underline: style.underline === true,
    strike: style.strike === true,
    highlight: parseColor(style.highlight),
    link,
    scale: glyphScale(style.scale),
    spacing: charSpacing(style.charSpacing),
  };
}

/** RunStyle.scale (percent, from models that may hold anything) as a factor; 1 when absent or unusable. */
function glyphScale(percent: unknown): number {
  const n = Number(percent);
  return percent !== undefined && Number.isFinite(n) && n > 0 ? Math.min(6, Math.max(0.01, n / 100)) : 1;
}

/** RunStyle.charSpacing (points, from models that may hold anything); 0 when absent or unusable. */
function charSpacing(points: unknown): number {
  const n = Number(points);
  return points !== undefined && Number.isFinite(n) ? Math.min(100, Math.max(-100, n)) : 0;
}

/**
 * The advance width of `text` in `face` at a format's drawn size and horizontal scale, with the character
 * spacing after each character (Word adds it after the last one of a run too).
 */
export function textWidth(face: Face, text: string, fmt: Fmt): number {
  const w = face.width(text, fmt.drawSize) * fmt.scale;
  return fmt.spacing === 0 ? w : w + fmt.spacing * characterCount(text);
}

/** Characters (code points: the PDF's Tc is added once per drawn glyph, a surrogate pair being one). */
function characterCount(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) n--;
  }
  return n;
}

/** A finite number or the fallback (models are data from users: anything can be missing or NaN). */
export function num(value: unknown, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== null && Number.isFinite(n) ? n : fallback;
}
