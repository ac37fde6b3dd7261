/**
 * Step 1 of compiling one part (body, a header, a footer): walk its blocks in reading order (into table cells,
 * nested tables included), number the paragraphs, join each paragraph's runs into one string so tags split
 * across runs (as Word splits them) are found, and parse every tag.
 */
import type { Block, Delimiters, Paragraph, Table, TemplateError } from '../model/types.js';
import { scanTags } from './scan.js';
import { parseTag, type ParsedTag } from './parse-tag.js';

/** Stands for a non-text run (an image, a page number) in a paragraph's joined text. */
export const ATOM = '\uFFFC';

export interface TableInfo {
  table: Table;
  /** Where the table itself sits. */
  container: Container;
}

export interface Container {
  kind: 'root' | 'cell';
  /** Usable width in points (for default image sizes). */
  width: number;
  items: Item[];
  /** For cells: the table, the row and cell indexes. */
  table?: TableInfo;
  row?: number;
  col?: number;
}

export type Item =
  | { kind: 'para'; info: ParaInfo }
  | { kind: 'table'; info: TableInfo; rows: Container[][] }
  | { kind: 'other'; block: Block };

export interface TextTok {
  kind: 'text';
  start: number;
  end: number;
  blank: boolean;
}

export interface TagTok {
  kind: 'tag';
  start: number;
  end: number;
  raw: string;
  /** Offset of the tag's first character after the open delimiter and any spaces (its style comes from there). */
  nameAt: number;
  tag: ParsedTag;
  para: ParaInfo;
  /** Position in the part's reading order. */
  order: number;
  partner?: TagTok;
  /** How a section's open and close tags relate (set on both): one paragraph, several paragraphs, table rows. */
  pair?: 'inline' | 'block' | 'rows';
}

export type Tok = TextTok | TagTok;

export interface ParaInfo {
  /** 1-based number within the part, in reading order. */
  num: number;
  para: Paragraph;
  container: Container;
  text: string;
  /** Offset in `text` where each run starts (plus a final entry = text length). */
  runStarts: number[];
  toks: Tok[];
}

export interface PartAnalysis {
  root: Container;
  paragraphs: ParaInfo[];
  /** Every open/close section tag of the part in reading order. */
  sectionTags: TagTok[];
}

export interface AnalyzeContext {
  part: string;
  delimiters: Delimiters;
  errors: TemplateError[];
}

const DEFAULT_CELL_PADDING = 5;

export function analyzePart(blocks: Block[], width: number, ctx: AnalyzeContext): PartAnalysis {
  const state: PartAnalysis = { root: { kind: 'root', width, items: [] }, paragraphs: [], sectionTags: [] };
  walk(blocks, state.root, state, ctx);
  return state;
}

function walk(blocks: Block[], container: Container, state: PartAnalysis, ctx: AnalyzeContext): void {
  for (const block of blocks) {
    if (block.type === 'paragraph') {
      container.items.push({ kind: 'para', info: analyzeParagraph(block, container, state, ctx) });
    } else if (block.type === 'table') {
      const info: TableInfo = { table: block, container };
      const widths = columnWidths(block, container.width);
      const padding = 2 * (block.style?.cellPadding ?? DEFAULT_CELL_PADDING);
      const rows: Container[][] = [];
      block.rows.forEach((row, r) => {
        const cells: Container[] = [];
        let col = 0;
        row.cells.forEach((cell, c) => {
          const span = Math.max(1, cell.colSpan ?? 1);
          let cellWidth = 0;
          for (let i = col; i < col + span && i < widths.length; i++) cellWidth += widths[i];
          col += span;
          const cellContainer: Container = {
            kind: 'cell',
            width: Math.max(1, (cellWidth || container.width) - padding),
            items: [],
            table: info,
            row: r,
            col: c,
          };
          walk(cell.blocks, cellContainer, state, ctx);
          cells.push(cellContainer);
        });
        rows.push(cells);
      });
      container.items.push({ kind: 'table', info, rows });
    } else {
      container.items.push({ kind: 'other', block });
    }
  }
}

/** Column widths as the renderer will lay them out: scaled down to the available width when they do not fit. */
function columnWidths(table: Table, available: number): number[] {
  const total = table.columns.reduce((sum, w) => sum + (w > 0 ? w : 0), 0);
  if (total <= 0) return table.columns.map(() => available / Math.max(1, table.columns.length));
  const scale = total > available ? available / total : 1;
  return table.columns.map((w) => (w > 0 ? w : 0) * scale);
}

function analyzeParagraph(para: Paragraph, container: Container, state: PartAnalysis, ctx: AnalyzeContext): ParaInfo {
  const runStarts: number[] = [];
  let text = '';
  for (const run of para.runs) {
    runStarts.push(text.length);
    text += run.type === 'text' ? run.text : ATOM;
  }
  runStarts.push(text.length);
  const info: ParaInfo = { num: state.paragraphs.length + 1, para, container, text, runStarts, toks: [] };
  state.paragraphs.push(info);
  const { pieces, problems } = scanTags(text, ctx.delimiters);
  for (const problem of problems) {
    ctx.errors.push({ code: problem.code, message: problem.message, location: { part: ctx.part, paragraph: info.num, tag: problem.tag } });
  }
  for (const piece of pieces) {
    if (piece.kind === 'text') {
      info.toks.push({ kind: 'text', start: piece.start, end: piece.end, blank: text.slice(piece.start, piece.end).trim() === '' });
      continue;
    }
    const parsed = parseTag(piece.inner, piece.raw);
    if (!parsed.ok) {
      ctx.errors.push({ code: parsed.problem.code, message: parsed.problem.message, location: { part: ctx.part, paragraph: info.num, tag: piece.raw } });
      if (!parsed.fallback) continue;
    }
    const tag = parsed.ok ? parsed.tag : (parsed.fallback as ParsedTag);
    const leading = piece.inner.length - piece.inner.trimStart().length;
    const nameAt = Math.min(piece.start + ctx.delimiters[0].length + leading, piece.end - 1);
    const tok: TagTok = { kind: 'tag', start: piece.start, end: piece.end, raw: piece.raw, nameAt, tag, para: info, order: -1 };
    info.toks.push(tok);
    if (tag.type === 'open' || tag.type === 'close') {
      tok.order = state.sectionTags.length;
      state.sectionTags.push(tok);
    }
  }
  return info;
}

/** Tokens that matter for structure: tags other than comments, and text that is not just white space. */
export function significant(info: ParaInfo): Tok[] {
  return info.toks.filter((t) => (t.kind === 'text' ? !t.blank : t.tag.type !== 'comment'));
}
