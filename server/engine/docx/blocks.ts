/**
 * Block-level content of a body, header, footer, table cell or text box: paragraphs and tables, with content
 * controls (w:sdt), custom XML and tracked insertions unwrapped, and mc:AlternateContent resolved. Tracked
 * deletions, bookmarks, comments' ranges are skipped; anything else unknown is skipped with a warning.
 */
import { isBlock, type DocContext, type Item, type PartContext } from './context.js';
import { applyNeighbourRules } from './neighbours.js';
import { chooseAlternate } from './alternate.js';
import { isNestedBlock, readParagraph } from './paragraph.js';
import type { TableLayer } from './styles.js';
import { readTable } from './table.js';
import { dropped } from './warnings.js';
import { child, type XElement } from './xml.js';

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
        const out: Item[] = [];
        walk(ctx, container, table, out);
        applyNeighbourRules(out.filter(isBlock), { cell: container.name === 'w:tc', body: container.name === 'w:body' });
        return out;
      } finally {
        depth--;
      }
    },
  };
  return ctx;
}

function walk(ctx: PartContext, container: XElement, table: TableLayer | undefined, out: Item[]): void {
  for (const node of container.children) {
    if (typeof node === 'string') continue;
    switch (node.name) {
      case 'w:p':
        for (const item of readParagraph(ctx, node, table)) out.push(item);
        // Blocks nested in a paragraph (not valid WordprocessingML, but written by some tools and filled by
        // docxtemplater): Word shows them after the paragraph, and so does docloom, so the PDF and the filled .docx
        // agree. paragraph.ts passes over them.
        if (node.children.some(isNestedBlock)) walk(ctx, { ...node, children: node.children.filter(isNestedBlock) }, table, out);
        break;
      case 'w:tbl':
        out.push(readTable(ctx, node));
        break;
      case 'w:sdt':
        walk(ctx, child(node, 'w:sdtContent') ?? node, table, out);
        break;
      case 'w:customXml':
      case 'w:ins':
      case 'w:moveTo':
        walk(ctx, node, table, out);
        break;
      case 'mc:AlternateContent': {
        const chosen = chooseAlternate(node);
        if (chosen) walk(ctx, chosen, table, out);
        break;
      }
      case 'w:sectPr':
        out.push({ type: 'sectionEnd', sectPr: node });
        break;
      default:
        dropped(ctx.doc.warnings, ctx.part, node);
        break;
    }
  }
}
