/**
 * One render: template file → compiled template (cached by uuid + version) → PDF bytes. Runs in a render worker
 * or, with renderWorkers = 0, on the main thread; either way the outcome is plain data that crosses threads.
 */
import fs from 'node:fs';
import type { ImageResolver } from '../engine/index.js';
import type { CompiledTemplate } from '../engine/index.js';
import type { DocMetadata } from '../engine/model/types.js';
import type { TemplateKind } from '../store/records.js';
import { loadEngine } from './engine.js';
import { imageResolvers, type ImageSettings } from './images.js';
import { docxFiller } from './docx-output.js';

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
}

export type RenderOutcome =
  /** `pages` is null for .docx output; `editable` is the filled .docx copy when one was asked for and made. */
  | { ok: true; bytes: Uint8Array; pages: number | null; editable?: Uint8Array; editableError?: string }
  /** `internal`: not the caller's fault (a bug, a crash); the message is then generic and the detail is logged. */
  | { ok: false; code: string; message: string; field?: string; internal?: boolean; detail?: string };

const CACHE_SIZE = 64;

interface CachedTemplate {
  compiled: CompiledTemplate;
  source: Uint8Array;
}

export class RenderCore {
  /** Compiled template and its file's bytes (the .docx filler needs them), by `<uuid>@<version>`. */
  readonly #cache = new Map<string, CachedTemplate>();
  readonly #resolvers: () => ImageResolver;

  constructor(private readonly images: ImageSettings) {
    this.#resolvers = imageResolvers(images);
  }

  async render(job: RenderJob): Promise<RenderOutcome> {
    try {
      const engine = await loadEngine();
      const template = await this.#compiled(job);
      if ('code' in template) return template;
      if (job.output === 'docx') {
        const fill = docxFiller(engine);
        if (!fill) return { ok: false, code: 'docx_unavailable', message: 'Filled .docx output is not available.' };
        const bytes = await fill(template.source, job.data, job.delimiters, { locale: job.locale ?? undefined, fetchImage: this.#resolvers() });
        return { ok: true, bytes, pages: null };
      }
      const result = await engine.renderPdf(template.compiled, job.data, {
        test: job.test,
        password: job.password,
        locale: job.locale ?? undefined,
        metadata: job.metadata,
        resolveImage: this.#resolvers(),
        limits: {
          rowsPerList: this.images.limits.rowsPerList,
          imagesPerDocument: this.images.limits.imagesPerDocument,
          imageBytes: this.images.limits.imageBytes,
          imagePixels: this.images.limits.imagePixels,
        },
      });
      const outcome: RenderOutcome = { ok: true, bytes: result.bytes, pages: result.pages };
      const fill = job.editableCopy && job.kind === 'docx' ? docxFiller(engine) : undefined;
      if (fill) {
        try {
          outcome.editable = await fill(template.source, job.data, job.delimiters, { locale: job.locale ?? undefined, fetchImage: this.#resolvers() });
        } catch (err) {
          // The PDF is what was asked for; a missing editable copy is logged, not fatal.
          outcome.editableError = err instanceof Error ? err.message : String(err);
        }
      }
      return outcome;
    } catch (err) {
      const engine = await loadEngine().catch(() => null);
      if (engine && err instanceof engine.EngineError) {
        return { ok: false, code: err.code, message: err.message, ...(err.field ? { field: err.field } : {}) };
      }
      return { ok: false, code: 'render_failed', message: 'The document could not be rendered.', internal: true, detail: err instanceof Error ? (err.stack ?? err.message) : String(err) };
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
    const compiled = engine.compileTemplate({ kind: job.kind, bytes, delimiters: job.delimiters });
    if (!compiled.ok) {
      return { ok: false, code: 'template_invalid', message: compiled.errors.map((e) => e.message).join(' ') };
    }
    const entry: CachedTemplate = { compiled: compiled.template, source: bytes };
    this.#cache.set(job.key, entry);
    if (this.#cache.size > CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value as string);
    return entry;
  }
}
