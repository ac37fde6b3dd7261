/**
 * Documents: the filtered, paged list (filters live in the address so a view can be bookmarked or reloaded)
 * and the one document opened on its own page.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import * as api from '../api/client.js';
import type { DocumentFilters, DocumentRecord, Page } from '../api/types.js';

export const DOCUMENTS_PER_PAGE = 15;

export const useDocumentsStore = defineStore('documents', () => {
  const page = ref<Page<DocumentRecord> | null>(null);
  const loading = ref(false);
  const error = ref<unknown>(null);
  const current = ref<DocumentRecord | null>(null);
  let listRequest = 0;

  async function load(filters: DocumentFilters, pageNumber = 1): Promise<void> {
    const ticket = ++listRequest;
    loading.value = true;
    error.value = null;
    try {
      const result = await api.listDocuments({ ...filters, page: pageNumber, per_page: DOCUMENTS_PER_PAGE });
      if (ticket === listRequest) page.value = result;
    } catch (err) {
      if (ticket === listRequest) error.value = err;
    } finally {
      if (ticket === listRequest) loading.value = false;
    }
  }

  async function open(id: number): Promise<DocumentRecord> {
    if (current.value?.id !== id) current.value = null;
    current.value = await api.getDocument(id);
    return current.value;
  }

  async function remove(id: number): Promise<string> {
    const message = await api.deleteDocument(id);
    if (current.value?.id === id) current.value = null;
    if (page.value) page.value = { ...page.value, data: page.value.data.filter((d) => d.id !== id) };
    return message;
  }

  return { page, loading, error, current, load, open, remove };
});
