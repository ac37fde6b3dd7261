/**
 * The Generate page's state: the chosen template, the data being edited (shared by the form and the JSON view),
 * the test switch and the last generated document. Kept in a store so the data survives a visit to another page.
 */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import * as api from '../api/client.js';
import type { DocumentRecord, TemplateField, TemplateRecord } from '../api/types.js';
import { initialData, parseFields, unusedKeys, validateData, type DataObject } from '../lib/fields.js';

export const useGenerateStore = defineStore('generate', () => {
  const template = ref<TemplateRecord | null>(null);
  const fields = ref<TemplateField[]>([]);
  const data = ref<DataObject>({});
  const test = ref(true);
  const generating = ref(false);
  const result = ref<DocumentRecord | null>(null);
  const error = ref<unknown>(null);

  const problems = computed(() => validateData(fields.value, data.value));
  const unused = computed(() => unusedKeys(fields.value, data.value));

  async function choose(uuid: string): Promise<void> {
    if (template.value?.uuid === uuid) return;
    const record = await api.getTemplate(uuid);
    template.value = record;
    fields.value = parseFields(record);
    data.value = initialData(record, fields.value);
    result.value = null;
    error.value = null;
  }

  function clear(): void {
    template.value = null;
    fields.value = [];
    data.value = {};
    result.value = null;
  }

  /** Replaces the whole data object (JSON view, loaded file); the form follows. */
  function replaceData(next: DataObject): void {
    data.value = next;
  }

  function resetData(): void {
    if (template.value) data.value = initialData(template.value, fields.value);
  }

  async function generate(): Promise<DocumentRecord | null> {
    if (!template.value) return null;
    generating.value = true;
    error.value = null;
    result.value = null;
    try {
      result.value = await api.createDocument({ template_id: template.value.uuid, data: data.value, test: test.value });
      return result.value;
    } catch (err) {
      error.value = err;
      return null;
    } finally {
      generating.value = false;
    }
  }

  return { template, fields, data, test, generating, result, error, problems, unused, choose, clear, replaceData, resetData, generate };
});
