/**
 * Compiles a source model's tags once per template version: every error with its location, the `fields`, and a
 * CompiledTemplate that bind/ walks for every document. See CONTRACT.md §5 and docs/templates.md.
 */
import type { Block, Delimiters, HeaderFooterSet, Section, ShapeRun, TemplateError, TemplateModel } from '../model/types.js';
import type { CBlock, CPartSet, CSection, CompiledTemplate, SectionEnd } from './types.js';
import { analyzePart } from './analyze.js';
import { matchSections } from './pairs.js';
import { buildContainer, compiledShapes, StyleInterner } from './build.js';
import { extractFields } from './fields.js';

export type { CompiledTemplate } from './types.js';

const VARIANTS = [
  ['default', ''],
  ['first', ':first'],
  ['even', ':even'],
] as const;

/** A pair of delimiters the scanner can work with: both non-empty, without line breaks, of sane length. */
export function checkDelimiters(delimiters: Delimiters): string | null {
  const [open, close] = delimiters;
  for (const d of [open, close]) {
    if (typeof d !== 'string' || d.trim() === '' || d.length > 10 || /[\r\n]/.test(d)) {
      return `The delimiters must be two short non-blank texts, such as {{ and }}; got ${JSON.stringify(open)} and ${JSON.stringify(close)}.`;
    }
  }
  return null;
}

export function compileTags(model: TemplateModel, delimiters: Delimiters): { template: CompiledTemplate; errors: TemplateError[] } {
  const errors: TemplateError[] = [];
  const badDelimiters = checkDelimiters(delimiters);
  if (badDelimiters) {
    errors.push({ code: 'invalid_delimiters', message: badDelimiters, location: { part: 'template' } });
    return {
      template: { kind: 'docloom-compiled', version: 1, fields: [], delimiters: [String(delimiters[0]), String(delimiters[1])], sections: [], defaults: model.defaults },
      errors,
    };
  }
  const styles = new StyleInterner();
  const several = model.sections.length > 1;
  const sections: CSection[] = model.sections.map((section, index) => {
    const prefix = several ? `section ${index + 1} ` : '';
    const width = contentWidth(section);
    const part = (blocks: Block[], name: string): CBlock[] => compilePart(blocks, prefix + name, width, delimiters, styles, errors);
    const compiled: CSection = { page: section.page, body: [] };
    // Headers first: that is reading order on the page, and the order fields appear in.
    const header = partSet(section.header, 'header', part);
    compiled.body = part(section.body, 'body');
    const footer = partSet(section.footer, 'footer', part);
    if (header) compiled.header = header;
    if (footer) compiled.footer = footer;
    if (section.titlePage !== undefined) compiled.titlePage = section.titlePage;
    if (section.continuous === true) compiled.continuous = true;
    if (section.pageNumbers) compiled.pageNumbers = section.pageNumbers;
    return compiled;
  });
  if (several) joinSpanningBodies(model, sections, delimiters, styles, errors);
  const ok = errors.length === 0;
  const template: CompiledTemplate = {
    kind: 'docloom-compiled',
    version: 1,
    fields: ok ? extractFields(sections) : [],
    delimiters: [delimiters[0], delimiters[1]],
    sections: ok ? sections : [],
    defaults: model.defaults,
  };
  if (model.metadata) template.metadata = model.metadata;
  if (model.locale) template.locale = model.locale;
  if (model.background) template.background = model.background;
  return { template, errors };
}

const PAIRING = new Set(['unclosed_section', 'unopened_section', 'mismatched_section']);

/**
 * A section opened in one section's body and closed in a later one's (a loop spanning a section break): when
 * every error of the bodies is such a pairing error and the bodies compiled as one, with SectionEnd marks between,
 * have no error at all, they are one body (issue #12 item 6). Binding splits it back at the marks; the last
 * section's properties stay the last.
 */
function joinSpanningBodies(model: TemplateModel, sections: CSection[], delimiters: Delimiters, styles: StyleInterner, errors: TemplateError[]): void {
  const isBody = (e: TemplateError): boolean => /^section \d+ body$/.test(e.location.part);
  const bodyErrors = errors.filter(isBody);
  if (bodyErrors.length === 0 || !bodyErrors.every((e) => PAIRING.has(e.code))) return;
  const joined: Block[] = [];
  model.sections.forEach((section, index) => {
    joined.push(...section.body);
    if (index < model.sections.length - 1) joined.push({ type: 'sectionEnd', section: index } as SectionEnd as unknown as Block);
  });
  const jointErrors: TemplateError[] = [];
  const body = compilePart(joined, 'body', contentWidth(model.sections[0]), delimiters, styles, jointErrors);
  if (jointErrors.length > 0) return;
  sections[0].body = body;
  sections[0].spans = sections.length - 1;
  for (let i = 1; i < sections.length; i++) sections[i].body = [];
  const others = errors.filter((e) => !isBody(e));
  errors.splice(0, errors.length, ...others);
}

function partSet(set: HeaderFooterSet | undefined, name: 'header' | 'footer', part: (blocks: Block[], name: string) => CBlock[]): CPartSet | undefined {
  if (!set) return undefined;
  const out: CPartSet = {};
  for (const [variant, suffix] of VARIANTS) {
    const blocks = set[variant];
    if (blocks) out[variant] = part(blocks, name + suffix);
  }
  return out;
}

function contentWidth(section: Section): number {
  const { width, margins } = section.page;
  return Math.max(1, width - margins.left - margins.right);
}

function compilePart(
  blocks: Block[],
  part: string,
  width: number,
  delimiters: Delimiters,
  styles: StyleInterner,
  errors: TemplateError[],
): CBlock[] {
  const before = errors.length;
  // The text inside shapes drawn in a line is a part of its own, as a text box is: compiled first, kept by shape.
  for (const run of shapeRuns(blocks)) {
    const parts = compilePart(run.parts, part, run.width, delimiters, styles, errors);
    if (parts.some((b) => b.k !== 'static')) compiledShapes.set(run, parts);
    else compiledShapes.delete(run);
  }
  const analysis = analyzePart(blocks, width, { part, delimiters, errors });
  matchSections(analysis, part, errors);
  if (errors.length > before) {
    // Report a part's problems in reading order (tag problems and section problems are found in two passes).
    const found = errors.splice(before).sort((a, b) => (a.location.paragraph ?? 0) - (b.location.paragraph ?? 0));
    errors.push(...found);
    return [];
  }
  return buildContainer(analysis.root, styles);
}

/** The shapes drawn in the lines of `blocks` (table cells included; not those inside the shapes themselves). */
function shapeRuns(blocks: Block[]): ShapeRun[] {
  const out: ShapeRun[] = [];
  for (const block of blocks) {
    if (block.type === 'paragraph') for (const run of block.runs) if (run.type === 'shape') out.push(run);
    if (block.type === 'table') for (const row of block.rows) for (const cell of row.cells) out.push(...shapeRuns(cell.blocks));
  }
  return out;
}
