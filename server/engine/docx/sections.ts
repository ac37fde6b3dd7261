/**
 * Sections (w:sectPr): page size, orientation and margins, and the headers and footers of each section.
 * Word lets a section inherit each header/footer kind from the section before it; the first-page kind is
 * used only with w:titlePg, the even-page kind only when settings.xml turns on w:evenAndOddHeaders.
 */
import type { Block, Columns, HeaderFooterSet, LineNumbering, PageBorders, PageSetup, Section } from '../model/types.js';
import { createPartContext } from './blocks.js';
import { isBlock, type DocContext } from './context.js';
import { readBorders } from './props.js';
import type { Theme } from './theme.js';
import { onOff, round2, twips } from './units.js';
import { child, children, type XElement } from './xml.js';

const LETTER = { width: 612, height: 792 };

/**
 * The page of a section. The gutter (binding room) widens the left margin, or the right one in a right-to-left
 * section (w:rtlGutter), or the top one when settings.xml says w:gutterAtTop — and then the header moves down with
 * it, as it does in LibreOffice (nothing is printed in a binding).
 */
export function pageSetup(sectPr: XElement | undefined, gutterAtTop = false, theme?: Theme): PageSetup {
  const size = child(sectPr, 'w:pgSz');
  const mar = child(sectPr, 'w:pgMar');
  let width = twips(size?.attrs['w:w']) ?? LETTER.width;
  let height = twips(size?.attrs['w:h']) ?? LETTER.height;
  if (!(width > 0) || !(height > 0)) ({ width, height } = LETTER);
  // w:orient is informational: Word already swaps w:w and w:h; fix files that only say "landscape".
  if (size?.attrs['w:orient'] === 'landscape' && width < height) [width, height] = [height, width];
  const m = (name: string, fallback: number): number => Math.abs(twips(mar?.attrs[name]) ?? fallback);
  const gutter = m('w:gutter', 0);
  const grid = child(sectPr, 'w:docGrid');
  const gridType = grid?.attrs['w:type'];
  const pitch = twips(grid?.attrs['w:linePitch']);
  const side = gutterAtTop ? 'top' : child(sectPr, 'w:rtlGutter') !== undefined && onOff(child(sectPr, 'w:rtlGutter')?.attrs['w:val']) ? 'right' : 'left';
  const plus = (where: typeof side): number => (where === side ? gutter : 0);
  const setup: PageSetup = {
    width: round2(width),
    height: round2(height),
    margins: {
      top: round2(m('w:top', 72) + plus('top')),
      right: round2(m('w:right', 72) + plus('right')),
      bottom: round2(m('w:bottom', 72)),
      left: round2(m('w:left', 72) + plus('left')),
    },
    headerDistance: round2(m('w:header', 36) + plus('top')),
    footerDistance: round2(m('w:footer', 36)),
  };
  const columns = readColumns(child(sectPr, 'w:cols'));
  if (columns) setup.columns = columns;
  const borders = theme ? pageBorders(child(sectPr, 'w:pgBorders'), theme) : undefined;
  if (borders) setup.borders = borders;
  const lineNumbers = lineNumbering(child(sectPr, 'w:lnNumType'));
  if (lineNumbers) setup.lineNumbers = lineNumbers;
  // Only a grid of lines snaps lines ('default' has none); a pitch below 1 pt is no grid.
  if ((gridType === 'lines' || gridType === 'linesAndChars' || gridType === 'snapToChars') && pitch !== undefined && pitch >= 1 && pitch <= 720) {
    setup.linePitch = round2(pitch);
    // LibreOffice's text grid (SwBodyFrame::Format): the body holds a whole number of lines, centred in the space
    // between the margins.
    const body = setup.height - setup.margins.top - setup.margins.bottom;
    const lines = Math.floor(body / setup.linePitch);
    if (lines >= 1) {
      const spare = (body - lines * setup.linePitch) / 2;
      setup.margins.top = round2(setup.margins.top + spare);
      setup.margins.bottom = round2(setup.margins.bottom + spare);
    }
  }
  return setup;
}

/** The distance of line numbers from the text when w:distance is absent: a quarter inch, taken as Word's "Auto". */
const AUTO_LINE_NUMBER_DISTANCE = 18;

/**
 * w:lnNumType (ECMA-376 §17.6.8): no numbers without w:countBy. w:start is 0-based as Word writes it (its "Start
 * at 1" is no w:start, "Start at 5" is w:start="4"; LibreOffice's RTF import converts so: "OOXML <w:lnNumType
 * w:start> is 0-based, RTF is 1-based"); w:restart defaults to newPage; w:distance is in twips, else Word's Auto.
 */
function lineNumbering(el: XElement | undefined): LineNumbering | undefined {
  if (!el) return undefined;
  const countBy = Number.parseInt(el.attrs['w:countBy'] ?? '', 10);
  if (!(countBy >= 1)) return undefined;
  const start = Number.parseInt(el.attrs['w:start'] ?? '0', 10);
  const restart = el.attrs['w:restart'];
  const distance = twips(el.attrs['w:distance']);
  return {
    countBy: Math.min(countBy, 100),
    start: Math.min(Math.max(Number.isFinite(start) ? start : 0, 0), 32766) + 1,
    restart: restart === 'newSection' || restart === 'continuous' ? restart : 'newPage',
    distance: distance !== undefined && distance > 0 ? round2(Math.min(distance, 144)) : AUTO_LINE_NUMBER_DISTANCE,
  };
}

/**
 * w:pgBorders (ECMA-376 §17.6.10): the sides that have a line, each with its w:space (points, up to 31) from the
 * page's edge or from the text; w:display (allPages, firstPage, notFirstPage), w:zOrder (front, back) and the
 * bottom and right sides' w:shadow.
 * Art borders (w:val="apples"…) are drawn as plain lines of their width.
 */
function pageBorders(el: XElement | undefined, theme: Theme): PageBorders | undefined {
  const sides = readBorders(el, theme);
  if (!el || !sides) return undefined;
  const out: PageBorders = {};
  for (const side of ['top', 'right', 'bottom', 'left'] as const) {
    const line = sides[side];
    if (line) out[side] = { ...line, space: line.space ?? 0 };
  }
  if (!out.top && !out.right && !out.bottom && !out.left) return undefined;
  if (el.attrs['w:offsetFrom'] === 'page') out.offsetFrom = 'page';
  const display = el.attrs['w:display'];
  if (display === 'firstPage') out.display = 'first';
  else if (display === 'notFirstPage') out.display = 'notFirst';
  if (el.attrs['w:zOrder'] === 'back') out.behind = true;
  if (['w:bottom', 'w:right'].some((name) => { const side = child(el, name); return side?.attrs['w:shadow'] !== undefined && onOff(side.attrs['w:shadow']); })) out.shadow = true;
  return out;
}

/** Newspaper columns (w:cols): count, spacing (default 0.5 inch), unequal widths (w:col), separator (w:sep). */
export function readColumns(cols: XElement | undefined): Columns | undefined {
  if (!cols) return undefined;
  const own = children(cols, 'w:col');
  const equal = cols.attrs['w:equalWidth'] === undefined ? own.length === 0 : onOff(cols.attrs['w:equalWidth']);
  const count = Math.min(45, equal ? Math.floor(Number(cols.attrs['w:num'] ?? 1)) || 1 : own.length);
  if (count < 2) return undefined;
  const columns: Columns = { count, space: round2(Math.max(0, twips(cols.attrs['w:space']) ?? 36)) };
  if (!equal) {
    columns.widths = own.map((c) => round2(Math.max(1, twips(c.attrs['w:w']) ?? 1)));
    columns.spaces = own.map((c) => round2(Math.max(0, twips(c.attrs['w:space']) ?? 0)));
  }
  if (cols.attrs['w:sep'] !== undefined && onOff(cols.attrs['w:sep'])) columns.separator = true;
  return columns;
}

/** How a section starts: a continuous section flows on the same page as the one before it. */
export function startsNewPage(sectPr: XElement | undefined): boolean {
  const type = child(sectPr, 'w:type')?.attrs['w:val'];
  return type !== 'continuous';
}

const PAGE_FORMATS = new Set(['decimal', 'lowerRoman', 'upperRoman', 'lowerLetter', 'upperLetter']);

/** w:pgNumType: where the section's page numbers start and how they are written (nothing to say: undefined). */
export function pageNumbering(sectPr: XElement | undefined): Section['pageNumbers'] | undefined {
  const el = child(sectPr, 'w:pgNumType');
  if (!el) return undefined;
  const out: NonNullable<Section['pageNumbers']> = {};
  const start = Number(el.attrs['w:start']);
  if (el.attrs['w:start'] !== undefined && Number.isInteger(start) && start >= 0 && start < 1e6) out.start = start;
  const fmt = el.attrs['w:fmt'];
  if (fmt && fmt !== 'decimal' && PAGE_FORMATS.has(fmt)) out.format = fmt as NonNullable<Section['pageNumbers']>['format'];
  return out.start === undefined && out.format === undefined ? undefined : out;
}

export function titlePage(sectPr: XElement | undefined): boolean {
  const el = child(sectPr, 'w:titlePg');
  return el !== undefined && onOff(el.attrs['w:val']);
}

type Kind = 'default' | 'first' | 'even';
export type References = Record<'header' | 'footer', Partial<Record<Kind, string>>>;

/** The header/footer parts a section refers to, on top of those it inherits. */
export function sectionReferences(doc: DocContext, sectPr: XElement | undefined, inherited: References): References {
  const out: References = { header: { ...inherited.header }, footer: { ...inherited.footer } };
  const rels = doc.pkg.rels(doc.pkg.mainPart);
  for (const [kind, tag] of [
    ['header', 'w:headerReference'],
    ['footer', 'w:footerReference'],
  ] as const) {
    for (const ref of children(sectPr, tag)) {
      const type = (ref.attrs['w:type'] ?? 'default') as Kind;
      if (type !== 'default' && type !== 'first' && type !== 'even') continue;
      const rel = rels.get(ref.attrs['r:id'] ?? '');
      if (rel && !rel.external && doc.pkg.has(rel.target)) out[kind][type] = rel.target;
    }
  }
  return out;
}

/** Reads header/footer parts once each (sections often share them). */
export class HeaderFooterReader {
  private readonly cache = new Map<string, Block[]>();

  constructor(private readonly doc: DocContext) {}

  private blocks(part: string): Block[] {
    const cached = this.cache.get(part);
    if (cached) return cached;
    const root = this.doc.pkg.xml(part);
    const ctx = createPartContext(this.doc, part);
    const blocks = root ? ctx.readBlocks(root).filter(isBlock) : [];
    this.cache.set(part, blocks);
    return blocks;
  }

  set(refs: Partial<Record<Kind, string>>, useFirst: boolean, useEven: boolean): HeaderFooterSet | undefined {
    const out: HeaderFooterSet = {};
    if (refs.default) out.default = this.blocks(refs.default);
    if (useFirst && refs.first) out.first = this.blocks(refs.first);
    if (useEven && refs.even) out.even = this.blocks(refs.even);
    // With a title page but no first-page part, Word shows an empty header there.
    if (useFirst && !refs.first && out.default) out.first = [];
    return Object.keys(out).length > 0 ? out : undefined;
  }
}
