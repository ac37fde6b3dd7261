/**
 * Finds the tags in a piece of text (a paragraph's concatenated runs, or a short pattern) for any pair of
 * delimiters. Only plain `indexOf` scanning: delimiters are data, never turned into regexes.
 *
 * Problems follow docxtemplater's lexer, so a Word template refused there is refused here with the same count:
 * an open delimiter never closed, a second open delimiter inside a tag, and a close delimiter that closes
 * nothing (`{title}}`, `text}`).
 */
import type { Delimiters } from '../model/types.js';

export type ScanPiece =
  | { kind: 'text'; start: number; end: number }
  /** `start`/`end` span the whole tag including delimiters; `inner` is the text between them. */
  | { kind: 'tag'; start: number; end: number; inner: string; raw: string };

export interface ScanProblem {
  code: 'unclosed_tag' | 'duplicate_open_delimiter' | 'unopened_tag' | 'duplicate_close_delimiter';
  message: string;
  tag: string;
}

export interface ScanResult {
  pieces: ScanPiece[];
  problems: ScanProblem[];
  /** Offset of an open delimiter still waiting for its close delimiter at the end of the text, or -1. */
  unclosedAt: number;
}

const MAX_TAG_ECHO = 60;
/** How much text before a stray close delimiter is quoted to show where it is. */
const STRAY_CONTEXT = 30;

function echo(text: string): string {
  return text.length > MAX_TAG_ECHO ? `${text.slice(0, MAX_TAG_ECHO)}…` : text;
}

/** Splits `text` into literal pieces and tags; problems (an open delimiter never closed…) are collected. */
export function scanTags(text: string, delimiters: Delimiters): ScanResult {
  const [open, close] = delimiters;
  // Most of a template's paragraphs hold neither delimiter: one literal piece, nothing to report.
  if (text.indexOf(open) < 0 && text.indexOf(close) < 0) {
    return { pieces: text.length > 0 ? [{ kind: 'text', start: 0, end: text.length }] : [], problems: [], unclosedAt: -1 };
  }
  const pieces: ScanPiece[] = [];
  const problems: ScanProblem[] = [];
  let from = 0;
  let literalStart = 0;
  let unclosedAt = -1;
  /** End of the last close delimiter read (a tag's or a stray one), to tell `}}` from `text}`. */
  let lastCloseEnd = -1;
  let lastTagRaw = '';
  /** The first close delimiter at or after the last search's start (-1: none left in the text). */
  let nextClose = -2;

  /** Close delimiters in literal text [start, end) close nothing. */
  const strays = (start: number, end: number): void => {
    for (let s = text.indexOf(close, start); s >= 0 && s + close.length <= end; s = text.indexOf(close, s + close.length)) {
      const stray = s + close.length;
      if (s === lastCloseEnd) {
        const shown = lastTagRaw ? lastTagRaw + close : close.repeat(2);
        problems.push({
          code: 'duplicate_close_delimiter',
          message: `${lastTagRaw ? `The tag ${echo(lastTagRaw)}` : 'A closing delimiter'} is followed by a second ${close}, which closes nothing.`,
          tag: echo(shown),
        });
      } else {
        const context = text.slice(Math.max(start, lastCloseEnd, s - STRAY_CONTEXT), stray).trimStart();
        problems.push({
          code: 'unopened_tag',
          message: `The ${close} in "${echo(context)}" closes no tag: its ${open} is missing.`,
          tag: echo(context),
        });
      }
      lastCloseEnd = stray;
      lastTagRaw = '';
    }
  };

  while (from < text.length) {
    const o = text.indexOf(open, from);
    if (o < 0) break;
    strays(from, o);
    const innerStart = o + open.length;
    // A flood of open delimiters before one close delimiter finds the same close again: search once, not each time.
    if (nextClose < innerStart && nextClose !== -1) nextClose = text.indexOf(close, innerStart);
    const c = nextClose;
    if (c < 0) {
      const rest = text.slice(o);
      problems.push({
        code: 'unclosed_tag',
        message: `The tag ${echo(rest)} is never closed: ${close} is missing.`,
        tag: echo(rest),
      });
      unclosedAt = o;
      from = text.length;
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
    const raw = text.slice(o, end);
    pieces.push({ kind: 'tag', start: o, end, inner: text.slice(innerStart, c), raw });
    from = end;
    literalStart = end;
    lastCloseEnd = end;
    lastTagRaw = raw;
  }
  if (unclosedAt < 0) strays(from, text.length);
  if (literalStart < text.length) pieces.push({ kind: 'text', start: literalStart, end: text.length });
  return { pieces, problems, unclosedAt };
}
