/**
 * Who the GUI is: its token and the service it talks to. In the Electron shell the token comes from the preload
 * bridge; in a browser it is this window's sign-in, from the one-time sign-in link (`#/signin?code=…` printed by
 * `docloom serve`), kept in sessionStorage: a reload or a duplicated tab reuses it, closing the tab forgets it
 * (the service ends it after 12 h unused). Following a new link hands the old one to the service, which revokes
 * it; "Sign out" revokes it too. Drafts are not touched by either.
 */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { apiBaseUrl, configureClient, exchangeSignInCode, serviceInfo, signOutWindow } from '../api/client.js';
import { ApiError, messageOf } from '../api/errors.js';
import type { ServiceInfo } from '../api/types.js';

const TOKEN_KEY = 'docloom.token';

export type SessionStatus = 'starting' | 'signed-in' | 'signed-out';

export const useSessionStore = defineStore('session', () => {
  const status = ref<SessionStatus>('starting');
  /** Why the user is signed out, in words (empty on a first visit). */
  const reason = ref('');
  const info = ref<ServiceInfo | null>(null);
  const isDesktop = Boolean(window.docloom);

  /** The base URL other tools should use: what the service says, else the one this GUI talks to. */
  const baseUrl = computed(() => (info.value?.base_url ?? apiBaseUrl()).replace(/\/+$/, ''));

  function useToken(token: string): void {
    configureClient({ token });
    if (!isDesktop) sessionStorage.setItem(TOKEN_KEY, token);
  }

  function signOut(why: string): void {
    configureClient({ token: null });
    if (!isDesktop) sessionStorage.removeItem(TOKEN_KEY);
    info.value = null;
    reason.value = why;
    status.value = 'signed-out';
  }

  /** Checks the token by reading the service's info; a 401 signs out (through the client's hook). */
  async function verify(): Promise<void> {
    try {
      info.value = await serviceInfo();
      status.value = 'signed-in';
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return; // onUnauthenticated already signed out
      signOut(messageOf(err));
    }
  }

  async function start(signInCode?: string): Promise<void> {
    configureClient({
      onUnauthenticated: () => signOut('Your session has ended: the service no longer accepts its key. Open a new sign-in link.'),
    });
    if (signInCode) return signInWithCode(signInCode);
    if (window.docloom) {
      try {
        useToken(await window.docloom.getToken());
      } catch (err) {
        signOut(`The desktop app could not give the interface its key: ${messageOf(err)}`);
        return;
      }
    } else {
      const saved = sessionStorage.getItem(TOKEN_KEY);
      if (!saved) {
        signOut('');
        return;
      }
      useToken(saved);
    }
    await verify();
  }

  async function signInWithCode(code: string): Promise<void> {
    status.value = 'starting';
    // The sign-in this window held until now (a reload keeps it): sent with the code so the service revokes it.
    const previous = isDesktop ? null : sessionStorage.getItem(TOKEN_KEY);
    configureClient({ token: previous });
    try {
      useToken(await exchangeSignInCode(code, previous !== null));
    } catch (err) {
      const used = err instanceof ApiError && [400, 401, 403, 404, 410, 422].includes(err.status);
      signOut(
        used
          ? 'This sign-in link has already been used or is no longer valid. Each link works once: start `npx docloom serve` again (or use the newest link it printed).'
          : messageOf(err),
      );
      return;
    }
    await verify();
  }

  /** The header's "Sign out": the service revokes this window's sign-in, then the window forgets it. */
  async function signOutHere(): Promise<void> {
    let why = 'You signed out. Drafts stay in this browser. To sign in again, open a new link from `docloom serve`.';
    try {
      await signOutWindow();
    } catch (err) {
      // Already revoked (401: the hook signed out) or the service is unreachable: the window forgets it anyway.
      if (err instanceof ApiError && err.status === 401) return;
      why = `Signed out in this window, but the service could not be told (${messageOf(err)}); the sign-in ends by itself after 12 hours unused.`;
    }
    signOut(why);
  }

  return { status, reason, info, isDesktop, baseUrl, start, signInWithCode, signOut, signOutHere };
});
