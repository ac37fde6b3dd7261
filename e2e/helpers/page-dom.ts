/**
 * Just enough of the DOM's types for the code Playwright runs inside the page. The project's tsconfig leaves
 * the DOM library out on purpose (server code must not see browser globals), so a file with in-page code
 * declares the globals it uses module-locally, with these types:
 *
 *   import type { PageDocument } from './helpers/page-dom.js';
 *   declare const document: PageDocument;
 */

export interface PageElement {
  id: string;
  tagName: string;
  textContent: string | null;
  tabIndex: number;
  getAttribute(name: string): string | null;
  matches(selector: string): boolean;
  focus(): void;
  blur(): void;
  remove(): void;
  prepend(node: PageElement): void;
  /** Present on labelable elements (inputs, selects, buttons…). */
  readonly labels?: ArrayLike<PageElement> | null;
}

export interface PageDocument {
  body: PageElement;
  documentElement: PageElement & { scrollWidth: number; clientWidth: number };
  activeElement: PageElement | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
  getElementById(id: string): PageElement | null;
  createElement(tag: string): PageElement;
  addEventListener(type: 'securitypolicyviolation', listener: (event: { violatedDirective: string; blockedURI: string }) => void): void;
}

export interface PageStyle {
  outlineStyle: string;
  outlineWidth: string;
  boxShadow: string;
  backgroundColor: string;
}

export type GetComputedStyle = (element: PageElement) => PageStyle;

export interface PageWindow {
  scrollTo(x: number, y: number): void;
}

export interface PageNavigator {
  clipboard: { readText(): Promise<string> };
}

export interface PageDataTransfer {
  items: { add(file: unknown): void };
}
