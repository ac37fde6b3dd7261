/**
 * API tokens for other local tools: list, create (the plain token is shown once), revoke. Browser windows'
 * sign-ins are listed apart (`windowSignIns`): they are not API tokens, but revoked the same way.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import * as api from '../api/client.js';
import type { TokenRecord, WindowSignInRecord } from '../api/types.js';

export const useTokensStore = defineStore('tokens', () => {
  const items = ref<TokenRecord[]>([]);
  const windowSignIns = ref<WindowSignInRecord[]>([]);
  const loading = ref(false);
  const error = ref<unknown>(null);
  /** The token just created, in plain text; forgotten when the page is left. */
  const justCreated = ref<{ name: string; plainText: string } | null>(null);

  async function load(): Promise<void> {
    loading.value = true;
    error.value = null;
    try {
      const listed = await api.listCredentials();
      items.value = listed.tokens;
      windowSignIns.value = listed.windowSignIns;
    } catch (err) {
      error.value = err;
    } finally {
      loading.value = false;
    }
  }

  async function create(name: string, readOnly: boolean): Promise<void> {
    const { plainText } = await api.createToken(name, readOnly);
    justCreated.value = { name, plainText };
    await load();
  }

  async function revoke(id: TokenRecord['id']): Promise<void> {
    await api.revokeToken(id);
    items.value = items.value.filter((t) => t.id !== id);
    windowSignIns.value = windowSignIns.value.filter((t) => t.id !== id);
  }

  function forgetCreated(): void {
    justCreated.value = null;
  }

  return { items, windowSignIns, loading, error, justCreated, load, create, revoke, forgetCreated };
});
