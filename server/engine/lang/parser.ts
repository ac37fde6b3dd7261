/**
 * Tag text → syntax tree (ast.ts), by precedence climbing, lowest first:
 *   `?:` → `||` → `&&` → `== != === !==` → `< <= > >=` → `+ -` → `* / %` → unary `! -` → `a[k]`, `.name` → primary.
 * Filters (`| name:arg`) sit below all of these and are split off before (filters.ts of tags/). Every refusal is
 * a LangError with the column of the fault; nothing is evaluated here.
 */
import type { BinaryOp, Expr } from './ast.js';
import { langError, MAX_NESTING, MAX_TAG_LENGTH, type LangError } from './errors.js';
import { lex, type Token } from './lexer.js';

export type ParseOutcome = { ok: true; expr: Expr } | { ok: false; error: LangError };

class Refusal {
  constructor(readonly error: LangError) {}
}

const LEVELS: ReadonlyArray<readonly BinaryOp[]> = [
  ['||'],
  ['&&'],
  ['==', '!=', '===', '!=='],
  ['<', '<=', '>', '>='],
  ['+', '-'],
  ['*', '/', '%'],
];

/** A name token read as a data name: `.`/`this` is the current item, dots separate the path. */
export function nameNode(text: string): Expr {
  if (text === '.' || text === 'this') return { t: 'name', name: text, path: [] };
  if (text === '$index') return { t: 'index' };
  if (text === 'true') return { t: 'lit', v: true };
  if (text === 'false') return { t: 'lit', v: false };
  if (text === 'null') return { t: 'lit', v: null };
  const path = text.split('.').filter((part) => part.length > 0);
  if (path[0] === 'this') return path.length === 1 ? { t: 'name', name: text, path: [] } : pathFrom({ t: 'name', name: '.', path: [] }, path.slice(1));
  return { t: 'name', name: text, path };
}

function pathFrom(obj: Expr, keys: string[]): Expr {
  let out = obj;
  for (const key of keys) out = { t: 'member', obj: out, key: { t: 'str', v: key } };
  return out;
}

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly text: string,
  ) {}

  parse(): Expr {
    if (this.tokens.length === 0) throw this.refuse('invalid_expression', 0, 'the tag is empty: write a name or an expression.');
    const expr = this.cond();
    const extra = this.peek();
    if (extra) this.unexpected(extra);
    return expr;
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private isOp(value: string): boolean {
    const tok = this.tokens[this.pos];
    return tok !== undefined && tok.k === 'op' && tok.v === value;
  }

  private refuse(code: 'invalid_expression' | 'unsupported_tag', column: number, message: string): Refusal {
    return new Refusal(langError(code, column, message));
  }

  private unexpected(tok: Token): never {
    if (tok.k === 'op' && tok.v === '=') {
      throw this.refuse('unsupported_tag', tok.at, 'a single "=" would assign a value, and templates only read data: compare with "==".');
    }
    if (tok.k === 'op' && tok.v === ',') {
      throw this.refuse('unsupported_tag', tok.at, 'a "," lists arguments of a call, and templates call nothing: use a filter such as "| number:2".');
    }
    if (tok.k === 'op' && tok.v === '&') throw this.refuse('invalid_expression', tok.at, 'a single "&" is not an operator: write "&&" for "and".');
    const shown = this.text.slice(tok.at, tok.end);
    throw this.refuse('invalid_expression', tok.at, `"${shown}" at column ${tok.at + 1} cannot follow what comes before it.`);
  }

  private nest<T>(at: number, inner: () => T): T {
    if (++this.depth > MAX_NESTING) {
      throw this.refuse('invalid_expression', at, `the expression nests more than ${MAX_NESTING} levels deep (parentheses, brackets, "!", "-", "?:"): split it up.`);
    }
    try {
      return inner();
    } finally {
      this.depth--;
    }
  }

  private cond(): Expr {
    const start = this.peek()?.at ?? this.text.length;
    return this.nest(start, () => {
      const test = this.binary(0);
      if (!this.isOp('?')) return test;
      const q = this.tokens[this.pos++];
      const then = this.cond();
      if (!this.isOp(':')) {
        throw this.refuse('invalid_expression', this.peek()?.at ?? this.text.length, `the "?" at column ${q.at + 1} has no ":" part: write "condition ? yes : no".`);
      }
      this.pos++;
      const otherwise = this.cond();
      return { t: 'cond', test, then, else: otherwise };
    });
  }

  private binary(level: number): Expr {
    if (level >= LEVELS.length) return this.unary();
    let left = this.binary(level + 1);
    for (;;) {
      const tok = this.peek();
      if (!tok || tok.k !== 'op' || !(LEVELS[level] as readonly string[]).includes(tok.v)) return left;
      this.pos++;
      const right = this.binary(level + 1);
      left = { t: 'bin', op: tok.v as BinaryOp, l: left, r: right };
    }
  }

  private unary(): Expr {
    const tok = this.peek();
    if (tok && tok.k === 'op' && (tok.v === '!' || tok.v === '-')) {
      this.pos++;
      return this.nest(tok.at, () => ({ t: 'unary', op: tok.v as '!' | '-', arg: this.unary() }));
    }
    return this.postfix();
  }

  private postfix(): Expr {
    let expr = this.primary();
    for (;;) {
      const tok = this.peek();
      if (!tok) return expr;
      if (tok.k === 'op' && tok.v === '[') {
        this.pos++;
        const key = this.cond();
        if (!this.isOp(']')) throw this.refuse('invalid_expression', this.peek()?.at ?? this.text.length, `the "[" at column ${tok.at + 1} is never closed: add "]".`);
        this.pos++;
        expr = { t: 'member', obj: expr, key };
        continue;
      }
      if (tok.k === 'name' && tok.v.startsWith('.') && tok.v.length > 1 && this.text[tok.at - 1] !== ' ') {
        this.pos++;
        expr = pathFrom(expr, tok.v.split('.').filter((part) => part.length > 0));
        continue;
      }
      if (tok.k === 'op' && tok.v === '(') {
        throw this.refuse('unsupported_tag', tok.at, 'templates call no functions: use a filter instead ("| upper", "| number:2", "| sum:\\"net\\"").');
      }
      return expr;
    }
  }

  private primary(): Expr {
    const tok = this.peek();
    if (!tok) {
      throw this.refuse('invalid_expression', this.text.length, 'the expression ends where a value is expected: complete it after the last operator.');
    }
    switch (tok.k) {
      case 'num':
        this.pos++;
        return { t: 'num', v: tok.v };
      case 'str':
        this.pos++;
        return { t: 'str', v: tok.v };
      case 'name':
        this.pos++;
        return nameNode(tok.v);
      case 'op':
        if (tok.v === '(') {
          this.pos++;
          const inner = this.cond();
          if (!this.isOp(')')) {
            throw this.refuse('invalid_expression', this.peek()?.at ?? this.text.length, `the "(" at column ${tok.at + 1} is never closed: add ")".`);
          }
          this.pos++;
          return inner;
        }
        this.unexpected(tok);
    }
  }
}

/** Parses the expression part of a tag (no filters, no sigil). */
export function parseExpression(text: string): ParseOutcome {
  if (text.length > MAX_TAG_LENGTH) {
    return { ok: false, error: langError('invalid_expression', MAX_TAG_LENGTH, `the tag is ${text.length} characters long; tags may be at most ${MAX_TAG_LENGTH}.`) };
  }
  const lexed = lex(text);
  if ('error' in lexed) return { ok: false, error: lexed.error };
  try {
    return { ok: true, expr: new Parser(lexed.tokens, text).parse() };
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, error: err.error };
    throw err;
  }
}

/** True when the tag is one plain data name (the fast path: no expression to evaluate). */
export function isPlainName(expr: Expr): expr is Extract<Expr, { t: 'name' }> {
  return expr.t === 'name';
}

/** The data names an expression reads (for the template's `fields`), in order, without repeats. */
export function namesRead(expr: Expr, out: string[] = []): string[] {
  switch (expr.t) {
    case 'name':
      if (expr.path.length > 0 && !out.includes(expr.name)) out.push(expr.name);
      break;
    case 'member':
      namesRead(expr.obj, out);
      if (expr.key.t !== 'str') namesRead(expr.key, out);
      break;
    case 'unary':
      namesRead(expr.arg, out);
      break;
    case 'bin':
      namesRead(expr.l, out);
      namesRead(expr.r, out);
      break;
    case 'cond':
      namesRead(expr.test, out);
      namesRead(expr.then, out);
      namesRead(expr.else, out);
      break;
    default:
      break;
  }
  return out;
}
