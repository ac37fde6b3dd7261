/**
 * Bound template model → PDF. The only entry point of engine/pdf besides encryptPdf.
 *
 *   1. layout: every section's headers, footers and body laid out into lines and cells (pure; records
 *      which characters each embedded font must hold, checks every image);
 *   2. fonts: the TTF faces used are subset and added to a new jsPDF document;
 *   3. flow: body blocks placed on pages as boxes (flow/boxes.ts), each page painted as it is finished and
 *      dropped;
 *   4. per page: headers and footers (page numbers known now), page counts in the body, the watermark;
 *   5. metadata, output.
 */
import { jsPDF } from 'jspdf';
import './jspdf-flate.js';
import type { Block, DocMetadata, HeaderFooterSet, PageSetup, ParagraphStyle, RunStyle, Section, TemplateModel } from '../model/types.js';
import { EngineError } from '../errors.js';
import { DocumentFonts } from './fonts/embed.js';
import { ListCounters } from './layout/lists.js';
import { resetStyleCaches } from './layout/fmt.js';
import { parseColor, type Rgb } from './layout/color.js';
import { layoutBlocks, layoutStack } from './layout/blocks.js';
import type { LayoutContext } from './layout/paragraph.js';
import type { LaidBlock } from './layout/items.js';
import { Painter } from './draw/painter.js';
import { drawWatermark } from './draw/watermark.js';
import { BodyFlow, type Relayout } from './flow/body.js';
import { columnSet, type ColumnSet } from './flow/columns.js';
import { behindBoxes, placeFloatsInStacks } from './flow/floats.js';
import { pageLabels } from './flow/page-numbers.js';
import { LineNumbers, lineNumberFont, type NumberFont } from './flow/line-numbers.js';
import { bordersOnPage, pageBorderBoxes } from './flow/page-borders.js';
import { layoutParagraph } from './layout/paragraph.js';
import { Emitter } from './flow/emit.js';
import { PageSequence } from './flow/pages.js';
import { FieldLayouts } from './flow/header-fields.js';
import type { LaidPage } from './flow/boxes.js';
import { RenderBudget, type RenderLimits } from './budget.js';
import { baseGeometry, variantFor, withHeaderFooter, type LaidHeaderFooter, type PageGeometry } from './flow/section.js';
import { copyWith } from '../copy.js';

export { setFontsDir } from './fonts/dir.js';

export interface RenderModelOptions {
  /** Draw the "TEST DOCUMENT" watermark on every page. */
  test: boolean;
  /** Overrides the model's metadata field by field. */
  metadata?: DocMetadata;
  /** Most pages and milliseconds (from `start`, default now): past either the render fails with limit_exceeded. */
  limits?: RenderLimits;
  /** performance.now() when the render began (binding included); default: when renderModel is called. */
  start?: number;
}

export type { RenderLimits } from './budget.js';

export interface RenderedPdf {
  bytes: Uint8Array;
  pages: number;
}

interface LaidSection {
  section: Section;
  geo: PageGeometry;
  /** The geometry of the section's first page when its title-page header or footer differs in height. */
  firstGeo?: PageGeometry;
  body: LaidBlock[];
  /** Header/footer layouts by their source block list (laid out once with placeholder page numbers). */
  parts: Map<Block[], LaidHeaderFooter>;
  /** Some header or footer of the section has floats behind the text (drawn under the body of each page). */
  anyBehind: boolean;
  ctx: LayoutContext;
  /** Newspaper columns of the body (null: one column). */
  columns: ColumnSet | null;
  /** The section's margins as it sets them (page borders are placed against these). */
  base: PageGeometry;
  /** The font of its line numbers (w:lnNumType), prepared with the layout so that its digits are embedded. */
  numberFont?: NumberFont;
}

const FIELD_PLACEHOLDER = '000';

function asObject<T extends object>(value: unknown): T | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as T) : undefined;
}

/** Decimal separators by locale: building an Intl.NumberFormat costs ~0.5 ms, more than some whole documents. */
const decimalSeparators = new Map<string, string>();
const MAX_CACHED_LOCALES = 200;

/** The decimal separator of a BCP 47 locale ('.' for an unknown one). */
function decimalSeparatorOf(locale: unknown): string {
  if (typeof locale !== 'string' || locale === '') return '.';
  let sep = decimalSeparators.get(locale);
  if (sep === undefined) {
    try {
      sep = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
    } catch {
      sep = '.';
    }
    // Locales come from templates and requests: bounded, in case a client sends a new one every time.
    if (decimalSeparators.size >= MAX_CACHED_LOCALES) decimalSeparators.clear();
    decimalSeparators.set(locale, sep);
  }
  return sep;
}

function layoutSection(section: Section, fonts: DocumentFonts, defaults: LayoutContext['defaults'], lists: ListCounters, decimalSeparator: string, budget: RenderBudget, locale: string | undefined): LaidSection {
  const base = baseGeometry(asObject(section.page));
  const width = base.right - base.left;
  const parts = new Map<Block[], LaidHeaderFooter>();
  // Explicit tab stops count up to the page's edges (headers, footers and body share the section's margins).
  const pageMargins = { left: base.left, right: base.width - base.right };
  const partCtx: LayoutContext = {
    fonts,
    defaults,
    lists: new ListCounters(),
    fieldText: () => FIELD_PLACEHOLDER,
    maxImage: { width, height: (base.bottom - base.top) / 2 },
    decimalSeparator,
    pageMargins,
    budget,
    locale,
  };
  // The body's top and foot follow the tallest header and footer its pages use: the title page's own (w:titlePg)
  // count for the first page only, as Word and LibreOffice lay it out.
  const heights = { rest: [0, 0], first: [0, 0] };
  const titlePage = section.titlePage === true;
  for (const [set, isHeader] of [[section.header, true], [section.footer, false]] as const) {
    const variants = asObject<Record<string, unknown>>(set);
    if (!variants) continue;
    for (const key of ['default', 'first', 'even']) {
      const blocks = variants[key];
      if (!Array.isArray(blocks) || parts.has(blocks)) continue;
      const laid = layoutStack(blocks, width, { ...partCtx, lists: new ListCounters() });
      const hasFields = holdsFields(laid.blocks);
      parts.set(blocks, { blocks: laid.blocks, height: laid.height, hasFields, source: blocks, hasBehind: laid.blocks.some((b) => b.kind === 'table' && b.float?.behind === true) });
      const which = key === 'first' ? heights.first : heights.rest;
      if (key !== 'first' || titlePage) which[isHeader ? 0 : 1] = Math.max(which[isHeader ? 0 : 1], laid.height);
    }
  }
  const geo = withHeaderFooter(base, heights.rest[0], heights.rest[1]);
  const first = withHeaderFooter(base, heights.first[0], heights.first[1]);
  const firstGeo = titlePage && (first.top !== geo.top || first.bottom !== geo.bottom) ? first : undefined;
  const ctx: LayoutContext = {
    fonts,
    defaults,
    lists,
    maxImage: { width, height: geo.bottom - geo.top },
    decimalSeparator,
    pageMargins,
    budget,
    locale,
  };
  // The document grid snaps the body's lines (also in its tables), not those of headers and footers.
  const pitch = asObject<{ linePitch?: unknown }>(section.page)?.linePitch;
  // In columns the body is laid out at a column's width (the narrowest, when they differ).
  const columns = columnSet(asObject<PageSetup>(section.page)?.columns, width);
  const bodyWidth = columns ? Math.min(...columns.width) : width;
  const bodyCtx = columns ? { ...ctx, maxImage: { ...ctx.maxImage, width: bodyWidth } } : ctx;
  const body = layoutBlocks(section.body, bodyWidth, typeof pitch === 'number' && pitch > 0 ? { ...bodyCtx, linePitch: pitch } : bodyCtx, 0, columns?.width);
  const anyBehind = [...parts.values()].some((part) => part.hasBehind);
  const numberFont = asObject<PageSetup>(section.page)?.lineNumbers ? lineNumberFont(ctx) : undefined;
  return { section, geo, firstGeo, body, parts, anyBehind, ctx, columns, base, numberFont };
}

/** True when laid-out blocks show a page number or count somewhere (also inside tables). */
function holdsFields(blocks: LaidBlock[]): boolean {
  return blocks.some((b) =>
    b.kind === 'paragraph' ? b.hasFields : b.kind === 'table' ? b.rows.some((r) => r.cells.some((c) => holdsFields(c.blocks))) : false);
}

/**
 * jsPDF's constructor reassigns some of the shared `jsPDF.API` methods with closures over the new document's
 * state, so the last document made in a thread stays reachable until the next one is made — its pages' content
 * (hundreds of thousands of strings for a long table) and everything hung on it. Once the bytes are out, its page
 * contents and tables are dropped, so a render worker does not carry its largest document into the next job
 * (measured at 10,000 rows: 144 MB of heap held after the render, 52 MB with this).
 *
 * Every other document outlives the young generation's collections too, though nothing holds it: its constructor
 * installs its ~300 methods as `API.name = function …`, closures V8 (Node 24) allocates in the old generation (see
 * flow/floats.ts, FloatAt), and a scavenge takes what an old object points to as alive until the next full
 * collection — the constructor's context, the whole document, copied once and then promoted (docs/benchmarks.md,
 * session 19, promo19). That context is out of reach; the document's own members are not, and are deleted too (its
 * methods, `internal`, the canvas, context2d and outline plugins' objects): 17 KB less promoted per render. The
 * document is not used after its bytes are out.
 */
function releaseDocument(doc: jsPDF): void {
  const pages = (doc.internal as unknown as { pages?: unknown[] }).pages;
  if (Array.isArray(pages)) {
    for (const page of pages) if (Array.isArray(page)) page.length = 0;
    pages.length = 0;
  }
  const internal = doc.internal as unknown as Record<string, unknown>;
  for (const key of Object.keys(internal)) Reflect.deleteProperty(internal, key);
  for (const key of Object.keys(doc)) Reflect.deleteProperty(doc, key);
}

/** Stops jsPDF's own Arabic shaping pass on this document: text reaches it already shaped and in visual order. */
function disableArabicPass(doc: jsPDF): void {
  // jsPDF subscribes processArabic to every document's preProcessText event; PubSub is not in its typings.
  const events = (doc.internal as unknown as { events: { getTopics(): Record<string, Record<string, [unknown]>>; unsubscribe(t: string): void } }).events;
  const topic = events.getTopics().preProcessText ?? {};
  const processArabic = (jsPDF.API as unknown as { processArabic?: unknown }).processArabic;
  for (const [token, [fn]] of Object.entries(topic)) if (fn === processArabic) events.unsubscribe(token);
}

/** Lays a body paragraph out again with lines narrowed beside a float, as the section's body was laid out. */
function relayoutIn(ls: LaidSection): Relayout {
  const pitch = asObject<{ linePitch?: unknown }>(ls.section.page)?.linePitch;
  const ctx = typeof pitch === 'number' && pitch > 0 ? { ...ls.ctx, linePitch: pitch } : ls.ctx;
  // In columns the body was laid out at the narrowest column's width (layoutSection).
  const width = ls.columns ? Math.min(...ls.columns.width) : ls.geo.right - ls.geo.left;
  return (p, narrow, at = width) => {
    // A list item keeps the label it was counted with (its number does not advance again).
    const relabel = p.listLabel !== undefined ? { relabel: { source: p.source, text: p.listLabel } } : {};
    const again = layoutParagraph(p.source, at, copyWith(ctx, { narrow, ...relabel }));
    if (p.footnotes) {
      again.footnotes = p.footnotes;
      again.footnoteOf = p.footnoteOf;
    }
    return again;
  };
}

/** Places every section's body on pages; each finished page goes to `onPage`. Returns each section's first page. */
function flowSections(laid: LaidSection[], onPage: (page: LaidPage) => void, budget: RenderBudget): number[] {
  const emitter = new Emitter();
  const sectionStarts: number[] = [];
  const sections = laid.map((l) => l.section);
  // Floats behind the text in headers and footers go under the body, painted before the header itself; page
  // borders under it or over it (w:zOrder).
  const withBehind = (page: LaidPage): void => {
    let s = sectionStarts.length - 1;
    while (s > 0 && sectionStarts[s] > page.number) s--;
    const ls = laid[s];
    const borders = ls ? asObject<PageSetup>(ls.section.page)?.borders : undefined;
    if (ls && bordersOnPage(borders, page.number - sectionStarts[s])) {
      const lines = pageBorderBoxes(borders, ls.base);
      if (borders.behind === true) page.boxes.unshift(...lines);
      else page.boxes.push(...lines);
    }
    if (ls && ls.anyBehind) {
      // Even and odd are the page's number, not its place (a section numbered from 200 starts on an even page).
      const even = [ls.section.header, ls.section.footer].some((set) => Array.isArray(asObject<HeaderFooterSet>(set)?.even));
      const shown = even ? (pageLabels(sections, sectionStarts, page.number)[page.number - 1]?.number ?? page.number) : page.number;
      for (const [set, isHeader] of [[ls.section.header, true], [ls.section.footer, false]] as const) {
        const source = variantFor(ls.section, page.number - sectionStarts[s], shown, asObject(set));
        const part = Array.isArray(source) ? ls.parts.get(source) : undefined;
        if (!part || !part.hasBehind) continue;
        const geo = pageGeo(ls, page.number - sectionStarts[s]);
        const y = isHeader ? geo.headerDistance : geo.height - geo.footerDistance - part.height;
        page.boxes.unshift(...behindBoxes(part.blocks, geo, y, { page: page.number, pages: null }));
      }
    }
    onPage(page);
  };
  const pages = new PageSequence(emitter, withBehind, budget);
  let endY: number | undefined;
  const numberFont = laid.find((ls) => ls.numberFont)?.numberFont;
  const lineNumbers = numberFont ? new LineNumbers(numberFont) : undefined;
  laid.forEach((ls, i) => {
    lineNumbers?.section(asObject<PageSetup>(ls.section.page)?.lineNumbers);
    const options = {
      columns: ls.columns,
      continueAt: ls.section.continuous === true ? endY : undefined,
      balance: laid[i + 1]?.section.continuous === true,
      firstGeo: ls.firstGeo,
      lineNumbers,
    };
    const flow = new BodyFlow(emitter, pages, ls.geo, budget, options, relayoutIn(ls));
    sectionStarts.push(flow.page);
    flow.blocks(ls.body);
    endY = flow.endY;
  });
  pages.close();
  return sectionStarts;
}

/**
 * The geometry of a section's page `index` (0: its first): the title page's own (w:titlePg) when its header or
 * footer gives it other margins — what its header's and footer's floats are placed against, as its body is.
 */
function pageGeo(ls: LaidSection, index: number): PageGeometry {
  return index === 0 && ls.firstGeo ? ls.firstGeo : ls.geo;
}

function drawHeadersAndFooters(painter: Painter, laid: LaidSection[], sectionStarts: number[], pages: number): void {
  const emitter = new Emitter();
  let s = 0;
  // Their floats behind the text were placed under the body (flowSections).
  let geo = laid[0]?.geo;
  placeFloatsInStacks(emitter, () => geo, false);
  const labels = pageLabels(laid.map((l) => l.section), sectionStarts, pages);
  // A header or footer with page fields is laid out again only for a page whose fields measure differently.
  const fieldLayouts = new FieldLayouts();
  for (let page = 1; page <= pages; page++) {
    while (s + 1 < sectionStarts.length && sectionStarts[s + 1] <= page) s++;
    const { section, parts, ctx } = laid[s];
    // Every page: a header or footer with page fields may be laid out again for it, which can take long.
    ctx.budget?.now();
    if (parts.size === 0) continue;
    const index = page - sectionStarts[s];
    geo = pageGeo(laid[s], index);
    const pageText = labels[page - 1]?.text ?? String(page);
    const fields = { page, pages, pageText };
    for (const [set, isHeader] of [[section.header, true], [section.footer, false]] as const) {
      const source = variantFor(section, index, labels[page - 1]?.number ?? page, asObject(set));
      const pre = Array.isArray(source) ? parts.get(source) : undefined;
      if (!pre) continue;
      const part = pre.hasFields ? fieldLayouts.layout(pre, ctx, geo.right - geo.left, (geo.bottom - geo.top) / 2, pageText, String(pages)) : pre;
      const y = isHeader ? geo.headerDistance : geo.height - geo.footerDistance - part.height;
      emitter.stack(part.blocks, geo.left, y, fields);
    }
    painter.paintOn(page, emitter.out);
    emitter.out = [];
  }
}

function metadataOf(model: TemplateModel, override: DocMetadata | undefined): Record<string, string> {
  const merged: Record<string, unknown> = { ...asObject<DocMetadata>(model.metadata), ...asObject<DocMetadata>(override) };
  const props: Record<string, string> = { creator: 'docloom' };
  for (const key of ['title', 'author', 'subject', 'keywords', 'creator'] as const) {
    const v = merged[key];
    if (typeof v === 'string' && v.trim() !== '') props[key] = v.slice(0, 1000);
  }
  return props;
}

function layoutModel(model: TemplateModel, budget: RenderBudget): { laid: LaidSection[]; fonts: DocumentFonts } {
  const defaultsIn = asObject<{ run?: RunStyle; paragraph?: ParagraphStyle }>(model.defaults);
  const defaults = { run: asObject<RunStyle>(defaultsIn?.run) ?? {}, paragraph: asObject<ParagraphStyle>(defaultsIn?.paragraph) ?? {} };
  const sectionsIn = Array.isArray(model.sections) ? model.sections.filter((s) => s && typeof s === 'object') : [];
  const sections: Section[] = sectionsIn.length > 0 ? sectionsIn : [{ page: undefined as unknown as Section['page'], body: [] }];
  resetStyleCaches();
  const fonts = new DocumentFonts();
  const bodyLists = new ListCounters();
  const decimal = decimalSeparatorOf(model.locale);
  const locale = typeof model.locale === 'string' ? model.locale : undefined;
  return { laid: sections.map((s) => layoutSection(s, fonts, defaults, bodyLists, decimal, budget, locale)), fonts };
}

async function render(model: TemplateModel, opts: RenderModelOptions): Promise<RenderedPdf> {
  if (!model || typeof model !== 'object') throw new EngineError('model_invalid', 'The template model is not an object.');

  const budget = new RenderBudget(opts.limits, opts.start);
  budget.now();

  // 1. Layout.
  const { laid, fonts } = layoutModel(model, budget);

  // 2. Document and fonts.
  const first = laid[0].geo;
  const doc = new jsPDF({
    unit: 'pt',
    format: [first.width, first.height],
    orientation: first.width > first.height ? 'l' : 'p',
    compress: true,
    putOnlyUsedFonts: true,
    // Thousandths of a point are plenty; jsPDF's default (16 digits) doubles the content streams.
    floatPrecision: 3,
  });
  disableArabicPass(doc);
  await fonts.embed(doc);
  const painter = new Painter(doc, fonts);
  const background = parseColor(model.background);
  if (background) paintBackgrounds(doc, painter, background);

  // 3. Body flow: each page painted as soon as it is full.
  const sectionStarts = flowSections(laid, (page) => painter.paintPage(page), budget);
  // The bodies' layout is drawn now: not kept for the rest of the render (headers and footers have their own).
  for (const ls of laid) ls.body = [];

  // 4. Per page: page counts, headers, footers, watermark.
  const pages = doc.getNumberOfPages();
  budget.pages(pages);
  budget.now();
  painter.paintPageCounts(pages);
  drawHeadersAndFooters(painter, laid, sectionStarts, pages);
  if (opts.test) {
    let s = 0;
    for (let page = 1; page <= pages; page++) {
      while (s + 1 < sectionStarts.length && sectionStarts[s + 1] <= page) s++;
      budget.tick();
      doc.setPage(page);
      drawWatermark(doc, laid[s].geo.width, laid[s].geo.height);
    }
  }

  // 5. Metadata and bytes.
  doc.setProperties(metadataOf(model, opts.metadata));
  budget.now();
  // jsPDF's 'arraybuffer' output copies its binary string into the buffer one charCodeAt at a time (a third of the
  // output step for a PDF with pictures); latin1 maps each char code 0–255 to the same byte, natively.
  // Its own ArrayBuffer of the exact size, as before (never a slice of Node's shared pool): callers may transfer it.
  const binary = doc.output();
  const buffer = Buffer.allocUnsafeSlow(binary.length);
  buffer.write(binary, 0, 'latin1');
  const bytes = new Uint8Array(buffer.buffer, 0, binary.length);
  releaseDocument(doc);
  return { bytes, pages };
}

/**
 * Fills every page with the page colour before anything else is drawn on it: the first page now, each later one
 * as it is added (jsPDF's addPage event: the painter adds pages as the flow finishes them).
 */
function paintBackgrounds(doc: jsPDF, painter: Painter, rgb: Rgb): void {
  const fill = (): void => {
    const width = doc.internal.pageSize.getWidth();
    const height = doc.internal.pageSize.getHeight();
    doc.saveGraphicsState();
    doc.setFillColor(rgb[0], rgb[1], rgb[2]);
    doc.rect(-1, -1, width + 2, height + 2, 'F');
    doc.restoreGraphicsState();
    painter.invalidate();
  };
  fill();
  (doc.internal as unknown as { events: { subscribe(topic: string, fn: () => void): unknown } }).events.subscribe('addPage', fill);
}

/**
 * The body of a bound model laid out on pages of boxes, without a PDF (geometry tests). Headers, footers and page
 * counts are not among the boxes; a page count in the body is a `pageCount` box.
 */
export function layoutPages(model: TemplateModel): LaidPage[] {
  if (!model || typeof model !== 'object') throw new EngineError('model_invalid', 'The template model is not an object.');
  const budget = new RenderBudget();
  const { laid } = layoutModel(model, budget);
  const out: LaidPage[] = [];
  flowSections(laid, (page) => out.push(page), budget);
  return out;
}

/**
 * Renders a bound model. Throws EngineError for input it cannot use (an unreadable image, a model that is
 * not an object); never anything else.
 */
export async function renderModel(model: TemplateModel, opts: RenderModelOptions): Promise<RenderedPdf> {
  try {
    return await render(model, opts ?? { test: false });
  } catch (err) {
    if (err instanceof EngineError) throw err;
    const wrapped = new EngineError('render_failed', `The PDF could not be rendered: ${(err as Error)?.message ?? String(err)}`);
    (wrapped as Error & { cause?: unknown }).cause = err;
    throw wrapped;
  }
}
