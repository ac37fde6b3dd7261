/**
 * Turns a data value into the text a variable shows: filters first (number, currency, date, upper, lower,
 * default), then plain stringification (strings as they are, numbers and booleans as written, objects and
 * arrays as nothing, missing as nothing).
 */
import type { CompiledFilter } from '../tags/types.js';
import { EngineError } from '../errors.js';
import { formatDate } from './dates.js';
import { aggregate, toNumber } from '../lang/index.js';

export const DEFAULT_LOCALE = 'en-US';

const numberFormats = new Map<string, Intl.NumberFormat>();
const knownLocales = new Map<string, string>();

/** The canonical form of a BCP 47 locale; EngineError('invalid_locale') for anything Intl does not accept. */
export function checkLocale(locale: string): string {
  const known = knownLocales.get(locale);
  if (known) return known;
  try {
    const canonical = Intl.getCanonicalLocales(locale)[0];
    if (!canonical) throw new RangeError('empty');
    knownLocales.set(locale, canonical);
    return canonical;
  } catch {
    throw new EngineError('invalid_locale', `"${locale}" is not a valid locale; use a language tag such as en-US, de-DE or fr.`);
  }
}

function numberFormat(locale: string, currency: string | null, digits: number | undefined): Intl.NumberFormat {
  const key = `${locale}\u0000${currency ?? ''}\u0000${digits ?? ''}`;
  let f = numberFormats.get(key);
  if (!f) {
    const options: Intl.NumberFormatOptions = currency ? { style: 'currency', currency } : {};
    if (digits !== undefined) {
      options.minimumFractionDigits = digits;
      options.maximumFractionDigits = digits;
    }
    f = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, f);
  }
  return f;
}

/** Plain text of a value: missing, null, objects and arrays show as nothing. */
export function stringify(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    default:
      return '';
  }
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || typeof value === 'object';
}

/**
 * Applies the filters in order; a filter that cannot read its input (text for `number`) passes it through.
 * `field` names the value in data errors (an aggregate over a list with a non-number in it).
 */
export function formatValue(value: unknown, filters: CompiledFilter[], locale: string, field = ''): string {
  let current: unknown = value;
  for (const filter of filters) {
    switch (filter.f) {
      case 'agg': {
        const result = aggregate(filter.op, current, filter.path);
        if (!result.ok) {
          const { item, key, value: bad } = result.fault;
          const shown = typeof bad === 'string' ? JSON.stringify(bad.length > 40 ? `${bad.slice(0, 40)}…` : bad) : Array.isArray(bad) ? 'a list' : typeof bad === 'object' ? 'an object' : String(bad);
          throw new EngineError(
            'aggregate_not_number',
            `The list "${field}" has ${shown} ${key ? `as "${key}" of item ${item + 1}` : `as item ${item + 1}`}, which is not a number: "${filter.op}" adds up numbers only (leave it out or null to skip it).`,
            field,
          );
        }
        current = result.value;
        break;
      }
      case 'number':
      case 'currency': {
        const n = toNumber(current);
        if (n !== null) current = numberFormat(locale, filter.f === 'currency' ? filter.code : null, filter.digits).format(n);
        break;
      }
      case 'date': {
        const text = formatDate(current, filter.parts, filter.withDay, locale);
        if (text !== null) current = text;
        break;
      }
      case 'upper':
        current = stringify(current).toLocaleUpperCase(locale);
        break;
      case 'lower':
        current = stringify(current).toLocaleLowerCase(locale);
        break;
      case 'default':
        if (isEmpty(current)) current = filter.value;
        break;
    }
  }
  return stringify(current).replace(XML_FORBIDDEN, '');
}

/**
 * Characters XML 1.0 forbids (control characters other than tab and line breaks, U+FFFE/U+FFFF, lone surrogates):
 * dropped from every value, so the PDF and the filled .docx (which would not be well-formed with them) agree.
 */
// eslint-disable-next-line no-control-regex
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
