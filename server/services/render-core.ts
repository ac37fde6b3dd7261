/**
 * One render: template file → compiled template (cached by uuid + version) → PDF bytes. Runs in a render worker
 * or, with renderWorkers = 0, on the main thread; either way the outcome is plain data that crosses threads.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ImageResolver } from '../engine/index.js';
import type { CompiledTemplate, DocxFillPlan } from '../engine/index.js';
import type { DocMetadata } from '../engine/model/types.js';
import type { TemplateKind } from '../store/records.js';
import { configuredFontsDir, loadEngine, useFontsDir } from './engine.js';
import type { Limits } from '../config.js';
import { imageResolvers } from './images.js';
import type { ErrorCode } from '../errors/catalogue.js';
import { hrnow, type RenderTimings } from './profile.js';

/**
 * What a render thread needs besides the jobs: plain data, since it is sent to each worker as workerData. The
 * network policy is not here: it can change while the service runs, so every job carries it.
 */
export interface RenderSettings {
  limits: Limits;
  /** The bundled fonts (<resources>/fonts); null keeps the engine's own default (the project's resources). */
  fontsDir: string | null;
}

export interface RenderJob {
  /** `<uuid>@<version>`: the compiled-template cache key. */
  key: string;
  templatePath: string;
  kind: TemplateKind;
  delimiters: [string, string];
  data: Record<string, unknown>;
  test: boolean;
  password: string | null;
  locale: string | null;
  metadata?: DocMetadata;
  /** `docx`: the filled .docx is the output (DOCX templates only). */
  output: 'pdf' | 'docx';
  /** Also fill an editable .docx copy beside the PDF (DOCX templates only; best effort). */
  editableCopy: boolean;
  /** Image URLs may reach the local network: the setting at the time the job was made (CONTRACT.md §9). */
  allowPrivateNetwork: boolean;
  /** Profiling (DOCLOOM_PROFILE): stamps filled in on the way; the outcome carries them back. */
  timings?: RenderTimings;
}

export type RenderOutcome =
  /** `pages` is null for .docx output; `editable` is the filled .docx copy when one was asked for and made. */
  | { ok: true; bytes: Uint8Array; pages: number | null; editable?: Uint8Array; editableError?: string; timings?: RenderTimings }
  /** `internal`: not the caller's fault (a bug, a crash); the message is then generic and the detail is logged. */
  | { ok: false; code: ErrorCode; message: string; field?: string; internal?: boolean; detail?: string };

const CACHE_SIZE = 64;

interface CachedTemplate {
  compiled: CompiledTemplate;
  /** .docx templates: the same tags compiled for the filled .docx. */
  docx?: DocxFillPlan;
}

export class RenderCore {
  /** Compiled template (for the PDF and, from a .docx, the filled .docx), by `<uuid>@<version>`. */
  readonly #cache = new Map<string, CachedTemplate>();
  readonly #resolvers: (allowPrivateNetwork: boolean) => ImageResolver;

  constructor(private readonly settings: RenderSettings) {
    // Every job names its own policy; the default here is never used, and it is the safe one.
    this.#resolvers = imageResolvers({ allowPrivateNetwork: false, limits: settings.limits });
    if (settings.fontsDir) useFontsDir(settings.fontsDir);
  }

  /**
   * Loads the engine and renders a small page once — Latin text in a standard font and Cyrillic in an embedded,
   * subset one, a table, the watermark — so fonts, the subsetter and the hot code paths are loaded and compiled
   * before the first real document (the pool says `ready` only after this). A failure here is not fatal: the
   * first document would simply pay for the loading.
   */
  async warm(): Promise<void> {
    const engine = await loadEngine();
    const model = {
      version: 1,
      defaults: { run: { font: 'Helvetica', size: 11 }, paragraph: {} },
      sections: [
        {
          page: { width: 595, height: 842, margins: { top: 56, right: 56, bottom: 56, left: 56 } },
          body: [
            { type: 'paragraph', runs: [{ type: 'text', text: 'Warm-up {{x}} — Привет, 1 234,50 €' }] },
            { type: 'paragraph', runs: [{ type: 'text', text: '{{#rows}}{{.}} {{/rows}}' }] },
          ],
        },
      ],
    };
    const compiled = engine.compileTemplate({ kind: 'json', bytes: new TextEncoder().encode(JSON.stringify(model)), delimiters: ['{{', '}}'] });
    if (!compiled.ok) return;
    await engine.renderPdf(compiled.template, { x: 'ready', rows: ['a', 'b', 'c'] }, { test: true, password: null });
  }

  async render(job: RenderJob): Promise<RenderOutcome> {
    const timings = job.timings;
    if (timings) timings.received = hrnow();
    const outcome = await this.#render(job);
    if (timings && outcome.ok) {
      timings.rendered = hrnow();
      outcome.timings = timings;
    }
    return outcome;
  }

  async #render(job: RenderJob): Promise<RenderOutcome> {
    try {
      const engine = await loadEngine();
      // The renderer's own pixel limit (images a template carries itself); set here, not in the constructor,
      // because the engine is loaded lazily (services/engine.ts) and the call is a plain assignment.
      engine.setMaxImagePixels(this.settings.limits.imagePixels);
      const template = await this.#compiled(job);
      if ('code' in template) return template;
      if (job.timings) job.timings.compiled = hrnow();
      if (job.output === 'docx') {
        const bytes = await engine.fillDocx(template, job.data, this.#fillOptions(job));
        return { ok: true, bytes, pages: null };
      }
      const result = await engine.renderPdf(template.compiled, job.data, {
        test: job.test,
        password: job.password,
        locale: job.locale ?? undefined,
        metadata: job.metadata,
        resolveImage: this.#resolvers(job.allowPrivateNetwork),
        limits: this.#bindLimits(),
        renderLimits: { pages: this.settings.limits.pagesPerDocument, ms: this.settings.limits.renderMs },
      });
      const outcome: RenderOutcome = { ok: true, bytes: result.bytes, pages: result.pages };
      if (job.editableCopy && job.kind === 'docx') {
        try {
          outcome.editable = await engine.fillDocx(template, job.data, this.#fillOptions(job));
        } catch (err) {
          // The PDF is what was asked for; a missing editable copy is logged, not fatal.
          outcome.editableError = err instanceof Error ? err.message : String(err);
        }
      }
      return outcome;
    } catch (err) {
      const engine = await loadEngine().catch(() => null);
      // First: the PDF renderer wraps a failed font read in its own render_failed error.
      const fonts = missingFont(err);
      if (fonts) return fonts;
      if (engine && err instanceof engine.EngineError) {
        // render_failed is the renderer's word for something that went wrong inside it: logged like a crash.
        const internal = err.code === 'render_failed' ? { internal: true, detail: describeError(err.cause ?? err) } : {};
        return { ok: false, code: err.code, message: err.message, ...(err.field ? { field: err.field } : {}), ...internal };
      }
      return { ok: false, code: 'render_failed', message: 'The document could not be rendered.', internal: true, detail: describeError(err) };
    }
  }

  async #compiled(job: RenderJob): Promise<CachedTemplate | Extract<RenderOutcome, { ok: false }>> {
    const hit = this.#cache.get(job.key);
    if (hit) {
      // Refresh its place in the LRU order.
      this.#cache.delete(job.key);
      this.#cache.set(job.key, hit);
      return hit;
    }
    let bytes: Buffer;
    try {
      bytes = await fs.promises.readFile(job.templatePath);
    } catch {
      return { ok: false, code: 'template_missing', message: 'The template file is missing; the template was changed or deleted.' };
    }
    const engine = await loadEngine();
    const compiled = engine.compileTemplate({ kind: job.kind, bytes, delimiters: job.delimiters, docxLimits: this.#docxLimits() });
    if (!compiled.ok) {
      return { ok: false, code: 'invalid_template', message: compiled.errors.map((e) => e.message).join(' ') };
    }
    const entry: CachedTemplate = { compiled: compiled.template, ...(compiled.docx ? { docx: compiled.docx } : {}) };
    this.#cache.set(job.key, entry);
    if (this.#cache.size > CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value as string);
    return entry;
  }

  #docxLimits() {
    return { maxUncompressedBytes: this.settings.limits.docxUncompressedBytes, maxEntryRatio: this.settings.limits.docxEntryRatio };
  }

  /** The data limits binding checks, the same for the PDF and the filled .docx. */
  #bindLimits() {
    const { rowsPerList, imagesPerDocument, imageBytes, imagePixels } = this.settings.limits;
    return { rowsPerList, imagesPerDocument, imageBytes, imagePixels };
  }

  #fillOptions(job: RenderJob) {
    return { locale: job.locale ?? undefined, resolveImage: this.#resolvers(job.allowPrivateNetwork), limits: this.#bindLimits() };
  }
}

type Failure = Extract<RenderOutcome, { ok: false }>;

function describeError(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

/**
 * A render that failed because a bundled font file could not be read (a resources folder without its fonts,
 * say a packaged app pointed at the wrong folder): said plainly instead of "could not be rendered". Recognised by
 * the file-system error, found in the cause chain, naming a file inside the configured fonts folder.
 */
function missingFont(err: unknown): Failure | null {
  const dir = configuredFontsDir();
  if (!dir) return null;
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const file = (e as NodeJS.ErrnoException).path;
    if (typeof file === 'string' && path.resolve(file).startsWith(dir + path.sep)) {
      return {
        ok: false,
        code: 'fonts_missing',
        message: `The bundled font ${path.basename(file)} cannot be read from ${dir}: the resources folder (DOCLOOM_RESOURCES_DIR) has no complete fonts folder. Reinstall docloom, or point DOCLOOM_RESOURCES_DIR at a folder holding fonts/.`,
        internal: true,
        detail: describeError(err),
      };
    }
  }
  return null;
}
