/**
 * Reading a tag's value from the scopes: a plain name by Mustache lookup (from the innermost scope, the current
 * list item, outwards to the data; `customer.name` first matches a key written with the dot, then walks
 * `customer` → `name`), an expression by the template language's evaluator. Only own properties are read, so
 * `constructor` or `__proto__` never reach anything but data. One function for the PDF, the .docx and file names.
 */
import type { CName } from '../tags/types.js';
import { evaluateTag, isTruthy, lookupName } from '../lang/index.js';

export { isTruthy };

/** A name's value (no expression): kept for callers that only ever read plain names. */
export function lookup(stack: readonly unknown[], ref: CName): unknown {
  return resolve(stack, ref);
}

/** A tag's value: `index` is the innermost loop's item number (for `$index`), undefined outside loops. */
export function resolve(stack: readonly unknown[], ref: CName, index?: number): unknown {
  if (ref.expr) return evaluateTag(ref.expr, ref.name, { stack, index });
  return lookupName({ stack }, ref.name, ref.path);
}
