/**
 * Reads a WordprocessingML part (document body, header, footer) into the template model the tag compiler takes
 * (tags/compile.ts), keeping with every piece the XML it came from, so the filled .docx is written back from the
 * compiled and bound result (fill-write.ts) with nothing decided here but what XML each piece is:
 *
 * - a paragraph's runs become text runs (w:t, with w:tab as a tab and w:br/w:cr as a line break) whose style
 *   carries the run's w:rPr and the wrappers it sits in (hyperlinks, content controls, tracked insertions,
 *   simple fields): runs of the same wrapper are put back into one wrapper when written;
 * - everything else in a run (pictures, field characters, symbols, note references, page breaks) and in a
 *   paragraph (math, objects, deletions) is one atom, written back as it was;
 * - proofing marks, bookmarks, comment ranges and w:lastRenderedPageBreak show nothing and may sit in the middle
 *   of a tag (`{{na<w:proofErr/>me}}`): in a paragraph that is rewritten they are left out;
 * - paragraphs, tables and rows that hold no tag come back from binding as the very same objects: `verbatim` maps
 *   them to their XML, which is copied unchanged;
 * - a paragraph carrying a section break (w:sectPr in its w:pPr) keeps an atom, so it is never read as a
 *   paragraph of section tags only (which would vanish with the break): the break repeats with a loop around it;
 * - content controls around rows or cells are read through, and left out where a row is rewritten.
 */
import type { Block, Inline, Paragraph, ParagraphStyle, RunStyle, Table, TableCell, TableRow } from '../model/types.js';
import { innerText, rawAttr, rawChild, rawOf, type RawElement } from './fill-xml.js';

/** A run's w:rPr and the wrappers (ids into `wrappers`) around it, outermost first. */
export interface XmlRunStyle extends RunStyle {
  rPr?: string;
  wraps?: number[];
}

export interface XmlParagraphStyle extends ParagraphStyle {
  pPr: string;
}

/** XML kept whole: an atom in a paragraph, or a block that is no paragraph or table. */
export interface XmlAtom {
  type: 'xml';
  xml: string;
  wraps?: number[];
}

export interface XmlTableStyle {
  /** Everything of the w:tbl before its rows (w:tblPr, w:tblGrid…). */
  tblPre: string;
}

export interface XmlRowProps {
  trPre: string;
}

export interface XmlCellProps {
  tcPr: string;
}

/**
 * The two paragraph vocabularies a .docx holds: WordprocessingML (w:p/w:r/w:t: body, headers, footers, text
 * boxes) and DrawingML (a:p/a:r/a:t: SmartArt labels, where a line break is a:br between runs).
 */
export type Dialect = 'w' | 'a';

export interface SourcePart {
  dialect: Dialect;
  open: string;
  blocks: Block[];
  /** Source objects → their XML, for those binding hands back unchanged. */
  verbatim: Map<object, string>;
  /** Wrapper id → its opening and closing XML. */
  wrappers: Array<[string, string]>;
}

const INVISIBLE = new Set(['w:proofErr', 'w:bookmarkStart', 'w:bookmarkEnd', 'w:commentRangeStart', 'w:commentRangeEnd', 'w:permStart', 'w:permEnd', 'w:lastRenderedPageBreak', 'w:noProof']);
const WRAPPERS = new Set(['w:hyperlink', 'w:smartTag', 'w:ins', 'w:customXml', 'w:fldSimple', 'w:moveTo', 'w:dir', 'w:bdo']);

/**
 * `container`'s children as blocks; `open` is the template's opening delimiter: a content control around
 * paragraphs that holds one is read through (its content takes part in the tags, a loop may span it, and the
 * control itself is left out); one without is kept whole.
 */
export function readPart(xml: string, container: RawElement, open: string, dialect: Dialect = 'w', skip?: RawElement): SourcePart {
  const part: SourcePart = { dialect, open, blocks: [], verbatim: new Map(), wrappers: [] };
  part.blocks = readBlocks(xml, container.children.filter((c) => c !== skip), part);
  return part;
}

function readBlocks(xml: string, elements: RawElement[], part: SourcePart): Block[] {
  const out: Block[] = [];
  const p = `${part.dialect}:p`;
  for (const el of elements) {
    if (el.name === p) {
      // A paragraph holding paragraphs or tables (not valid, but written by some tools, and read by Word): its own
      // content first, then the blocks it holds, one after the other.
      const nested = el.children.filter((c) => c.name === p || c.name === 'w:tbl' || ((c.name === 'w:sdt' || c.name === 'w:customXml') && holdsBlocks(c)));
      if (nested.length === 0) out.push(readParagraph(xml, el, part));
      else out.push(readParagraph(xml, el, part, el.children.filter((c) => !nested.includes(c))), ...readBlocks(xml, nested, part));
    }
    else if (el.name === 'w:tbl') out.push(readTable(xml, el, part));
    else if ((el.name === 'w:sdt' || el.name === 'w:customXml') && holdsBlocks(el) && holdsTag(xml, el, part)) {
      const content = el.name === 'w:sdt' ? rawChild(el, 'w:sdtContent') : el;
      out.push(...readBlocks(xml, content?.children ?? [], part));
    } else out.push(atomBlock(xml, el, part));
  }
  return out;
}

/** Does the element's text (tags split over runs included) hold the opening delimiter? */
export function holdsTag(xml: string, el: RawElement, part: { open: string }): boolean {
  return visibleText(xml.slice(el.start, el.end)).includes(part.open);
}

export function visibleText(xml: string): string {
  return xml.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}

/** Children of `el`, with those of content controls (`w:sdt`) around `name` elements (rows, cells) read through. */
function through(el: RawElement, name: string): RawElement[] {
  const out: RawElement[] = [];
  for (const c of el.children) {
    const content = c.name === 'w:sdt' ? rawChild(c, 'w:sdtContent') : undefined;
    if (content && content.children.some((x) => x.name === name)) out.push(...through(content, name));
    else out.push(c);
  }
  return out;
}

function holdsBlocks(el: RawElement): boolean {
  const content = el.name === 'w:sdt' ? rawChild(el, 'w:sdtContent') : el;
  return !!content && content.children.some((c) => c.name === 'w:p' || c.name === 'w:tbl');
}

function atomBlock(xml: string, el: RawElement, part: SourcePart): Block {
  const block = { type: 'xml', xml: rawOf(xml, el) } as unknown as Block;
  part.verbatim.set(block, rawOf(xml, el));
  return block;
}

/** `children`: given when the paragraph is read without some of its own (nested blocks): it is then always rewritten. */
function readParagraph(xml: string, el: RawElement, part: SourcePart, children?: RawElement[]): Paragraph {
  const pPr = rawChild(el, `${part.dialect}:pPr`);
  const para: Paragraph = { type: 'paragraph', runs: [] };
  if (pPr) para.style = { pPr: rawOf(xml, pPr) } as XmlParagraphStyle;
  readInline(xml, children ?? el.children, [], para.runs, part);
  if (pPr && xml.slice(pPr.start, pPr.end).includes('<w:sectPr')) para.runs.push({ type: 'xml', xml: '' } as unknown as Inline);
  if (!children) part.verbatim.set(para, rawOf(xml, el));
  return para;
}

function readInline(xml: string, elements: RawElement[], wraps: number[], runs: Inline[], part: SourcePart): void {
  for (const el of elements) {
    const name = el.name;
    if (name === 'w:pPr' || name === 'a:pPr' || INVISIBLE.has(name)) continue;
    if (name === 'w:r' || name === 'a:r') {
      readRun(xml, el, wraps, runs, part);
      continue;
    }
    if (name === 'a:br') {
      // DrawingML's line break sits between runs; it carries the line's run properties.
      const rPr = rawChild(el, 'a:rPr');
      const style: XmlRunStyle | undefined = rPr ? { rPr: rawOf(xml, rPr) } : undefined;
      runs.push(style ? { type: 'text', text: '\n', style } : { type: 'text', text: '\n' });
      continue;
    }
    const content = name === 'w:sdt' ? rawChild(el, 'w:sdtContent') : WRAPPERS.has(name) ? el : undefined;
    if (content && el.openEnd !== el.end) {
      const id = part.wrappers.length;
      part.wrappers.push([xml.slice(el.start, content.openEnd), xml.slice(content.closeStart, el.end)]);
      readInline(xml, content.children, [...wraps, id], runs, part);
      continue;
    }
    runs.push(atom(rawOf(xml, el), wraps));
  }
}

function atom(xml: string, wraps: number[]): Inline {
  const a: XmlAtom = { type: 'xml', xml };
  if (wraps.length > 0) a.wraps = wraps;
  return a as unknown as Inline;
}

function readRun(xml: string, el: RawElement, wraps: number[], runs: Inline[], part: SourcePart): void {
  const dialect = el.name[0];
  const rPrEl = rawChild(el, `${dialect}:rPr`);
  const rPr = rPrEl ? rawOf(xml, rPrEl) : '';
  const style: XmlRunStyle | undefined = rPr || wraps.length > 0 ? { ...(rPr ? { rPr } : {}), ...(wraps.length > 0 ? { wraps } : {}) } : undefined;
  let text = '';
  const flush = (): void => {
    if (text === '') return;
    runs.push(style ? { type: 'text', text, style } : { type: 'text', text });
    text = '';
  };
  for (const child of el.children) {
    switch (child.name) {
      case 'w:rPr':
      case 'a:rPr':
      case 'w:lastRenderedPageBreak':
        break;
      case 'w:t':
      case 'a:t':
        text += innerText(xml, child);
        break;
      case 'w:tab':
        text += '\t';
        break;
      case 'w:cr':
        text += '\n';
        break;
      case 'w:noBreakHyphen':
        text += '\u2011';
        break;
      case 'w:softHyphen':
        text += '\u00ad';
        break;
      default: {
        const kind = child.name === 'w:br' ? rawAttr(xml, child, 'w:type') : 'other';
        if (kind === undefined || kind === 'textWrapping') {
          text += '\n';
          break;
        }
        // Pictures, fields, symbols, note references, a page or column break: kept as they are.
        flush();
        const boxes = part.dialect === 'w' ? inlineTextBoxes(xml, child, part.open) : [];
        if (boxes.length > 0) readTextBoxes(xml, child, boxes, `<${el.name}>${rPr}`, `</${el.name}>`, wraps, runs, part);
        else runs.push(atom(`<${el.name}>${rPr}${rawOf(xml, child)}</${el.name}>`, wraps));
      }
    }
  }
  flush();
}

/**
 * The text boxes (w:txbxContent, the drawing's and its VML fallback's) in `el` that are read as part of the
 * paragraph around them, so their tags are filled in the scope there (a loop's item, as the PDF fills a text box
 * in a loop): those holding a tag and paragraphs only, with no section tag of their own (a section in a text box
 * needs its paragraphs as blocks; such a box is filled on its own, in the data's top scope, by fill.ts).
 */
export function inlineTextBoxes(xml: string, el: RawElement, open: string): RawElement[] {
  const out: RawElement[] = [];
  const find = (e: RawElement): void => {
    for (const c of e.children) {
      if (c.name === 'w:txbxContent') out.push(c);
      else find(c);
    }
  };
  find(el);
  const sectionTag = new RegExp(`${open.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*[#^/]`);
  const inline = (box: RawElement): boolean => {
    const text = visibleText(xml.slice(box.openEnd, box.closeStart));
    return text.includes(open) && !sectionTag.test(text) && box.children.every((c) => c.name === 'w:p');
  };
  return out.length > 0 && out.every(inline) ? out : [];
}

/**
 * A run holding text boxes, as inline pieces of the paragraph around it: the XML up to each box's content and
 * each inner paragraph's opening and closing as atoms, the inner paragraphs' runs as runs. Any stretch of them
 * opens as many paragraphs as it closes, so a loop repeating some of them writes balanced XML.
 */
function readTextBoxes(xml: string, el: RawElement, boxes: RawElement[], runOpen: string, runClose: string, wraps: number[], runs: Inline[], part: SourcePart): void {
  let pending = runOpen;
  let at = el.start;
  for (const box of boxes) {
    pending += xml.slice(at, box.openEnd);
    for (const para of box.children) {
      if (para.openEnd === para.end) {
        pending += rawOf(xml, para); // <w:p/>
        continue;
      }
      const pPr = rawChild(para, 'w:pPr');
      runs.push(atom(pending + xml.slice(para.start, para.openEnd) + (pPr ? rawOf(xml, pPr) : ''), wraps));
      readInline(xml, para.children, wraps, runs, part);
      pending = '</w:p>';
    }
    at = box.closeStart;
  }
  runs.push(atom(pending + xml.slice(at, el.end) + runClose, wraps));
}

function readTable(xml: string, el: RawElement, part: SourcePart): Table {
  let tblPre = '';
  const rows: TableRow[] = [];
  const columns: number[] = [];
  for (const child of through(el, 'w:tr')) {
    if (child.name === 'w:tr') rows.push(readRow(xml, child, part));
    else {
      if (child.name === 'w:tblGrid') {
        for (const col of child.children) if (col.name === 'w:gridCol') columns.push(Number(rawAttr(xml, col, 'w:w') ?? 0) / 20 || 0);
      }
      tblPre += rawOf(xml, child);
    }
  }
  const style: XmlTableStyle = { tblPre };
  const table = { type: 'table', columns, rows, style } as unknown as Table;
  part.verbatim.set(table, rawOf(xml, el));
  return table;
}

function readRow(xml: string, el: RawElement, part: SourcePart): TableRow {
  let trPre = '';
  const cells: TableCell[] = [];
  for (const child of through(el, 'w:tc')) {
    if (child.name === 'w:tc') cells.push(readCell(xml, child, part));
    else trPre += rawOf(xml, child);
  }
  const row = { cells, trPre } as TableRow & XmlRowProps;
  part.verbatim.set(row, rawOf(xml, el));
  return row;
}

function readCell(xml: string, el: RawElement, part: SourcePart): TableCell {
  const tcPrEl = rawChild(el, 'w:tcPr');
  const tcPr = tcPrEl ? rawOf(xml, tcPrEl) : '';
  const span = tcPrEl ? rawChild(tcPrEl, 'w:gridSpan') : undefined;
  const colSpan = span ? Number(rawAttr(xml, span, 'w:val') ?? 1) || 1 : 1;
  const cell = { blocks: readBlocks(xml, el.children.filter((c) => c !== tcPrEl), part), tcPr } as TableCell & XmlCellProps;
  if (colSpan > 1) cell.colSpan = colSpan;
  return cell;
}
