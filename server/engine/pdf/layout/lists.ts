/**
 * List labels: one counter per list id and level, deeper levels restarting when a shallower item appears,
 * Word's level text ('%1.', '%1.%2)') filled with each level's counter in that level's format.
 */
import type { ListInfo } from '../../model/types.js';
import { formatCounter } from './number-formats.js';

export { formatCounter } from './number-formats.js';

const BULLETS = ['\u2022', '\u25e6', '\u25aa'];
const MAX_LEVEL = 8;

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
      const parent = list.parentStarts?.[l];
      const value = state.counters[l] ?? state.starts[l] ?? (Number.isFinite(parent) ? Math.floor(parent!) : 1);
      const format = state.formats[l] ?? 'decimal';
      return formatCounter(value, format === 'bullet' || format === 'none' ? 'decimal' : format);
    });
  }
}
