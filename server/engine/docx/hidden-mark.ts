/**
 * A paragraph whose mark is hidden (w:vanish in the mark's run properties, ECMA-376 §17.3.2.41) and which shows
 * nothing else — no text, picture or float, all of it hidden or none there — is not on the printed page: Word does
 * not print hidden text, and LibreOffice gives such a paragraph no line (SwTextFrame::IsHiddenNow). Converters from
 * HTML write one between two tables to keep them apart (tika__017097: ten of them, each a 10 pt Verdana line too
 * many). A container keeps at least one block, so a cell made only of such paragraphs keeps its first.
 * So is a paragraph whose mark is a tracked deletion or moved away (w:del, w:moveFrom in the mark's run properties)
 * and whose content is all deleted or moved too: Word's final document joins what is left of it, nothing, to the next
 * paragraph (paragraph.ts markDeleted).
 * (A mark with w:specVanish is a style separator instead: style-separator.ts.)
 */
import type { Paragraph } from '../model/types.js';
import type { Item } from './context.js';

const hidden = new WeakSet<Paragraph>();

export function markHidden(paragraph: Paragraph): void {
  hidden.add(paragraph);
}

/** The items without the hidden paragraphs, unless nothing else would be left to hold the container's place. */
export function withoutHidden(items: Item[]): Item[] {
  const kept = items.filter((item) => !(item.type === 'paragraph' && hidden.has(item)));
  return kept.length === items.length || kept.some((item) => item.type === 'paragraph' || item.type === 'table') ? kept : items;
}
