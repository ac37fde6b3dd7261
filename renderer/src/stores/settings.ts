/** The service's settings (GET/PUT /api/settings): today the "allow images from the local network" switch. */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import * as api from '../api/client.js';
import type { ServiceSettings } from '../api/types.js';

export const useSettingsStore = defineStore('settings', () => {
  /** As the service last said; null until loaded. */
  const current = ref<ServiceSettings | null>(null);
  const loading = ref(false);
  const error = ref<unknown>(null);

  async function load(): Promise<void> {
    loading.value = true;
    error.value = null;
    try {
      current.value = await api.getSettings();
    } catch (err) {
      error.value = err;
    } finally {
      loading.value = false;
    }
  }

  /** Saves one change; on failure the error is kept and `current` still holds what the service has. */
  async function save(change: Partial<ServiceSettings>): Promise<boolean> {
    if (!current.value) return false;
    error.value = null;
    try {
      current.value = await api.updateSettings({ ...current.value, ...change });
      return true;
    } catch (err) {
      error.value = err;
      return false;
    }
  }

  return { current, loading, error, load, save };
});
