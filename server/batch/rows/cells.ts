/**
 * What one cell becomes in the row's data (docs/batch.md, "Cells"): text stays text (numbers and dates too, as
 * written, so a filter formats them and no leading zero or long id is lost), exactly `true`/`false` in any case
 * become booleans so that `{{#flag}}` conditions behave, and an empty cell leaves its field out (a missing field
 * renders as an empty string, and a condition on it is false).
 */
export type CellValue = string | boolean;

/** undefined = leave the field out. */
export function cellValue(raw: string): CellValue | undefined {
  if (raw.trim() === '') return undefined;
  const lower = raw.trim().toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  return raw;
}
