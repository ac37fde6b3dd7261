/**
 * Rules Word applies between neighbouring paragraphs, resolved once the paragraphs of a container are known:
 * - contextual spacing: paragraphs of one style that ask for it have no space between them;
 * - border groups: consecutive paragraphs with the same borders (and indents) share one box: the top line
 *   is drawn above the first only, the bottom line below the last only;
 * - "auto" (HTML-style) spacing collapses as HTML margins do: when the space after a paragraph or the space
 *   before the next is auto, only the larger of the two is kept (14 pt, not 14 + 14 or 12 + 14: measured against
 *   LibreOffice on oxsdk__Unit1Translation.docx, ink-F1 0.37 → 0.71; Word collapses as well, but LibreOffice 7.4
 *   adds both sides in a bare two-paragraph file, so that case differs from it), and a cell's first
 *   paragraph has no auto space before, its last none after (LibreOffice's writerfilter does the same for the
 *   first paragraph of the document, and for the first paragraph of a text box: DomainMapper's "first paragraph
 *   of sections and shapes got zero top margin", tdf#104354 and tdf#118533, bugs filed against Word's layout);
 * - collapsed spacing (`collapseSpacing`, DocContext): the space between two paragraphs is the larger of the
 *   first's after and the second's before (LibreOffice on markitdown__test.docx: a heading's space before of 8 pt
 *   after a body paragraph's 8 pt after adds nothing, and 20 pt adds 12; with w:doNotUseHTMLParagraphAutoSpacing or
 *   without settings.xml both are added). The second keeps only what its space before adds (the first's after is
 *   lost at a page's foot, where the second starts the next page without it), except after a page break
 *   before it or a section's start, where nothing of the first is above it. A paragraph border between the two
 *   does not stop it: LibreOffice 7.4 collapses with a bottom border above, a top border below or both, and adds
 *   only the borders' own room.
 */
import type { Block, Paragraph, ParagraphStyle } from '../model/types.js';
import { autoSpacing } from './resolve.js';

/** What makes two paragraphs one bordered box: the same borders and indents ('' when there are no borders). */
function boxKey(block: Block): string {
  if (block.type !== 'paragraph' || !block.style?.borders) return '';
  const s = block.style;
  return JSON.stringify([s.borders, s.indentLeft ?? 0, s.indentRight ?? 0]);
}

/**
 * Where the blocks sit: auto spacing is dropped at a cell's edges, above the document's first paragraph and above
 * a text box's first paragraph.
 */
export interface Container {
  cell?: boolean;
  body?: boolean;
  /** A text box's content (w:txbxContent), of a DrawingML shape or of its VML fallback. */
  textBox?: boolean;
  /** The larger of two neighbours' spaces instead of their sum (DocContext.collapseSpacing). */
  collapseSpacing?: boolean;
  /** Blocks that start a section: no collapsing above them. */
  sectionStarts?: Set<unknown>;
}

export function applyNeighbourRules(blocks: Block[], container: Container = {}): void {
  // Keys and auto flags first: the loop below replaces the style objects they are read from.
  const boxes = blocks.map(boxKey);
  const autos = blocks.map((b) => (b.type === 'paragraph' && b.style ? autoSpacing.get(b.style) : undefined));
  const first = blocks[0];
  if (first?.type === 'paragraph' && autos[0]?.before && (container.cell || container.body || container.textBox)) setStyle(first, { spaceBefore: 0 });
  const last = blocks[blocks.length - 1];
  if (last?.type === 'paragraph' && autos[blocks.length - 1]?.after && container.cell) setStyle(last, { spaceAfter: 0 });
  for (let i = 1; i < blocks.length; i++) {
    const prev = blocks[i - 1];
    const next = blocks[i];
    if (prev.type !== 'paragraph' || next.type !== 'paragraph' || !prev.style || !next.style) continue;
    if (autos[i - 1]?.after || autos[i]?.before) {
      const gap = Math.max(prev.style.spaceAfter ?? 0, next.style.spaceBefore ?? 0);
      setStyle(prev, { spaceAfter: 0 });
      setStyle(next, { spaceBefore: gap });
    }
    if (container.collapseSpacing && !next.style.pageBreakBefore && !container.sectionStarts?.has(next)) {
      const after = prev.style.spaceAfter ?? 0;
      const before = next.style.spaceBefore ?? 0;
      if (after > 0 && before > 0) setStyle(next, { spaceBefore: Math.max(0, before - after) });
    }
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
