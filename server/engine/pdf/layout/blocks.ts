/** Layout of a list of blocks: the body of a section, a table cell, a header or footer. */
import type { Block, PageBreak, Table } from '../../model/types.js';
import type { LaidBlock, LaidPageBreak, LaidParagraph, LaidTable } from './items.js';
import { layoutParagraph, type LayoutContext } from './paragraph.js';
import { layoutTable } from './table.js';
import { floatOf } from '../flow/floats.js';

/** Tables nested deeper than this are flattened to their text (a guard against pathological models). */
const MAX_TABLE_DEPTH = 8;
/** The largest page side a PDF allows (14,400 units): no float's picture is drawn larger. */
const MAX_PAGE = 14_400;

/** `columns`: a section body's newspaper column widths (their tables are laid out at each one's: tableInColumns). */
export function layoutBlocks(blocks: unknown, width: number, ctx: LayoutContext, depth = 0, columns?: readonly number[]): LaidBlock[] {
  const out: LaidBlock[] = [];
  if (!Array.isArray(blocks)) return out;
  for (const block of blocks as Block[]) {
    if (!block || typeof block !== 'object') continue;
    ctx.budget?.tick();
    if (block.type === 'paragraph') {
      const laid = layoutParagraph(block, width, ctx);
      if (Array.isArray(block.footnotes) && depth < MAX_TABLE_DEPTH) {
        laid.footnotes = [];
        laid.footnoteOf = [];
        for (const [index, note] of block.footnotes.entries()) {
          for (const b of layoutBlocks(note, width, ctx, depth + 1)) {
            laid.footnotes.push(b);
            laid.footnoteOf.push(index);
          }
        }
      }
      out.push(laid);
    }
    else if (block.type === 'pageBreak') out.push(block.column === true ? { kind: 'pageBreak', column: true } : pageBreak(block, width, ctx));
    else if (block.type === 'table') {
      if (depth >= MAX_TABLE_DEPTH) continue;
      const float = floatOf(block);
      const stack: Parameters<typeof layoutTable>[3] = (b, w, c) => layoutStack(b, w, c, depth + 1);
      if (!float) {
        out.push(columns ? tableInColumns(block, width, ctx, stack, columns) : layoutTable(block, width, ctx, stack));
        continue;
      }
      // A floating object is laid out at its own size, whatever the width of the text around it; a frame or a
      // floating table without one (0) takes its content's.
      const shrink = !(float.width > 0) && isFrame(block);
      const lists = shrink ? ctx.lists.snapshot() : undefined;
      // Its picture may be as large as the float says (a page-sized background reaches into the margins), not only
      // as large as the text area; never past the largest page a PDF has.
      const floatCtx = { ...outOfBody(ctx, float.withAnchor === true), maxImage: { width: Math.max(ctx.maxImage.width, Math.min(float.width > 0 ? float.width : 0, MAX_PAGE)), height: Math.max(ctx.maxImage.height, Math.min(float.height > 0 ? float.height : 0, MAX_PAGE)) } };
      let laid = layoutTable(block, float.width > 0 ? float.width : width, floatCtx, stack);
      if (shrink && lists) {
        const natural = contentWidth(laid);
        if (natural > 0 && natural < width - 0.5) {
          // Laid out again at that width: list numbers counted once.
          ctx.lists.restore(lists);
          laid = layoutTable({ ...block, columns: [natural], style: { ...block.style, width: natural } }, natural, floatCtx, stack);
        }
      }
      const height = laid.heights.reduce((a, h) => a + h, 0);
      // A line's box is where it is drawn, from corner to corner: a horizontal one is 0 high, a vertical one 0
      // wide, whatever its (empty) content measures (sablon__cv_sample's rules under its headings).
      const line = typeof float.shape === 'object' && float.shape?.geometry === 'line';
      laid.float = {
        ...float,
        width: float.width > 0 || (line && float.width === 0) ? float.width : laid.width,
        height: line && float.height === 0 ? 0 : float.height > 0 ? Math.max(float.height, block.rows[0]?.heightRule === 'exact' ? 0 : height) : height,
      };
      out.push(laid);
    }
  }
  return out;
}

/**
 * The context of a drawing object's text (a text box, a shape's text): it is not body text, so the section's
 * document grid does not snap its lines (LibreOffice's SwTextSizeInfo snaps only frames IsInDocBody; docling__textbox's
 * 12 pt text boxes on an 18 pt grid). Frames and floating tables (`withAnchor`) keep it: they are body paragraphs and
 * tables placed elsewhere in Word's model (LibreOffice makes them fly frames too; which is right there is not settled).
 */
export function outOfBody(ctx: LayoutContext, bodyText = false): LayoutContext {
  if (bodyText || ctx.linePitch === undefined) return ctx;
  const copy = { ...ctx };
  delete copy.linePitch;
  return copy;
}

/**
 * A body table in newspaper columns of different widths (laid out at the narrowest, `width`): laid out again at each
 * wider column's width too (LaidTable.inColumn), so that in a wide column it is as wide as its own width or grid
 * says, held to that column's width. List numbers in it are counted once (the counters restored before each).
 */
function tableInColumns(block: Table, width: number, ctx: LayoutContext, stack: Parameters<typeof layoutTable>[3], columns: readonly number[]): LaidTable {
  if (!columns.some((w) => w > width + 0.5)) return layoutTable(block, width, ctx, stack);
  const before = ctx.lists.snapshot();
  const laid = layoutTable(block, width, ctx, stack);
  const byWidth = new Map<number, LaidTable>();
  laid.inColumn = columns.map((w) => {
    if (!(w > width + 0.5)) return laid;
    let t = byWidth.get(w);
    if (!t) {
      ctx.lists.restore(before);
      t = layoutTable(block, w, { ...ctx, maxImage: { ...ctx.maxImage, width: w } }, stack);
      byWidth.set(w, t);
    }
    return t;
  });
  return laid;
}

/** A page break; one that starts its paragraph keeps the height of the empty line it sits on (model `lead`). */
function pageBreak(block: PageBreak, width: number, ctx: LayoutContext): LaidPageBreak {
  const lead = block.lead;
  if (!lead || typeof lead !== 'object' || lead.type !== 'paragraph') return { kind: 'pageBreak' };
  const laid = layoutParagraph(lead, width, ctx);
  return { kind: 'pageBreak', room: laid.spaceBefore + (laid.lines[0]?.height ?? 0) };
}

/** A one-cell float without its own width: a frame (docx/frames.ts), sized to its text. */
function isFrame(table: Table): boolean {
  return table.rows?.length === 1 && table.rows[0]?.cells?.length === 1 && table.columns?.length === 1;
}

/**
 * The width a one-cell float's content takes: its widest line (first to last item, so alignment does not count),
 * paragraph indents and cell padding included. Nested tables count at their laid width.
 */
function contentWidth(t: LaidTable): number {
  const cell = t.rows[0]?.cells[0];
  if (!cell) return 0;
  let widest = 0;
  for (const b of cell.blocks) {
    if (b.kind === 'table') widest = Math.max(widest, b.x + b.width);
    if (b.kind !== 'paragraph') continue;
    for (const line of b.lines) {
      const items = line.items.filter((i) => !(i.kind === 'text' && i.space));
      if (items.length === 0) continue;
      const start = Math.min(...items.map((i) => i.x));
      const end = Math.max(...items.map((i) => i.x + i.width));
      const indents = (b.source.style?.indentLeft ?? 0) + (b.source.style?.indentRight ?? 0);
      widest = Math.max(widest, end - start + Math.max(0, indents));
    }
  }
  // A hair more than measured, so that the same line does not wrap when laid out at this width.
  return widest > 0 ? widest + cell.padding.left + cell.padding.right + 0.5 : 0;
}

/** Height of a paragraph laid out in a stack (no page breaks). */
export function paragraphHeight(p: LaidParagraph): number {
  let h = p.spaceBefore + p.spaceAfter;
  for (const line of p.lines) h += line.height;
  return h;
}

export function blockHeight(b: LaidBlock): number {
  if (b.kind === 'paragraph') return paragraphHeight(b);
  // A floating object takes no room in the stack it is anchored in.
  if (b.kind === 'table') return b.float ? 0 : b.heights.reduce((a, h) => a + h, 0);
  return 0;
}

/** Lays out blocks that are drawn in one piece (cells, headers, footers): page breaks are ignored. */
export function layoutStack(blocks: unknown, width: number, ctx: LayoutContext, depth = 0): { blocks: LaidBlock[]; height: number } {
  const laid = layoutBlocks(blocks, width, ctx, depth).filter((b) => b.kind !== 'pageBreak');
  let height = 0;
  for (const b of laid) height += blockHeight(b);
  return { blocks: laid, height };
}
