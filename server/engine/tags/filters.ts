/**
 * The filters a variable may pass through, checked when the template is compiled so a render never meets an
 * unknown filter or a bad argument. Each filter is data (no code is ever evaluated); bind/format.ts applies them.
 */
import type { CompiledFilter, DatePart, DateToken } from './types.js';

export const FILTER_NAMES = ['number', 'currency', 'date', 'upper', 'lower', 'default'] as const;
/** Filters over a list, named apart in messages ("Aggregates over lists: …"). */
export const AGGREGATE_NAMES = ['sum', 'count', 'min', 'max', 'avg'] as const;

const DIGITS = /^\d{1,2}$/;
const CURRENCY = /^[A-Za-z]{3}$/;
const MAX_DIGITS = 20;

function digits(arg: string, filter: string): number | string {
  if (!DIGITS.test(arg) || Number(arg) > MAX_DIGITS) {
    return `the filter "${filter}" takes a number of decimals from 0 to ${MAX_DIGITS}, not "${arg}".`;
  }
  return Number(arg);
}

function arity(name: string, args: string[], min: number, max: number): string | null {
  if (args.length < min || args.length > max) {
    const wants = min === max ? `${min}` : `${min} to ${max}`;
    return `the filter "${name}" takes ${wants} argument${max === 1 && min === max ? '' : 's'}, not ${args.length}.`;
  }
  return null;
}

/** The compiled filter, 'unknown' for a name that is not a filter, or a message for bad arguments. */
export function compileFilter(name: string, args: string[]): CompiledFilter | 'unknown' | string {
  switch (name) {
    case 'number': {
      const bad = arity(name, args, 0, 1);
      if (bad) return bad;
      if (args.length === 0) return { f: 'number' };
      const d = digits(args[0], name);
      return typeof d === 'string' ? d : { f: 'number', digits: d };
    }
    case 'currency': {
      const bad = arity(name, args, 1, 2);
      if (bad) return bad;
      if (!CURRENCY.test(args[0])) return `the filter "currency" needs a three-letter currency code such as "EUR", not "${args[0]}".`;
      const code = args[0].toUpperCase();
      if (args.length === 1) return { f: 'currency', code };
      const d = digits(args[1], name);
      return typeof d === 'string' ? d : { f: 'currency', code, digits: d };
    }
    case 'date': {
      const bad = arity(name, args, 0, 1);
      if (bad) return bad;
      const format = args.length === 0 ? 'YYYY-MM-DD' : args[0];
      if (format === '') return 'the filter "date" needs a format such as "D MMMM YYYY".';
      const parts = compileDateFormat(format);
      if (typeof parts === 'string') return parts;
      return { f: 'date', parts, withDay: parts.some((p) => 'tok' in p && (p.tok === 'D' || p.tok === 'DD')) };
    }
    case 'upper':
    case 'lower': {
      const bad = arity(name, args, 0, 0);
      return bad ?? { f: name };
    }
    case 'default': {
      const bad = arity(name, args, 1, 1);
      return bad ?? { f: 'default', value: args[0] };
    }
    case 'sum':
    case 'count':
    case 'min':
    case 'max':
    case 'avg': {
      // Aggregates over a list (Carbone's aggSum): the argument is a path read in each item, none the items.
      const bad = arity(name, args, 0, 1);
      if (bad) return bad;
      const path = args.length === 0 ? [] : args[0].split('.').map((p) => p.trim()).filter((p) => p !== '');
      if (args.length === 1 && path.length === 0) return `the filter "${name}" takes the key to read in each item, such as "net", not "${args[0]}".`;
      return { f: 'agg', op: name, path };
    }
    default:
      return 'unknown';
  }
}

// dayjs's format tokens (https://day.js.org/docs/en/display/format), longest first; [text] is literal.
const DATE_TOKENS: readonly DateToken[] = [
  'YYYY', 'YY', 'MMMM', 'MMM', 'MM', 'M', 'DD', 'D', 'dddd', 'ddd', 'dd', 'd',
  'HH', 'H', 'hh', 'h', 'mm', 'm', 'ss', 's', 'SSS', 'ZZ', 'Z', 'A', 'a',
];

/** `D MMMM YYYY [at] HH:mm` → parts. Compile time only. */
export function compileDateFormat(format: string): DatePart[] | string {
  const parts: DatePart[] = [];
  let literal = '';
  const flush = (): void => {
    if (literal !== '') parts.push({ lit: literal });
    literal = '';
  };
  let i = 0;
  while (i < format.length) {
    if (format[i] === '[') {
      const end = format.indexOf(']', i + 1);
      if (end < 0) return `the date format "${format}" has a "[" without its "]".`;
      literal += format.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    const token = DATE_TOKENS.find((t) => format.startsWith(t, i));
    if (token) {
      flush();
      parts.push({ tok: token });
      i += token.length;
    } else {
      literal += format[i];
      i++;
    }
  }
  flush();
  return parts;
}
