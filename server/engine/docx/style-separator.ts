/**
 * Word's "style separator": a paragraph whose mark carries w:specVanish (ECMA-376 §17.3.2.36, "paragraph mark
 * always hidden") is not ended on the page. Its text and the next paragraph's run on in one line, each run keeping
 * its own character formatting, so a numbered heading ("1.1 Place of Meetings") leads into its section's body
 * text (". Meetings of stockholders…") while the heading alone stays a heading (outline, table of contents).
 *
 * The layout sees one paragraph. What the joined paragraph looks like, as Word draws it:
 * - its first line is the first paragraph's: number (list), alignment, indents, tab stops, space before, page
 *   break before, outline level, borders and shading;
 * - its end is the last paragraph's: space after and keep-with-next (the heading's keepNext would otherwise chain
 *   every joined section to the next; Word pages such sections where their text ends).
 * Checked on safedocx__nvca-source.docx (96 such headings): Word's saved page marks (w:lastRenderedPageBreak)
 * put it at about 52–55 pages; LibreOffice 7.4, which ends each heading, needs 105.
 */
import type { Paragraph, ParagraphStyle } from '../model/types.js';
import type { Item } from './context.js';
import { autoSpacing } from './resolve.js';
import { child, type XElement } from './xml.js';
import { onOff } from './units.js';

/** Paragraphs whose mark is a style separator: they run on into the paragraph after them. */
const runsOn = new WeakSet<Paragraph>();

/** Is this w:pPr's paragraph mark a style separator (w:rPr/w:specVanish on)? */
export function isStyleSeparator(pPr: XElement | undefined): boolean {
  const mark = child(child(pPr, 'w:rPr'), 'w:specVanish');
  return mark !== undefined && onOff(mark.attrs['w:val']);
}

export function markRunsOn(paragraph: Paragraph): void {
  runsOn.add(paragraph);
}

/** The first paragraph's line with the last one's end (see the header). */
function joinedStyle(first: ParagraphStyle | undefined, last: ParagraphStyle | undefined): ParagraphStyle | undefined {
  if (!first) return last;
  const style: ParagraphStyle = { ...first };
  delete style.spaceAfter;
  delete style.keepWithNext;
  if (last?.spaceAfter !== undefined) style.spaceAfter = last.spaceAfter;
  if (last?.keepWithNext) style.keepWithNext = true;
  const before = autoSpacing.get(first)?.before === true;
  const after = last !== undefined && autoSpacing.get(last)?.after === true;
  if (before || after) autoSpacing.set(style, { before, after });
  return style;
}

function join(first: Paragraph, next: Paragraph): Paragraph {
  // An empty first paragraph holds one empty run for its height only; it adds nothing to the line.
  const lead = first.runs.filter((r) => r.type !== 'text' || r.text !== '');
  const joined: Paragraph = { type: 'paragraph', runs: [...lead, ...next.runs] };
  const style = joinedStyle(first.style, next.style);
  if (style) joined.style = style;
  const list = first.list ?? (lead.length === 0 ? next.list : undefined);
  if (list) joined.list = list;
  const footnotes = [...(first.footnotes ?? []), ...(next.footnotes ?? [])];
  if (footnotes.length > 0) {
    // The next paragraph's marks name its notes by index: they move past the first paragraph's notes.
    const shift = first.footnotes?.length ?? 0;
    if (shift > 0) joined.runs = joined.runs.map((r, i) => (i >= lead.length && r.type === 'text' && r.footnote !== undefined ? { ...r, footnote: r.footnote + shift } : r));
    joined.footnotes = footnotes;
  }
  if (runsOn.has(next)) runsOn.add(joined);
  return joined;
}

/**
 * Joins, in place, each style-separator paragraph with the paragraph right after it in the same container. One
 * followed by anything else (a table, a section's end, a float) ends as a paragraph does.
 */
export function joinStyleSeparators(items: Item[]): void {
  for (let i = items.length - 2; i >= 0; i--) {
    const first = items[i];
    const next = items[i + 1];
    if (!isParagraph(first) || !isParagraph(next) || !runsOn.has(first)) continue;
    items.splice(i, 2, join(first, next));
  }
}

function isParagraph(item: Item): item is Paragraph {
  return item.type === 'paragraph';
}
