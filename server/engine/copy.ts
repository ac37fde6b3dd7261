/**
 * Shallow copies for the render path that keep V8's hidden classes shared between documents.
 *
 * In Node 20's V8 (11.3) a spread site that has copied objects of more than one shape — merge() in layout/fmt.ts
 * sees every style shape of a template, the layout's `{ ...ctx, … }` several contexts — gives the copies of a
 * later shape a hidden class ("map") outside V8's transition tree, and every property added to such a copy, in
 * the literal (`{ ...source, more }`) or by assignment, then makes a brand-new map, once per copy. A render made
 * ~40 of them (`node --log-maps`: "Transition … prototype"), each unseen by every property access it reached: the
 * layout's inline caches went megamorphic and allocated ~400 load handlers per render in old space, with ~30 maps
 * and descriptor arrays, all garbage for the next mark-compact. Object.assign onto `{}` builds the copy through
 * the shared transition tree: equal shapes, equal maps (test/engine/copy.test.ts; docs/benchmarks.md, session
 * 17, branch gc20).
 */

/** `{ ...source }` (own enumerable properties, in order), with a map shared by every copy of the same shape. */
export function copyOf<T extends object>(source: T): T {
  // Object.assign would set the copy's prototype for an own "__proto__" key (JSON.parse makes one); spread
  // defines it as a plain property, which the rare case keeps.
  return Object.hasOwn(source, '__proto__') ? { ...source } : Object.assign({}, source);
}

/** What `{ ...source, ...extra }` types as, member by member of a union (Omit alone would lose the discriminant). */
export type CopyWith<T, U> = T extends unknown ? Omit<T, keyof U> & U : never;

/** `{ ...source, ...extra }` with shared maps (see copyOf); `extra` is a literal written by our code. */
export function copyWith<T extends object, U extends object>(source: T, extra: U): CopyWith<T, U> {
  return Object.assign(copyOf(source), extra) as unknown as CopyWith<T, U>;
}
