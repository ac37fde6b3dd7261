/**
 * Block-level content of a body, header, footer, table cell or text box: paragraphs and tables, with content
 * controls (w:sdt), custom XML and tracked insertions unwrapped, and mc:AlternateContent resolved. Tracked
 * deletions, bookmarks, comments' ranges are skipped; anything else unknown is skipped with a warning.
 */
import type { Block } from '../model/types.js';
import { isBlock, type DocContext, type Item, type PartContext } from './context.js';
import { frameOf, frameTable, type FrameSpec } from './frames.js';
import { applyNeighbourRules } from './neighbours.js';
import { chooseAlternate } from './alternate.js';
import { isNestedBlock, readParagraph } from './paragraph.js';
import type { TableLayer } from './styles.js';
import { readTable } from './table.js';
import { joinStyleSeparators } from './style-separator.js';
import { withoutHidden } from './hidden-mark.js';
import { dropped } from './warnings.js';
import { child, childVal, type XElement } from './xml.js';

/**
 * Frames met while walking a container: the one being filled (consecutive paragraphs with the same w:framePr)
 * and those waiting for their anchor, the next paragraph outside a frame (Word anchors a frame there: its
 * vertical position "from the text" is measured from that paragraph's top). Floating tables wait the same way.
 */
interface Frames {
  open: { spec: FrameSpec; blocks: Block[] } | null;
  waiting: Block[];
}

function closeFrame(frames: Frames): void {
  if (frames.open) frames.waiting.push(frameTable(frames.open.spec, frames.open.blocks));
  frames.open = null;
}

/** The frames still waiting go where the walk is, anchored to nothing that follows (a table, the end). */
function flushFrames(frames: Frames, out: Item[]): void {
  closeFrame(frames);
  for (const t of frames.waiting) out.push(t);
  frames.waiting = [];
}

/** A paragraph: into its frame, or into the flow with the frames waiting for it after it (and what it anchors). */
function placeParagraph(items: Item[], spec: FrameSpec | null, frames: Frames, out: Item[]): void {
  if (spec) {
    if (frames.open?.spec.key !== spec.key) closeFrame(frames);
    frames.open ??= { spec, blocks: [] };
    for (const item of items) {
      if (isBlock(item)) frames.open.blocks.push(item);
      else {
        // A section ends in the frame: the frame ends with it.
        flushFrames(frames, out);
        out.push(item);
      }
    }
    return;
  }
  closeFrame(frames);
  const end = items.findIndex((item) => !isBlock(item));
  const at = end < 0 ? items.length : end;
  for (const item of items.slice(0, at)) out.push(item);
  for (const t of frames.waiting) out.push(t);
  frames.waiting = [];
  for (const item of items.slice(at)) out.push(item);
}

/** Nesting deeper than this (tables in tables in text boxes…) is not real content; it is cut off. */
const MAX_DEPTH = 40;

export function createPartContext(doc: DocContext, part: string): PartContext {
  let depth = 0;
  const ctx: PartContext = {
    doc,
    part,
    fields: [],
    readBlocks(container: XElement, table?: TableLayer): Item[] {
      if (depth >= MAX_DEPTH) return [];
      depth++;
      try {
        const walked: Item[] = [];
        const frames: Frames = { open: null, waiting: [] };
        walk(ctx, container, table, walked, frames);
        flushFrames(frames, walked);
        const out = withoutHidden(walked);
        joinStyleSeparators(out);
        // A paragraph after a section's end starts that section (often a page): it keeps its whole space before.
        const sectionStarts = new Set(out.filter((item, i) => i > 0 && out[i - 1].type === 'sectionEnd'));
        applyNeighbourRules(out.filter(isBlock), {
          cell: container.name === 'w:tc',
          body: container.name === 'w:body',
          textBox: container.name === 'w:txbxContent',
          collapseSpacing: doc.collapseSpacing,
          sectionStarts,
        });
        return out;
      } finally {
        depth--;
      }
    },
  };
  return ctx;
}

function walk(ctx: PartContext, container: XElement, table: TableLayer | undefined, out: Item[], frames: Frames): void {
  for (const node of container.children) {
    if (typeof node === 'string') continue;
    switch (node.name) {
      case 'w:p':
        placeParagraph(readParagraph(ctx, node, table), frameOf(child(child(node, 'w:pPr'), 'w:framePr'), childVal(child(node, 'w:pPr'), 'w:textDirection')), frames, out);
        // Blocks nested in a paragraph (not valid WordprocessingML, but written by some tools and filled by
        // docxtemplater): Word shows them after the paragraph, and so does docloom, so the PDF and the filled .docx
        // agree. paragraph.ts passes over them.
        if (node.children.some(isNestedBlock)) walk(ctx, { ...node, children: node.children.filter(isNestedBlock) }, table, out, frames);
        break;
      case 'w:tbl': {
        const t = readTable(ctx, node);
        // A floating table (w:tblpPr) is anchored, like a frame, in the paragraph that follows it.
        if (t.style?.float) {
          closeFrame(frames);
          frames.waiting.push(t);
        } else {
          flushFrames(frames, out);
          out.push(t);
        }
        break;
      }
      case 'w:sdt':
        walk(ctx, child(node, 'w:sdtContent') ?? node, table, out, frames);
        break;
      case 'w:customXml':
      case 'w:ins':
      case 'w:moveTo':
        walk(ctx, node, table, out, frames);
        break;
      case 'mc:AlternateContent': {
        const chosen = chooseAlternate(node);
        if (chosen) walk(ctx, chosen, table, out, frames);
        break;
      }
      case 'w:sectPr':
        flushFrames(frames, out);
        out.push({ type: 'sectionEnd', sectPr: node });
        break;
      default:
        dropped(ctx.doc.warnings, ctx.part, node);
        break;
    }
  }
}
