/** Helpers to read a TemplateModel in tests: paragraphs' text, blocks of a kind. */
import type { Block, Paragraph, Table, TemplateModel } from '../../server/engine/model/types.js';

export function paragraphText(p: Paragraph): string {
  return p.runs.map((r) => (r.type === 'text' ? r.text : r.type === 'field' ? `<${r.field}>` : '<image>')).join('');
}

/** Every paragraph of a block list, depth first (table cells included). */
export function paragraphs(blocks: Block[] | undefined, out: Paragraph[] = []): Paragraph[] {
  for (const b of blocks ?? []) {
    if (b.type === 'paragraph') out.push(b);
    else if (b.type === 'table') for (const row of b.rows) for (const cell of row.cells) paragraphs(cell.blocks, out);
  }
  return out;
}

export function texts(blocks: Block[] | undefined): string[] {
  return paragraphs(blocks).map(paragraphText);
}

export function bodyTexts(model: TemplateModel, section = 0): string[] {
  return texts(model.sections[section].body).filter((t) => t !== '');
}

export function tables(blocks: Block[]): Table[] {
  return blocks.filter((b): b is Table => b.type === 'table');
}

export function findParagraph(model: TemplateModel, needle: string): Paragraph {
  for (const section of model.sections) {
    for (const p of paragraphs(section.body)) if (paragraphText(p).includes(needle)) return p;
  }
  throw new Error(`no paragraph contains "${needle}"`);
}
