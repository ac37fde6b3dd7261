/**
 * docloom's template language: lexer (tokens with offsets) → parser (tag text → plain-data AST) → evaluator
 * (AST + scopes → value), with one error factory. Used by tags/ (compile), bind/ (PDF), the filled .docx and
 * output file names, so every output reads a tag the same way. No eval, Function or vm: a tree walk over data.
 */
export type { Expr, BinaryOp } from './ast.js';
export { langError, MAX_NESTING, MAX_TAG_LENGTH, type LangCode, type LangError } from './errors.js';
export { lex, QUOTES, type Token } from './lexer.js';
export { parseExpression, namesRead, nameNode, type ParseOutcome } from './parser.js';
export { evaluate, evaluateTag, lookupName, type Scopes } from './evaluate.js';
export { aggregate, AGGREGATES, type AggregateOp, type AggregateResult } from './aggregate.js';
export { isTruthy, member, round15, toNumber } from './values.js';
export { findFilterBar } from './filter-bar.js';
