/**
 * The live preview: POST /api/preview for fresh PDF bytes after each change to the template, the data or the
 * test switch — at once, with no pause to wait for. One request is in flight at a time: a change made while it
 * runs only marks the preview out of date, and when the answer comes the latest data is sent (never a queue,
 * never a stale request cancelled and re-sent per keystroke, and the last change is always previewed).
 * A new template cancels the request in flight: its answer would be for the other template.
 *
 * When the service cannot be reached (or fails, 5xx) the preview retries by itself every RETRY_MS, so it comes
 * back within a few seconds of the service answering again, without a keystroke. A refusal of the data (422)
 * waits for the next change instead.
 *
 * `revision`, when given, is a counter the caller bumps on every data change: watching it costs nothing, where
 * a deep watch of the data walks all of it on every keystroke.
 */
import { onBeforeUnmount, ref, watch, type Ref } from 'vue';
import { previewPdf } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type { DataObject } from '../lib/fields.js';

export type PreviewState = 'idle' | 'waiting' | 'loading' | 'ready' | 'error';

/** How often a preview that failed for want of a service is tried again (the bound is 3 s). */
export const RETRY_MS = 1000;

export interface PreviewSource {
  uuid: Ref<string | null>;
  data: Ref<DataObject>;
  test: Ref<boolean>;
  revision?: Ref<number>;
}

/** Failures that say nothing about the data: the service is down, restarting or overloaded. */
function worthRetrying(err: unknown): boolean {
  return !(err instanceof ApiError) || err.status === 0 || err.status === 408 || err.status === 429 || err.status >= 500;
}

/** `_delayMs` is kept for callers written when the preview waited for a pause; it is not used. */
export function usePreview(source: PreviewSource, _delayMs?: number) {
  const bytes = ref<Uint8Array | null>(null);
  const state = ref<PreviewState>('idle');
  const error = ref<unknown>(null);
  let inFlight: AbortController | null = null;
  /** A change came while a request was running: send the latest data when it ends. */
  let outOfDate = false;
  let retryTimer = 0;
  let disposed = false;
  /** A request took the data during this flush of watchers (a template switch also sets its data): no second one. */
  let sentThisTurn = false;

  async function send(): Promise<void> {
    window.clearTimeout(retryTimer);
    const uuid = source.uuid.value;
    if (!uuid || disposed) return;
    outOfDate = false;
    sentThisTurn = true;
    queueMicrotask(() => (sentThisTurn = false));
    const controller = new AbortController();
    inFlight = controller;
    state.value = 'loading';
    let failed: unknown = null;
    try {
      // The body is serialised inside previewPdf before its first await: later edits cannot change this request.
      const blob = await previewPdf({ template_id: uuid, data: source.data.value, test: source.test.value }, controller.signal);
      const next = new Uint8Array(await blob.arrayBuffer());
      if (controller.signal.aborted) return;
      bytes.value = next;
      error.value = null;
      state.value = 'ready';
    } catch (err) {
      if (controller.signal.aborted) return;
      failed = err;
    } finally {
      if (inFlight === controller) inFlight = null;
    }
    if (outOfDate) {
      // Newer data is waiting: that answer matters more than this one's outcome.
      void send();
      return;
    }
    if (failed !== null) {
      error.value = failed;
      state.value = 'error';
      if (worthRetrying(failed)) retryTimer = window.setTimeout(() => void send(), RETRY_MS);
    }
  }

  /** Asks for a preview of the current data now, or right after the request in flight. */
  function refresh(): Promise<void> {
    if (sentThisTurn) return Promise.resolve();
    if (inFlight) {
      outOfDate = true;
      state.value = 'loading';
      return Promise.resolve();
    }
    return send();
  }

  function templateChanged(): void {
    window.clearTimeout(retryTimer);
    inFlight?.abort();
    inFlight = null;
    outOfDate = false;
    if (!source.uuid.value) {
      bytes.value = null;
      state.value = 'idle';
      return;
    }
    void send();
  }

  watch(source.uuid, templateChanged, { immediate: true });
  watch(source.test, () => void refresh());
  if (source.revision) watch(source.revision, () => void refresh());
  else watch(source.data, () => void refresh(), { deep: true });

  onBeforeUnmount(() => {
    disposed = true;
    window.clearTimeout(retryTimer);
    inFlight?.abort();
  });

  return { bytes, state, error, refresh };
}
