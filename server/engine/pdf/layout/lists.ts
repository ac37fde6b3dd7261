/**
 * List labels: one counter per list id and level, deeper levels restarting when a shallower item appears,
 * Word's level text ('%1.', '%1.%2)') filled with each level's counter in that level's format.
 */
import type { ListInfo } from '../../model/types.js';

const BULLETS = ['\u2022', '\u25e6', '\u25aa'];
const MAX_LEVEL = 8;

function letters(n: number): string {
  if (n <= 0) return String(n);
  let s = '';
  // Word's letter numbering repeats the letter: a…z, aa…zz, aaa…
  const letter = String.fromCharCode(97 + ((n - 1) % 26));
  const times = Math.floor((n - 1) / 26) + 1;
  for (let i = 0; i < Math.min(times, 50); i++) s += letter;
  return s;
}

function roman(n: number): string {
  if (n <= 0 || n >= 4000) return String(n);
  const table: Array<[number, string]> = [
    [1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'],
    [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i'],
  ];
  let s = '';
  for (const [value, digits] of table) {
    while (n >= value) {
      s += digits;
      n -= value;
    }
  }
  return s;
}

export function formatCounter(n: number, format: ListInfo['format']): string {
  switch (format) {
    case 'lowerLetter':
      return letters(n);
    case 'upperLetter':
      return letters(n).toUpperCase();
    case 'lowerRoman':
      return roman(n);
    case 'upperRoman':
      return roman(n).toUpperCase();
    case 'bullet':
    case 'none':
      return '';
    default:
      return String(n);
  }
}

interface ListState {
  counters: Array<number | undefined>;
  formats: Array<ListInfo['format'] | undefined>;
  starts: Array<number | undefined>;
}

/** Numbering state of one document part (the body, or one header/footer). */
export class ListCounters {
  private readonly lists = new Map<string, ListState>();

  /** A copy of the state, for laying content out again (a table whose columns were widened). */
  snapshot(): Map<string, ListState> {
    const copy = new Map<string, ListState>();
    for (const [id, s] of this.lists) copy.set(id, { counters: [...s.counters], formats: [...s.formats], starts: [...s.starts] });
    return copy;
  }

  restore(snapshot: Map<string, ListState>): void {
    this.lists.clear();
    for (const [id, s] of snapshot) this.lists.set(id, { counters: [...s.counters], formats: [...s.formats], starts: [...s.starts] });
  }

  /** The label of the next item of `list` (advances its counter). */
  next(list: ListInfo): string {
    const level = Math.max(0, Math.min(MAX_LEVEL, Math.floor(Number(list.level) || 0)));
    const id = String(list.id ?? '');
    let state = this.lists.get(id);
    if (!state) {
      state = { counters: [], formats: [], starts: [] };
      this.lists.set(id, state);
    }
    const start = Number.isFinite(list.start) ? Math.floor(list.start!) : 1;
    const current = state.counters[level];
    state.counters[level] = current === undefined ? start : current + 1;
    state.formats[level] = list.format;
    state.starts[level] = start;
    for (let deeper = level + 1; deeper < state.counters.length; deeper++) state.counters[deeper] = undefined;

    if (list.format === 'none') return '';
    if (list.format === 'bullet') {
      const text = list.text && list.text.length > 0 && !list.text.includes('%') ? list.text : BULLETS[level % BULLETS.length];
      return text;
    }
    const template = list.text && list.text.length > 0 ? list.text : `%${level + 1}.`;
    return template.replace(/%([1-9])/g, (_, d: string) => {
      const l = Number(d) - 1;
      if (l > level) return '';
      const value = state.counters[l] ?? state.starts[l] ?? 1;
      const format = state.formats[l] ?? 'decimal';
      return formatCounter(value, format === 'bullet' || format === 'none' ? 'decimal' : format);
    });
  }
}
