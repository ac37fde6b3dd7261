/**
 * Property tests of the language (fast-check): 25,000 runs for each of the four properties, 100,000 in all (the
 * issue's figure). Measured: about 1.5 s for the file on this machine, so the whole count runs in the suite.
 * LANG_RUNS overrides it (for a longer soak).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { evaluate, evaluateTag, parseExpression, type BinaryOp, type Expr } from '../../../server/engine/lang/index.js';

const RUNS = Number(process.env.LANG_RUNS ?? 25_000);

const TAG_CHARS = ['a', 'b', 'x', '.', ' ', '1', '0', '(', ')', '[', ']', '!', '-', '+', '*', '/', '%', '<', '>', '=', '&', '|', '?', ':', '"', '“', '”', "'", ',', '$', 'é', '\u0000'];

test('any tag text parses to an AST or a located error, never a throw', () => {
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 40 }), fc.array(fc.constantFrom(...TAG_CHARS), { maxLength: 40 }).map((c) => c.join(''))), (text) => {
      const out = parseExpression(text);
      if (out.ok) return;
      assert.ok(out.error.code === 'invalid_expression' || out.error.code === 'unsupported_tag');
      assert.ok(out.error.column >= 0 && out.error.column <= text.length, `${JSON.stringify(text)} → column ${out.error.column}`);
      assert.ok(out.error.message.length > 0);
    }),
    { numRuns: RUNS },
  );
});

// Random ASTs, printed to tag text with every binary operation parenthesised, parse back to the same tree.
const NAMES = ['a', 'b', 'c', 'items', 'constructor', '__proto__', 'prototype', 'toString', 'length'];
const OPS: BinaryOp[] = ['*', '/', '%', '+', '-', '<', '<=', '>', '>=', '==', '!=', '===', '!==', '&&', '||'];

const exprArb: fc.Arbitrary<Expr> = fc.letrec<{ e: Expr }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer({ min: 0, max: 1_000_000 }).map((v): Expr => ({ t: 'num', v })),
    fc.constantFrom(0.1, 0.2, 1e21, 123456789.123).map((v): Expr => ({ t: 'num', v })),
    fc.string({ maxLength: 6 }).filter((s) => !s.includes('"')).map((v): Expr => ({ t: 'str', v })),
    fc.constantFrom<Expr>({ t: 'lit', v: true }, { t: 'lit', v: false }, { t: 'lit', v: null }, { t: 'index' }),
    fc.constantFrom(...NAMES).map((name): Expr => ({ t: 'name', name, path: [name] })),
    fc.tuple(tie('e'), tie('e')).map(([obj, key]): Expr => ({ t: 'member', obj, key })),
    fc.tuple(fc.constantFrom<'!' | '-'>('!', '-'), tie('e')).map(([op, arg]): Expr => ({ t: 'unary', op, arg })),
    fc.tuple(fc.constantFrom(...OPS), tie('e'), tie('e')).map(([op, l, r]): Expr => ({ t: 'bin', op, l, r })),
    fc.tuple(tie('e'), tie('e'), tie('e')).map(([test, then, otherwise]): Expr => ({ t: 'cond', test, then, else: otherwise })),
  ),
})).e;

function print(e: Expr): string {
  switch (e.t) {
    case 'num':
      return String(e.v);
    case 'str':
      return JSON.stringify(e.v).replace(/\\(.)/g, '$1');
    case 'lit':
      return String(e.v);
    case 'index':
      return '$index';
    case 'name':
      return e.name;
    case 'member':
      return `(${print(e.obj)})[${print(e.key)}]`;
    case 'unary':
      return `${e.op}(${print(e.arg)})`;
    case 'bin':
      return `(${print(e.l)}) ${e.op} (${print(e.r)})`;
    case 'cond':
      return `(${print(e.test)}) ? (${print(e.then)}) : (${print(e.else)})`;
  }
}

function depth(e: Expr): number {
  switch (e.t) {
    case 'member':
      return 1 + Math.max(depth(e.obj), depth(e.key));
    case 'unary':
      return 1 + depth(e.arg);
    case 'bin':
      return 1 + Math.max(depth(e.l), depth(e.r));
    case 'cond':
      return 1 + Math.max(depth(e.test), depth(e.then), depth(e.else));
    default:
      return 0;
  }
}

// JSON data with prototype-named keys, deep nesting and huge numbers.
const jsonArb = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, 0, -0.5, 1e308, -1e308, 5e-324, '', '12', ' 3.5 ', 'x'),
    fc.double(),
    fc.string({ maxLength: 5 }),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...NAMES, '0', '1'), tie('v'), { maxKeys: 4 }),
  ),
})).v;

// Deep JSON as a client sends it: JSON.parse makes `__proto__` an own key (never the prototype).
const deepArb = fc
  .tuple(fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 60 }), jsonArb)
  .map(([keys, leaf]) => JSON.parse(keys.map((k) => `{${JSON.stringify(k)}:`).join('') + JSON.stringify(leaf ?? null) + '}'.repeat(keys.length)) as unknown);
const dataArb = fc.oneof(jsonArb, deepArb);

function ownOnlyProxy(value: unknown, reads: string[]): unknown {
  if (value === null || typeof value !== 'object') return value;
  const target = value as Record<string | symbol, unknown>;
  return new Proxy(target, {
    get(t, key) {
      if (typeof key === 'string' && !Object.prototype.hasOwnProperty.call(t, key)) reads.push(key);
      const inner = Reflect.get(t, key);
      return typeof key === 'string' ? ownOnlyProxy(inner, reads) : inner;
    },
    set() {
      throw new Error('write');
    },
    defineProperty() {
      throw new Error('write');
    },
    deleteProperty() {
      throw new Error('write');
    },
  });
}

test('parse(print(ast)) is the AST; evaluation reads only own data, writes nothing, yields no NaN or Infinity', () => {
  const protoKeys = Object.getOwnPropertyNames(Object.prototype).sort().join();
  fc.assert(
    fc.property(exprArb, dataArb, dataArb, fc.option(fc.nat(50)), (expr, data, item, index) => {
      fc.pre(depth(expr) < 14);
      const text = print(expr);
      const parsed = parseExpression(text);
      if (text.length > 1000 || !parsed.ok) {
        assert.ok(!parsed.ok && parsed.error.code === 'invalid_expression', text);
        return;
      }
      assert.deepEqual(parsed.expr, expr, text);
      const before = JSON.stringify([data, item]);
      const reads: string[] = [];
      let called = false;
      const scope = { a: data, b: item, c: () => (called = true), items: [data, item] };
      const value = evaluateTag(parsed.expr, text, { stack: [ownOnlyProxy(scope, reads), ownOnlyProxy(item, reads)], index: index ?? undefined });
      assert.deepEqual(reads, [], `${text} read ${reads.join()}`);
      assert.equal(called, false);
      assert.equal(JSON.stringify([data, item]), before);
      assert.equal(Object.getOwnPropertyNames(Object.prototype).sort().join(), protoKeys);
      assert.ok(typeof value !== 'function' && value !== null);
      if (typeof value === 'number') assert.ok(Number.isFinite(value), `${text} → ${value}`);
    }),
    { numRuns: RUNS },
  );
});

// A reference evaluator for arithmetic over numbers (written independently of evaluate.ts).
const arithArb: fc.Arbitrary<Expr> = fc.letrec<{ e: Expr }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small' },
    fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(0.1, 0.2, 0.3, 2.5, 1e15, 1e-7)).map((v): Expr => (v < 0 ? { t: 'unary', op: '-', arg: { t: 'num', v: -v } } : { t: 'num', v })),
    fc.tuple(fc.constantFrom<BinaryOp>('+', '-', '*', '/', '%'), tie('e'), tie('e')).map(([op, l, r]): Expr => ({ t: 'bin', op, l, r })),
  ),
})).e;

function reference(e: Expr): number | undefined {
  if (e.t === 'num') return e.v;
  if (e.t === 'unary') {
    const v = reference(e.arg);
    return v === undefined ? undefined : v === 0 ? 0 : -v;
  }
  if (e.t !== 'bin') return undefined;
  const l = reference(e.l);
  const r = reference(e.r);
  if (l === undefined || r === undefined) return undefined;
  let out: number;
  if (e.op === '+') out = l + r;
  else if (e.op === '-') out = l - r;
  else if (e.op === '*') out = l * r;
  else if (r === 0) return undefined;
  else out = e.op === '/' ? l / r : l % r;
  if (!Number.isFinite(out)) return undefined;
  const rounded = parseFloat(out.toPrecision(15));
  return rounded === 0 ? 0 : rounded;
}

test('arithmetic agrees with a reference evaluator (15 significant digits, nothing for x/0)', () => {
  fc.assert(
    fc.property(arithArb, (expr) => {
      const text = print(expr);
      const parsed = parseExpression(text);
      if (!parsed.ok) return;
      assert.equal(evaluate(parsed.expr, { stack: [{}] }), reference(expr), text);
    }),
    { numRuns: RUNS },
  );
});

test('unparenthesised chains follow the precedence table', () => {
  const ops = ['+', '-', '*', '/', '%'] as const;
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.constantFrom(...ops), fc.integer({ min: 1, max: 9 })), { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 9 }), (rest, first) => {
      const text = [String(first), ...rest.map(([op, n]) => `${op} ${n}`)].join(' ');
      const parsed = parseExpression(text);
      assert.ok(parsed.ok, text);
      const js = jsArith(text);
      const ours = evaluate(parsed.expr, { stack: [{}] });
      assert.equal(ours, js, text);
    }),
    { numRuns: RUNS },
  );
});

/** Evaluates `d op d op d…` (digits 1–9, so no division by zero) with * / % before + -, rounding each step. */
function jsArith(text: string): number {
  const toks = text.split(' ');
  const terms: number[] = [];
  const signs: string[] = [];
  let term = Number(toks[0]);
  for (let i = 1; i < toks.length; i += 2) {
    const op = toks[i];
    const n = Number(toks[i + 1]);
    if (op === '*' || op === '/' || op === '%') {
      if (op === '*') term = term * n;
      else if (op === '/') term = term / n;
      else term = term % n;
      term = parseFloat(term.toPrecision(15));
    } else {
      terms.push(term);
      signs.push(op);
      term = n;
    }
  }
  terms.push(term);
  let total = terms[0];
  for (let i = 0; i < signs.length; i++) {
    total = signs[i] === '+' ? total + terms[i + 1] : total - terms[i + 1];
    total = parseFloat(total.toPrecision(15));
  }
  return total === 0 ? 0 : total;
}
