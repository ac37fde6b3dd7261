/**
 * Rules Word applies between neighbouring paragraphs, resolved once the paragraphs of a container are known:
 * - contextual spacing: paragraphs of one style that ask for it have no space between them;
 * - border groups: consecutive paragraphs with the same borders (and indents) share one box: the top line
 *   is drawn above the first only, the bottom line below the last only.
 */
import type { Block, Paragraph, ParagraphStyle } from '../model/types.js';

/** What makes two paragraphs one bordered box: the same borders and indents ('' when there are no borders). */
function boxKey(block: Block): string {
  if (block.type !== 'paragraph' || !block.style?.borders) return '';
  const s = block.style;
  return JSON.stringify([s.borders, s.indentLeft ?? 0, s.indentRight ?? 0]);
}

export function applyNeighbourRules(blocks: Block[]): void {
  // Keys first: the loop below changes the borders it compares.
  const boxes = blocks.map(boxKey);
  for (let i = 1; i < blocks.length; i++) {
    const prev = blocks[i - 1];
    const next = blocks[i];
    if (prev.type !== 'paragraph' || next.type !== 'paragraph' || !prev.style || !next.style) continue;
    const a = prev.style;
    const b = next.style;
    if (a.contextualSpacing !== undefined && a.contextualSpacing === b.contextualSpacing) {
      setStyle(prev, { spaceAfter: 0 });
      setStyle(next, { spaceBefore: 0 });
    }
    if (boxes[i] !== '' && boxes[i] === boxes[i - 1]) {
      const { bottom: _bottom, ...keepPrev } = prev.style?.borders ?? {};
      const { top: _top, ...keepNext } = next.style?.borders ?? {};
      void _bottom;
      void _top;
      setStyle(prev, { borders: keepPrev });
      setStyle(next, { borders: keepNext });
    }
  }
}

/** Style objects may be shared between paragraphs (a paragraph split at a page break): copy, then change. */
function setStyle(p: Paragraph, change: Partial<ParagraphStyle>): void {
  p.style = { ...p.style, ...change };
}
