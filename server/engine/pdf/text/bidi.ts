/**
 * Bidirectional text: the visual order of one line's characters (Unicode Bidirectional Algorithm, implicit
 * levels only: rules W1–W7, N1–N2, I1–I2, L1–L2 and L4 mirroring; no explicit embeddings, no bracket pairs).
 * Only lines that hold right-to-left characters or sit in a right-to-left paragraph come here.
 */

type BidiClass = 'L' | 'R' | 'AL' | 'EN' | 'ES' | 'ET' | 'AN' | 'CS' | 'NSM' | 'WS' | 'S' | 'ON';

const PUNCT_OR_SYMBOL = /[\p{P}\p{S}]/u;
const MARK = /\p{M}/u;

function classOf(cp: number): BidiClass {
  if (cp >= 0x30 && cp <= 0x39) return 'EN';
  if (cp < 0x80) {
    if ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return 'L';
    if (cp === 0x20) return 'WS';
    if (cp === 0x09) return 'S';
    if (cp === 0x2b || cp === 0x2d) return 'ES';
    if (cp >= 0x23 && cp <= 0x25) return 'ET';
    if (cp === 0x2c || cp === 0x2e || cp === 0x2f || cp === 0x3a) return 'CS';
    return 'ON';
  }
  if (cp >= 0x0590 && cp <= 0x05ff) {
    if (cp <= 0x05c7 && cp !== 0x05be && cp !== 0x05c0 && cp !== 0x05c3 && cp !== 0x05c6) return 'NSM';
    return 'R';
  }
  if (cp >= 0x0600 && cp <= 0x08ff) {
    if (cp <= 0x0605 || (cp >= 0x0660 && cp <= 0x0669) || cp === 0x066b || cp === 0x066c || cp === 0x06dd) return 'AN';
    if (cp >= 0x06f0 && cp <= 0x06f9) return 'EN';
    if (cp === 0x060c) return 'CS';
    if (cp === 0x0609 || cp === 0x060a || cp === 0x066a) return 'ET';
    if (MARK.test(String.fromCharCode(cp))) return 'NSM';
    return cp >= 0x07c0 && cp <= 0x085f ? 'R' : 'AL';
  }
  if (cp >= 0xfb1d && cp <= 0xfb4f) return 'R';
  if ((cp >= 0xfb50 && cp <= 0xfdff) || (cp >= 0xfe70 && cp <= 0xfefe)) return 'AL';
  if (cp === 0xa0 || cp === 0x202f || cp === 0x2044) return 'CS';
  if ((cp >= 0xa2 && cp <= 0xa5) || cp === 0xb0 || cp === 0xb1 || (cp >= 0x20a0 && cp <= 0x20cf) || (cp >= 0x2030 && cp <= 0x2034)) return 'ET';
  if (cp === 0xb2 || cp === 0xb3 || cp === 0xb9 || (cp >= 0x2070 && cp <= 0x2079) || (cp >= 0x2080 && cp <= 0x2089)) return 'EN';
  if ((cp >= 0x2000 && cp <= 0x200a) || cp === 0x3000) return 'WS';
  const ch = String.fromCharCode(cp);
  if (MARK.test(ch)) return 'NSM';
  if (PUNCT_OR_SYMBOL.test(ch) || cp === 0xfffc) return 'ON';
  return 'L';
}

const MIRROR: Record<string, string> = {
  '(': ')', ')': '(', '[': ']', ']': '[', '{': '}', '}': '{', '<': '>', '>': '<',
  '\u00ab': '\u00bb', '\u00bb': '\u00ab', '\u2039': '\u203a', '\u203a': '\u2039',
  '\u2264': '\u2265', '\u2265': '\u2264',
};

/** The mirrored form of a character drawn right-to-left ("(" → ")"), or the character itself. */
export function mirrored(ch: string): string {
  return MIRROR[ch] ?? ch;
}

/** True when the text holds a right-to-left letter (Hebrew, Arabic and their neighbours). */
export function hasRtl(text: string): boolean {
  return /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe]/.test(text);
}

const isStrongOrNumber = (c: BidiClass): boolean => c === 'L' || c === 'R' || c === 'EN' || c === 'AN';
const isNeutral = (c: BidiClass): boolean => c === 'WS' || c === 'S' || c === 'ON';

/** Embedding level of every UTF-16 unit of `text` (one line) in a paragraph of base level `base` (0 or 1). */
export function bidiLevels(text: string, base: 0 | 1): Uint8Array {
  const n = text.length;
  const types: BidiClass[] = new Array(n);
  for (let i = 0; i < n; i++) types[i] = classOf(text.charCodeAt(i));
  const sos: BidiClass = base === 1 ? 'R' : 'L';
  // W1: a mark takes the type of the character before it.
  for (let i = 0; i < n; i++) if (types[i] === 'NSM') types[i] = i === 0 ? sos : types[i - 1];
  // W2, W3: numbers after Arabic letters are Arabic numbers; AL becomes R.
  let lastStrong: BidiClass = sos;
  for (let i = 0; i < n; i++) {
    const t = types[i];
    if (t === 'L' || t === 'R' || t === 'AL') lastStrong = t;
    else if (t === 'EN' && lastStrong === 'AL') types[i] = 'AN';
  }
  for (let i = 0; i < n; i++) if (types[i] === 'AL') types[i] = 'R';
  // W4: one separator between two numbers of the same kind joins them.
  for (let i = 1; i < n - 1; i++) {
    const t = types[i];
    if (t === 'ES' && types[i - 1] === 'EN' && types[i + 1] === 'EN') types[i] = 'EN';
    else if (t === 'CS' && types[i - 1] === types[i + 1] && (types[i - 1] === 'EN' || types[i - 1] === 'AN')) types[i] = types[i - 1];
  }
  // W5: terminators (currency, %, #) next to European numbers belong to them.
  for (let i = 0; i < n; i++) {
    if (types[i] !== 'ET') continue;
    let j = i;
    while (j < n && types[j] === 'ET') j++;
    const touchesNumber = (i > 0 && types[i - 1] === 'EN') || (j < n && types[j] === 'EN');
    for (let k = i; k < j; k++) types[k] = touchesNumber ? 'EN' : 'ON';
    i = j - 1;
  }
  // W6: leftover separators are neutral. W7: European numbers after L are L.
  lastStrong = sos;
  for (let i = 0; i < n; i++) {
    const t = types[i];
    if (t === 'ES' || t === 'CS' || t === 'ET') types[i] = 'ON';
    else if (t === 'L' || t === 'R') lastStrong = t;
    else if (t === 'EN' && lastStrong === 'L') types[i] = 'L';
  }
  // N1, N2: neutrals between two characters of one direction take it (numbers count as R); else the base's.
  for (let i = 0; i < n; i++) {
    if (!isNeutral(types[i])) continue;
    let j = i;
    while (j < n && isNeutral(types[j])) j++;
    const dirOf = (t: BidiClass | undefined, edge: BidiClass): 'L' | 'R' => {
      const x = t ?? edge;
      return x === 'L' ? 'L' : 'R';
    };
    const before = dirOf(i > 0 ? types[i - 1] : undefined, sos);
    const after = dirOf(j < n ? types[j] : undefined, sos);
    const resolved: BidiClass = before === after ? before : sos;
    for (let k = i; k < j; k++) types[k] = resolved;
    i = j - 1;
  }
  // I1, I2: levels.
  const levels = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const t = types[i];
    if (base === 0) levels[i] = t === 'R' ? 1 : t === 'EN' || t === 'AN' ? 2 : 0;
    else levels[i] = t === 'R' ? 1 : isStrongOrNumber(t) ? 2 : 1;
  }
  // L1: tabs and the white space ending the line go back to the base level.
  for (let i = n - 1; i >= 0; i--) {
    const cp = text.charCodeAt(i);
    if (cp === 0x20 || cp === 0x09) levels[i] = base;
    else break;
  }
  for (let i = 0; i < n; i++) if (text.charCodeAt(i) === 0x09) levels[i] = base;
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
