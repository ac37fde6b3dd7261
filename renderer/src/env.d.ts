/// <reference types="vite/client" />

declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<object, object, unknown>;
  export default component;
}

/**
 * The bridge the Electron preload exposes (absent in a plain browser); mirrors electron/bridge-api.ts. Only
 * apiBaseUrl and getToken are relied on; the rest is used when present.
 */
interface DocloomBridge {
  readonly apiBaseUrl: string;
  readonly appVersion?: string;
  getToken(): Promise<string>;
  importTemplate?(): Promise<{ uuid: string; name: string } | null>;
  saveDocument?(documentId: number, suggestedName?: string): Promise<{ path: string; size: number } | null>;
  showInFolder?(filePath: string): Promise<boolean>;
  onTemplateImported?(listener: (template: { uuid: string; name: string }) => void): () => void;
}

interface Window {
  docloom?: DocloomBridge;
}
