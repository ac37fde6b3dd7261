/** What every rows reader yields, whatever the file's format. */
export interface Row {
  /** 1 = the first data row (the header is not counted), as in every message about it. */
  row: number;
  data: Record<string, unknown>;
}

export type RowsFormat = 'csv' | 'xlsx' | 'json' | 'ndjson';

export interface RowsLimits {
  /** Data rows a file may hold. */
  rows: number;
  /** Bytes a file may have. */
  bytes: number;
}

export interface ReadOptions {
  limits: RowsLimits;
  /** XLSX: the sheet to read (default: the first). */
  sheet?: string;
  /** Known already (the scan found it); sniffed from the file otherwise. */
  format?: RowsFormat;
}
