/**
 * A small hash router: the GUI's addresses live after `#` (`#/templates/<uuid>`, `#/signin?code=…`) so the same
 * bundle works when served at `/` and when loaded from a file URL by the Electron shell, and the service never
 * has to know the GUI's pages.
 */
import { readonly, shallowRef } from 'vue';

export type RouteName = 'signin' | 'templates' | 'template' | 'generate' | 'documents' | 'document' | 'tokens' | 'notfound';

export interface Route {
  name: RouteName;
  params: Record<string, string>;
  query: Record<string, string>;
  path: string;
}

const patterns: Array<[RouteName, RegExp, string[]]> = [
  ['signin', /^\/signin$/, []],
  ['templates', /^\/(?:templates)?$/, []],
  ['template', /^\/templates\/([^/]+)$/, ['uuid']],
  ['generate', /^\/generate(?:\/([^/]+))?$/, ['uuid']],
  ['documents', /^\/documents$/, []],
  ['document', /^\/documents\/(\d+)$/, ['id']],
  ['tokens', /^\/tokens$/, []],
];

export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '') || '/';
  const [pathPart, queryPart = ''] = raw.split('?', 2);
  const path = pathPart.startsWith('/') ? pathPart : `/${pathPart}`;
  const query = Object.fromEntries(new URLSearchParams(queryPart));
  for (const [name, regex, keys] of patterns) {
    const match = regex.exec(path);
    if (!match) continue;
    const params: Record<string, string> = {};
    keys.forEach((key, i) => {
      const value = match[i + 1];
      if (value !== undefined) params[key] = decodeURIComponent(value);
    });
    return { name, params, query, path };
  }
  return { name: 'notfound', params: {}, query, path };
}

const current = shallowRef<Route>(parseHash(window.location.hash));

function sync(): void {
  current.value = parseHash(window.location.hash);
}
// Links and typed addresses fire hashchange; Back/Forward over entries made by navigate() fire popstate.
window.addEventListener('hashchange', sync);
window.addEventListener('popstate', sync);

export const route = readonly(current);

/** Builds `#/path?query` with empty query values left out. */
export function href(path: string, query: Record<string, string | number | undefined | null> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return `#${path}${qs ? `?${qs}` : ''}`;
}

/** Goes to a GUI address. `replace` keeps secrets (the sign-in code) and filter tweaks out of the history. */
export function navigate(target: string, options: { replace?: boolean } = {}): void {
  const hash = target.startsWith('#') ? target : `#${target}`;
  if (options.replace) {
    window.history.replaceState(window.history.state, '', hash);
  } else {
    window.history.pushState(window.history.state, '', hash);
  }
  // pushState/replaceState do not fire hashchange.
  current.value = parseHash(hash);
}
