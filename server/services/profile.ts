/**
 * The profile switch (DOCLOOM_PROFILE=1, docs/configuration.md): where a synchronous POST /api/document spends its
 * time, phase by phase, measured with process.hrtime.bigint() and answered in a `Server-Timing` header
 * (docs/benchmarks.md, bench/http-docx.ts). Off by default; when off no Profile is ever made, and every place that
 * would record a phase costs one check of an undefined value.
 *
 * Render workers report their own stamps (RenderTimings) on the same clock: process.hrtime is one monotonic clock
 * for every thread of the process, so the pool can tell the hand-off between threads from the render itself.
 */

/** Nanoseconds on the process-wide monotonic clock, as a number (exact for 104 days of uptime). */
export function hrnow(): number {
  return Number(process.hrtime.bigint());
}

/** Stamps (hrnow()) of one render job, set only when the job asked for them (RenderJob.profile). */
export interface RenderTimings {
  /** The job was handed to the renderer (main thread). */
  submitted: number;
  /** Just before it was posted to a worker (main thread; the structured clone of the job comes after). */
  posted?: number;
  /** The worker took it (worker thread). */
  received?: number;
  /** Its compiled template was at hand: the cache hit, or the template file read and compiled. */
  compiled?: number;
  /** The PDF (or .docx) bytes were made: bind + layout + paint (+ encryption, an editable copy). */
  rendered?: number;
  /** The outcome was back on the main thread. */
  returned?: number;
}

/** CPU time the whole process (every thread) has used so far, in milliseconds. */
function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * The phases of one request, in the order they happened: wall time in milliseconds, and the CPU time the process
 * used meanwhile (all its threads: the event loop, libuv's file-system threads, render workers). The CPU figure
 * belongs to the phase only while the request is alone in the service (a sequential benchmark); it is what the
 * machine's load does not change.
 */
export class Profile {
  readonly phases: Array<[name: string, ms: number, cpuMs: number | null]> = [];
  readonly #start = hrnow();
  #last = this.#start;
  readonly #startCpu = cpuNow();
  #lastCpu = this.#startCpu;

  /** Ends the phase running since the last mark (or the start) and names it. */
  mark(name: string): void {
    const now = hrnow();
    const cpu = cpuNow();
    this.add(name, (now - this.#last) / 1e6, cpu - this.#lastCpu);
    this.#last = now;
    this.#lastCpu = cpu;
  }

  /** Adds a phase measured elsewhere (a render worker), without moving the mark. */
  add(name: string, ms: number, cpuMs: number | null = null): void {
    const at = this.phases.find(([n]) => n === name);
    if (at) {
      at[1] += ms;
      if (cpuMs !== null) at[2] = (at[2] ?? 0) + cpuMs;
    } else {
      this.phases.push([name, ms, cpuMs]);
    }
  }

  /** Splits the time of a render (since the last mark) into its parts from the job's stamps, then marks. */
  markRender(t: RenderTimings | undefined): void {
    const now = hrnow();
    const cpu = cpuNow();
    // The CPU of the whole render span (both threads) goes with the engine's part, where nearly all of it is spent.
    const renderCpu = cpu - this.#lastCpu;
    this.#lastCpu = cpu;
    if (t?.received !== undefined && t.compiled !== undefined && t.rendered !== undefined) {
      const posted = t.posted ?? t.received;
      const returned = t.returned ?? now;
      this.add('render_queue', (posted - t.submitted) / 1e6);
      // Posting (the job's structured clone), the worker's wake-up, and the outcome's way back to this thread.
      this.add('render_handoff', (t.received - posted + (returned - t.rendered)) / 1e6);
      this.add('render_template', (t.compiled - t.received) / 1e6);
      this.add('render_engine', (t.rendered - t.compiled) / 1e6, renderCpu);
      this.add('render_resume', (now - returned) / 1e6);
    } else {
      this.add('render', (now - this.#last) / 1e6, renderCpu);
    }
    this.#last = now;
  }

  /** Milliseconds since the profile started. */
  total(): number {
    return (hrnow() - this.#start) / 1e6;
  }

  /** The `Server-Timing` header value: every phase (`desc` holds its CPU milliseconds), then `total`. */
  header(): string {
    const parts = this.phases.map(([name, ms, cpu]) => `${name};dur=${ms.toFixed(3)}${cpu === null ? '' : `;desc="cpu=${cpu.toFixed(3)}"`}`);
    parts.push(`total;dur=${this.total().toFixed(3)};desc="cpu=${(cpuNow() - this.#startCpu).toFixed(3)}"`);
    return parts.join(', ');
  }
}
