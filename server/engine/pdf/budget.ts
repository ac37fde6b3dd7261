/**
 * The limits of one render, checked while it runs (CONTRACT.md §8): the pages it has made so far and the time it
 * has taken. Both end the render with EngineError `limit_exceeded`, naming the limit. The time is checked
 * cooperatively at the places that repeat (every laid-out block, every page, every table cell); a render thread
 * that stops answering altogether is ended from outside (services/render-pool.ts).
 */
import { EngineError } from '../errors.js';

export interface RenderLimits {
  /** Most pages a document may have. */
  pages?: number;
  /** Most milliseconds a render may take, counted from `start`. */
  ms?: number;
}

/** Calls between two looks at the clock: reading it costs ~50 ns, a laid-out block far more. */
const CLOCK_EVERY = 16;

export class RenderBudget {
  readonly #pages: number;
  readonly #ms: number;
  readonly #deadline: number;
  #calls = 0;

  constructor(limits: RenderLimits = {}, start = performance.now()) {
    this.#pages = limits.pages && limits.pages > 0 ? limits.pages : Infinity;
    this.#ms = limits.ms && limits.ms > 0 ? limits.ms : Infinity;
    this.#deadline = start + this.#ms;
  }

  /** Throws once the document has more pages than the limit. */
  pages(count: number): void {
    if (count > this.#pages) {
      throw new EngineError(
        'limit_exceeded',
        `The document has more than ${this.#pages.toLocaleString('en-US')} pages, the limit of pages per document (pages_per_document).`,
      );
    }
    this.tick();
  }

  /** Throws once the render has taken longer than the limit (looks at the clock every few calls). */
  tick(): void {
    if (this.#ms === Infinity || ++this.#calls % CLOCK_EVERY !== 0) return;
    this.now();
  }

  /** Looks at the clock now. */
  now(): void {
    if (performance.now() > this.#deadline) {
      throw new EngineError(
        'limit_exceeded',
        `The document took longer than ${this.#ms.toLocaleString('en-US')} ms to render, the limit of render time (render_ms).`,
      );
    }
  }
}
