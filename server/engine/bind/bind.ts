/**
 * Binds data to a compiled template: one walk over the compiled tree that expands sections, formats values and
 * places images, giving a bound TemplateModel with no tags left. Images are collected during the walk and
 * decoded/fetched together at the end (the only asynchronous step).
 *
 * The bound model reuses the compiled template's unchanged blocks, rows and styles by reference: treat it as
 * read-only.
 */
import type { Block, HeaderFooterSet, Inline, Paragraph, RunStyle, Section, Table, TableRow, TemplateModel } from '../model/types.js';
import type { CBlock, CInline, CName, CPartSet, CRow, CSection, CompiledTemplate, SectionEnd } from '../tags/types.js';
import { EngineError } from '../errors.js';
import { copyWith } from '../copy.js';
import { resolve, isTruthy } from './lookup.js';
import { checkLocale, DEFAULT_LOCALE, formatValue } from './format.js';
import { ImageQueue, type ImageLimits, type ImageResolver } from './images.js';

export type { ImageResolver } from './images.js';

export interface BindLimits extends ImageLimits {
  /** Items of one list or table. */
  rowsPerList: number;
  /** Items of all lists together, so nested lists cannot multiply into an endless document. */
  itemsPerDocument: number;
}

export const DEFAULT_BIND_LIMITS: BindLimits = Object.freeze({
  rowsPerList: 10_000,
  itemsPerDocument: 200_000,
  imagesPerDocument: 50,
  imageBytes: 10 * 1024 * 1024,
  imagePixels: 40_000_000,
});

export interface BindOptions {
  /** Overrides the template's locale. */
  locale?: string;
  resolveImage?: ImageResolver;
  limits?: Partial<BindLimits>;
}

interface Ctx {
  stack: unknown[];
  /** The innermost loop's item number, from 0 (`$index`); undefined outside loops. */
  index: number | undefined;
  locale: string;
  limits: BindLimits;
  images: ImageQueue;
  items: number;
  /**
   * The paragraph a piece with `openEnd` left open (see CBlock 'para'); a later `joinPrev` piece continues it only
   * while it is still the last block of the same output list, so a table or another paragraph in between ends it.
   */
  openPara: Paragraph | null;
}

export async function bindTemplate(compiled: CompiledTemplate, data: unknown, options: BindOptions = {}): Promise<TemplateModel> {
  const { model, images } = bindWithoutImages(compiled, data, options);
  if (images.size > 0) await images.settle();
  return model;
}

function bindWithoutImages(compiled: CompiledTemplate, data: unknown, options: BindOptions): { model: TemplateModel; images: ImageQueue } {
  if (compiled?.kind !== 'docloom-compiled') throw new EngineError('invalid_template', 'This is not a compiled template.');
  const limits: BindLimits = { ...DEFAULT_BIND_LIMITS, ...options.limits };
  const locale = checkLocale(options.locale || compiled.locale || DEFAULT_LOCALE);
  const ctx: Ctx = { stack: [data ?? {}], index: undefined, locale, limits, images: new ImageQueue(limits, options.resolveImage), items: 0, openPara: null };

  const sections: Section[] = [];
  for (let i = 0; i < compiled.sections.length; i++) {
    const section = compiled.sections[i];
    if (section.spans === undefined) {
      sections.push(bindSection(section, () => bindBlocks(section.body, ctx, []), ctx));
      continue;
    }
    // A body compiled across section breaks: split at the marks, each piece with its section's page and parts.
    let piece: Block[] = [];
    for (const block of bindBlocks(section.body, ctx, [])) {
      const end = block as unknown as SectionEnd;
      if (end.type !== 'sectionEnd') piece.push(block);
      else {
        const body = piece;
        sections.push(bindSection(compiled.sections[end.section], () => body, ctx));
        piece = [];
      }
    }
    const rest = piece;
    sections.push(bindSection(compiled.sections[section.spans], () => rest, ctx));
    i = section.spans;
  }
  const model: TemplateModel = { version: 1, sections, defaults: compiled.defaults, locale };
  if (compiled.metadata) model.metadata = compiled.metadata;
  if (compiled.background) model.background = compiled.background;
  return { model, images: ctx.images };
}

/** `body` gives the bound body (bound between the header and the footer, in reading order). */
function bindSection(section: CSection, body: () => Block[], ctx: Ctx): Section {
  const bound: Section = { page: section.page, body: [] };
  const header = bindPartSet(section.header, ctx);
  bound.body = body();
  const footer = bindPartSet(section.footer, ctx);
  if (header) bound.header = header;
  if (footer) bound.footer = footer;
  if (section.titlePage !== undefined) bound.titlePage = section.titlePage;
  if (section.continuous === true) bound.continuous = true;
  if (section.pageNumbers) bound.pageNumbers = section.pageNumbers;
  return bound;
}

function bindPartSet(set: CPartSet | undefined, ctx: Ctx): HeaderFooterSet | undefined {
  if (!set) return undefined;
  const out: HeaderFooterSet = {};
  if (set.default) out.default = bindBlocks(set.default, ctx, []);
  if (set.first) out.first = bindBlocks(set.first, ctx, []);
  if (set.even) out.even = bindBlocks(set.even, ctx, []);
  return out;
}

/** Runs `body` once per scope the section opens: per item of a list, once for a truthy value, never for a falsy one. */
function eachScope(ref: CName, inverted: boolean, ctx: Ctx, body: () => void): void {
  const value = resolve(ctx.stack, ref, ctx.index);
  if (inverted) {
    if (!isTruthy(value)) body();
    return;
  }
  if (Array.isArray(value)) {
    if (value.length > ctx.limits.rowsPerList) {
      throw new EngineError(
        'limit_exceeded',
        `The list "${ref.name}" has ${value.length.toLocaleString('en-US')} items, more than the limit of ${ctx.limits.rowsPerList.toLocaleString('en-US')} rows per list.`,
        ref.name,
      );
    }
    ctx.items += value.length;
    if (ctx.items > ctx.limits.itemsPerDocument) {
      throw new EngineError(
        'limit_exceeded',
        `The lists of this document repeat more than ${ctx.limits.itemsPerDocument.toLocaleString('en-US')} items in all (the limit of items per document), reached at "${ref.name}".`,
        ref.name,
      );
    }
    const outer = ctx.index;
    for (let i = 0; i < value.length; i++) {
      ctx.stack.push(value[i]);
      ctx.index = i;
      body();
      ctx.stack.pop();
    }
    ctx.index = outer;
    return;
  }
  if (!isTruthy(value)) return;
  ctx.stack.push(value);
  body();
  ctx.stack.pop();
}

function bindBlocks(blocks: CBlock[], ctx: Ctx, out: Block[]): Block[] {
  for (const block of blocks) {
    switch (block.k) {
      case 'static':
        out.push(block.block);
        break;
      case 'para': {
        if (block.joinPrev && ctx.openPara !== null && out[out.length - 1] === ctx.openPara) {
          // The piece of a paragraph cut by a section's tag continues the paragraph left open just before it.
          bindInline(block.content, ctx, ctx.openPara.runs);
          if (block.footnotes) ctx.openPara.footnotes = block.footnotes;
          if (!block.openEnd) ctx.openPara = null;
          break;
        }
        const runs: Inline[] = [];
        bindInline(block.content, ctx, runs);
        if (block.dropIfEmpty && runs.length === 0) {
          ctx.openPara = null;
          break;
        }
        const para: Paragraph = { type: 'paragraph', runs };
        if (block.style) para.style = block.style;
        if (block.list) para.list = block.list;
        if (block.footnotes) para.footnotes = block.footnotes;
        out.push(para);
        ctx.openPara = block.openEnd ? para : null;
        break;
      }
      case 'section':
        eachScope(block.ref, block.inverted, ctx, () => bindBlocks(block.body, ctx, out));
        break;
      case 'table': {
        const rows = bindRows(block.rows, ctx, []);
        // A table whose every row was a loop over an empty list has nothing left to draw.
        if (rows.length === 0) break;
        out.push(block.style ? { type: 'table', columns: block.columns, rows, style: block.style } : { type: 'table', columns: block.columns, rows });
        break;
      }
    }
  }
  return out;
}

function bindRows(rows: CRow[], ctx: Ctx, out: TableRow[]): TableRow[] {
  for (const row of rows) {
    switch (row.k) {
      case 'static':
        out.push(row.row);
        break;
      case 'row':
        // copyWith, not spread: the props come from the template's JSON (server/engine/copy.ts says why).
        out.push(copyWith(row.props, { cells: row.cells.map((cell) => copyWith(cell.props, { blocks: bindBlocks(cell.blocks, ctx, []) })) }));
        break;
      case 'section':
        eachScope(row.ref, row.inverted, ctx, () => bindRows(row.rows, ctx, out));
        break;
    }
  }
  return out;
}

function bindInline(content: CInline[], ctx: Ctx, runs: Inline[]): void {
  for (const node of content) {
    switch (node.k) {
      case 'run':
        // A footnote's mark stays a run of its own: it names its note (flow/notes.ts).
        if (node.run.type === 'text' && node.run.footnote === undefined && node.run.clear === undefined) pushText(runs, node.run.text, node.run.style);
        else runs.push(node.run);
        break;
      case 'var': {
        const text = formatValue(resolve(ctx.stack, node.ref, ctx.index), node.filters, ctx.locale, node.ref.name);
        if (text !== '') pushText(runs, text, node.style);
        break;
      }
      case 'image': {
        const value = resolve(ctx.stack, node.ref, ctx.index);
        if (value === undefined || value === null || value === '') break;
        if (typeof value !== 'string') {
          throw new EngineError('invalid_image', `The image for "${node.ref.name}" must be a data: URI or an http(s) URL.`, node.ref.name);
        }
        if (value.trim() === '') break;
        runs.push(ctx.images.add(value, node.ref.name, node.box, node.maxWidth));
        break;
      }
      case 'section':
        eachScope(node.ref, node.inverted, ctx, () => bindInline(node.content, ctx, runs));
        break;
      case 'shape':
        // Its parts are one-cell tables; bound, they stay tables (a table's section tags repeat rows, never the table).
        runs.push({ ...node.run, parts: bindBlocks(node.parts, ctx, []).filter((b): b is Table => b.type === 'table') });
        break;
    }
  }
}

/** Appends text, joining it to the previous run when that has the same (interned) style. */
function pushText(runs: Inline[], text: string, style: RunStyle | undefined): void {
  const last = runs[runs.length - 1];
  if (last !== undefined && last.type === 'text' && last.style === style && last.footnote === undefined && last.clear === undefined) {
    runs[runs.length - 1] = style ? { type: 'text', text: last.text + text, style } : { type: 'text', text: last.text + text };
    return;
  }
  runs.push(style ? { type: 'text', text, style } : { type: 'text', text });
}

/** Binds the first section's body without images or I/O: for short texts such as output file names. */
export function bindBodySync(compiled: CompiledTemplate, data: unknown, locale?: string): Block[] {
  const limits = DEFAULT_BIND_LIMITS;
  const ctx: Ctx = {
    stack: [data ?? {}],
    index: undefined,
    locale: checkLocale(locale || compiled.locale || DEFAULT_LOCALE),
    limits,
    images: new ImageQueue(limits, undefined),
    items: 0,
    openPara: null,
  };
  const section = compiled.sections[0];
  return section ? bindBlocks(section.body, ctx, []) : [];
}
