/** errors.csv: one line per failed row (row, field, code, message), written as rows fail so a crash keeps them. */
import fs from 'node:fs';

/** RFC 4180 quoting: a value with a quote, the delimiter or a line break goes in quotes, quotes doubled. */
function field(value: string | number): string {
  const s = String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export interface RowFailure {
  row: number;
  field: string | null;
  code: string;
  message: string;
}

export function csvLine(values: readonly (string | number)[]): string {
  return values.map(field).join(',') + '\r\n';
}

export class ErrorsCsv {
  #out: fs.WriteStream | null = null;
  count = 0;

  constructor(readonly file: string) {}

  add(f: RowFailure): void {
    if (!this.#out) {
      this.#out = fs.createWriteStream(this.file);
      this.#out.write(csvLine(['row', 'field', 'code', 'message']));
    }
    this.count++;
    this.#out.write(csvLine([f.row, f.field ?? '', f.code, f.message]));
  }

  async close(): Promise<void> {
    const out = this.#out;
    if (!out) {
      // No failure: no stale errors.csv of an earlier run either.
      await fs.promises.rm(this.file, { force: true });
      return;
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
}
