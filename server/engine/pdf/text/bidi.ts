/**
 * Bidirectional text: the visual order of one line's characters by the Unicode Bidirectional Algorithm (UAX #9),
 * resolved by the maintained `bidi-js` library (weak and neutral types, bracket pairs N0, explicit embeddings and
 * isolates, mirroring). This module keeps the small interface the layout uses: levels per UTF-16 unit, the L2
 * reordering of those levels, and the mirrored glyph of a character drawn right-to-left.
 * Only lines that hold right-to-left characters or sit in a right-to-left paragraph come here.
 */
import bidiFactory, { type Bidi } from 'bidi-js';

// bidi-js is CommonJS whose module.exports is the factory; its typings declare an ES default export instead.
const bidi = (bidiFactory as unknown as () => Bidi)();

/** The mirrored form of a character drawn right-to-left ("(" → ")", "≤" → "≥"), or the character itself. */
export function mirrored(ch: string): string {
  return bidi.getMirroredCharacter(ch) ?? ch;
}

// Mirror partners of BMP code points, looked up once each (font subsetting asks for every character drawn).
let partners: Int32Array | null = null;

/** The code of the mirrored form of a BMP character, or the code itself. */
export function mirroredCode(cp: number): number {
  if (cp > 0xffff || (cp >= 0xd800 && cp <= 0xdfff)) return cp;
  if (!partners) partners = new Int32Array(0x10000).fill(-1);
  let p = partners[cp];
  if (p < 0) {
    const m = bidi.getMirroredCharacter(String.fromCharCode(cp));
    p = m && m.length === 1 ? m.charCodeAt(0) : cp;
    partners[cp] = p;
  }
  return p;
}

/** True when the text holds a right-to-left letter (Hebrew, Arabic and their neighbours). */
export function hasRtl(text: string): boolean {
  return /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe]/.test(text);
}

// Bidi class B (paragraph separators); cleanText has already removed the other control characters.
const PARAGRAPH_SEPARATOR = /[\n\r\u0085\u2029]/;
const PARAGRAPH_SEPARATORS = /[\n\r\u0085\u2029]/g;

/**
 * Embedding level of every UTF-16 unit of `text` (one line) in a paragraph of base level `base` (0 or 1),
 * rule L1 included: tabs and the white space ending the line go back to the base level.
 */
export function bidiLevels(text: string, base: 0 | 1): Uint8Array {
  const n = text.length;
  if (n === 0) return new Uint8Array(0);
  // A line is one paragraph: a stray paragraph separator must not restart the base direction.
  const line = PARAGRAPH_SEPARATOR.test(text) ? text.replace(PARAGRAPH_SEPARATORS, ' ') : text;
  const levels = bidi.getEmbeddingLevels(line, base === 1 ? 'rtl' : 'ltr').levels.slice(0, n);
  for (let i = n - 1; i >= 0; i--) {
    const type = bidi.getBidiCharTypeName(line[i]);
    if (type === 'WS' || type === 'S' || type === 'BN' || type === 'LRI' || type === 'RLI' || type === 'FSI' || type === 'PDI') levels[i] = base;
    else break;
  }
  return levels;
}

/** L2: the logical indices of a line in visual (left-to-right) order, given each index's level. */
export function visualOrder(levels: ArrayLike<number>): number[] {
  const n = levels.length;
  const order = Array.from({ length: n }, (_, i) => i);
  let max = 0;
  let minOdd = 255;
  for (let i = 0; i < n; i++) {
    const l = levels[i];
    if (l > max) max = l;
    if (l % 2 === 1 && l < minOdd) minOdd = l;
  }
  // From the highest level down to the lowest odd one, reverse every run at that level or above.
  for (let level = max; level >= minOdd && level > 0; level--) {
    for (let i = 0; i < n; i++) {
      if (levels[order[i]] < level) continue;
      let j = i;
      while (j < n && levels[order[j]] >= level) j++;
      for (let a = i, b = j - 1; a < b; a++, b--) [order[a], order[b]] = [order[b], order[a]];
      i = j - 1;
    }
  }
  return order;
}
