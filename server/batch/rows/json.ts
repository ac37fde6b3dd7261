/**
 * JSON rows: an array of objects (`[{…}, {…}]`) or NDJSON (one object per line). Each row is already data, so
 * headers and cell rules do not apply: values are taken as they are (a number stays a number).
 *
 * Streamed: no streaming JSON parser is among the project's dependencies, so ArraySplitter below only finds where
 * each top-level element of the array begins and ends (tracking strings, escapes and nesting depth) and hands that
 * text to JSON.parse, which does the parsing. A 100,000-row array is thus never one string or one array.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { RowsError } from './errors.js';
import { Utf8Check } from './utf8.js';
import type { Row } from './types.js';

function asRow(value: unknown, row: number): Row {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RowsError('rows_format', `each row must be a JSON object (like {"name": "Ada"}), not ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}.`, row);
  }
  return { row, data: value as Record<string, unknown> };
}

function parseElement(text: string, row: number): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new RowsError('rows_format', `not valid JSON (${(err as Error).message}).`, row);
  }
}

function textStream(file: string): Utf8Check {
  const check = new Utf8Check();
  const source = fs.createReadStream(file);
  source.on('error', (err) => check.destroy(err));
  source.pipe(check);
  return check;
}

export async function* readNdjson(file: string): AsyncGenerator<Row> {
  const lines = readline.createInterface({ input: textStream(file), crlfDelay: Infinity });
  let row = 0;
  for await (const raw of lines) {
    const line = row === 0 ? raw.replace(/^\uFEFF/, '') : raw;
    if (line.trim() === '') continue;
    row++;
    yield asRow(parseElement(line, row), row);
  }
  if (row === 0) throw new RowsError('rows_empty', 'The file has no rows.', 0);
}

/** Finds the top-level elements of a JSON array in text that arrives in chunks. */
class ArraySplitter {
  #started = false;
  #ended = false;
  #depth = 0;
  #inString = false;
  #escape = false;
  #current = '';
  /** Elements complete so far, not yet taken. */
  readonly done: string[] = [];

  push(chunk: string): void {
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk[i];
      if (!this.#started) {
        if (ch === '[') {
          this.#started = true;
          from = i + 1;
        } else if (!/[\s\uFEFF]/.test(ch)) throw new RowsError('rows_format', 'A JSON rows file must be an array of objects ([{…}, {…}]) or one object per line.', 0);
        continue;
      }
      if (this.#ended) {
        if (!/\s/.test(ch)) throw new RowsError('rows_format', 'there is text after the end of the JSON array.', this.#count() + 1);
        continue;
      }
      if (this.#inString) {
        if (this.#escape) this.#escape = false;
        else if (ch === '\\') this.#escape = true;
        else if (ch === '"') this.#inString = false;
        continue;
      }
      if (ch === '"') this.#inString = true;
      else if (ch === '{' || ch === '[') this.#depth++;
      else if (ch === '}' || ch === ']') {
        if (this.#depth === 0) {
          // The array's own `]`.
          this.#take(chunk.slice(from, i), true);
          this.#ended = true;
          from = i + 1;
          continue;
        }
        this.#depth--;
      } else if (ch === ',' && this.#depth === 0) {
        this.#take(chunk.slice(from, i), false);
        from = i + 1;
      }
    }
    if (this.#started && !this.#ended) this.#current += chunk.slice(from);
  }

  end(): void {
    if (!this.#started || !this.#ended) throw new RowsError('rows_format', 'The JSON array is not closed (the file ends before its `]`).', this.#count() + 1);
  }

  #taken = 0;

  #count(): number {
    return this.#taken;
  }

  /** One element's text ends here; `closing`: at the array's `]` (where `[]` has none). */
  #take(tail: string, closing: boolean): void {
    const text = (this.#current + tail).trim();
    this.#current = '';
    if (text === '' && closing && this.#taken === 0) return;
    this.#taken++;
    if (text === '') throw new RowsError('rows_format', 'an empty element (two commas in a row, or a comma before the `]`).', this.#taken);
    this.done.push(text);
  }
}

export async function* readJsonArray(file: string): AsyncGenerator<Row> {
  const splitter = new ArraySplitter();
  let row = 0;
  for await (const chunk of textStream(file)) {
    splitter.push(chunk as string);
    for (const text of splitter.done.splice(0)) {
      row++;
      yield asRow(parseElement(text, row), row);
    }
  }
  splitter.end();
  for (const text of splitter.done.splice(0)) {
    row++;
    yield asRow(parseElement(text, row), row);
  }
  if (row === 0) throw new RowsError('rows_empty', 'The JSON array has no rows.', 0);
}
