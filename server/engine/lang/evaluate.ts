/**
 * Syntax tree + scopes → value. Only reads: own properties of the data (and `.length`), nothing is called or
 * written, so data and Object.prototype are unchanged whatever the tag. Arithmetic on a missing or non-numeric
 * operand, or a division by zero, gives undefined (shown as nothing); results are rounded to 15 significant
 * digits; NaN and Infinity never come out.
 */
import type { Expr } from './ast.js';
import { isTruthy, member, ownKey, plain, round15, toNumber } from './values.js';

/** Where names are read: the data, then each loop item or section value (innermost last). */
export interface Scopes {
  stack: readonly unknown[];
  /** The innermost loop's item number (0-based), undefined outside loops. */
  index?: number;
}

/**
 * Mustache lookup: from the innermost scope outwards; a key written with the dots (`a.b`) wins over the path. A key
 * whose value is `null` counts as absent (issue #12 item 6, as docxtemplater): the lookup goes on outwards, so
 * `{ "name": null }` in a list item shows the enclosing `name`, alike in the PDF and the .docx.
 */
export function lookupName(scopes: Scopes, name: string, path: readonly string[]): unknown {
  const { stack } = scopes;
  if (path.length === 0) return plain(stack[stack.length - 1]);
  for (let i = stack.length - 1; i >= 0; i--) {
    const scope = stack[i];
    if (path.length > 1 && present(scope, name)) return member(scope, name);
    if (!present(scope, path[0])) continue;
    let value = member(scope, path[0]);
    for (let j = 1; j < path.length; j++) value = member(value, path[j]);
    return value;
  }
  return undefined;
}

/** Evaluates a whole tag: a data key equal to the tag's whole text wins (`first-name`), else the expression. */
export function evaluateTag(expr: Expr, text: string, scopes: Scopes): unknown {
  if (expr.t !== 'name') {
    const key = text.trim();
    for (let i = scopes.stack.length - 1; i >= 0; i--) {
      if (present(scopes.stack[i], key)) return member(scopes.stack[i], key);
    }
  }
  return evaluate(expr, scopes);
}

/** An own key of the scope whose value is data (not null: `member` reads null as missing). */
function present(scope: unknown, key: string): boolean {
  return ownKey(scope, key) && member(scope, key) !== undefined;
}

function keyOf(value: unknown): string | number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') return value;
  return null;
}

function arithmetic(op: string, a: unknown, b: unknown): unknown {
  const x = toNumber(a);
  const y = toNumber(b);
  if (op === '+' && (x === null || y === null)) {
    // Text joins; missing data, lists and objects give nothing rather than "undefined" or "[object Object]".
    if (!isScalar(a) || !isScalar(b)) return undefined;
    return String(a) + String(b);
  }
  if (x === null || y === null) return undefined;
  switch (op) {
    case '+':
      return round15(x + y);
    case '-':
      return round15(x - y);
    case '*':
      return round15(x * y);
    case '/':
      return y === 0 ? undefined : round15(x / y);
    default:
      return y === 0 ? undefined : round15(x % y);
  }
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function compare(op: string, a: unknown, b: unknown): boolean {
  const x = toNumber(a);
  const y = toNumber(b);
  let c: number;
  if (x !== null && y !== null) c = x - y;
  else if (typeof a === 'string' && typeof b === 'string') c = a < b ? -1 : a > b ? 1 : 0;
  else return false;
  switch (op) {
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    default:
      return c >= 0;
  }
}

/** `==`: missing equals null, numbers equal numeric text (`"2" == 2`), else strict equality. */
function looseEqual(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return a === b;
  if ((typeof a === 'number' || typeof b === 'number') && isScalar(a) && isScalar(b)) {
    const x = toNumber(a);
    const y = toNumber(b);
    if (x !== null && y !== null) return x === y;
  }
  return a === b;
}

export function evaluate(expr: Expr, scopes: Scopes): unknown {
  switch (expr.t) {
    case 'num':
      return round15(expr.v);
    case 'str':
      return expr.v;
    case 'lit':
      // null counts as missing everywhere.
      return expr.v === null ? undefined : expr.v;
    case 'name':
      return lookupName(scopes, expr.name, expr.path);
    case 'index':
      return scopes.index;
    case 'member': {
      const obj = evaluate(expr.obj, scopes);
      const key = keyOf(evaluate(expr.key, scopes));
      return key === null ? undefined : member(obj, key);
    }
    case 'unary': {
      const value = evaluate(expr.arg, scopes);
      if (expr.op === '!') return !isTruthy(value);
      const n = toNumber(value);
      return n === null ? undefined : round15(-n);
    }
    case 'cond':
      return isTruthy(evaluate(expr.test, scopes)) ? evaluate(expr.then, scopes) : evaluate(expr.else, scopes);
    case 'bin': {
      const left = evaluate(expr.l, scopes);
      switch (expr.op) {
        case '&&':
          return isTruthy(left) ? evaluate(expr.r, scopes) : left;
        case '||':
          return isTruthy(left) ? left : evaluate(expr.r, scopes);
        default:
          break;
      }
      const right = evaluate(expr.r, scopes);
      switch (expr.op) {
        case '==':
          return looseEqual(left, right);
        case '!=':
          return !looseEqual(left, right);
        case '===':
          return left === right;
        case '!==':
          return left !== right;
        case '<':
        case '<=':
        case '>':
        case '>=':
          return compare(expr.op, left, right);
        default:
          return arithmetic(expr.op, left, right);
      }
    }
  }
}
