/**
 * Step 2: match every section's open tag with its close tag across the part, decide which structure rule
 * each section follows (CONTRACT.md §5, docs/templates.md) and report everything that does not fit:
 *   inline — both tags in one paragraph (the paragraph or the text between them repeats);
 *   block  — the tags in different paragraphs of the same body or cell: what lies between them repeats, paragraph
 *            boundaries included (whole blocks when each tag stands alone in its paragraph);
 *   rows   — tags in different cells of one table (the rows from the open tag's row to the close tag's row repeat).
 * `{{/}}` closes the innermost open section, whatever its name.
 */
import type { TemplateError } from '../model/types.js';
import type { ErrorCode } from '../../errors/catalogue.js';
import { significant, type Container, type ParaInfo, type PartAnalysis, type TableInfo, type TagTok } from './analyze.js';

/** The name a close tag must repeat; spaces in an expression do not count (`{{#a > 0}}` … `{{/a>0}}`). */
function nameOf(tok: TagTok): string {
  if (tok.tag.type !== 'open' && tok.tag.type !== 'close') return '';
  const { ref } = tok.tag;
  return ref.expr ? ref.name.replace(/\s+/g, '') : ref.name;
}

type Report = (tok: TagTok, code: ErrorCode, message: string) => void;

/**
 * Sections may nest this deep within one part (docs/templates.md). Everything after compiling (fields, binding,
 * rendering) walks sections by depth, so a deeper template is refused here, not left to exhaust a stack later.
 */
export const MAX_SECTION_DEPTH = 100;

export function matchSections(analysis: PartAnalysis, part: string, errors: TemplateError[]): void {
  const report: Report = (tok, code, message) => {
    errors.push({ code, message, location: { part, paragraph: tok.para.num, tag: tok.raw } });
  };
  const stack: TagTok[] = [];
  const pairs: Array<[TagTok, TagTok]> = [];
  let tooDeep = false;
  for (const tok of analysis.sectionTags) {
    if (tok.tag.type === 'open') {
      stack.push(tok);
      if (stack.length > MAX_SECTION_DEPTH && !tooDeep) {
        // One error for the part: the sections inside the deepest allowed one are all too deep.
        tooDeep = true;
        report(tok, 'sections_too_deep', `The section ${tok.raw} is nested ${stack.length} levels deep; sections may be nested at most ${MAX_SECTION_DEPTH} levels deep.`);
      }
      continue;
    }
    const name = nameOf(tok);
    if (stack.length === 0) {
      report(tok, 'unopened_section', `The closing tag ${tok.raw} has no opening tag before it.`);
      continue;
    }
    const top = stack[stack.length - 1];
    if (nameOf(top) === name || (tok.tag.type === 'close' && tok.tag.innermost)) {
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
  checkRowOverlaps(pairs, report);
  checkRowLoopNeighbours(pairs, report);
}

function classify(open: TagTok, close: TagTok, report: Report): void {
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
function checkRowOverlaps(pairs: Array<[TagTok, TagTok]>, report: Report): void {
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

/** The row of `table` that `tok` sits in (directly in one of its cells, or in a table nested in one), if any. */
function rowIn(tok: TagTok, table: TableInfo | undefined): number | undefined {
  let current: Container | undefined = tok.para.container;
  while (current) {
    if (current.kind === 'cell' && current.table === table) return current.row;
    current = current.table?.container;
  }
  return undefined;
}

/**
 * A table loop repeats its rows whole, so a section written in those rows but outside the loop's tags (`{{#a}}x`
 * | `{{/a}}{{#b}}y{{/b}}`) would be repeated by a loop it is not part of: docxtemplater refuses this as an
 * unbalanced loop, and so do we (one error per such section, at its opening tag). Plain variables there are fine:
 * they repeat with the row.
 */
function checkRowLoopNeighbours(pairs: Array<[TagTok, TagTok]>, report: Report): void {
  const reported = new Set<TagTok>();
  for (const [open, close] of pairs) {
    if (open.pair !== 'rows') continue;
    const table = open.para.container.table;
    const first = open.para.container.row ?? 0;
    const last = close.para.container.row ?? 0;
    for (const [other, otherClose] of pairs) {
      if (other === open || reported.has(other)) continue;
      const inside = other.order > open.order && otherClose.order < close.order;
      const around = other.order < open.order && otherClose.order > close.order;
      if (inside || around) continue;
      // Two table loops of one table sharing a row are reported by checkRowOverlaps.
      if (other.pair === 'rows' && other.para.container.table === table) continue;
      const row = [rowIn(other, table), rowIn(otherClose, table)].find((r) => r !== undefined && r >= first && r <= last);
      if (row === undefined) continue;
      reported.add(other);
      report(
        other,
        'overlapping_table_sections',
        `The section ${other.raw} is in table row ${row + 1}, which the table section ${open.raw} repeats, but it is written outside ${open.raw}…${close.raw}; move it inside that section or into another row.`,
      );
    }
  }
}
