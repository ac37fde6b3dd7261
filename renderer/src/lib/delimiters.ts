/** A template's tag delimiters: the record may carry them as "{{ }}" or as ["{{", "}}"]; the GUI edits a pair. */
export type DelimiterPair = [open: string, close: string];

export const DEFAULT_PAIR: DelimiterPair = ['{{', '}}'];

export function parseDelimiters(value: unknown): DelimiterPair {
  if (Array.isArray(value) && value.length === 2) return [String(value[0]), String(value[1])];
  if (typeof value === 'string' && value.trim()) {
    const parts = value.trim().split(/\s+/);
    if (parts.length === 2) return [parts[0], parts[1]];
  }
  return [...DEFAULT_PAIR];
}

/** The form the service accepts in a PUT: the two delimiters separated by one space. */
export function formatDelimiters(pair: DelimiterPair): string {
  return `${pair[0].trim()} ${pair[1].trim()}`;
}
