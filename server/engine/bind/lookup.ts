/**
 * Mustache name lookup: a name is searched from the innermost scope (the current list item) outwards to the
 * data object. `customer.name` first matches a key written with the dot, then walks `customer` → `name`.
 * Only own properties are read, so `constructor` or `__proto__` never reach anything but data.
 */
import type { CName } from '../tags/types.js';

const hasOwn = Object.prototype.hasOwnProperty;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}

export function lookup(stack: readonly unknown[], ref: CName): unknown {
  const { path } = ref;
  if (path.length === 0) return stack[stack.length - 1];
  for (let i = stack.length - 1; i >= 0; i--) {
    const scope = stack[i];
    if (!isRecord(scope) || Array.isArray(scope)) continue;
    if (path.length > 1 && hasOwn.call(scope, ref.name)) return scope[ref.name];
    if (!hasOwn.call(scope, path[0])) continue;
    let value: unknown = scope[path[0]];
    for (let j = 1; j < path.length; j++) {
      if (!isRecord(value) || !hasOwn.call(value, path[j])) return undefined;
      value = (value as Record<string, unknown>)[path[j]];
    }
    return value;
  }
  return undefined;
}

/** Mustache's truthiness: false, null, missing, 0, '' and [] are false; everything else (even {}) is true. */
export function isTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}
