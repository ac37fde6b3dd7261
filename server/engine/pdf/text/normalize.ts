/**
 * Text clean-up before layout: what the PDF can show, one UTF-16 unit per drawn character (a character beyond the
 * BMP, two units, is drawn as one box by the missing-glyph face).
 */

/** Stands in for half a surrogate pair (no character at all); the page draws it as any box. */
export const MISSING_GLYPH = '\u25a1';

/** Word's Symbol/Wingdings bullets arrive as private-use code points; these are their Unicode look-alikes. */
const SYMBOL_FONT_CHARS: Record<number, string> = {
  0xf0b7: '\u2022', // Symbol bullet
  0xf0a7: '\u25aa', // Wingdings small square
  0xf0a8: '\u25aa',
  0xf06e: '\u25a0', // Wingdings black square
  0xf06c: '\u25cf', // Wingdings black circle
  0xf0fc: '\u2713', // Wingdings check mark
  0xf0fb: '\u2717',
  0xf0d8: '\u27a2', // Wingdings arrowhead
  0xf0e0: '\u2192',
  0xf076: '\u2756', // Wingdings diamond-in-diamond
  0xf075: '\u25c6',
  0xf0a1: '\u25cb',
  0xf06f: '\u25cb',
  0xf02d: '\u2013',
};

/** Characters that take no space and that we do not draw: zero-width marks, bidi controls, variation selectors. */
function isInvisible(cp: number): boolean {
  return (
    cp === 0xad || // soft hyphen
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2060 && cp <= 0x2069) ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    cp === 0xfeff ||
    (cp >= 0xe0000 && cp <= 0xe007f)
  );
}

/** True when some character of `text` is changed by cleanText (the common case is text that is not). */
function needsWork(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) continue;
    if (c === 0x09 || c === 0x0a) continue;
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0xad) return true;
    // Combining marks and Hangul jamo (NFC may compose them), zero-width and bidi controls, surrogates (emoji),
    // private use (symbol-font bullets), variation selectors, BOM.
    if ((c >= 0x0300 && c <= 0x036f) || (c >= 0x1100 && c <= 0x11ff) || (c >= 0x200b && c <= 0x200f) ||
      (c >= 0x202a && c <= 0x202e) || (c >= 0x2060 && c <= 0x206f) || (c >= 0xd800 && c <= 0xf8ff) ||
      (c >= 0xfe00 && c <= 0xfe0f) || c === 0xfeff) return true;
  }
  return false;
}

/**
 * Returns text holding only drawable characters, '\t' and '\n': control characters and zero-width marks removed,
 * CR/CRLF as '\n', composed (NFC) so accented letters stay in the standard fonts, Word's symbol-font bullets mapped
 * to Unicode, one code point per picture beyond the BMP (emoji; the parts joining it dropped), half a surrogate
 * pair as MISSING_GLYPH.
 */
export function cleanText(text: string): string {
  if (!needsWork(text)) return text;
  let s = text.replace(/\r\n?/g, '\n');
  if (/[\u0300-\uffff]/.test(s)) s = s.normalize('NFC');
  let out = '';
  let prev = 0;
  let flagOpen = false;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    const before = prev;
    prev = cp;
    if (cp === 0x09 || cp === 0x0a) out += ch;
    else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) continue;
    else if (isInvisible(cp)) continue;
    else if (cp > 0xffff) {
      // One box per picture: the parts of a ZWJ sequence, skin-tone modifiers and the second half of a flag
      // belong to the picture before them.
      let joins = before === 0x200d || (cp >= 0x1f3fb && cp <= 0x1f3ff);
      if (cp >= 0x1f1e6 && cp <= 0x1f1ff) {
        joins ||= flagOpen;
        flagOpen = !flagOpen;
      } else {
        flagOpen = false;
      }
      // The picture stays itself (no bundled font has it: the page draws a box, the text layer keeps it).
      if (!joins) out += ch;
    } else if (cp >= 0xf000 && cp <= 0xf0ff) out += SYMBOL_FONT_CHARS[cp] ?? '\u2022';
    else if (cp >= 0xd800 && cp <= 0xdfff) out += MISSING_GLYPH; // half a surrogate pair is no character
    else out += ch;
  }
  return out;
}
