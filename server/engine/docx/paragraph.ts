/**
 * A w:p → model paragraphs. Runs keep their text exactly (tags split across Word runs are joined again by the
 * tag compiler, which reads a paragraph's runs as one string); neighbouring runs that end up with the same
 * style are merged. A page break inside a paragraph splits it around a PageBreak block; text boxes, SmartArt
 * text and other floating content follow the paragraph that anchors them.
 */
import type { Block, ChartRun, FieldRun, ImageRun, Inline, Paragraph, RunStyle, ShapeRun, Table, TableCell, TextRun } from '../model/types.js';
import type { Item, OpenField, PartContext } from './context.js';
import { chooseAlternate } from './alternate.js';
import { readDrawing, readVml, type FloatBox } from './drawing.js';
import { mergeP, mergeR, physicalSides, readPPr, readRPr, type PProps, type RProps } from './props.js';
import { CJK_TEXT, toParagraphStyle, toRunStyle } from './resolve.js';
import type { TableLayer } from './styles.js';
import { child, childVal, descendants, textOf, type XElement, type XNode } from './xml.js';
import { bulletText } from './numbering.js';
import { round2 } from './units.js';
import { dropped } from './warnings.js';
import { isStyleSeparator, markRunsOn } from './style-separator.js';
import { markHidden } from './hidden-mark.js';
import { copyWith } from '../copy.js';

interface Builder {
  /** Inline content split at page breaks. */
  segments: Inline[][];
  /**
   * Content that floats in the paragraph (text boxes, floating pictures…), placed after it; `segment` is the
   * index of the segment its anchor run sits in (before or after a page break).
   */
  floats: Array<{ blocks: Block[]; box?: FloatBox; positioned?: boolean; segment: number }>;
  /** Segments that start after a column break rather than a page break. */
  columnBreaks?: Set<number>;
}

interface InlineState {
  baseR: RProps;
  link?: string;
}

const SAFE_LINK = /^(https?:|mailto:)/i;

function safeLink(target: string | undefined): string | undefined {
  return target && SAFE_LINK.test(target.trim()) ? target.trim() : undefined;
}

/**
 * A paragraph, table or block-level content control inside a paragraph: not valid WordprocessingML, but written by
 * some tools; blocks.ts reads it after the paragraph (as Word shows it), so it is passed over here.
 */
export function isNestedBlock(node: XNode): boolean {
  if (typeof node === 'string') return false;
  if (node.name === 'w:p' || node.name === 'w:tbl') return true;
  if (node.name !== 'w:sdt') return false;
  const content = child(node, 'w:sdtContent');
  return content !== undefined && content.children.some(isNestedBlock);
}

export function readParagraph(ctx: PartContext, p: XElement, table?: TableLayer): Item[] {
  const { styles, numbering } = ctx.doc;
  const pPr = child(p, 'w:pPr');
  const theme = ctx.doc.theme;
  const direct = readPPr(pPr, theme);
  const styleId = childVal(pPr, 'w:pStyle');
  const ps = styles.paragraphStyle(styleId);

  let props: PProps = mergeP(mergeP(styles.docP, table?.p ?? {}), ps.p);
  const numId = direct.numId ?? props.numId;
  const ilvl = direct.ilvl ?? props.ilvl;
  const level = numbering.level(numId, ilvl);
  if (level) props = mergeP(props, level.p);
  if (level?.unsupported) ctx.doc.warnings.add('number_format_unsupported', numbering.part, 'w:numFmt', level.unsupported);
  props = mergeP(props, direct);
  // Direction may come from docDefaults or a style as well as the paragraph: sides are made physical once merged.
  props = physicalSides(props);
  // w:doNotUseHTMLParagraphAutoSpacing: the written before/after lengths stand, "auto" is ignored (ECMA-376
  // 17.15.3; LibreOffice puts tika__017097's auto-spaced paragraphs 5 + 5 pt apart, their w:before/w:after).
  if (ctx.doc.fixedAutoSpacing && (props.beforeAuto || props.afterAuto)) props = { ...props, beforeAuto: false, afterAuto: false };

  const baseR = mergeR(mergeR(styles.docR, table?.r ?? {}), ps.r);
  const markR = mergeR(baseR, readRPr(child(pPr, 'w:rPr'), theme));

  const builder: Builder = { segments: [[]], floats: [] };
  walkInline(ctx, p, { baseR }, builder);

  const outline = props.outlineLevel !== undefined && props.outlineLevel < 9 ? props.outlineLevel + 1 : undefined;
  const heading = outline ?? ps.headingFromName;
  const style = toParagraphStyle(props, heading, styles.hasParagraphStyle(styleId) ? styleId : styles.defaultParagraphStyle);

  const items: Item[] = [];
  // A paragraph that only anchors floating content (an empty line holding a text box or a picture) is
  // replaced by that content: in Word the floats sit over that line rather than below it.
  const onlyAnchors =
    builder.floats.some((f) => !f.positioned) && !level && builder.segments.length === 1 && builder.segments[0].every((r) => r.type === 'text' && r.text.trim() === '');
  if (onlyAnchors) builder.segments = [[]];
  const last = builder.segments.length - 1;
  let lastPara: Paragraph | undefined;
  builder.segments.forEach((segment, index) => {
    if (index > 0) {
      if (builder.columnBreaks?.has(index)) items.push({ type: 'pageBreak', column: true });
      // A page break that starts its paragraph sits on the paragraph's first, empty line: that line is on the
      // page before the break, so it needs room there (after a table that fills the page, Word and LibreOffice
      // put it on the next page and the break then leaves that page empty).
      else if (index === 1 && builder.segments[0].length === 0) items.push({ type: 'pageBreak', lead: { type: 'paragraph', runs: [{ type: 'text', text: '', style: toRunStyle(markR, '') }], style } });
      else items.push({ type: 'pageBreak' });
    }
    // The floats anchored in this segment go on its page: one anchored before a page break stays on the page
    // the break ends (oxsdk__complex2005_12rtm's copyright box, anchored ahead of its paragraph's break).
    const anchored = arrangeFloats(builder.floats.filter((f) => f.segment === index));
    const skip =
      onlyAnchors ||
      // A paragraph that starts with its page break is otherwise simply a paragraph on the next page.
      (index === 0 && segment.length === 0 && last > 0) ||
      // A page break that ends its paragraph keeps the paragraph mark on its own page (Word 2013 and later): the
      // next page starts with the next paragraph, not with an empty line. Older Word (the compatibility option
      // splitPgBreakAndParaMark) moves the mark to the next page.
      (index === last && index > 0 && segment.length === 0 && !ctx.doc.splitPageBreakAndMark);
    if (!skip) {
      const runs = mergeRuns(segment, ctx.doc.runStyles);
      if (runs.length === 0) runs.push({ type: 'text', text: '', style: toRunStyle(markR, '') });
      const para: Paragraph = { type: 'paragraph', runs, style: index === 0 ? style : continuation(style) };
      if (level && index === 0 && level.list.format !== 'none') {
        para.list = { ...level.list };
        if (para.list.format === 'bullet' && para.list.text) para.list.text = bulletText(para.list.text);
      }
      items.push(para);
      lastPara = para;
    }
    for (const block of anchored) items.push(block);
  });
  const footnotes = ctx.doc.notes?.takeFootnotes();
  if (footnotes && lastPara) lastPara.footnotes = footnotes;
  // A style separator's paragraph runs on into the next one; not when floats or a section's end come between.
  const separator = isStyleSeparator(pPr);
  if (lastPara && items[items.length - 1] === lastPara && builder.floats.length === 0 && separator) markRunsOn(lastPara);
  // Nothing but the paragraph mark: no run, no float, no page break.
  const bare = builder.floats.length === 0 && builder.segments.length === 1 && builder.segments[0].length === 0;
  const sectPr = child(pPr, 'w:sectPr');
  // A hidden mark, or a deleted one, on a paragraph that shows nothing else: no line (hidden-mark.ts).
  if (lastPara && items.length === 1 && bare && (markR.vanish || markDeleted(pPr)) && !separator && !sectPr) markHidden(lastPara);
  if (sectPr) {
    const markOnly = bare && !level && !onlyAnchors && items.length === 1 && items[0] === lastPara;
    items.push(markOnly && lastPara ? { type: 'sectionEnd', sectPr, mark: lastPara } : { type: 'sectionEnd', sectPr });
  }
  return items;
}

/**
 * The paragraph mark is a tracked deletion (w:del, ECMA-376 §17.13.5.15) or moved away (w:moveFrom, §17.13.5.22):
 * the paragraph's content joins the next paragraph's, so one whose content is all deleted too is gone from the
 * final document. (Merging visible content into the next paragraph is not done: no corpus file has it.)
 */
function markDeleted(pPr: XElement | undefined): boolean {
  const rPr = child(pPr, 'w:rPr');
  return child(rPr, 'w:del') !== undefined || child(rPr, 'w:moveFrom') !== undefined;
}

/** The part of a paragraph after a page break: same layout, but it does not break the page again. */
function continuation(style: Paragraph['style']): Paragraph['style'] {
  const copy = { ...style };
  delete copy.pageBreakBefore;
  return copy;
}

function styleKey(style: RunStyle | undefined): string {
  return style ? JSON.stringify(style) : '';
}

/**
 * Neighbouring text runs of equal style joined; each text run's style the document's one object for that style
 * (`shared`, DocContext.runStyles).
 */
function mergeRuns(runs: Inline[], shared: Map<string, RunStyle>): Inline[] {
  const out: Inline[] = [];
  let lastKey = '';
  for (const run of runs) {
    const prev = out[out.length - 1];
    if (run.type === 'text') {
      if (run.text === '') continue;
      // A footnote's mark stays a run of its own (it names its note), and nothing joins it; so does a line
      // break that clears floats.
      const own = run.footnote !== undefined || run.clear !== undefined;
      const key = own ? '\0own' : styleKey(run.style);
      if (prev && prev.type === 'text' && lastKey === key && !own) {
        prev.text += run.text;
        continue;
      }
      const copy = { ...run };
      if (!own && run.style) {
        const known = shared.get(key);
        if (known) copy.style = known;
        else shared.set(key, run.style);
      }
      out.push(copy);
      lastKey = key;
    } else {
      out.push(run);
      lastKey = '';
    }
  }
  return out;
}

/**
 * Floating objects of one paragraph, in the flow after it. Two or more that sit side by side (a logo and an
 * address box in a letterhead) become one borderless row of a table, so they stay side by side; otherwise
 * they follow one another from top to bottom.
 */
function arrangeFloats(all: Builder['floats']): Block[] {
  if (all.length === 0) return [];
  // Floats placed by position (floats.ts) follow their anchor as they are; the flow takes them out of it.
  const positioned = all.filter((f) => f.positioned).flatMap((f) => f.blocks);
  const floats = all.filter((f) => !f.positioned);
  if (floats.length === 0) return positioned;
  return [...positioned, ...arrangeFlowing(floats)];
}

function arrangeFlowing(floats: Builder['floats']): Block[] {
  const placed = floats.filter((f): f is Builder['floats'][number] & { box: FloatBox } => f.box !== undefined);
  if (placed.length >= 2 && placed.length === floats.length) {
    const byX = [...placed].sort((a, b) => a.box.x - b.box.x);
    const sideBySide = byX.every((f, i) => i === 0 || f.box.x >= byX[i - 1].box.x + byX[i - 1].box.width - 2);
    if (sideBySide) return [floatRow(byX)];
    placed.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
    return placed.flatMap((f) => (f.box.fill || f.box.line ? [floatRow([{ ...f, box: { ...f.box, x: 0 } }])] : f.blocks));
  }
  // A lone box with a fill or an outline becomes a one-cell table that keeps them.
  return floats.flatMap((f) => (f.box && (f.box.fill || f.box.line) ? [floatRow([{ blocks: f.blocks, box: { ...f.box, x: 0 } }])] : f.blocks));
}

/** Text boxes' default inner margin (0.1 inch) and the gap columns between floats. */
const BOX_INSET = 7.2;

function floatRow(floats: Array<{ blocks: Block[]; box: FloatBox }>): Table {
  const columns: number[] = [];
  const cells: TableCell[] = [];
  let right = Math.min(0, floats[0].box.x);
  const top = Math.min(...floats.map((f) => f.box.y));
  for (const f of floats) {
    // A box placed lower than the highest one starts lower in its cell.
    const drop = f.box.y - top;
    const first = f.blocks[0];
    if (drop > 1 && first?.type === 'paragraph') {
      f.blocks[0] = { ...first, style: { ...first.style, spaceBefore: round2((first.style?.spaceBefore ?? 0) + drop) } };
    }
    const gap = f.box.x - right;
    if (gap > 1) {
      columns.push(round2(gap));
      cells.push({ blocks: [] });
    }
    columns.push(round2(f.box.width));
    const cell: TableCell = { blocks: f.blocks };
    if (f.box.fill) cell.shading = f.box.fill;
    if (f.box.line) cell.borders = { top: f.box.line, bottom: f.box.line, left: f.box.line, right: f.box.line };
    cells.push(cell);
    right = f.box.x + f.box.width;
  }
  return { type: 'table', columns, rows: [{ cells }], style: { borders: null, cellPadding: BOX_INSET } };
}

// ─── Inline content ──────────────────────────────────────────────────────────────────────────────────────────

/** Is text currently hidden by an open field (its instruction, or the cached result of PAGE/NUMPAGES)? */
function suppressed(fields: OpenField[]): boolean {
  for (const f of fields) {
    if (f.phase === 'instr') return true;
    if (f.kind === 'page' || f.kind === 'pages') return true;
  }
  return false;
}

function fieldLink(fields: OpenField[]): string | undefined {
  for (let i = fields.length - 1; i >= 0; i--) if (fields[i].link) return fields[i].link;
  return undefined;
}

function classifyField(f: OpenField): void {
  const instr = f.instr.trim();
  const word = /^([A-Za-z]+)/.exec(instr)?.[1]?.toUpperCase();
  if (word === 'PAGE') f.kind = 'page';
  else if (word === 'NUMPAGES' || word === 'SECTIONPAGES') f.kind = 'pages';
  else if (word === 'HYPERLINK') {
    f.kind = 'link';
    if (!/\\l\b/.test(instr)) f.link = safeLink(/"([^"]*)"/.exec(instr)?.[1] ?? instr.split(/\s+/)[1]);
  } else f.kind = 'other';
}

function pushField(builder: Builder, field: 'page' | 'pages', style: RunStyle): void {
  const run: FieldRun = { type: 'field', field, style };
  builder.segments[builder.segments.length - 1].push(run);
}

function pushText(builder: Builder, text: string, style: RunStyle): void {
  const seg = builder.segments[builder.segments.length - 1];
  const prev = seg[seg.length - 1];
  if (prev && prev.type === 'text' && prev.style === style && prev.footnote === undefined && prev.clear === undefined) {
    prev.text += text;
    return;
  }
  const run: TextRun = { type: 'text', text, style };
  seg.push(run);
}

function walkInline(ctx: PartContext, container: XElement, state: InlineState, builder: Builder): void {
  for (const node of container.children) {
    if (typeof node === 'string' || isNestedBlock(node)) continue;
    switch (node.name) {
      case 'w:r':
        readRun(ctx, node, state, builder);
        break;
      case 'w:hyperlink': {
        const relId = node.attrs['r:id'];
        const rel = relId ? ctx.doc.pkg.rels(ctx.part).get(relId) : undefined;
        const link = rel?.external ? safeLink(rel.target) : undefined;
        walkInline(ctx, node, link ? copyWith(state, { link }) : state, builder);
        break;
      }
      case 'w:sdt':
        walkInline(ctx, child(node, 'w:sdtContent') ?? node, state, builder);
        break;
      case 'w:fldSimple': {
        const field: OpenField = { instr: node.attrs['w:instr'] ?? '', phase: 'result' };
        classifyField(field);
        if (field.kind === 'page' || field.kind === 'pages') {
          const firstRun = child(node, 'w:r');
          pushField(builder, field.kind, runStyleOf(ctx, firstRun, state, ''));
        } else {
          walkInline(ctx, node, field.link ? copyWith(state, { link: field.link }) : state, builder);
        }
        break;
      }
      case 'w:smartTag':
      case 'w:customXml':
      case 'w:ins':
      case 'w:moveTo':
      case 'w:dir':
      case 'w:bdo':
        walkInline(ctx, node, state, builder);
        break;
      case 'mc:AlternateContent': {
        const chosen = chooseAlternate(node);
        if (chosen) walkInline(ctx, chosen, state, builder);
        break;
      }
      case 'm:oMath':
      case 'm:oMathPara': {
        const text = descendants(node, 'm:t').map((t) => textOf(t)).join('');
        if (text && !suppressed(ctx.fields)) {
          pushText(builder, text, toRunStyle(state.baseR, text, state.link));
          ctx.doc.warnings.add('math_as_text', ctx.part, node.name);
        }
        break;
      }
      // Deleted and moved-away text, comments, bookmarks, proofing marks: not part of what the reader sees
      // (IGNORED); anything else is reported.
      default:
        dropped(ctx.doc.warnings, ctx.part, node);
        break;
    }
  }
}

function runProps(ctx: PartContext, run: XElement | undefined, state: InlineState): RProps {
  const rPr = child(run, 'w:rPr');
  const styles = ctx.doc.styles;
  const charStyle = styles.characterStyle(childVal(rPr, 'w:rStyle'));
  return mergeR(mergeR(state.baseR, charStyle, true), readRPr(rPr, ctx.doc.theme));
}

function runStyleOf(ctx: PartContext, run: XElement | undefined, state: InlineState, text: string): RunStyle {
  return toRunStyle(runProps(ctx, run, state), text, state.link ?? fieldLink(ctx.fields));
}

/** East Asian stretches of text (with the w:eastAsia font) and the rest (w:ascii / w:hAnsi), alternating. */
const CJK_STRETCHES = new RegExp(`(${CJK_TEXT.source}+)`, 'u');

/**
 * A run mixing East Asian and other characters, with different fonts for the two: Word draws each character with
 * its own slot's font ("Word 文档": Calibri, then SimSun), so the run is split. Null when one style does.
 */
function scriptStyles(props: RProps, text: string, link: string | undefined): { latin: RunStyle; asian: RunStyle } | null {
  if (props.eaFont === undefined || props.eaFont === props.font || !CJK_TEXT.test(text)) return null;
  const asian = toRunStyle(props, '\u4e00', link);
  const latin = toRunStyle(props, 'a', link);
  // Complex-script runs (w:rtl, w:cs) take the complex font whole.
  return asian.font !== latin.font && toRunStyle(props, text, link).font === asian.font ? { latin, asian } : null;
}

function pushScripts(builder: Builder, text: string, styles: { latin: RunStyle; asian: RunStyle }): void {
  text.split(CJK_STRETCHES).forEach((part, i) => {
    if (part) pushText(builder, part, i % 2 === 1 ? styles.asian : styles.latin);
  });
}

function readRun(ctx: PartContext, run: XElement, state: InlineState, builder: Builder): void {
  const props = runProps(ctx, run, state);
  if (props.vanish) return;
  const text = runText(run);
  const link = state.link ?? fieldLink(ctx.fields);
  const style = toRunStyle(props, text, link);
  const scripts = scriptStyles(props, text, link);
  const fields = ctx.fields;
  for (const node of run.children) {
    if (typeof node === 'string') continue;
    switch (node.name) {
      case 'w:fldChar': {
        const type = node.attrs['w:fldCharType'];
        if (type === 'begin') {
          fields.push({ instr: '', phase: 'instr' });
        } else if (type === 'separate') {
          const top = fields[fields.length - 1];
          if (top && top.phase === 'instr') {
            top.phase = 'result';
            classifyField(top);
            if ((top.kind === 'page' || top.kind === 'pages') && !suppressed(fields.slice(0, -1))) {
              pushField(builder, top.kind, style);
              top.emitted = true;
            }
          }
        } else if (type === 'end') {
          const top = fields.pop();
          if (top && top.phase === 'instr') classifyField(top);
          if (top && (top.kind === 'page' || top.kind === 'pages') && !top.emitted && !suppressed(fields)) {
            pushField(builder, top.kind, style);
          }
        }
        break;
      }
      case 'w:instrText': {
        const top = fields[fields.length - 1];
        if (top && top.phase === 'instr') top.instr += textOf(node);
        break;
      }
      case 'w:pgNum':
        if (!suppressed(fields)) pushField(builder, 'page', style);
        break;
      default:
        if (suppressed(fields)) break;
        if (scripts && node.name === 'w:t') pushScripts(builder, textOf(node), scripts);
        else readRunContent(ctx, node, style, builder);
    }
  }
}

/** The visible characters of a run, used to pick complex-script / East Asian fonts. */
function runText(run: XElement): string {
  let out = '';
  for (const node of run.children) if (typeof node !== 'string' && node.name === 'w:t') out += textOf(node);
  return out;
}

/** A picture keeps its run's style (its font sizes a line of pictures alone); a chart or shape needs none. */
function withRunStyle(run: ImageRun | ChartRun | ShapeRun, style: RunStyle): ImageRun | ChartRun | ShapeRun {
  return run.type === 'image' ? { ...run, style } : run;
}

function readRunContent(ctx: PartContext, node: XElement, style: RunStyle, builder: Builder): void {
  switch (node.name) {
    case 'w:t':
      pushText(builder, textOf(node), style);
      break;
    case 'w:tab':
    case 'w:ptab':
      pushText(builder, '\t', style);
      break;
    case 'w:br': {
      const type = node.attrs['w:type'];
      if (type === 'page' || type === 'column') {
        builder.segments.push([]);
        if (type === 'column') (builder.columnBreaks ??= new Set()).add(builder.segments.length - 1);
      }
      else if (type === undefined || type === 'textWrapping') {
        // A break that clears floats is a run of its own, which the layout ends below them (ECMA-376 17.3.3.1).
        const clear = node.attrs['w:clear'];
        if (clear === 'left' || clear === 'right' || clear === 'all') builder.segments[builder.segments.length - 1].push({ type: 'text', text: '\n', style, clear });
        else pushText(builder, '\n', style);
      } else pushText(builder, '\n', style);
      break;
    }
    case 'w:cr':
      pushText(builder, '\n', style);
      break;
    case 'w:noBreakHyphen':
      pushText(builder, '-', style);
      break;
    case 'w:sym':
    case 'w16se:symEx': {
      // w16se:symEx (Word 2016+, the Choice of an mc:AlternateContent) names a Unicode character, often an emoji.
      const code = parseInt(node.attrs['w:char'] ?? node.attrs['w16se:char'] ?? '', 16);
      // Symbol-font characters are private-use code points; bulletText maps the common ones to Unicode.
      if (Number.isFinite(code) && code > 0 && code <= 0x10ffff) pushText(builder, bulletText(String.fromCodePoint(code)), style);
      break;
    }
    case 'w:drawing': {
      const out = readDrawing(ctx, node);
      if (out.image) builder.segments[builder.segments.length - 1].push(withRunStyle(out.image, style));
      if (out.blocks.length > 0) builder.floats.push({ blocks: out.blocks, box: out.box, positioned: out.positioned, segment: builder.segments.length - 1 });
      break;
    }
    case 'w:pict':
    case 'w:object': {
      const out = readVml(ctx, node);
      if (out.image) builder.segments[builder.segments.length - 1].push(withRunStyle(out.image, style));
      if (out.blocks.length > 0) builder.floats.push({ blocks: out.blocks, box: out.box, positioned: out.positioned, segment: builder.segments.length - 1 });
      break;
    }
    case 'mc:AlternateContent': {
      const chosen = chooseAlternate(node);
      if (chosen) for (const c of chosen.children) if (typeof c !== 'string') readRunContent(ctx, c, style, builder);
      break;
    }
    case 'w:ruby': {
      const base = child(node, 'w:rubyBase');
      for (const r of base ? base.children : []) {
        if (typeof r !== 'string' && r.name === 'w:r') {
          for (const c of r.children) if (typeof c !== 'string') readRunContent(ctx, c, style, builder);
        }
      }
      break;
    }
    case 'w:footnoteReference':
    case 'w:endnoteReference': {
      const kind = node.name === 'w:footnoteReference' ? 'footnote' : 'endnote';
      const notes = ctx.doc.notes;
      const mark = notes?.reference(kind, node);
      const markStyle: RunStyle = style.vertAlign ? style : { ...style, vertAlign: 'superscript' };
      // A footnote's mark is a run of its own that names its note: the flow puts the note on the mark's page.
      if (mark && kind === 'footnote' && notes) builder.segments[builder.segments.length - 1].push({ type: 'text', text: mark, style: markStyle, footnote: notes.pendingFootnotes - 1 });
      else if (mark) pushText(builder, mark, markStyle);
      // A note that cannot be found (no notes part, a damaged one, an unknown id) is reported.
      if (mark === undefined) dropped(ctx.doc.warnings, ctx.part, node);
      break;
    }
    case 'w:footnoteRef':
    case 'w:endnoteRef': {
      const mark = ctx.doc.notes?.current;
      if (mark) pushText(builder, mark, style.vertAlign ? style : { ...style, vertAlign: 'superscript' });
      break;
    }
    // w:rPr, w:delText, comment references, w:lastRenderedPageBreak, w:softHyphen: nothing visible here (IGNORED);
    // footnote/endnote references and anything else are reported.
    default:
      dropped(ctx.doc.warnings, ctx.part, node);
      break;
  }
}
