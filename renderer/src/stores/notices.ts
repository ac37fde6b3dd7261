/**
 * Short status messages ("Template saved.", "Copied.") shown briefly and announced to screen readers through
 * one polite live region, so every view reports outcomes the same way.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';

export interface Notice {
  id: number;
  text: string;
  kind: 'info' | 'error';
}

export const useNoticesStore = defineStore('notices', () => {
  const items = ref<Notice[]>([]);
  let nextId = 1;

  function push(text: string, kind: Notice['kind'] = 'info', ms = 4000): void {
    const id = nextId++;
    items.value = [...items.value, { id, text, kind }];
    window.setTimeout(() => dismiss(id), kind === 'error' ? ms * 2 : ms);
  }

  function dismiss(id: number): void {
    items.value = items.value.filter((n) => n.id !== id);
  }

  return { items, push, dismiss };
});
