/** Display helpers: dates in the user's locale, sizes, durations in minutes. */

export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A compact date and time for table cells ("22/11/2026, 17:31" in the user's locale). */
export function formatShortDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
}

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** 43200 → "30 days", 90 → "1 hour 30 minutes". */
export function formatMinutes(minutes: number): string {
  if (!Number.isFinite(minutes) || minutes <= 0) return '—';
  const units: Array<[number, string]> = [
    [60 * 24 * 365, 'year'],
    [60 * 24, 'day'],
    [60, 'hour'],
    [1, 'minute'],
  ];
  const parts: string[] = [];
  let rest = Math.round(minutes);
  for (const [size, name] of units) {
    const n = Math.floor(rest / size);
    if (n > 0 && parts.length < 2) {
      parts.push(`${n} ${name}${n === 1 ? '' : 's'}`);
      rest -= n * size;
    }
  }
  return parts.join(' ');
}

/** Decodes the HTML entities Laravel puts in page link labels (`&laquo; Previous`). */
export function decodeEntities(label: string): string {
  return label.replace(/&laquo;/g, '«').replace(/&raquo;/g, '»').replace(/&amp;/g, '&').replace(/&hellip;/g, '…');
}
