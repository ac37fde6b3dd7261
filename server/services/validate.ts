/** Field checks shared by the template and document services, with Laravel's wording. */
import type { Violations } from './errors.js';
import { parseFlag } from './tokens.js';

export const EXPIRATION_MIN = 1;
export const EXPIRATION_MAX = 5_256_000;
export const DEFAULT_EXPIRATION = 43_200;

/** "template_id" → "template id" (Laravel's attribute names in messages). */
export function label(field: string): string {
  return field.replace(/_/g, ' ');
}

export function optionalString(v: Violations, field: string, value: unknown, max = 255): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') value = String(value);
  if (typeof value !== 'string') {
    v.add(field, `The ${label(field)} field must be a string.`);
    return undefined;
  }
  if (value.length > max) {
    v.add(field, `The ${label(field)} field must not be greater than ${max} characters.`);
    return undefined;
  }
  return value;
}

export function optionalFlag(v: Violations, field: string, value: unknown): boolean | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const flag = parseFlag(value);
  if (flag === undefined) v.add(field, `The ${label(field)} field must be true or false.`);
  return flag;
}

export function optionalExpiration(v: Violations, value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n)) {
    v.add('expiration', 'The expiration field must be an integer.');
    return undefined;
  }
  if (n < EXPIRATION_MIN || n > EXPIRATION_MAX) {
    v.add('expiration', `The expiration field must be between ${EXPIRATION_MIN} and ${EXPIRATION_MAX}.`);
    return undefined;
  }
  return n;
}

const LOCALE = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/;

export function optionalLocale(v: Violations, value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !LOCALE.test(value)) {
    v.add('locale', 'The locale field format is invalid.');
    return undefined;
  }
  try {
    return Intl.getCanonicalLocales(value.replace(/_/g, '-'))[0];
  } catch {
    v.add('locale', 'The locale field format is invalid.');
    return undefined;
  }
}

/** "{{ }}", "<< >>", "[ ]": two markers separated by white space. */
export function optionalDelimiters(v: Violations, value: unknown): [string, string] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const parts = typeof value === 'string' ? value.trim().split(/\s+/) : [];
  if (parts.length !== 2 || parts.some((p) => p.length > 10) || parts[0] === parts[1]) {
    v.add('delimiters', 'The delimiters field must be an opening and a closing marker separated by a space, such as "{{ }}" or "<< >>".');
    return undefined;
  }
  return [parts[0], parts[1]];
}

/** The default of limits.dataDepth (config.ts): levels of objects and arrays in `data`, itself included. */
export const DEFAULT_DATA_DEPTH = 64;

/**
 * True when JSON text nests objects and arrays deeper than `max` (brackets inside strings do not count). A plain
 * loop over the characters (or UTF-8 bytes: no multi-byte sequence contains an ASCII byte), run before the text
 * is parsed, so nesting deep enough to exhaust a stack or memory is never built at all.
 */
export function jsonTextNestsDeeper(text: string | Uint8Array, max: number): boolean {
  const bytes = typeof text !== 'string';
  const length = text.length;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < length; i++) {
    const c = bytes ? (text as Uint8Array)[i] : (text as string).charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}

/** True when a parsed value nests objects and arrays deeper than `max` (the value itself is level 1). No recursion. */
export function valueNestsDeeper(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  // Two plain stacks (no pair per node) and no arrays of keys or values: this runs over every 10 MB body.
  const nodes: object[] = [value];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > max) return true;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        if (typeof item === 'object' && item !== null) {
          nodes.push(item);
          depths.push(depth + 1);
        }
      }
    } else {
      const record = node as Record<string, unknown>;
      for (const key in record) {
        const item = record[key];
        if (typeof item === 'object' && item !== null) {
          nodes.push(item);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

export function dataDepthMessage(max: number): string {
  return `The data field must not nest objects and arrays more than ${max} levels deep.`;
}

/**
 * The data object: a JSON object, given as a string (forms) or an object (JSON bodies), nested at most `maxDepth`
 * levels (limits.dataDepth) — checked before anything walks, copies or hashes it.
 */
export function requiredDataObject(v: Violations, value: unknown, maxDepth = DEFAULT_DATA_DEPTH): Record<string, unknown> | undefined {
  if (value === undefined || value === null || value === '') {
    v.add('data', 'The data field is required.');
    return undefined;
  }
  let parsed: unknown = value;
  if (typeof value === 'string') {
    if (jsonTextNestsDeeper(value, maxDepth)) {
      v.add('data', dataDepthMessage(maxDepth));
      return undefined;
    }
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = undefined;
    }
  } else if (valueNestsDeeper(value, maxDepth)) {
    v.add('data', dataDepthMessage(maxDepth));
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    v.add('data', 'The data field must be a valid JSON object.');
    return undefined;
  }
  return parsed as Record<string, unknown>;
}
