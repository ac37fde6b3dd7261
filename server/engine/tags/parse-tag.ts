/**
 * Reads what one tag says: `name | filter:"arg"`, `#section`, `^inverted`, `/close` (or `/` alone), `%image:200x80`,
 * `$page`, `! comment`. Compile time only; the result is plain data.
 */
import type { CName, CompiledFilter } from './types.js';
import { compileFilter, FILTER_NAMES } from './filters.js';
import type { ErrorCode } from '../../errors/catalogue.js';

export type ParsedTag =
  | { type: 'var'; ref: CName; filters: CompiledFilter[] }
  | { type: 'open'; ref: CName; inverted: boolean }
  /** `innermost`: `{{/}}` closes whatever section is open (docxtemplater's short form); its `ref` is empty then. */
  | { type: 'close'; ref: CName; innermost?: true }
  | { type: 'image'; ref: CName; box: { width: number; height: number } | null }
  | { type: 'system'; field: 'page' | 'pages' }
  | { type: 'comment' };

export interface TagProblem {
  code: ErrorCode;
  message: string;
}

/** A failed tag may still say what it was meant to be (`fallback`), so its partner is not reported as well. */
export type ParseResult = { ok: true; tag: ParsedTag } | { ok: false; problem: TagProblem; fallback?: ParsedTag };

/** `customer.name` → path ['customer', 'name']; `.` (the current item) → []. */
export function toName(name: string): CName {
  if (name === '.') return { name, path: [] };
  return { name, path: name.split('.').filter((part) => part.length > 0) };
}

const SIZE = /^\s*(\d+(?:\.\d+)?)\s*[xX×]\s*(\d+(?:\.\d+)?)\s*$/;
const MAX_BOX = 14400; // 200 inches: PDF's own page size limit.

function fail(code: ErrorCode, message: string): ParseResult {
  return { ok: false, problem: { code, message } };
}

export function parseTag(inner: string, raw: string): ParseResult {
  const text = inner.trim();
  if (text === '') return fail('empty_tag', `The tag ${raw} is empty: write a name between the delimiters.`);
  const sigil = text[0];
  const rest = text.slice(1).trim();
  switch (sigil) {
    case '!':
      return { ok: true, tag: { type: 'comment' } };
    case '#':
    case '^':
    case '/': {
      if (rest === '' && sigil === '/') return { ok: true, tag: { type: 'close', ref: toName(''), innermost: true } };
      if (rest === '') return fail('empty_tag', `The tag ${raw} has no section name.`);
      if (rest.includes('|')) {
        const name = rest.slice(0, rest.indexOf('|')).trim();
        const failed = fail('invalid_tag', `The tag ${raw} uses a filter; filters work only on variables.`);
        if (name === '' || failed.ok) return failed;
        const ref = toName(name);
        return { ...failed, fallback: sigil === '/' ? { type: 'close', ref } : { type: 'open', ref, inverted: sigil === '^' } };
      }
      const ref = toName(rest);
      if (sigil === '/') return { ok: true, tag: { type: 'close', ref } };
      return { ok: true, tag: { type: 'open', ref, inverted: sigil === '^' } };
    }
    case '%':
      return parseImage(rest, raw);
    case '$': {
      if (rest === 'page' || rest === 'pages') return { ok: true, tag: { type: 'system', field: rest } };
      return fail('unknown_system_tag', `The tag ${raw} is not a known system tag; use $page or $pages.`);
    }
    default:
      return parseVariable(text, raw);
  }
}

function parseImage(rest: string, raw: string): ParseResult {
  if (rest === '') return fail('empty_tag', `The image tag ${raw} has no name.`);
  if (rest.includes('|')) return fail('invalid_tag', `The tag ${raw} uses a filter; filters work only on variables.`);
  const colon = rest.lastIndexOf(':');
  if (colon < 0) return { ok: true, tag: { type: 'image', ref: toName(rest), box: null } };
  const name = rest.slice(0, colon).trim();
  if (name === '') return fail('empty_tag', `The image tag ${raw} has no name.`);
  const m = SIZE.exec(rest.slice(colon + 1));
  if (!m) {
    return fail('invalid_image_size', `The image tag ${raw} has a size that is not WIDTHxHEIGHT in points (like 200x80).`);
  }
  const width = Number(m[1]);
  const height = Number(m[2]);
  if (width <= 0 || height <= 0 || width > MAX_BOX || height > MAX_BOX) {
    return fail('invalid_image_size', `The image tag ${raw} has a size out of range (1 to ${MAX_BOX} points).`);
  }
  return { ok: true, tag: { type: 'image', ref: toName(name), box: { width, height } } };
}

/** Opening quote → the closing quotes it accepts (Word turns straight quotes into curly ones as you type). */
const QUOTES: Record<string, string> = {
  '"': '"',
  "'": "'",
  '“': '”“',
  '”': '”',
  '„': '“”',
  '‘': '’‘',
  '’': '’',
  '«': '»',
  '»': '«',
};

interface FilterCall {
  name: string;
  args: string[];
}

/** Splits `amount | number:2 | default:"—"` into the variable name and filter calls, honouring quotes. */
function splitFilters(text: string): { name: string; calls: FilterCall[] } | { error: string } {
  const segments: Array<{ text: string; args: string[] }> = [];
  let current = '';
  let args: string[] = [];
  let inArgs = false;
  let argText = '';
  let argQuoted = false;
  const endArg = (): void => {
    if (inArgs) args.push(argQuoted ? argText : argText.trim());
    argText = '';
    argQuoted = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inArgs && argText.trim() === '' && !argQuoted && QUOTES[ch] !== undefined) {
      const closers = QUOTES[ch];
      let j = i + 1;
      while (j < text.length && !closers.includes(text[j])) j++;
      if (j >= text.length) return { error: 'a quoted argument is never closed' };
      argText = text.slice(i + 1, j);
      argQuoted = true;
      i = j;
      // Only spaces may follow a closing quote before the next ':' or '|'.
      let k = i + 1;
      while (k < text.length && text[k] === ' ') k++;
      if (k < text.length && text[k] !== ':' && text[k] !== '|') return { error: 'text follows a quoted argument' };
      continue;
    }
    if (ch === '|') {
      endArg();
      segments.push({ text: current, args });
      current = '';
      args = [];
      inArgs = false;
      continue;
    }
    if (ch === ':' && segments.length > 0) {
      // Only filters take arguments: a colon in the variable name itself is kept.
      endArg();
      inArgs = true;
      continue;
    }
    if (inArgs) {
      if (argQuoted) {
        if (ch === ' ') continue;
        return { error: 'text follows a quoted argument' };
      }
      argText += ch;
    } else current += ch;
  }
  endArg();
  segments.push({ text: current, args });
  const [first, ...filters] = segments;
  return { name: first.text.trim(), calls: filters.map((s) => ({ name: s.text.trim(), args: s.args })) };
}

function parseVariable(text: string, raw: string): ParseResult {
  const split = splitFilters(text);
  if ('error' in split) return fail('bad_filter_argument', `The tag ${raw} is malformed: ${split.error}.`);
  if (split.name === '') return fail('empty_tag', `The tag ${raw} has filters but no variable name.`);
  const filters: CompiledFilter[] = [];
  for (const call of split.calls) {
    if (call.name === '') return fail('unknown_filter', `The tag ${raw} has an empty filter after "|".`);
    const compiled = compileFilter(call.name, call.args);
    if (compiled === 'unknown') {
      return fail('unknown_filter', `The tag ${raw} uses the filter "${call.name}", which does not exist. Known filters: ${FILTER_NAMES.join(', ')}.`);
    }
    if (typeof compiled === 'string') return fail('bad_filter_argument', `The tag ${raw}: ${compiled}`);
    filters.push(compiled);
  }
  return { ok: true, tag: { type: 'var', ref: toName(split.name), filters } };
}
