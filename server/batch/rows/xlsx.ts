/**
 * XLSX rows with exceljs's streaming WorkbookReader: the sheet's rows are parsed as the zip is read, so a large
 * workbook is never one object in memory. The first sheet, or the one named. Cell values are turned into the text
 * a spreadsheet shows (numbers as written, dates as YYYY-MM-DD, formulas as their result), except booleans.
 */
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { RowsError } from './errors.js';
import { buildRow, parseHeader, type Column } from './header.js';
import type { Row } from './types.js';

type Cell = string | boolean | undefined;

/** One cell's value as text (or a boolean); undefined for an empty cell. */
export function cellText(value: unknown): Cell {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (value instanceof Date) {
    const iso = value.toISOString();
    // A date without a time of day (what most cells hold) as the date alone.
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if (typeof value === 'object') {
    const v = value as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: string; formula?: string };
    if (Array.isArray(v.richText)) return v.richText.map((r) => r.text).join('');
    if ('result' in v || 'formula' in v) return cellText(v.result);
    if (v.text !== undefined) return cellText(v.text);
    if (typeof v.error === 'string') return undefined;
  }
  return String(value);
}

function rowCells(values: unknown): Cell[] {
  // exceljs gives row.values 1-based (index 0 unused), sparse where cells are empty.
  const out: Cell[] = [];
  if (Array.isArray(values)) for (let i = 1; i < values.length; i++) out.push(cellText(values[i]));
  return out;
}

export async function* readXlsx(file: string, sheet?: string): AsyncGenerator<Row> {
  const source = fs.createReadStream(file);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(source, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'ignore',
  });
  const names: string[] = [];
  let found = false;
  try {
    for await (const worksheet of reader) {
      const name = (worksheet as unknown as { name: string }).name;
      names.push(name);
      if (sheet !== undefined && name !== sheet) continue;
      found = true;
      let columns: Column[] | null = null;
      let row = 0;
      for await (const r of worksheet) {
        // Blank rows are not in the stream; their numbers are skipped. The header is the first row that has cells.
        const cells = rowCells(r.values);
        if (!columns) {
          columns = parseHeader(cells.map((c) => (c === undefined ? '' : String(c))));
          continue;
        }
        row++;
        yield { row, data: buildRow(columns, cells) };
      }
      if (row === 0) throw new RowsError('rows_empty', `The sheet "${name}" is empty: it needs a header row and at least one data row.`, 0);
      // The sheet is read; the rest of the workbook is not needed.
      break;
    }
  } catch (err) {
    if (err instanceof RowsError) throw err;
    throw new RowsError('rows_format', `The file is not a readable XLSX workbook (${err instanceof Error ? err.message : String(err)}).`, 0);
  } finally {
    source.destroy();
  }
  if (!found) {
    throw new RowsError('rows_sheet', sheet === undefined ? 'The workbook has no sheet.' : `The workbook has no sheet "${sheet}" (it has: ${names.map((n) => `"${n}"`).join(', ')}).`, 0);
  }
}
