/**
 * The columns of a rows file as the GUI shows them before a batch starts, matched to the template's fields
 * (docs/batch.md: a header is a data path — `instructor.name`, `items.0.description`). Read from the file's first
 * bytes in the browser for CSV, JSON and NDJSON; an XLSX workbook is read by the service when the batch starts
 * (null here). The service checks the whole file again: this is a guide, not the check.
 */
import type { TemplateField } from '../api/types.js';

const HEAD = 64 * 1024;

/** The first record of CSV text, RFC 4180 quoting, with the delimiter (`,` `;` tab) found most often outside quotes. */
function csvHeader(text: string): string[] {
  const src = text.replace(/^\uFEFF/, '');
  const counts: Record<string, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of src) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && ch in counts) counts[ch]++;
  }
  const delimiter = [';', '\t'].reduce((best, d) => (counts[d] > counts[best] ? d : best), ',');
  const out: string[] = [];
  let field = '';
  quoted = false;
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delimiter) {
      out.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') break;
    else field += ch;
  }
  out.push(field);
  return out.map((c) => c.trim()).filter((c) => c !== '');
}

/** Keys of a row object, dotted for nested objects and lists (so they compare like headers). */
function paths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return prefix ? [prefix] : [];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  if (entries.length === 0) return prefix ? [prefix] : [];
  return entries.flatMap(([k, v]) => paths(v, prefix ? `${prefix}.${k}` : k));
}

/** The column names of a rows file, or null when they can only be read by the service (XLSX, a large JSON array). */
export async function rowsColumns(file: File): Promise<string[] | null> {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  if (head[0] === 0x50 && head[1] === 0x4b) return null; // a zip: XLSX
  const text = await file.slice(0, HEAD).text();
  const first = text.replace(/^[\uFEFF\s]+/, '')[0];
  if (first === '{') {
    try {
      return paths(JSON.parse(text.replace(/^\uFEFF/, '').split('\n')[0]));
    } catch {
      return null;
    }
  }
  if (first === '[') {
    if (file.size > HEAD) return null;
    try {
      const rows = JSON.parse(text.replace(/^\uFEFF/, '')) as unknown[];
      return [...new Set(rows.flatMap((r) => paths(r)))];
    } catch {
      return null;
    }
  }
  return csvHeader(text);
}

export interface ColumnMatch {
  /** Columns that fill a field of the template. */
  matched: string[];
  /** Columns no field of the template reads (left in the data, harmless). */
  unused: string[];
  /** Fields of the template no column fills (they render empty; a condition is false). */
  missing: string[];
}

/** Field names a column can fill: a condition's inner fields sit beside it (the same scope). */
function fieldNames(fields: readonly TemplateField[]): string[] {
  return fields.flatMap((f) => (f.type === 'condition' ? [f.name, ...fieldNames(f.fields ?? [])] : [f.name]));
}

export function matchColumns(fields: readonly TemplateField[], columns: readonly string[]): ColumnMatch {
  const names = [...new Set(fieldNames(fields))];
  const fills = (column: string, name: string) => column === name || column.startsWith(`${name}.`);
  return {
    matched: columns.filter((c) => names.some((n) => fills(c, n))),
    unused: columns.filter((c) => !names.some((n) => fills(c, n))),
    missing: names.filter((n) => !columns.some((c) => fills(c, n))),
  };
}
