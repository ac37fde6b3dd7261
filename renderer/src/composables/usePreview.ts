/**
 * The live preview: after each change to the template, the data or the test switch, waits for a pause in the
 * typing, cancels the request still running, and asks POST /api/preview for fresh PDF bytes.
 */
import { onBeforeUnmount, ref, watch, type Ref } from 'vue';
import { previewPdf } from '../api/client.js';
import type { DataObject } from '../lib/fields.js';

export type PreviewState = 'idle' | 'waiting' | 'loading' | 'ready' | 'error';

export function usePreview(source: { uuid: Ref<string | null>; data: Ref<DataObject>; test: Ref<boolean> }, delayMs = 450) {
  const bytes = ref<Uint8Array | null>(null);
  const state = ref<PreviewState>('idle');
  const error = ref<unknown>(null);
  let timer = 0;
  let inFlight: AbortController | null = null;

  async function refresh(): Promise<void> {
    const uuid = source.uuid.value;
    if (!uuid) return;
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    state.value = 'loading';
    try {
      const blob = await previewPdf({ template_id: uuid, data: source.data.value, test: source.test.value }, controller.signal);
      const next = new Uint8Array(await blob.arrayBuffer());
      if (controller.signal.aborted) return;
      bytes.value = next;
      error.value = null;
      state.value = 'ready';
    } catch (err) {
      if (controller.signal.aborted) return;
      error.value = err;
      state.value = 'error';
    } finally {
      if (inFlight === controller) inFlight = null;
    }
  }

  function schedule(): void {
    window.clearTimeout(timer);
    if (!source.uuid.value) {
      bytes.value = null;
      state.value = 'idle';
      return;
    }
    state.value = 'waiting';
    timer = window.setTimeout(() => void refresh(), delayMs);
  }

  watch([source.uuid, source.test], schedule, { immediate: true });
  watch(source.data, schedule, { deep: true });

  onBeforeUnmount(() => {
    window.clearTimeout(timer);
    inFlight?.abort();
  });

  return { bytes, state, error, refresh };
}
