/**
 * Justified East Asian text: Word (and LibreOffice) spread a justified line's spare room over the gaps after its
 * East Asian characters as well as over its spaces, so a line of Chinese with no spaces still reaches both
 * margins. The line's text items are cut into runs of wide characters and others; a wide run then takes the
 * extra space after each of its characters (drawn with the PDF's character spacing), except after the line's
 * last character.
 */
import type { Item, TextItem } from './items.js';
import { textWidth } from './fmt.js';
import { isEastAsianWide as isWide } from '../text/east-asian-width.js';
import { copyWith } from '../../copy.js';

/**
 * The line's items with its text cut into wide and other runs (x and widths from the layout's measure), and the
 * runs that take extra space after each character. `items` run from x = 0 and are the line's own.
 */
export function splitWideRuns(items: Item[]): { items: Item[]; wide: Set<TextItem> } {
  const wide = new Set<TextItem>();
  let last = -1;
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i];
    if (it.kind === 'text' && !it.space) {
      last = i;
      break;
    }
    if (it.kind !== 'text') break;
  }
  const out: Item[] = [];
  items.forEach((it, index) => {
    if (it.kind !== 'text' || it.space || !hasWide(it.text)) {
      out.push(it);
      return;
    }
    let x = it.x;
    let from = 0;
    const text = it.text;
    // The line's last character takes nothing after it: it ends the line at the margin.
    const end = index === last ? text.length - 1 : text.length;
    const push = (to: number, isWideRun: boolean): void => {
      if (to <= from) return;
      const part = text.slice(from, to);
      const run: TextItem = copyWith(it, { x, text: part, width: textWidth(it.face, part, it.fmt) });
      x += run.width;
      if (isWideRun) wide.add(run);
      out.push(run);
      from = to;
    };
    for (let i = 0; i < end; i++) {
      const w = isWide(text.charCodeAt(i));
      if (i > from && w !== isWide(text.charCodeAt(i - 1))) push(i, !w);
    }
    if (end > from) push(end, isWide(text.charCodeAt(end - 1)));
    push(text.length, false);
  });
  return { items: out, wide };
}

function hasWide(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (isWide(text.charCodeAt(i))) return true;
  return false;
}
