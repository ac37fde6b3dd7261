/**
 * Step 1 of compiling one part (body, a header, a footer): walk its blocks in reading order (into table cells,
 * nested tables included), number the paragraphs, join each paragraph's runs into one string so tags split
 * across runs (as Word splits them) are found, and parse every tag.
 *
 * A tag broken over paragraphs (`{` ¶ `last_name}`: Enter pressed inside a tag) is read as one tag, as
 * docxtemplater reads it: the paragraphs it spans become one paragraph (the first one's style), numbered as the
 * first one.
 */
import type { Block, Delimiters, Paragraph, Table, TemplateError } from '../model/types.js';
import { scanTags, type ScanResult } from './scan.js';
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
  /** Source paragraphs numbered so far (joined paragraphs count each of theirs, so later numbers stay true). */
  numbered: number;
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
  const state: PartAnalysis = { root: { kind: 'root', width, items: [] }, paragraphs: [], numbered: 0, sectionTags: [] };
  walk(blocks, state.root, state, ctx);
  return state;
}

function walk(blocks: Block[], container: Container, state: PartAnalysis, ctx: AnalyzeContext): void {
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i];
    if (block.type === 'paragraph') {
      const joined = joinSplitTag(blocks, i, ctx.delimiters);
      container.items.push({ kind: 'para', info: analyzeParagraph(joined.para, container, state, ctx, joined.last - i + 1, joined.scan) });
      i = joined.last;
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

function paragraphText(para: Paragraph): string {
  let text = '';
  for (const run of para.runs) text += run.type === 'text' ? run.text : ATOM;
  return text;
}

/** The longest tag read across paragraphs; beyond it an open delimiter is reported as never closed. */
const MAX_SPLIT_TAG = 200;

/**
 * When the paragraph at `i` ends inside a tag and a following paragraph of the same block list closes it before
 * opening another, those paragraphs are one paragraph for the tags. Otherwise the paragraph stays as it is (and
 * its open delimiter is reported as never closed).
 */
function joinSplitTag(blocks: Block[], i: number, delimiters: Delimiters): { para: Paragraph; last: number; scan?: ScanResult } {
  const first = blocks[i] as Paragraph;
  let text = paragraphText(first);
  const firstScan = scanTags(text, delimiters);
  let unclosedAt = firstScan.unclosedAt;
  // The paragraph's own scan is handed on, so a long paragraph is scanned once, not twice.
  if (unclosedAt < 0) return { para: first, last: i, scan: firstScan };
  const [open, close] = delimiters;
  const parts: Paragraph[] = [first];
  let last = i;
  let pending = '';
  for (let j = i + 1; j < blocks.length; j++) {
    const next = blocks[j];
    if (next.type !== 'paragraph') break;
    const nextText = paragraphText(next);
    const c = nextText.indexOf(close);
    const o = nextText.indexOf(open);
    const spanned = text.length - unclosedAt + pending.length + (c < 0 ? nextText.length : c);
    if (spanned > MAX_SPLIT_TAG) break;
    if (c < 0 && o < 0) {
      pending += nextText;
      continue;
    }
    if (c < 0 || (o >= 0 && o < c)) break;
    for (let k = last + 1; k <= j; k++) parts.push(blocks[k] as Paragraph);
    last = j;
    text += pending + nextText;
    pending = '';
    // The joined text may end inside another split tag (`{` ¶ `a} {` ¶ `b}`).
    unclosedAt = scanTags(text, delimiters).unclosedAt;
    if (unclosedAt < 0) break;
  }
  if (last === i) return { para: first, last: i, scan: firstScan };
  return { para: { ...first, runs: parts.flatMap((p) => p.runs) }, last };
}

function analyzeParagraph(para: Paragraph, container: Container, state: PartAnalysis, ctx: AnalyzeContext, spans: number, scanned?: ScanResult): ParaInfo {
  const runStarts: number[] = [];
  let text = '';
  for (const run of para.runs) {
    runStarts.push(text.length);
    text += run.type === 'text' ? run.text : ATOM;
  }
  runStarts.push(text.length);
  const info: ParaInfo = { num: state.numbered + 1, para, container, text, runStarts, toks: [] };
  state.numbered += spans;
  state.paragraphs.push(info);
  const { pieces, problems } = scanned ?? scanTags(text, ctx.delimiters);
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
      const location: TemplateError['location'] = { part: ctx.part, paragraph: info.num, tag: piece.raw, offset: piece.start };
      if (parsed.problem.column !== undefined) location.column = ctx.delimiters[0].length + parsed.problem.column + 1;
      ctx.errors.push({ code: parsed.problem.code, message: parsed.problem.message, location });
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
