/**
 * Templates: the searchable, paged list; the one open in the settings page; and the full list of names the
 * other pages use (pickers, the documents filter).
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import * as api from '../api/client.js';
import type { Page, TemplateRecord, TemplateSettings } from '../api/types.js';

const PER_PAGE = 24;

export const useTemplatesStore = defineStore('templates', () => {
  const page = ref<Page<TemplateRecord> | null>(null);
  const search = ref('');
  const loading = ref(false);
  const error = ref<unknown>(null);
  const current = ref<TemplateRecord | null>(null);
  /** Every template (name lookups and pickers); refreshed after each change. */
  const all = ref<TemplateRecord[]>([]);
  let listRequest = 0;

  async function load(pageNumber = 1, name = search.value): Promise<void> {
    const ticket = ++listRequest;
    search.value = name;
    loading.value = true;
    error.value = null;
    try {
      const result = await api.listTemplates({ page: pageNumber, per_page: PER_PAGE, name: name.trim() || undefined });
      // An older search answering late must not replace a newer one.
      if (ticket === listRequest) page.value = result;
    } catch (err) {
      if (ticket === listRequest) error.value = err;
    } finally {
      if (ticket === listRequest) loading.value = false;
    }
  }

  async function loadAll(): Promise<void> {
    const collected: TemplateRecord[] = [];
    for (let p = 1; ; p++) {
      const result = await api.listTemplates({ page: p, per_page: 100 });
      collected.push(...result.data);
      if (result.current_page >= result.last_page) break;
    }
    all.value = collected;
  }

  async function open(uuid: string): Promise<TemplateRecord> {
    if (current.value?.uuid !== uuid) current.value = null;
    current.value = await api.getTemplate(uuid);
    return current.value;
  }

  async function importFile(file: File): Promise<TemplateRecord> {
    const created = await api.importTemplate(file);
    await Promise.all([load(1, ''), loadAll()]);
    return created;
  }

  async function update(uuid: string, settings: TemplateSettings, file?: File): Promise<TemplateRecord> {
    const updated = await api.updateTemplate(uuid, settings, file);
    current.value = updated;
    all.value = all.value.map((t) => (t.uuid === uuid ? updated : t));
    return updated;
  }

  async function remove(uuid: string): Promise<string> {
    const message = await api.deleteTemplate(uuid);
    if (current.value?.uuid === uuid) current.value = null;
    all.value = all.value.filter((t) => t.uuid !== uuid);
    if (page.value) page.value = { ...page.value, data: page.value.data.filter((t) => t.uuid !== uuid) };
    return message;
  }

  function nameOf(id: number, uuid?: string): string {
    const found = all.value.find((t) => t.id === id || (uuid !== undefined && t.uuid === uuid));
    return found ? found.name : `Template #${id} (deleted)`;
  }

  return { page, search, loading, error, current, all, load, loadAll, open, importFile, update, remove, nameOf };
});
