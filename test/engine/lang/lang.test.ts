import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aggregate, evaluateTag, parseExpression, namesRead, type Expr } from '../../../server/engine/lang/index.js';

function parse(text: string): Expr {
  const out = parseExpression(text);
  if (!out.ok) throw new Error(`${text}: ${out.error.code} ${out.error.message}`);
  return out.expr;
}

function run(text: string, data: unknown, index?: number, stack: unknown[] = [data]): unknown {
  return evaluateTag(parse(text), text, { stack, index });
}

test('precedence: * before +, comparisons before &&, && before ||, ?: lowest', () => {
  assert.equal(run('1 + 2 * 3', {}), 7);
  assert.equal(run('(1 + 2) * 3', {}), 9);
  assert.equal(run('10 - 4 - 3', {}), 3);
  assert.equal(run('2 * 3 % 4', {}), 2);
  assert.equal(run('1 < 2 == true', {}), true);
  assert.equal(run('a > 1 && b < 1 || c', { a: 2, b: 0, c: false }), true);
  assert.equal(run('x ? "yes" : "no"', { x: 1 }), 'yes');
  assert.equal(run('x ? "yes" : y ? "y" : "none"', { y: 1 }), 'y');
  assert.equal(run('!a && b', { a: 0, b: 'ok' }), 'ok');
  assert.equal(run('-a * 2', { a: 3 }), -6);
});

test('numbers: 15 significant digits, never NaN, Infinity or undefined as text', () => {
  assert.equal(run('0.1 + 0.2', {}), 0.3);
  assert.equal(run('a / 0', { a: 1 }), undefined);
  assert.equal(run('a % 0', { a: 1 }), undefined);
  assert.equal(run('a * 2', {}), undefined);
  assert.equal(run('a * 2', { a: 'x' }), undefined);
  assert.equal(run('a * 2', { a: ' 4 ' }), 8);
  assert.equal(run('a * b', { a: 1e308, b: 10 }), undefined);
  assert.equal(run('-a', { a: 0 }), 0);
  assert.ok(Object.is(run('-a', { a: 0 }), 0));
});

test('+ adds numbers or numeric text, else joins text; objects and missing give nothing', () => {
  assert.equal(run('a + b', { a: '2', b: 3 }), 5);
  assert.equal(run('a + " " + b', { a: 'Ada', b: 'Lovelace' }), 'Ada Lovelace');
  assert.equal(run('a + b', { a: 'x' }), undefined);
  assert.equal(run('a + b', { a: 'x', b: {} }), undefined);
});

test('comparisons and equality', () => {
  assert.equal(run('a == 2', { a: '2' }), true);
  assert.equal(run('a === 2', { a: '2' }), false);
  assert.equal(run('a !== 2', { a: '2' }), true);
  assert.equal(run('a == null', {}), true);
  assert.equal(run('a == null', { a: null }), true);
  assert.equal(run('a != null', { a: 0 }), true);
  assert.equal(run('a >= 10', { a: '9' }), false);
  assert.equal(run('a < "b"', { a: 'a' }), true);
  assert.equal(run('a < 1', {}), false);
});

test('names: dots, spaces, the current item, [index], ["key"], .length, $index', () => {
  const data = { customer: { name: 'Ada' }, 'variable 1': 'v1', items: [{ n: 1 }, { n: 2 }], s: 'hello', 'a.b': 'dotted', a: { b: 'path' } };
  assert.equal(run('customer.name', data), 'Ada');
  assert.equal(run('variable 1', data), 'v1');
  assert.equal(run('items[1].n', data), 2);
  assert.equal(run('items.length', data), 2);
  assert.equal(run('s.length', data), 5);
  assert.equal(run('customer["name"]', data), 'Ada');
  assert.equal(run('customer[“name”]', data), 'Ada');
  assert.equal(run('(s).length + 1', data), 6);
  assert.equal(run('a.b', data), 'dotted');
  assert.equal(run('.', data, undefined, [data, 'item']), 'item');
  assert.equal(run('this', data, undefined, [data, 'item']), 'item');
  assert.equal(run('$index + 1', data, 0), 1);
  assert.equal(run('$index', data), undefined);
});

test('a data key equal to the whole tag text wins', () => {
  assert.equal(run('first-name', { 'first-name': 'Ada', first: 3, name: 1 }), 'Ada');
  assert.equal(run('first-name', { first: 3, name: 1 }), 2);
  assert.equal(run('a > b', { 'a > b': 'key' }), 'key');
});

test('curly and straight quotes', () => {
  assert.equal(run('x ? “yes” : ‘no’', { x: 0 }), 'no');
  assert.equal(run("x ? 'yes' : \"no\"", { x: 1 }), 'yes');
  assert.equal(run('„low“', {}), 'low');
});

test('only own data properties are read; prototypes reach only data keys', () => {
  assert.equal(run('constructor', {}), undefined);
  assert.equal(run('a.constructor', { a: {} }), undefined);
  assert.equal(run('a["constructor"]["constructor"]', { a: {} }), undefined);
  assert.equal(run('__proto__', {}), undefined);
  assert.equal(run('s.constructor.name', { s: 'x' }), undefined);
  assert.equal(run('items.map', { items: [] }), undefined);
  assert.equal(run('f', { f: () => 'called' }), undefined);
  const withProto = JSON.parse('{"__proto__": {"x": "data"}, "constructor": "c"}');
  assert.deepEqual(run('__proto__', withProto), { x: 'data' });
  assert.equal(run('constructor', withProto), 'c');
});

test('refusals carry a code and the column of the fault', () => {
  const cases: Array<[string, string, number]> = [
    ['a >', 'invalid_expression', 3],
    ['(a', 'invalid_expression', 2],
    ['x ? 1', 'invalid_expression', 5],
    ['a b +', 'invalid_expression', 5],
    ['"open', 'invalid_expression', 0],
    ['a = 1', 'unsupported_tag', 2],
    ['f(1)', 'unsupported_tag', 1],
    ['a, b', 'unsupported_tag', 1],
    ['a ) b', 'invalid_expression', 2],
    ['a & b', 'invalid_expression', 2],
    ['a[0', 'invalid_expression', 3],
  ];
  for (const [text, code, column] of cases) {
    const out = parseExpression(text);
    assert.equal(out.ok, false, text);
    if (out.ok) continue;
    assert.equal(out.error.code, code, text);
    assert.equal(out.error.column, column, text);
    assert.ok(out.error.message.length > 10, text);
  }
});

test('limits: tags of more than 1,000 characters and nesting beyond 32 are refused', () => {
  assert.equal(parseExpression('a+'.repeat(499) + 'a').ok, true);
  const long = parseExpression('a+'.repeat(500) + 'a');
  assert.equal(long.ok ? '' : long.error.code, 'invalid_expression');
  assert.equal(parseExpression('('.repeat(31) + 'a' + ')'.repeat(31)).ok, true);
  const deep = parseExpression('('.repeat(40) + 'a' + ')'.repeat(40));
  assert.equal(deep.ok ? '' : deep.error.code, 'invalid_expression');
  const unary = parseExpression('!'.repeat(40) + 'a');
  assert.equal(unary.ok ? '' : unary.error.code, 'invalid_expression');
});

test('names read by an expression (for fields)', () => {
  assert.deepEqual(namesRead(parse('hours * rate + hours')), ['hours', 'rate']);
  assert.deepEqual(namesRead(parse('items[i].n > 0 ? "a" : this.x')), ['items', 'i']);
});

test('aggregates: sum over a key or the items, count, min, max, avg; bad values are located', () => {
  const lines = [{ net: 10 }, { net: 2.5 }, { net: null }, {}, { net: 0.1 }];
  assert.deepEqual(aggregate('sum', lines, ['net']), { ok: true, value: 12.6 });
  assert.deepEqual(aggregate('count', lines, ['net']), { ok: true, value: 3 });
  assert.deepEqual(aggregate('count', lines, []), { ok: true, value: 5 });
  assert.deepEqual(aggregate('min', lines, ['net']), { ok: true, value: 0.1 });
  assert.deepEqual(aggregate('max', lines, ['net']), { ok: true, value: 10 });
  assert.deepEqual(aggregate('avg', [1, 2], []), { ok: true, value: 1.5 });
  assert.deepEqual(aggregate('sum', [], ['net']), { ok: true, value: 0 });
  assert.deepEqual(aggregate('avg', [], []), { ok: true, value: undefined });
  assert.deepEqual(aggregate('sum', [{ net: 1 }, { net: 'x' }], ['net']), { ok: false, fault: { item: 1, key: 'net', value: 'x' } });
  assert.deepEqual(aggregate('sum', [{}], ['constructor']), { ok: true, value: 0 });
  assert.deepEqual(aggregate('sum', undefined, []), { ok: true, value: undefined });
});

test('characters XML forbids are dropped from every value (the PDF and the .docx agree), tabs and line breaks kept', async () => {
  const { formatValue } = await import('../../../server/engine/bind/format.js');
  assert.equal(formatValue('a\u0001b\u000bc\ud800d\uFFFFe\tf\ng', [], 'en-US'), 'abcde\tf\ng');
  assert.equal(formatValue('😀', [], 'en-US'), '😀');
});

test('rounding near the largest number gives nothing, not Infinity', () => {
  assert.equal(run('-a', { a: 1.7976931348623151e308 }), undefined);
  assert.equal(run('a', { a: 1.7976931348623151e308 }), 1.7976931348623151e308);
});

test('names written with colons stay names; a ternary without its colon part is refused', async () => {
  const { parseTag } = await import('../../../server/engine/tags/parse-tag.js');
  const named = parseTag('time:start', '{{time:start}}');
  assert.ok(named.ok && named.tag.type === 'var' && named.tag.ref.expr === undefined && named.tag.ref.name === 'time:start');
  for (const bad of ['x ? 1', 'a ?: b', 'a: b', ':a', 'a:']) {
    const out = parseTag(bad, `{{${bad}}}`);
    assert.ok(!out.ok && out.problem.code === 'invalid_expression', bad);
  }
});
