/**
 * A rows file that cannot be used as a whole (docs/batch.md, "Bad input"): raised while the file is read, before
 * any document is made. It names the row (1 = the first data row; 0 = the header or the file itself) and, where
 * there is one, the column (a letter and the header's name), so the user can find the cell.
 */
import type { ErrorCode } from '../../errors/catalogue.js';

export type RowsErrorCode = Extract<ErrorCode, `rows_${string}`>;

export interface CellRef {
  /** 1-based column number. */
  index: number;
  /** The header's text for that column, when there is one. */
  name?: string;
}

export class RowsError extends Error {
  constructor(
    readonly code: RowsErrorCode,
    message: string,
    /** 1 = the first data row; 0 = the header row or the file as a whole. */
    readonly row: number,
    readonly column?: CellRef,
    /** 413 for a file over the byte limit, else 422. */
    readonly status: 413 | 422 = 422,
  ) {
    super(message);
    this.name = 'RowsError';
  }

  /** "Row 5, column C (name): …" — the message with its location in front. */
  describe(): string {
    const where: string[] = [];
    if (this.row > 0) where.push(`Row ${this.row}`);
    else if (this.column) where.push('Header');
    if (this.column) where.push(`column ${columnLetter(this.column.index)}${this.column.name ? ` (${this.column.name})` : ''}`);
    return where.length ? `${where.join(', ')}: ${this.message}` : this.message;
  }
}

/** 1 → A, 27 → AA: the letters a spreadsheet shows above the column. */
export function columnLetter(index: number): string {
  let s = '';
  for (let n = index; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}
