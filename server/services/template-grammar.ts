/**
 * A template stored before the template language (issue #12) may hold tags it now refuses (`{{a >}}`, `{@raw}`).
 * Such a template is kept, but its document requests answer 422 with every refused tag located, as its upload
 * would now, instead of a document `failed` with `invalid_template`. Checked once per template version (the
 * compile runs on this thread then; the result, usually "no errors", is cached).
 */
import fs from 'node:fs';
import type { TemplateError } from '../engine/model/types.js';
import type { TemplateRecord } from '../store/index.js';
import { loadEngine } from './engine.js';
import { validationError } from './errors.js';
import { MAX_LISTED_TEMPLATE_ERRORS } from './import-core.js';

const CACHE_SIZE = 200;

export class TemplateGrammarCheck {
  readonly #cache = new Map<string, TemplateError[]>();

  /** Throws the 422 when the stored file's tags do not compile; anything else (a missing file) is the render's. */
  async assertCompiles(template: TemplateRecord, filePath: string): Promise<void> {
    const errors = await this.#errors(template, filePath);
    if (errors.length === 0) return;
    const listed = errors.slice(0, MAX_LISTED_TEMPLATE_ERRORS);
    throw validationError(
      { template_id: listed.map((e) => `The template's tags must be corrected: ${e.message}`) },
      listed,
    );
  }

  async #errors(template: TemplateRecord, filePath: string): Promise<TemplateError[]> {
    const key = `${template.uuid}@${template.version}`;
    const known = this.#cache.get(key);
    if (known) return known;
    let bytes: Buffer;
    try {
      bytes = await fs.promises.readFile(filePath);
    } catch {
      return [];
    }
    const engine = await loadEngine();
    const result = engine.compileTemplate({ kind: template.kind, bytes, delimiters: template.delimiters });
    // Only tag problems (located in a paragraph) are reported here; a file-level problem stays the render's.
    const errors = result.ok ? [] : result.errors.filter((e) => e.location.paragraph !== undefined);
    if (this.#cache.size >= CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value as string);
    this.#cache.set(key, errors);
    return errors;
  }
}
