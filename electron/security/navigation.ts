/**
 * Where the window may go: only to the app's own pages (docloom://app/…). Any other navigation is stopped;
 * http(s) links are handed to the user's browser, every other scheme (file:, javascript:, custom handlers) is
 * dropped. New windows are never created by the page. Checklist items 13 and 14 (docs/security.md).
 */
import { APP_HOST, APP_SCHEME } from '../bridge-api.js';

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** A page of the app itself. (Compared by scheme and host: WHATWG gives custom schemes an opaque origin.) */
export function isAppUrl(url: string): boolean {
  const parsed = parse(url);
  return parsed !== null && parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && !parsed.username && !parsed.password;
}

/** A web address that may be opened in the user's browser: http or https only, with a host. */
export function isExternalWebUrl(url: string): boolean {
  const parsed = parse(url);
  return parsed !== null && (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.hostname !== '';
}

export type NavigationDecision = 'allow' | 'open-in-browser' | 'block';

export function decideNavigation(url: string): NavigationDecision {
  if (isAppUrl(url)) return 'allow';
  if (isExternalWebUrl(url)) return 'open-in-browser';
  return 'block';
}

/** Opens `url` in the OS browser when it is an http(s) address; returns whether it did. */
export function openInBrowserIfWeb(url: string, openExternal: (url: string) => Promise<void>): boolean {
  if (!isExternalWebUrl(url)) return false;
  openExternal(url).catch((error: unknown) => console.error(`docloom: could not open ${url}:`, error));
  return true;
}

/** The navigation events of a WebContents (Electron's event objects carry more; these fields are enough). */
export interface NavigationEvent {
  url: string;
  preventDefault(): void;
}

export interface GuardedContents {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: NavigationEvent) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/** Installs the policy on one WebContents (main.ts calls it for every WebContents the app creates). */
export function applyNavigationPolicy(contents: GuardedContents, openExternal: (url: string) => Promise<void>): void {
  const guard = (event: NavigationEvent): void => {
    const decision = decideNavigation(event.url);
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'open-in-browser') openInBrowserIfWeb(event.url, openExternal);
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  // <webview> is off (webviewTag: false); refusing attachment keeps it off even if a page tries.
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openInBrowserIfWeb(url, openExternal);
    return { action: 'deny' };
  });
}
