/**
 * mc:AlternateContent offers a modern form (Choice) and an older one (Fallback) of the same content. The
 * Choice is read when it needs only vocabularies the importer knows (shapes, groups, canvases, Word 2010+
 * extensions); anything else uses the Fallback.
 */
import { child, type XElement } from './xml.js';

const UNDERSTOOD = new Set(['wps', 'wpg', 'wpc', 'wp14', 'w14', 'w15', 'w16se', 'w16cid', 'a14', 'm', 'v', 'o', 'w10']);

export function chooseAlternate(el: XElement | undefined): XElement | undefined {
  if (!el) return undefined;
  for (const node of el.children) {
    if (typeof node === 'string' || node.name !== 'mc:Choice') continue;
    const requires = (node.attrs.Requires ?? '').split(/\s+/).filter(Boolean);
    if (requires.every((r) => UNDERSTOOD.has(r))) return node;
  }
  return child(el, 'mc:Fallback');
}

/** A child element, also when it is wrapped in mc:AlternateContent (Word does this for wp14 positions). */
export function childThroughAlternate(el: XElement | undefined, name: string): XElement | undefined {
  const direct = child(el, name);
  if (direct || !el) return direct;
  for (const node of el.children) {
    if (typeof node !== 'string' && node.name === 'mc:AlternateContent') {
      const found = child(chooseAlternate(node), name);
      if (found) return found;
    }
  }
  return undefined;
}
