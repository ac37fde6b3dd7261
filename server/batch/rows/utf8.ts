/**
 * Text files must be UTF-8 (a BOM is allowed and dropped by the readers): a byte sequence that is not UTF-8 is a
 * 422 naming the line, rather than mojibake in every certificate. Decoding is streamed (TextDecoder with
 * `stream: true` carries a character split across two chunks).
 */
import { Transform, type TransformCallback } from 'node:stream';
import { RowsError } from './errors.js';

/** Passes text through as strings; fails on the first invalid byte sequence with its (1-based) line. */
export class Utf8Check extends Transform {
  readonly #decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  #line = 1;

  constructor() {
    super({ decodeStrings: true, readableObjectMode: false, encoding: 'utf8' });
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    let text: string;
    try {
      text = this.#decoder.decode(chunk, { stream: true });
    } catch {
      done(this.#error(chunk));
      return;
    }
    this.#count(text);
    done(null, text);
  }

  override _flush(done: TransformCallback): void {
    try {
      const rest = this.#decoder.decode();
      done(null, rest || undefined);
    } catch {
      done(new RowsError('rows_encoding', `The file ends in the middle of a UTF-8 character (line ${this.#line}). Save it as UTF-8 (in Excel: "CSV UTF-8").`, 0));
    }
  }

  #count(text: string): void {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.#line++;
  }

  /** Finds the line of the bad bytes within the chunk (the valid text before them is counted first). */
  #error(chunk: Buffer): RowsError {
    // Binary search for the longest valid prefix (in stream mode a prefix that cuts a character is still valid).
    let lo = 0;
    let hi = chunk.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(chunk.subarray(0, mid), { stream: true });
        lo = mid;
      } catch {
        hi = mid - 1;
      }
    }
    const good = lo;
    for (let i = 0; i < good; i++) if (chunk[i] === 0x0a) this.#line++;
    return new RowsError('rows_encoding', `The file is not UTF-8 text (line ${this.#line}). Save it as UTF-8 (in Excel: "CSV UTF-8").`, 0);
  }
}
