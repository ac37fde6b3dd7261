/**
 * List counters written in Word's number formats (w:numFmt): Latin letters and Roman numerals, English ordinals
 * and number words, zero-padded and full-width digits, circled numbers, Hebrew, Arabic, Cyrillic and kana
 * sequences, Chinese/Japanese counting and digit systems. Each gives what Word shows for the same counter; where
 * Word itself falls back to decimal (a circled number past 10 here, a zodiac sign past 12), so does this.
 */
import type { ListInfo } from '../../model/types.js';

type Format = ListInfo['format'];

/** a…z, aa…zz, aaa… (Word repeats the letter), over any alphabet. */
function repeated(n: number, alphabet: readonly string[]): string {
  if (n <= 0) return String(n);
  const letter = alphabet[(n - 1) % alphabet.length];
  const times = Math.min(Math.floor((n - 1) / alphabet.length) + 1, 50);
  return letter.repeat(times);
}

const LATIN = 'abcdefghijklmnopqrstuvwxyz'.split('');

function roman(n: number): string {
  if (n <= 0 || n >= 4000) return String(n);
  const table: Array<[number, string]> = [
    [1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'],
    [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i'],
  ];
  let s = '';
  for (const [value, digits] of table) {
    while (n >= value) {
      s += digits;
      n -= value;
    }
  }
  return s;
}

// ── English words ──

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
  'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES: Array<[number, string]> = [[1_000_000_000, 'billion'], [1_000_000, 'million'], [1000, 'thousand'], [100, 'hundred']];

/** 101 → "one hundred one", 21 → "twenty-one" (Word's and ICU's English spell-out, no "and"). */
function cardinalWords(n: number): string {
  if (n < 20) return ONES[n];
  if (n < 100) return TENS[Math.floor(n / 10)] + (n % 10 ? `-${ONES[n % 10]}` : '');
  for (const [value, name] of SCALES) {
    if (n >= value) {
      const rest = n % value;
      return `${cardinalWords(Math.floor(n / value))} ${name}${rest ? ` ${cardinalWords(rest)}` : ''}`;
    }
  }
  return String(n);
}

const ORDINAL_WORDS: Record<string, string> = {
  one: 'first', two: 'second', three: 'third', five: 'fifth', eight: 'eighth', nine: 'ninth', twelve: 'twelfth',
};

/** The last word made ordinal: "twenty-one" → "twenty-first", "one hundred" → "one hundredth". */
function ordinalWords(n: number): string {
  const words = cardinalWords(n);
  const m = /([a-z]+)$/.exec(words);
  if (!m) return words;
  const last = m[1];
  const ordinal = ORDINAL_WORDS[last] ?? (last.endsWith('y') ? `${last.slice(0, -1)}ieth` : `${last}th`);
  return words.slice(0, m.index) + ordinal;
}

const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function ordinalSuffix(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

// ── Hebrew, Arabic, Cyrillic, kana ──

const HEBREW_ONES = ['', 'א', 'ב', 'ג', 'ד', 'ה', 'ו', 'ז', 'ח', 'ט'];
const HEBREW_TENS = ['', 'י', 'כ', 'ל', 'מ', 'נ', 'ס', 'ע', 'פ', 'צ'];
const HEBREW_HUNDREDS = ['', 'ק', 'ר', 'ש', 'ת'];

/** Hebrew numerals (hebrew1): 1 א, 10 י, 15 טו, 16 טז (never the letters of the divine name), 500 תק. */
function hebrewNumeral(n: number): string {
  if (n <= 0) return String(n);
  let s = '';
  let rest = n % 1000;
  if (n >= 1000) s += hebrewNumeral(Math.floor(n / 1000));
  while (rest >= 400) {
    s += 'ת';
    rest -= 400;
  }
  if (rest >= 100) {
    s += HEBREW_HUNDREDS[Math.floor(rest / 100)];
    rest %= 100;
  }
  if (rest === 15) return `${s}טו`;
  if (rest === 16) return `${s}טז`;
  return s + HEBREW_TENS[Math.floor(rest / 10)] + HEBREW_ONES[rest % 10];
}

/** hebrew2: the 22 letters in order, then doubled. */
const HEBREW_ALPHABET = 'אבגדהוזחטיכלמנסעפצקרשת'.split('');
/** arabicAlpha: the alphabet in its modern (hijā'ī) order; arabicAbjad: in the abjad (numeral) order. */
const ARABIC_ALPHA = ['أ', 'ب', 'ت', 'ث', 'ج', 'ح', 'خ', 'د', 'ذ', 'ر', 'ز', 'س', 'ش', 'ص', 'ض', 'ط', 'ظ', 'ع', 'غ', 'ف', 'ق', 'ك', 'ل', 'م', 'ن', 'ه', 'و', 'ي'];
const ARABIC_ABJAD = ['أ', 'ب', 'ج', 'د', 'ه', 'و', 'ز', 'ح', 'ط', 'ي', 'ك', 'ل', 'م', 'ن', 'س', 'ع', 'ف', 'ص', 'ق', 'ر', 'ش', 'ت', 'ث', 'خ', 'ذ', 'ض', 'ظ', 'غ'];
/** russianLower/Upper: the alphabet without ё, й, ъ, ы, ь (as Word numbers). */
/** Word's custom "α, β, γ, ...": the 24 letters, then doubled. */
const GREEK = 'αβγδεζηθικλμνξοπρστυφχψω'.split('');
const RUSSIAN = 'абвгдежзиклмнопрстуфхцчшщэюя'.split('');
const AIUEO = 'アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワヲン'.split('');
const IROHA = 'イロハニホヘトチリヌルヲワカヨタレソツネナラムウヰノオクヤマケフコエテアサキユメミシヱヒモセスン'.split('');

// ── CJK ──

const CJK_DIGITS = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
const TRADITIONAL = ['甲', '乙', '丙', '丁', '戊', '己', '庚', '辛', '壬', '癸'];
const ZODIAC = ['子', '丑', '寅', '卯', '辰', '巳', '午', '未', '申', '酉', '戌', '亥'];

/** Digit by digit: 10 → 一〇 (ideographDigital, japaneseDigitalTenThousand below 10 000). */
function cjkDigits(n: number): string {
  return String(n).split('').map((d) => CJK_DIGITS[Number(d)] ?? d).join('');
}

/**
 * Counting with the units 十 百 千 (and 万 for ten thousands): 11 十一, 20 二十, 101 一百零一. Japanese drops the 一
 * before 十/百/千 and writes no zero (101 百一); Chinese keeps it past the tens and marks skipped places with 零.
 */
function cjkCounting(n: number, style: 'chinese' | 'japanese'): string {
  if (n <= 0) return CJK_DIGITS[0];
  if (n >= 100_000_000) return cjkDigits(n);
  if (n >= 10_000) {
    const high = cjkCounting(Math.floor(n / 10_000), style);
    const low = n % 10_000;
    if (low === 0) return `${high}万`;
    return `${high}万${style === 'chinese' && low < 1000 ? '零' : ''}${cjkCounting(low, style)}`;
  }
  const units = ['', '十', '百', '千'];
  const digits = String(n).split('').map(Number);
  let s = '';
  let zero = false;
  digits.forEach((d, i) => {
    const place = digits.length - 1 - i;
    if (d === 0) {
      zero = true;
      return;
    }
    if (zero && style === 'chinese' && s !== '') s += '零';
    zero = false;
    const one = d === 1 && place > 0 && (style === 'japanese' || (place === 1 && digits.length === 2));
    s += (one ? '' : CJK_DIGITS[d]) + units[place];
  });
  return s;
}

const CIRCLED_FIRST = 0x2460;

/** The counter `n` written in `format`; formats the renderer does not know count as decimal. */
export function formatCounter(n: number, format: Format): string {
  switch (format) {
    case 'lowerLetter':
      return repeated(n, LATIN);
    case 'upperLetter':
      return repeated(n, LATIN).toUpperCase();
    case 'lowerRoman':
      return roman(n);
    case 'upperRoman':
      return roman(n).toUpperCase();
    case 'decimalZero':
      return n >= 0 && n < 10 ? `0${n}` : String(n);
    case 'decimalZero3':
    case 'decimalZero4':
    case 'decimalZero5':
      return n >= 0 ? String(n).padStart(Number(format.slice(-1)), '0') : String(n);
    case 'greekLower':
      return repeated(n, GREEK);
    case 'greekUpper':
      return repeated(n, GREEK).toUpperCase();
    case 'ordinal':
      return n >= 0 ? ordinalSuffix(n) : String(n);
    case 'cardinalText':
      return n >= 0 ? capitalise(cardinalWords(n)) : String(n);
    case 'ordinalText':
      return n > 0 ? capitalise(ordinalWords(n)) : String(n);
    case 'decimalFullWidth':
      return String(n).replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d)));
    case 'decimalEnclosedCircle':
      // ①…⑩: the circled numbers every bundled fallback font draws; Word too writes plain digits past its range.
      return n >= 1 && n <= 10 ? String.fromCharCode(CIRCLED_FIRST + n - 1) : String(n);
    case 'hebrew1':
      return hebrewNumeral(n);
    case 'hebrew2':
      return repeated(n, HEBREW_ALPHABET);
    case 'arabicAlpha':
      return repeated(n, ARABIC_ALPHA);
    case 'arabicAbjad':
      return repeated(n, ARABIC_ABJAD);
    case 'russianLower':
      return repeated(n, RUSSIAN);
    case 'russianUpper':
      return repeated(n, RUSSIAN).toUpperCase();
    case 'aiueo':
      return repeated(n, AIUEO);
    case 'iroha':
      return repeated(n, IROHA);
    case 'ideographDigital':
    case 'japaneseDigitalTenThousand':
      return n >= 0 ? cjkDigits(n) : String(n);
    case 'chineseCounting':
    case 'chineseCountingThousand':
    case 'taiwaneseCounting':
    case 'taiwaneseCountingThousand':
      return n >= 0 ? cjkCounting(n, 'chinese') : String(n);
    case 'japaneseCounting':
      return n >= 0 ? cjkCounting(n, 'japanese') : String(n);
    case 'ideographTraditional':
      return n >= 1 && n <= 10 ? TRADITIONAL[n - 1] : String(n);
    case 'ideographZodiac':
      return n >= 1 && n <= 12 ? ZODIAC[n - 1] : String(n);
    case 'bullet':
    case 'none':
      return '';
    default:
      return String(n);
  }
}
