/**
 * How the language reads data values: numbers (and numeric text, as the number filters read it), truthiness,
 * own properties only. Shared by the evaluator, the aggregates and bind/.
 */

const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;
const hasOwn = Object.prototype.hasOwnProperty;

/** A finite number from a number or numeric text; null for anything else. */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') {
    const text = value.trim();
    if (!NUMERIC.test(text)) return null;
    const n = Number(text);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** Rounds to 15 significant digits (`0.1 + 0.2` → 0.3); undefined for NaN and ±Infinity, 0 for -0. */
export function round15(n: number): number | undefined {
  if (!Number.isFinite(n)) return undefined;
  const r = Number(n.toPrecision(15));
  // Rounding up near Number.MAX_VALUE overflows (1.7976931348623157e308 → 1.79769313486232e308 = Infinity).
  if (!Number.isFinite(r)) return undefined;
  return r === 0 ? 0 : r;
}

/** Mustache's truthiness: false, null, missing, 0, '' and [] are false; everything else (even {}) is true. */
export function isTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}

/**
 * One property of a value: an own property of an object or array, an array element, or the `length` of an
 * array or string. Never the prototype's (`constructor`, `__proto__` reach only data keys of that name), never
 * a function (a data value is JSON; anything else reads as missing). `null` reads as missing.
 */
export function member(value: unknown, key: string | number): unknown {
  if (typeof value === 'string') return key === 'length' ? value.length : undefined;
  if (!isRecord(value)) return undefined;
  const name = typeof key === 'number' ? (Number.isInteger(key) && key >= 0 ? String(key) : null) : key;
  if (name === null) return undefined;
  if (!hasOwn.call(value, name)) return undefined;
  return plain((value as Record<string, unknown>)[name]);
}

/** Data as the language sees it: functions and symbols are not data (never called), null is missing, NaN too. */
export function plain(value: unknown): unknown {
  if (value === null || typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (typeof value === 'number' && !Number.isFinite(value)) return undefined;
  return value;
}

export function ownKey(scope: unknown, key: string): boolean {
  return isRecord(scope) && !Array.isArray(scope) && hasOwn.call(scope, key);
}
