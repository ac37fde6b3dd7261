/**
 * Reads what one tag says: `expression | filter:"arg"`, `#section`, `^inverted`, `/close` (or `/` alone),
 * `%image:200x80`, `$page`, `! comment`. Names and expressions go through the template language (engine/lang),
 * the one reader of tag text for every output. Compile time only; the result is plain data.
 */
import type { CName, CompiledFilter } from './types.js';
import { AGGREGATE_NAMES, compileFilter, FILTER_NAMES } from './filters.js';
import type { ErrorCode } from '../../errors/catalogue.js';
import { findFilterBar, parseExpression, QUOTES } from '../lang/index.js';

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
  /** 0-based position of the fault in the tag's inner text (between the delimiters), when known. */
  column?: number;
}

/** A failed tag may still say what it was meant to be (`fallback`), so its partner is not reported as well. */
export type ParseResult = { ok: true; tag: ParsedTag } | { ok: false; problem: TagProblem; fallback?: ParsedTag };

/** `customer.name` → path ['customer', 'name']; `.` (the current item) → []. A plain name, no expression. */
export function toName(name: string): CName {
  if (name === '.' || name === 'this') return { name, path: [] };
  return { name, path: name.split('.').filter((part) => part.length > 0) };
}

/**
 * A name or an expression (`text` trimmed, `at`: where it starts in the inner text, for error columns). A plain
 * name keeps today's form; anything else carries its syntax tree in `expr`.
 */
export function toRef(text: string, at: number, raw: string): { ok: true; ref: CName } | { ok: false; problem: TagProblem } {
  const parsed = parseExpression(text);
  // Names with colons (`{{time:start}}`) were names before expressions existed and stay names.
  if (!parsed.ok && isColonName(text)) return { ok: true, ref: toName(text) };
  if (!parsed.ok) {
    const { code, column, message } = parsed.error;
    return { ok: false, problem: { code, column: at + column, message: `The tag ${raw} is not valid: ${message}` } };
  }
  const { expr } = parsed;
  if (expr.t === 'name' && expr.name === text) return { ok: true, ref: toName(text) };
  return { ok: true, ref: { name: text, path: [], expr } };
}

/** `a:b:c` where every piece is a plain name: a name written with colons, not a malformed `?:`. */
function isColonName(text: string): boolean {
  if (text.includes('?')) return false;
  const pieces = text.split(':');
  return pieces.length > 1 && pieces.every((piece) => {
    const one = parseExpression(piece);
    return piece !== '' && piece.trim() === piece && one.ok && one.expr.t === 'name' && one.expr.name === piece;
  });
}

/**
 * docxtemplater's tags that docloom deliberately does not take (issue #12): each refused at upload with what to
 * write instead, rather than left to render as a silent blank.
 */
function unsupported(text: string, raw: string): TagProblem | null {
  const say = (message: string): TagProblem => ({ code: 'unsupported_tag', column: 0, message: `The tag ${raw} is not supported: ${message}` });
  if (text.startsWith('@')) return say('raw XML from the data is never inserted; write {{name}} for text, or format it with filters.');
  if (text.startsWith('=') && text.endsWith('=')) return say("delimiters are changed in the template's settings (the delimiters field), not inside the template.");
  if (/^-[\w]+:[\w]+\s/.test(text)) return say('loops over a chosen element are not supported; put {{#list}} and {{/list}} in the paragraphs or table rows to repeat.');
  return null;
}

const SIZE = /^\s*(\d+(?:\.\d+)?)\s*[xX×]\s*(\d+(?:\.\d+)?)\s*$/;
const MAX_BOX = 14400; // 200 inches: PDF's own page size limit.

function fail(code: ErrorCode, message: string): ParseResult {
  return { ok: false, problem: { code, message } };
}

export function parseTag(inner: string, raw: string): ParseResult {
  const text = inner.trim();
  if (text === '') return fail('empty_tag', `The tag ${raw} is empty: write a name between the delimiters.`);
  const refused = unsupported(text, raw);
  if (refused) return { ok: false, problem: refused };
  const lead = inner.length - inner.trimStart().length;
  const sigil = text[0];
  const rest = text.slice(1).trim();
  const restAt = lead + 1 + (text.length - 1 - text.slice(1).trimStart().length);
  switch (sigil) {
    case '!':
      return { ok: true, tag: { type: 'comment' } };
    case '#':
    case '^':
    case '/': {
      if (rest === '' && sigil === '/') return { ok: true, tag: { type: 'close', ref: toName(''), innermost: true } };
      if (rest === '') return fail('empty_tag', `The tag ${raw} has no section name.`);
      const bar = findFilterBar(rest);
      const failed = bar >= 0 ? fail('invalid_tag', `The tag ${raw} uses a filter; filters work only on variables.`) : null;
      const name = bar >= 0 ? rest.slice(0, bar).trim() : rest;
      if (name === '' && failed) return failed;
      const read = toRef(name, restAt, raw);
      if (!read.ok) return { ok: false, problem: failed?.ok === false ? failed.problem : read.problem };
      const tag: ParsedTag = sigil === '/' ? { type: 'close', ref: read.ref } : { type: 'open', ref: read.ref, inverted: sigil === '^' };
      if (failed && !failed.ok) return { ...failed, fallback: tag };
      return { ok: true, tag };
    }
    case '%':
      return parseImage(rest, raw);
    case '$': {
      if (rest === 'page' || rest === 'pages') return { ok: true, tag: { type: 'system', field: rest } };
      // `$index` (alone or in an expression) is the loop's item number; any other `$name` is a typo.
      if (/^[A-Za-z_]\w*$/.test(rest) && rest !== 'index') {
        return fail('unknown_system_tag', `The tag ${raw} is not a known system tag; use $page, $pages or $index.`);
      }
      return parseVariable(text, raw, lead);
    }
    default:
      return parseVariable(text, raw, lead);
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

/** `expression | filter:arg | …`: the expression through the language, the filters checked here. */
function parseVariable(text: string, raw: string, lead: number): ParseResult {
  const bar = findFilterBar(text);
  const exprText = (bar < 0 ? text : text.slice(0, bar)).trimEnd();
  if (exprText === '') return fail('empty_tag', `The tag ${raw} has filters but no variable name.`);
  const filters: CompiledFilter[] = [];
  if (bar >= 0) {
    const split = splitFilters(`_${text.slice(bar)}`);
    if ('error' in split) return fail('bad_filter_argument', `The tag ${raw} is malformed: ${split.error}.`);
    for (const call of split.calls) {
      if (call.name === '') return fail('unknown_filter', `The tag ${raw} has an empty filter after "|".`);
      const compiled = compileFilter(call.name, call.args);
      if (compiled === 'unknown') {
        return fail('unknown_filter', `The tag ${raw} uses the filter "${call.name}", which does not exist. Known filters: ${FILTER_NAMES.join(', ')}. Aggregates over lists: ${AGGREGATE_NAMES.join(', ')}.`);
      }
      if (typeof compiled === 'string') return fail('bad_filter_argument', `The tag ${raw}: ${compiled}`);
      filters.push(compiled);
    }
  }
  const read = toRef(exprText, lead, raw);
  if (!read.ok) return { ok: false, problem: read.problem };
  return { ok: true, tag: { type: 'var', ref: read.ref, filters } };
}
