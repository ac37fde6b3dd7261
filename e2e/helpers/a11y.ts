/**
 * Accessibility checks written with Playwright's own APIs (no extra package): Chromium's computed
 * accessibility tree (through the DevTools protocol) for names, and real Tab presses for focus and order.
 */
import type { Page } from 'playwright-core';
import type { GetComputedStyle, PageDocument, PageWindow } from './page-dom.js';

// In-page code below runs in the browser (see page-dom.ts).
declare const document: PageDocument;
declare const window: PageWindow;
declare const getComputedStyle: GetComputedStyle;

const INTERACTIVE = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'combobox',
  'listbox',
  'checkbox',
  'switch',
  'radio',
  'spinbutton',
  'slider',
  'tab',
  'menuitem',
]);

export interface Unnamed {
  role: string;
  html: string;
}

/** Controls that a screen reader would announce without a name (an unlabelled input, an icon-only button). */
export async function unnamedControls(page: Page): Promise<Unnamed[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const unnamed: Unnamed[] = [];
    for (const node of nodes) {
      const role = String(node.role?.value ?? '');
      if (node.ignored || !INTERACTIVE.has(role)) continue;
      const name = String(node.name?.value ?? '').trim();
      if (name) continue;
      let html = '(unknown element)';
      if (node.backendDOMNodeId !== undefined) {
        const { outerHTML } = await cdp.send('DOM.getOuterHTML', { backendNodeId: node.backendDOMNodeId }).catch(() => ({ outerHTML: html }));
        html = outerHTML.slice(0, 160);
      }
      unnamed.push({ role, html });
    }
    return unnamed;
  } finally {
    await cdp.detach();
  }
}

/** Ids used twice break label associations (`for=`, aria-labelledby). */
export function duplicateIds(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const seen = new Map<string, number>();
    for (const el of Array.from(document.querySelectorAll('[id]'))) seen.set(el.id, (seen.get(el.id) ?? 0) + 1);
    return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  });
}

export interface FocusStop {
  /** What the focused element says: its label, its text or its aria-label. */
  name: string;
  tag: string;
  /** Whether a focus indicator is drawn (an outline or a box shadow while :focus-visible). */
  visible: boolean;
}

/**
 * Puts the keyboard's starting point at the top of the page, as on a fresh load: a temporary focusable element
 * first in <body> takes focus, so the next Tab goes to the page's first control.
 */
export async function focusPageStart(page: Page): Promise<void> {
  await page.evaluate(() => {
    document.getElementById('a11y-start-probe')?.remove();
    const probe = document.createElement('span');
    probe.id = 'a11y-start-probe';
    probe.tabIndex = -1;
    document.body.prepend(probe);
    probe.focus();
    window.scrollTo(0, 0);
  });
}

/** Presses Tab up to `max` times from the top of the page and reports each stop. */
export async function tabThrough(page: Page, max = 60): Promise<FocusStop[]> {
  await focusPageStart(page);
  const stops: FocusStop[] = [];
  try {
    for (let i = 0; i < max; i++) {
      await page.keyboard.press('Tab');
      const stop = await page.evaluate(() => {
        const el = document.activeElement;
        if (!el || el === document.body || el.id === 'a11y-start-probe') return null;
        const style = getComputedStyle(el);
        const outlined = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
        const shadowed = style.boxShadow !== 'none' && style.boxShadow !== '';
        const labels = el.labels;
        const name =
          el.getAttribute('aria-label') ??
          (labels && labels.length ? labels[0].textContent : null) ??
          el.textContent ??
          '';
        return { name: name.replace(/\s+/g, ' ').trim(), tag: el.tagName.toLowerCase(), visible: el.matches(':focus-visible') && (outlined || shadowed) };
      });
      if (!stop) {
        if (i > 0) break; // focus left the page (wrapped around to the browser UI)
        continue;
      }
      if (stops.length > 2 && stops[0].name === stop.name && stops[0].tag === stop.tag) break; // wrapped around
      stops.push(stop);
    }
  } finally {
    await page.evaluate(() => document.getElementById('a11y-start-probe')?.remove());
  }
  return stops;
}
