/**
 * The template language's syntax tree: plain data (no functions, classes or Maps), because compiled templates
 * are cached and structured-cloned to render threads. Built by parser.ts, read by evaluate.ts.
 */

export type BinaryOp = '*' | '/' | '%' | '+' | '-' | '<' | '<=' | '>' | '>=' | '==' | '!=' | '===' | '!==' | '&&' | '||';

export type Expr =
  | { t: 'num'; v: number }
  | { t: 'str'; v: string }
  /** `true`, `false`, `null`. */
  | { t: 'lit'; v: boolean | null }
  /** A data name as today (`customer.name`, `variable 1`); `path` [] is the current item (`.`, `this`). */
  | { t: 'name'; name: string; path: string[] }
  /** `$index`: the innermost loop's item number, from 0. */
  | { t: 'index' }
  /** `a[0]`, `a["k"]`, `(x).length`: one own property (or `.length`) of a value. */
  | { t: 'member'; obj: Expr; key: Expr }
  | { t: 'unary'; op: '!' | '-'; arg: Expr }
  | { t: 'bin'; op: BinaryOp; l: Expr; r: Expr }
  | { t: 'cond'; test: Expr; then: Expr; else: Expr };
