/**
 * The engine's one door: pure functions from (template file, data) to bytes. The CLI, the service, the render
 * worker and the tests all call these, never the sub-modules directly.
 *
 *   template file ──(json/load | docx/import)──▶ source model ──(tags/compile)──▶ compiled template + fields
 *   compiled template + data ──(bind)──▶ bound model ──(pdf/render)──▶ PDF ──(pdf/encrypt if password)──▶ bytes
 */
import type { Delimiters, DocMetadata, Field, ImportWarning, TemplateError, TemplateModel } from './model/types.js';
import { DEFAULT_DELIMITERS } from './model/types.js';
import { loadJsonTemplate } from './json/load.js';
import { openDocx, Warnings, type DocxLimits } from './docx/import.js';
import type { DocxPackage } from './docx/package.js';
import { compileTags, type CompiledTemplate } from './tags/compile.js';
import { bindTemplate, type BindLimits } from './bind/bind.js';
import { renderModel, type RenderLimits } from './pdf/render.js';
import { encryptPdf } from './pdf/encrypt.js';
import { fillText } from './tags/fill-text.js';
import { sampleData as sampleDataFor } from './tags/sample.js';
import { dataSchema as dataSchemaFor } from './tags/schema.js';
import { EngineError } from './errors.js';
import { fillDocx as fillDocxPlan, type DocxFillPlan } from './docx/fill.js';
import { planDocxFill } from './docx/fill-plan.js';

export type { CompiledTemplate } from './tags/compile.js';
export { EngineError } from './errors.js';
export type TemplateKind = 'json' | 'docx';

export interface TemplateSource {
  kind: TemplateKind;
  bytes: Uint8Array;
  delimiters?: Delimiters;
  /** Zip-bomb limits for .docx files (CONTRACT.md §8); each one left out keeps its default. */
  docxLimits?: Partial<DocxLimits>;
}

export type { DocxLimits } from './docx/import.js';

export type { ImportWarning } from './model/types.js';

/**
 * `warnings`: what the import left out or changed (a .docx's EMF pictures, charts, …), aggregated per code + part
 * + element with a count; empty when nothing (and always for .json templates). `docx` (.docx templates): the
 * same tags compiled for the filled .docx, which fillDocx takes.
 */
export type CompileResult =
  | { ok: true; template: CompiledTemplate; fields: Field[]; warnings: ImportWarning[]; docx?: DocxFillPlan }
  | { ok: false; errors: TemplateError[] };

/** Resolves an image value (data: URI or http(s) URL) given for `field` to bytes. */
export type ImageResolver = (src: string, field: string) => Promise<{ data: Uint8Array; mime: string }>;

export interface RenderOptions {
  /** Draw the "TEST DOCUMENT" watermark on every page. */
  test?: boolean;
  /** Encrypt the PDF with this open password. */
  password?: string | null;
  /** Overrides the template's locale for filters. */
  locale?: string;
  metadata?: DocMetadata;
  /** How image values are fetched; without it only data: URIs are accepted. */
  resolveImage?: ImageResolver;
  /**
   * Data limits (CONTRACT.md §8); each one left out keeps its default: rowsPerList 10,000, imagesPerDocument 50
   * (distinct images), imageBytes 10 MB, imagePixels 40 M, itemsPerDocument 200,000 (all list items together).
   */
  limits?: Partial<BindLimits>;
  /**
   * Limits checked while the PDF is made: most pages, most milliseconds (counted from the call, binding and
   * image fetches included). Past either, renderPdf throws EngineError limit_exceeded naming the limit.
   */
  renderLimits?: RenderLimits;
}

export type { BindLimits } from './bind/bind.js';

export interface RenderResult {
  bytes: Uint8Array;
  pages: number;
}

/** Reads a template file and checks its tags. Never throws for bad input: problems come back as errors. */
export function compileTemplate(source: TemplateSource): CompileResult {
  const delimiters = source.delimiters ?? DEFAULT_DELIMITERS;
  let model: TemplateModel;
  let pkg: DocxPackage | undefined;
  const warnings = new Warnings();
  try {
    if (source.kind === 'json') model = loadJsonTemplate(source.bytes);
    else ({ model, pkg } = openDocx(source.bytes, { limits: source.docxLimits, warnings }));
  } catch (err) {
    // The reader's own code stays (unsupported_file, too_large, invalid_template) so the service can answer
    // 415, 413 or 422 from it.
    if (err instanceof EngineError) {
      return { ok: false, errors: [{ code: err.code, message: err.message, location: { part: 'file' } }] };
    }
    throw err;
  }
  let compiled: ReturnType<typeof compileTags>;
  try {
    compiled = compileTags(model, delimiters);
  } catch (err) {
    // Depth is bounded where input sets it (XML elements, blocks, sections); should a shape still exhaust the
    // stack, it is this template's problem, not a server error.
    if (err instanceof RangeError) {
      return { ok: false, errors: [{ code: 'invalid_template', message: 'The template is nested too deeply to be read.', location: { part: 'file' } }] };
    }
    throw err;
  }
  if (compiled.errors.length > 0) return { ok: false, errors: compiled.errors };
  const result: CompileResult = { ok: true, template: compiled.template, fields: compiled.template.fields, warnings: warnings.list() };
  if (!pkg) return result;
  // The filled .docx's parts, compiled now by the same compiler: a template either fills in both outputs or is
  // refused here with the located errors.
  try {
    const fill = planDocxFill(source.bytes, pkg, delimiters, model);
    if ('errors' in fill) return { ok: false, errors: fill.errors };
    result.docx = fill.plan;
  } catch (err) {
    if (err instanceof EngineError) return { ok: false, errors: [{ code: err.code, message: err.message, location: { part: 'file' } }] };
    if (err instanceof RangeError) return { ok: false, errors: [{ code: 'invalid_template', message: 'The template is nested too deeply to be read.', location: { part: 'file' } }] };
    throw err;
  }
  return result;
}

/** Binds data to a compiled template and renders the PDF. Throws EngineError for data problems (bad image…). */
export async function renderPdf(
  template: CompiledTemplate,
  data: Record<string, unknown>,
  options: RenderOptions = {},
): Promise<RenderResult> {
  const start = performance.now();
  const bound = await bindTemplate(template, data, {
    locale: options.locale,
    resolveImage: options.resolveImage,
    limits: options.limits,
  });
  const rendered = await renderModel(bound, { test: options.test === true, metadata: options.metadata, limits: options.renderLimits, start });
  if (options.password) {
    return { bytes: await encryptPdf(rendered.bytes, options.password), pages: rendered.pages };
  }
  return rendered;
}

/** Fills tags in a short text such as an output file name pattern (`Invoice {{number}}`). */
export function fillOutputText(pattern: string, data: Record<string, unknown>, delimiters?: Delimiters): string {
  return fillText(pattern, data, delimiters ?? DEFAULT_DELIMITERS);
}

/** A data object that fits the fields, for the GUI and the template record's `sample_data`. */
export function sampleData(fields: Field[]): Record<string, unknown> {
  return sampleDataFor(fields);
}

/** JSON Schema (draft 2020-12) of the data a template takes. */
export function dataSchema(fields: Field[]): Record<string, unknown> {
  return dataSchemaFor(fields);
}

export type { DocxFillPlan } from './docx/fill.js';

export interface FillDocxRequest {
  locale?: string;
  /** Fetches image values that are http(s) URLs (the same outbound-guarded resolver the PDF path uses). */
  resolveImage?: ImageResolver;
  /** Data limits, as RenderOptions.limits for the PDF. */
  limits?: Partial<BindLimits>;
}

/**
 * The filled .docx of a .docx template (output_type=docx, and the editable copy kept beside a PDF), from
 * compileTemplate's result (its `docx`), with the same tag semantics as the PDF. Throws EngineError for bad data.
 */
export function fillDocx(compiled: { docx?: DocxFillPlan }, data: Record<string, unknown>, options: FillDocxRequest = {}): Promise<Uint8Array> {
  if (!compiled.docx) return Promise.reject(new EngineError('invalid_template', 'Only a .docx template can be filled as a .docx.'));
  return fillDocxPlan(compiled.docx, data, { locale: options.locale, limits: options.limits, resolveImage: options.resolveImage });
}

/** Removes VBA (vbaProject.bin, vbaData.xml, their relationships and content types) from a .docx/.docm package. */
export { stripMacros, type MacroStripResult } from './docx/macros.js';

/** Names the folder of the bundled fonts for this thread (the packaged app keeps them outside the project). */
export { setFontsDir } from './pdf/render.js';

/**
 * Sets the most pixels an image drawn into a PDF may have, for this thread (limits.imagePixels; default 40 M). The
 * binder checks tagged images with RenderOptions.limits; this also covers images a template carries itself.
 */
export { setMaxImagePixels } from './pdf/images.js';
