/**
 * Undo/redo as a list of steps, each a list of changes that know how to undo and redo themselves. Changes
 * mutate the data in place, so they stay valid only when every mutation goes through the history and steps are
 * undone last-first — which is what this class guarantees. Keystrokes in one field merge into one step until a
 * pause (or another field, or an undo), so Ctrl+Z takes back a word or a burst of typing, not one letter.
 */

export interface Change {
  undo(): void;
  redo(): void;
}

interface Step {
  id: number;
  changes: Change[];
  /** Typing in the same field within `pauseMs` joins this step. */
  group: string | null;
  at: number;
}

export interface HistoryOptions {
  /** Steps kept; the oldest are forgotten beyond it. */
  limit?: number;
  /** A pause longer than this starts a new step even in the same field. */
  pauseMs?: number;
  now?: () => number;
}

export class History {
  readonly #done: Step[] = [];
  readonly #undone: Step[] = [];
  readonly #limit: number;
  readonly #pauseMs: number;
  readonly #now: () => number;
  #nextId = 1;
  /** Open transaction: changes recorded inside it form one step. */
  #batch: Change[] | null = null;

  constructor(options: HistoryOptions = {}) {
    this.#limit = options.limit ?? 500;
    this.#pauseMs = options.pauseMs ?? 1000;
    this.#now = options.now ?? (() => Date.now());
  }

  get canUndo(): boolean {
    return this.#done.length > 0;
  }

  get canRedo(): boolean {
    return this.#undone.length > 0;
  }

  /** The id of the step Undo would take back (to tell whether a notice's "Undo" still means its own step). */
  get lastId(): number | null {
    return this.#done.at(-1)?.id ?? null;
  }

  /** Applies a change and records it; returns the id of the step it belongs to. */
  apply(change: Change, group: string | null = null): number {
    change.redo();
    return this.#record(change, group);
  }

  /** Runs `fn`, whose applied changes become one step (Reset, a pasted block of cells, "add a row" to a missing list). */
  transaction(fn: () => void, group: string | null = null): number | null {
    if (this.#batch) {
      fn();
      return null;
    }
    const changes: Change[] = [];
    this.#batch = changes;
    try {
      fn();
    } finally {
      this.#batch = null;
    }
    if (!changes.length) return null;
    return this.#push({ id: this.#nextId++, changes, group, at: this.#now() });
  }

  undo(): boolean {
    const step = this.#done.pop();
    if (!step) return false;
    for (let i = step.changes.length - 1; i >= 0; i--) step.changes[i].undo();
    this.#undone.push(step);
    return true;
  }

  redo(): boolean {
    const step = this.#undone.pop();
    if (!step) return false;
    for (const change of step.changes) change.redo();
    step.group = null; // typing after a redo starts a step of its own
    this.#done.push(step);
    return true;
  }

  clear(): void {
    this.#done.length = 0;
    this.#undone.length = 0;
  }

  #record(change: Change, group: string | null): number {
    if (this.#batch) {
      this.#batch.push(change);
      return this.#nextId;
    }
    const now = this.#now();
    const last = this.#done.at(-1);
    this.#undone.length = 0;
    if (group !== null && last && last.group === group && now - last.at <= this.#pauseMs) {
      last.changes.push(change);
      last.at = now;
      return last.id;
    }
    return this.#push({ id: this.#nextId++, changes: [change], group, at: now });
  }

  #push(step: Step): number {
    this.#undone.length = 0;
    this.#done.push(step);
    if (this.#done.length > this.#limit) this.#done.splice(0, this.#done.length - this.#limit);
    return step.id;
  }
}
