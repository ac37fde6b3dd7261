/**
 * Where a line may break inside a run of text: the Unicode Line Breaking Algorithm (UAX #14, by the maintained
 * `linebreak` library) — between ideographs and kana, after hyphens and dashes, never before a closing bracket,
 * "、" or "。" — tightened by the Japanese kinsoku rules Word applies by default (iteration marks, small kana and
 * the prolonged sound mark never start a line; opening brackets and currency signs never end one).
 *
 * The layout asks fragment by fragment (one font face each), so a caller passes the text laid out just before as
 * `before`: the opportunity between the two fragments (position 0) depends on both sides.
 */
import LineBreaker from 'linebreak';
import { isEastAsianWide } from './east-asian-width.js';

/** Word's default "cannot start a line" characters that UAX #14 alone would let start one. */
const NO_START = new Set(
  Array.from('々〻ゝゞヽヾ・･ー〜～ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿｧｨｩｪｫｬｭｮｯｰ' +
    '、。，．：；？！）］｝」』】〕〉》〙〗〟’”｠»›%‰℃°¢￠', (c) => c.charCodeAt(0)),
);
/** Word's default "cannot end a line" characters. */
const NO_END = new Set(Array.from('（［｛「『【〔〈《〘〖〝‘“｟«‹$£¥￥＄￡', (c) => c.charCodeAt(0)));

/** How much earlier text decides a break at the fragment's start (UAX #14 looks back over spaces to a bracket). */
const CONTEXT = 8;

/**
 * Text whose only break opportunities are after spaces: Latin letters, digits, spaces and the punctuation that
 * never allows a break between letters or digits (checked against the library on random strings of these: an
 * opening bracket, "-", "/", "%", "+", "!" and "?" can, so they are left to it). Most text is this; it skips
 * the library.
 */
const PLAIN = /^[A-Za-z0-9\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f ,.:;'")\]#&*=@_<>~^`]*$/;

function isSpace(cp: number): boolean {
  return cp === 0x20 || cp === 0x3000;
}

/**
 * The positions (UTF-16 indices into `text`) before which a line may start: every break opportunity inside the
 * text, and position 0 when `before` (the text laid out just before, same paragraph) is given and allows one.
 * The end of the text is never reported: it depends on what follows. Ascending.
 */
export function breakOpportunities(text: string, before = ''): number[] {
  const out: number[] = [];
  const n = text.length;
  if (n === 0) return out;
  const prev = before.length > 0 ? before.charCodeAt(before.length - 1) : -1;
  if (PLAIN.test(text) && (prev < 0 || PLAIN.test(before[before.length - 1]))) {
    // Only after spaces (UAX #14 LB18), which is also where a plain run may break.
    if (prev === 0x20 && text.charCodeAt(0) !== 0x20) out.push(0);
    for (let i = 1; i < n; i++) if (text.charCodeAt(i - 1) === 0x20 && text.charCodeAt(i) !== 0x20) out.push(i);
    return out;
  }
  const ctx = before.slice(-CONTEXT);
  const breaker = new LineBreaker(ctx + text);
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) {
    const i = bk.position - ctx.length;
    if (i < 0 || i >= n || (i === 0 && ctx.length === 0)) continue;
    const after = text.charCodeAt(i);
    const last = i > 0 ? text.charCodeAt(i - 1) : prev;
    // Kinsoku: a space in between lifts the rule (the break is at the space, as UAX #14 has it).
    if (!isSpace(last) && (NO_START.has(after) || NO_END.has(last))) continue;
    // Word keeps a slash with the letters on both sides ("and/or", "www.justice.gov/ust": a URL that does not fit
    // moves to the next line whole, which is why Word users put "no-width optional breaks" after the slashes of
    // long addresses); UAX #14 would break after it. LibreOffice keeps them whole too (tika__017097, 017091).
    if (last === 0x2f && isLatinWordChar(after) && slashInWord(text, ctx, i - 1)) continue;
    out.push(i);
  }
  return hyphenBeforeDigits(text, ctx, quotesAmidIdeographs(text, ctx, out));
}

const OPENING_QUOTES = new Set([0x2018, 0x201c]);
const CLOSING_QUOTES = new Set([0x2019, 0x201d]);
const CURLY_QUOTE = /[\u2018\u2019\u201c\u201d]/;

/**
 * Curly quotation marks between East Asian characters ("未被“信用中国”（www…": Chinese text quotes with them):
 * UAX #14 (LB19, as the library has it) never breaks beside a quotation mark; Unicode 15.1's LB19a lets a line
 * break before an opening one and after a closing one when East Asian characters surround it, as Word does in
 * East Asian text (an opening mark still never ends a line, a closing one never starts one: kinsoku). `found` is
 * ascending.
 */
function quotesAmidIdeographs(text: string, ctx: string, found: number[]): number[] {
  // A break is added only beside a curly quotation mark of the text or at its start after one ending ctx: most
  // text has none, and the test below looks at every character.
  if (!CURLY_QUOTE.test(text) && !CLOSING_QUOTES.has(ctx.charCodeAt(ctx.length - 1))) return found;
  let extra: number[] | null = null;
  for (let i = ctx.length > 0 ? 0 : 1; i < text.length; i++) {
    const last = codeAt(text, ctx, i - 1);
    const next = text.charCodeAt(i);
    const closing = CLOSING_QUOTES.has(last) && isEastAsianWide(codeAt(text, ctx, i - 2)) && isEastAsianWide(next) && !NO_START.has(next);
    const opening = OPENING_QUOTES.has(next) && i + 1 < text.length && isEastAsianWide(last) && !NO_END.has(last) && isEastAsianWide(text.charCodeAt(i + 1));
    if (closing || opening) (extra ??= []).push(i);
  }
  return extra ? withBreaks(found, extra) : found;
}

/** Whether the slash at `at` (an index into `text`, −1 for the last character of `ctx`) follows a word character. */
function slashInWord(text: string, ctx: string, at: number): boolean {
  const cp = codeAt(text, ctx, at - 1);
  return isLatinWordChar(cp) || cp === 0x2f || cp === 0x3a || cp === 0x2e;
}

/** `found` (ascending) with the breaks of `extra` added, each once, in order. */
function withBreaks(found: number[], extra: number[]): number[] {
  return [...new Set([...found, ...extra])].sort((a, b) => a - b);
}

/** The UTF-16 code at `k` in `text`, a negative `k` counting back into `ctx` (the text before it); −1 past both. */
function codeAt(text: string, ctx: string, k: number): number {
  return k >= 0 ? text.charCodeAt(k) : ctx.length + k >= 0 ? ctx.charCodeAt(ctx.length + k) : -1;
}

const isDigit = (cp: number): boolean => cp >= 0x30 && cp <= 0x39;
const isLatinWordChar = (cp: number): boolean =>
  isDigit(cp) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || (cp >= 0xc0 && cp <= 0x24f && cp !== 0xd7 && cp !== 0xf7);

/**
 * Word breaks after a hyphen-minus that follows a letter or digit also when a digit comes next ("1-800-|427-|2419",
 * "2006-|2007": why Word users type non-breaking hyphens in phone numbers), where UAX #14 (LB25) keeps "-" with the
 * number after it. A hyphen after a space or at the start ("-5") stays with its number. `found` is ascending.
 */
function hyphenBeforeDigits(text: string, ctx: string, found: number[]): number[] {
  let extra: number[] | null = null;
  const n = ctx.length;
  if (n >= 2 && ctx.charCodeAt(n - 1) === 0x2d && isLatinWordChar(ctx.charCodeAt(n - 2)) && isDigit(text.charCodeAt(0))) extra = [0];
  for (let i = text.indexOf('-'); i >= 0 && i + 1 < text.length; i = text.indexOf('-', i + 1)) {
    if (!isDigit(text.charCodeAt(i + 1))) continue;
    const prev = codeAt(text, ctx, i - 1);
    if (isLatinWordChar(prev)) (extra ??= []).push(i + 1);
  }
  return extra ? withBreaks(found, extra) : found;
}
