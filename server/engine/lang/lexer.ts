/**
 * Splits a tag's text into tokens, each with its offset in the text (for located errors). Names are read as
 * today: a run of characters that are not operators, quotes or brackets, dots included (`customer.name`), and
 * several such runs separated by spaces are one name (`variable 1`). A run that is a number literal is a number.
 * Only character comparisons: nothing here builds a regex from the text.
 */
import { langError, type LangError } from './errors.js';

export type Token =
  | { k: 'num'; v: number; at: number; end: number }
  | { k: 'str'; v: string; at: number; end: number }
  /** A name, or `.name` right after `)` or `]` (`at` is where it starts in the text). */
  | { k: 'name'; v: string; at: number; end: number }
  | { k: 'op'; v: string; at: number; end: number };

/** Opening quote → the closing quotes it accepts (Word turns straight quotes into curly ones as you type). */
export const QUOTES: Readonly<Record<string, string>> = Object.freeze({
  '"': '"',
  "'": "'",
  '“': '”“',
  '”': '”',
  '„': '“”',
  '‘': '’‘',
  '’': '’',
  '«': '»',
  '»': '«',
});

/** Operators, longest first so `===` is not read as `==` `=`. */
const OPERATORS = ['===', '!==', '==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '-', '+', '*', '/', '%', '?', ':', '(', ')', '[', ']', '|', '=', ',', '&'];
const OPERATOR_CHARS = new Set('!-+*/%<>=&|?:()[],');
const NUMBER = /^(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function isSpace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\u00a0' || ch === '\n' || ch === '\r' || ch === '\u2002' || ch === '\u2003' || ch === '\u2009';
}

function isNameChar(ch: string): boolean {
  return !isSpace(ch) && !OPERATOR_CHARS.has(ch) && QUOTES[ch] === undefined;
}

export function lex(text: string): { tokens: Token[] } | { error: LangError } {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (isSpace(ch)) {
      i++;
      continue;
    }
    const closers = QUOTES[ch];
    if (closers !== undefined) {
      let j = i + 1;
      while (j < text.length && !closers.includes(text[j])) j++;
      if (j >= text.length) {
        return { error: langError('invalid_expression', i, `the text starting with ${ch} at column ${i + 1} is never closed: end it with ${closers[0]}.`) };
      }
      tokens.push({ k: 'str', v: text.slice(i + 1, j), at: i, end: j + 1 });
      i = j + 1;
      continue;
    }
    if (OPERATOR_CHARS.has(ch)) {
      const op = OPERATORS.find((o) => text.startsWith(o, i)) as string;
      tokens.push({ k: 'op', v: op, at: i, end: i + op.length });
      i += op.length;
      continue;
    }
    // A name or a number: a run of name characters; further runs after spaces join a name (`variable 1`).
    let end = i;
    while (end < text.length && isNameChar(text[end])) end++;
    // An exponent's sign is an operator character: `1e+21` and `2.5E-7` are still one number.
    if (/^(?:\d+(?:\.\d+)?)[eE]$/.test(text.slice(i, end)) && (text[end] === '+' || text[end] === '-') && /\d/.test(text[end + 1] ?? '')) {
      end += 1;
      while (end < text.length && isNameChar(text[end])) end++;
    }
    const run = text.slice(i, end);
    if (NUMBER.test(run)) {
      tokens.push({ k: 'num', v: Number(run), at: i, end });
      i = end;
      continue;
    }
    let last = end;
    for (;;) {
      let j = last;
      while (j < text.length && isSpace(text[j])) j++;
      if (j === last || j >= text.length || !isNameChar(text[j])) break;
      let k = j;
      while (k < text.length && isNameChar(text[k])) k++;
      last = k;
    }
    tokens.push({ k: 'name', v: text.slice(i, last), at: i, end: last });
    i = last;
  }
  return { tokens };
}
