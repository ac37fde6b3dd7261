/**
 * An error the engine raises for bad input (a template file it cannot read, data it cannot use). Callers turn
 * it into a 415/422 response or a `failed` document with `{code, message}`; anything else thrown is a bug.
 */
import type { ErrorCode } from '../errors/catalogue.js';

export class EngineError extends Error {
  readonly code: ErrorCode;
  /** The data field the problem is about, when there is one (an image variable, a list). */
  readonly field?: string;

  constructor(code: ErrorCode, message: string, field?: string) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
    this.field = field;
  }
}
