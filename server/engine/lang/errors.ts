/**
 * The one factory of the language's errors: a stable code, a message that says what to write instead, and the
 * column (0-based, in the tag's inner text) where the fault is. Callers add part, paragraph and offset.
 */

export type LangCode = 'invalid_expression' | 'unsupported_tag';

export interface LangError {
  code: LangCode;
  message: string;
  /** 0-based position of the fault in the text between the delimiters. */
  column: number;
}

export function langError(code: LangCode, column: number, message: string): LangError {
  return { code, message, column };
}

/** Tags longer than this are refused: evaluation stays cheap and a runaway paste is caught at upload. */
export const MAX_TAG_LENGTH = 1000;
/** Parentheses, brackets, unary operators and ternaries nest at most this deep. */
export const MAX_NESTING = 32;
