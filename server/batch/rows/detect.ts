/**
 * Which reader a rows file needs, from its first bytes (the name's extension only breaks ties): a zip is an XLSX
 * workbook, text starting with `[` a JSON array and with `{` NDJSON, other UTF-8 text CSV. Files that are none of
 * these (a PDF, an image, an old binary .xls, UTF-16 text) are refused here with what to do instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { RowsError } from './errors.js';
import type { RowsFormat } from './types.js';

export const HEAD_BYTES = 64 * 1024;

export interface Sniffed {
  format: RowsFormat;
  /** The first bytes as text (CSV: the delimiter is found from them). */
  head: string;
}

export function sniff(file: string, name = file): Sniffed {
  const fd = fs.openSync(file, 'r');
  let head: Buffer;
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    head = buf.subarray(0, fs.readSync(fd, buf, 0, HEAD_BYTES, 0));
  } finally {
    fs.closeSync(fd);
  }
  const ext = path.extname(name).toLowerCase();
  if (head.length === 0) throw new RowsError('rows_empty', 'The file is empty: it needs a header row and at least one data row.', 0);
  if (head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return { format: 'xlsx', head: '' };
  if (head.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) {
    throw new RowsError('rows_format', 'This is an old Excel (.xls) workbook; save it as .xlsx or as "CSV UTF-8".', 0);
  }
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) {
    throw new RowsError('rows_encoding', 'The file is UTF-16 text; save it as UTF-8 (in Excel: "CSV UTF-8").', 0);
  }
  if (head.includes(0)) throw new RowsError('rows_format', 'The file is not CSV, XLSX or JSON (it holds binary data).', 0);
  // Not fatal here: a character cut at the 64 KB mark is not an error; utf8.ts checks the whole file as it is read.
  const text = head.toString('utf8');
  const first = text.replace(/^[\uFEFF\s]+/, '')[0];
  if (ext === '.csv' || ext === '.tsv' || ext === '.txt') return { format: 'csv', head: text };
  if (first === '[') return { format: 'json', head: text };
  if (first === '{') return { format: 'ndjson', head: text };
  if (ext === '.json' || ext === '.ndjson' || ext === '.jsonl') {
    throw new RowsError('rows_format', 'A JSON rows file must be an array of objects ([{…}, {…}]) or one object per line.', 0);
  }
  if (ext === '.xlsx') throw new RowsError('rows_format', 'The file is not a readable XLSX workbook.', 0);
  return { format: 'csv', head: text };
}
