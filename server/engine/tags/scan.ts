/**
 * Finds the tags in a piece of text (a paragraph's concatenated runs, or a short pattern) for any pair of
 * delimiters. Only plain `indexOf` scanning: delimiters are data, never turned into regexes.
 */
import type { Delimiters } from '../model/types.js';

export type ScanPiece =
  | { kind: 'text'; start: number; end: number }
  /** `start`/`end` span the whole tag including delimiters; `inner` is the text between them. */
  | { kind: 'tag'; start: number; end: number; inner: string; raw: string };

export interface ScanProblem {
  code: 'unclosed_tag' | 'duplicate_open_delimiter';
  message: string;
  tag: string;
}

const MAX_TAG_ECHO = 60;

function echo(text: string): string {
  return text.length > MAX_TAG_ECHO ? `${text.slice(0, MAX_TAG_ECHO)}…` : text;
}

/** Splits `text` into literal pieces and tags; problems (an open delimiter never closed…) are collected. */
export function scanTags(text: string, delimiters: Delimiters): { pieces: ScanPiece[]; problems: ScanProblem[] } {
  const [open, close] = delimiters;
  const pieces: ScanPiece[] = [];
  const problems: ScanProblem[] = [];
  let from = 0;
  let literalStart = 0;
  while (from < text.length) {
    const o = text.indexOf(open, from);
    if (o < 0) break;
    const innerStart = o + open.length;
    const c = text.indexOf(close, innerStart);
    if (c < 0) {
      const rest = text.slice(o);
      problems.push({
        code: 'unclosed_tag',
        message: `The tag ${echo(rest)} is never closed: ${close} is missing.`,
        tag: echo(rest),
      });
      break;
    }
    const again = text.indexOf(open, innerStart);
    if (again >= 0 && again < c) {
      const raw = text.slice(o, c + close.length);
      problems.push({
        code: 'duplicate_open_delimiter',
        message: `The tag ${echo(raw)} has a second ${open} before its ${close}.`,
        tag: echo(raw),
      });
      // Read on from the second delimiter: it may well start a good tag.
      from = again;
      continue;
    }
    if (o > literalStart) pieces.push({ kind: 'text', start: literalStart, end: o });
    const end = c + close.length;
    pieces.push({ kind: 'tag', start: o, end, inner: text.slice(innerStart, c), raw: text.slice(o, end) });
    from = end;
    literalStart = end;
  }
  if (literalStart < text.length) pieces.push({ kind: 'text', start: literalStart, end: text.length });
  return { pieces, problems };
}
