/** Laravel's JSON datetime format: UTC with microseconds, `2026-11-22T08:11:00.000000Z`. */
export function laravelDate(iso: string | Date): string {
  const text = typeof iso === 'string' ? new Date(iso).toISOString() : iso.toISOString();
  // toISOString gives milliseconds (`.123Z`); Laravel prints six digits.
  return `${text.slice(0, -1)}000Z`;
}

export function nowIso(): string {
  return new Date().toISOString();
}

export function addMinutes(iso: string, minutes: number): string {
  return new Date(Date.parse(iso) + minutes * 60_000).toISOString();
}
