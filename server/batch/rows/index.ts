/**
 * The one reader of rows files (docs/batch.md): CSV, XLSX, a JSON array or NDJSON in, an async iterator of
 * `{row, data}` out, streamed whatever the file's size. Every problem with the file itself is a RowsError with its
 * row and column; `scanRows` reads the file once to find them all before a batch makes its first document.
 */
import fs from 'node:fs';
import { RowsError } from './errors.js';
import { sniff } from './detect.js';
import { readCsv } from './csv.js';
import { readXlsx } from './xlsx.js';
import { readJsonArray, readNdjson } from './json.js';
import type { ReadOptions, Row, RowsFormat, RowsLimits } from './types.js';

export { RowsError, columnLetter } from './errors.js';
export type { Row, RowsFormat, RowsLimits, ReadOptions } from './types.js';

/** Defaults of DOCLOOM_LIMIT_BATCH_ROWS and DOCLOOM_LIMIT_BATCH_BYTES (docs/configuration.md). */
export const DEFAULT_ROWS_LIMITS: RowsLimits = Object.freeze({ rows: 100_000, bytes: 100 * 1024 * 1024 });

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB` : `${n.toLocaleString('en-US')} bytes`;
}

/** `name`: the file's original name (its extension breaks ties when sniffing); the path's by default. */
export async function* readRows(file: string, options: ReadOptions, name = file): AsyncGenerator<Row> {
  const size = fs.statSync(file).size;
  if (size > options.limits.bytes) {
    throw new RowsError('rows_too_large', `The file has ${formatBytes(size)}, more than the limit of ${formatBytes(options.limits.bytes)} (batch_bytes).`, 0, undefined, 413);
  }
  const sniffed = sniff(file, name);
  const format: RowsFormat = options.format ?? sniffed.format;
  const source =
    format === 'csv' ? readCsv(file, sniffed.head)
    : format === 'xlsx' ? readXlsx(file, options.sheet)
    : format === 'json' ? readJsonArray(file)
    : readNdjson(file);
  for await (const row of source) {
    if (row.row > options.limits.rows) {
      throw new RowsError('rows_too_many', `The file has more than ${options.limits.rows.toLocaleString('en-US')} rows, the limit (batch_rows).`, row.row);
    }
    yield row;
  }
}

export interface Scan {
  format: RowsFormat;
  total: number;
  /** Every field path some row fills (for the GUI's column matching), at most 1,000. */
  fields: string[];
}

/** Reads the whole file once (streamed), throwing its first problem; answers the format and the row count. */
export async function scanRows(file: string, options: ReadOptions, name = file): Promise<Scan> {
  const format = options.format ?? sniff(file, name).format;
  let total = 0;
  const fields = new Set<string>();
  for await (const row of readRows(file, { ...options, format }, name)) {
    total = row.row;
    if (fields.size < 1000) for (const key of Object.keys(row.data)) fields.add(key);
  }
  return { format, total, fields: [...fields] };
}
