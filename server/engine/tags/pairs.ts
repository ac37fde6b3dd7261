/**
 * Step 2: match every section's open tag with its close tag across the part, decide which structure rule
 * each section follows (CONTRACT.md §5) and report everything that does not fit:
 *   inline — both tags in one paragraph (the paragraph or the text between them repeats);
 *   block  — open and close tags in paragraphs of their own, in the same body or cell (the blocks between repeat);
 *   rows   — tags in different cells of one table (the rows from the open tag's row to the close tag's row repeat).
 */
import type { TemplateError } from '../model/types.js';
import { significant, type Container, type ParaInfo, type PartAnalysis, type TableInfo, type TagTok } from './analyze.js';

function nameOf(tok: TagTok): string {
  return tok.tag.type === 'open' || tok.tag.type === 'close' ? tok.tag.ref.name : '';
}

export function matchSections(analysis: PartAnalysis, part: string, errors: TemplateError[]): void {
  const report = (tok: TagTok, code: string, message: string): void => {
    errors.push({ code, message, location: { part, paragraph: tok.para.num, tag: tok.raw } });
  };
  const stack: TagTok[] = [];
  const pairs: Array<[TagTok, TagTok]> = [];
  for (const tok of analysis.sectionTags) {
    if (tok.tag.type === 'open') {
      stack.push(tok);
      continue;
    }
    const name = nameOf(tok);
    if (stack.length === 0) {
      report(tok, 'unopened_section', `The closing tag ${tok.raw} has no opening tag before it.`);
      continue;
    }
    const top = stack[stack.length - 1];
    if (nameOf(top) === name) {
      stack.pop();
      pairs.push([top, tok]);
      continue;
    }
    const deeper = stack.findLastIndex((open) => nameOf(open) === name);
    if (deeper < 0) {
      // Most likely a typo in the closing tag: let it close the innermost section so one mistake is one error.
      stack.pop();
      report(tok, 'mismatched_section', `The section ${top.raw} is closed by ${tok.raw}; the names must match.`);
      continue;
    }
    // Sections opened inside the one being closed were never closed themselves.
    const unclosed = stack.splice(deeper + 1);
    for (const open of unclosed) {
      report(open, 'mismatched_section', `The section ${open.raw} must be closed before ${tok.raw}.`);
    }
    pairs.push([stack.pop() as TagTok, tok]);
  }
  for (const open of stack) report(open, 'unclosed_section', `The section ${open.raw} is never closed.`);

  for (const [open, close] of pairs) classify(open, close, report);
  for (const [open, close] of pairs) {
    if (open.pair === 'inline' || open.pair === 'block') promoteSingleCellRow(open, close);
  }
  for (const [open, close] of pairs) {
    if (open.pair !== 'block') continue;
    for (const tok of [open, close]) {
      if (!isControlParagraph(tok.para)) {
        report(
          tok,
          'section_spans_paragraphs',
          `The section ${open.raw} starts and ends in different paragraphs, so ${open.raw} and ${close.raw} must each stand alone in a paragraph of their own.`,
        );
      }
    }
  }
  checkRowOverlaps(pairs, report);
}

function classify(open: TagTok, close: TagTok, report: (tok: TagTok, code: string, message: string) => void): void {
  open.partner = close;
  close.partner = open;
  const a = open.para.container;
  const b = close.para.container;
  let kind: TagTok['pair'];
  if (open.para === close.para) kind = 'inline';
  else if (a === b) kind = 'block';
  else if (a.kind === 'cell' && b.kind === 'cell' && a.table === b.table) kind = 'rows';
  if (kind) {
    open.pair = kind;
    close.pair = kind;
    return;
  }
  const closeInOpenTable = a.kind === 'cell' && insideTable(b, a.table);
  const openInCloseTable = b.kind === 'cell' && insideTable(a, b.table);
  let message: string;
  if (a.kind === 'cell' && !closeInOpenTable && (b.kind !== 'cell' || openInCloseTable)) {
    message = `The section ${open.raw} is opened in a table cell and closed by ${close.raw} outside that table; open and close it in the same table, or both outside it.`;
  } else if (b.kind === 'cell' && !openInCloseTable && (a.kind !== 'cell' || closeInOpenTable)) {
    message = `The section ${open.raw} is opened outside a table and closed by ${close.raw} inside one of its cells; open and close it both inside or both outside the table.`;
  } else {
    message = `The section ${open.raw} is opened in one table and closed by ${close.raw} in another; open and close it in the same table.`;
  }
  report(open, 'section_crosses_table', message);
}

/** True when `container` is a cell of `table`, or sits (through nested tables) inside one. */
function insideTable(container: Container, table: TableInfo | undefined): boolean {
  let current: Container | undefined = container;
  while (current) {
    if (current.table === table) return true;
    current = current.table?.container;
  }
  return false;
}

/**
 * A row with a single cell cannot hold the open and close tags in different cells, so a section that takes the
 * whole of such a cell (open tag first, close tag last) repeats the row: this is how one-column tables loop.
 */
function promoteSingleCellRow(open: TagTok, close: TagTok): void {
  const cell = open.para.container;
  if (cell.kind !== 'cell' || close.para.container !== cell || !cell.table) return;
  const row = cell.table.table.rows[cell.row ?? 0];
  if (row.cells.length !== 1) return;
  const first = cell.items[0];
  const last = cell.items[cell.items.length - 1];
  if (first?.kind !== 'para' || last?.kind !== 'para') return;
  const firstToks = significant(first.info).filter((t) => t.kind === 'text' || t.pair !== 'rows');
  const lastToks = significant(last.info).filter((t) => t.kind === 'text' || t.pair !== 'rows');
  if (firstToks[0] !== open || lastToks[lastToks.length - 1] !== close) return;
  open.pair = 'rows';
  close.pair = 'rows';
}

/** A paragraph that holds only section tags whose partners are in other paragraphs: it marks structure only. */
export function isControlParagraph(info: ParaInfo): boolean {
  const toks = significant(info);
  return toks.length > 0 && toks.every((t) => t.kind === 'tag' && (t.pair === 'block' || t.pair === 'rows'));
}

/** Two table loops may nest but not share a row without one holding the other. */
function checkRowOverlaps(pairs: Array<[TagTok, TagTok]>, report: (tok: TagTok, code: string, message: string) => void): void {
  const rows = pairs.filter(([open]) => open.pair === 'rows');
  for (let i = 0; i < rows.length; i++) {
    for (let j = i + 1; j < rows.length; j++) {
      const [o1, c1] = rows[i];
      const [o2, c2] = rows[j];
      if (o1.para.container.table !== o2.para.container.table) continue;
      const nested = (o1.order < o2.order && c2.order < c1.order) || (o2.order < o1.order && c1.order < c2.order);
      if (nested) continue;
      const [first, second] = o1.order < o2.order ? [rows[i], rows[j]] : [rows[j], rows[i]];
      const firstEnd = first[1].para.container.row ?? 0;
      const secondStart = second[0].para.container.row ?? 0;
      if (firstEnd >= secondStart) {
        report(
          second[0],
          'overlapping_table_sections',
          `The table sections ${first[0].raw} and ${second[0].raw} share table row ${secondStart + 1}; start ${second[0].raw} in a later row.`,
        );
      }
    }
  }
}
