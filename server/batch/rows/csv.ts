/**
 * CSV rows with csv-parse (RFC 4180: quoted fields holding commas, quotes and line breaks), streamed. A UTF-8 BOM
 * is dropped; the delimiter (`,` `;` or tab) is found from the header line (spreadsheets in many locales write
 * `;`); a row with another number of fields than the header is a 422 naming it (a ragged row usually means a
 * missing quote, and guessing would put values in the wrong fields).
 */
import fs from 'node:fs';
import { parse, CsvError } from 'csv-parse';
import { RowsError } from './errors.js';
import { buildRow, parseHeader, type Column } from './header.js';
import { Utf8Check } from './utf8.js';
import type { Row } from './types.js';

const DELIMITERS = [',', ';', '\t'] as const;

/** The delimiter that occurs most often outside quotes on the first line of `head` (`,` when none does). */
export function detectDelimiter(head: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of head.replace(/^\uFEFF/, '')) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let best = ',';
  for (const d of DELIMITERS) if (counts.get(d)! > counts.get(best)!) best = d;
  return best;
}

/** What csv-parse says, as a located RowsError. `row` is the data row being read when it failed. */
function located(err: unknown, row: number, header: string[]): unknown {
  if (!(err instanceof CsvError)) return err;
  // csv-parse counts the records it parsed (the header is one, so that count is the failing data row); rows it
  // parsed in the same chunk may not have been read from it yet, so the count read here can be behind.
  const records = (err as CsvError & { records?: number }).records;
  if (typeof records === 'number' && records > 0) row = records;
  const line = (err as CsvError & { lines?: number }).lines;
  const at = line ? ` (line ${line} of the file)` : '';
  if (err.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH') {
    const fields = (err as CsvError & { record?: unknown[] }).record?.length;
    // The column where row and header part: the first field past the header, or the first the row lacks.
    const column = fields === undefined ? undefined : fields > header.length ? { index: header.length + 1 } : { index: fields + 1, name: header[fields] };
    return new RowsError('rows_ragged', `the row has ${fields ?? 'another number of'} fields, the header ${header.length}${at}. A value holding the delimiter must be in quotes.`, row, column);
  }
  return new RowsError('rows_format', `not a readable CSV row${at}: ${err.message.replace(/^Invalid [A-Za-z ]+: /, '')}`, row);
}

export async function* readCsv(file: string, head: string): AsyncGenerator<Row> {
  const parser = parse({
    bom: true,
    delimiter: detectDelimiter(head),
    // Rows of nothing (a trailing blank line) are no rows.
    skip_empty_lines: true,
    relax_column_count: false,
  });
  const source = fs.createReadStream(file);
  const check = new Utf8Check();
  // Errors of the first two stages surface through the parser, which is what is iterated.
  source.on('error', (err) => parser.destroy(err));
  check.on('error', (err) => parser.destroy(err));
  source.pipe(check).pipe(parser);
  let columns: Column[] | null = null;
  let header: string[] = [];
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!columns) {
        header = record;
        columns = parseHeader(record);
        continue;
      }
      row++;
      yield { row, data: buildRow(columns, record) };
    }
  } catch (err) {
    throw located(err, row + 1, header);
  } finally {
    source.destroy();
  }
  if (row === 0) throw new RowsError('rows_empty', columns ? 'The file has a header but no data row.' : 'The file is empty: it needs a header row and at least one data row.', 0);
}
