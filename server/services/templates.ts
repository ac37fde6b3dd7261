/**
 * Templates (CONTRACT.md §4): import a .docx or .json file, check every tag, keep the record and the file;
 * change settings or replace the file (a new version); delete. Compiling happens here once per upload to list
 * the errors and fields; the render side compiles again and caches by uuid + version.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_LIMITS, type Limits } from '../config.js';
import type { ImportWarning, TemplateError } from '../engine/model/types.js';
import type { TemplateKind, TemplateRecord } from '../store/index.js';
import type { Page, TemplateRepo } from '../store/repositories.js';
import { nowIso } from './datetime.js';
import { ServiceError, Violations, notFound, validationError } from './errors.js';
import { createImporter, type Importer } from './import-jobs.js';
import { MAX_LISTED_TEMPLATE_ERRORS } from './import-core.js';
import {
  DEFAULT_EXPIRATION,
  optionalDelimiters,
  optionalExpiration,
  optionalFlag,
  optionalString,
} from './validate.js';

export interface UploadedFile {
  filename: string;
  bytes: Uint8Array;
}

export const DEFAULT_DELIMITERS: [string, string] = ['{{', '}}'];

/** A macro-enabled .docm is taken as a .docx once its macros are removed (see #prepare). */
const KINDS: Record<string, TemplateKind> = { '.docx': 'docx', '.docm': 'docx', '.json': 'json' };

export type { ImportWarning } from '../engine/model/types.js';

const MACROS_REMOVED = 'The file held macros (VBA); they were removed. docloom never runs macros, and no file it serves carries them.';

/** "body, paragraph 3, {{#items}}: The section … is never closed." */
export function describeTemplateError(e: TemplateError): string {
  const where = [e.location.part];
  if (e.location.paragraph !== undefined) where.push(`paragraph ${e.location.paragraph}`);
  if (e.location.tag) where.push(e.location.tag);
  return `${where.join(', ')}: ${e.message}`;
}

/** "word/document.xml, c:chart" — where an import warning is. */
export function describeWarningLocation(w: ImportWarning): string {
  return w.location.element ? `${w.location.part}, ${w.location.element}` : w.location.part;
}

interface Settings {
  name?: string;
  description?: string;
  output_filename?: string | null;
  output_filetype?: string;
  editable?: boolean;
  password?: string | null;
  expiration?: number;
  delimiters?: [string, string];
  google_doc_id?: string | null;
}

/** The .docx zip limits of CONTRACT.md §8 that apply to template files. */
export type TemplateLimits = Pick<Limits, 'docxUncompressedBytes' | 'docxEntryRatio'>;

/**
 * A template file the engine refused as a whole (location.part `file`) keeps the engine's code, so the answer
 * says what kind of problem it is: not a Word document at all → 415, over the zip limits → 413, damaged or not a
 * docloom template → 422 with the usual field errors.
 */
/** The name a file is kept under: a .docm is kept as .docx (its macros are removed on import). */
function keptFilename(filename: string): string {
  return path.basename(filename).replace(/\.docm$/i, '.docx');
}

function fileRefusal(errors: TemplateError[]): ServiceError | null {
  if (errors.length !== 1 || errors[0].location.part !== 'file') return null;
  const [e] = errors;
  if (e.code === 'unsupported_file') return new ServiceError('unsupported_type', e.message);
  if (e.code === 'too_large') return new ServiceError('too_large', e.message);
  return null;
}

/**
 * The 422 of a template with problems: the first MAX_LISTED_TEMPLATE_ERRORS of them, then one entry
 * "(and N more errors)" in `errors.file` and in `template_errors` (code `more_errors`), so a file with tens of
 * thousands of broken tags gets a short answer.
 */
export function templateErrorsResponse(errors: TemplateError[], total = errors.length): ServiceError {
  if (total <= MAX_LISTED_TEMPLATE_ERRORS) return validationError({ file: errors.map(describeTemplateError) }, errors);
  const listed = errors.slice(0, MAX_LISTED_TEMPLATE_ERRORS);
  const more = total - listed.length;
  const tail = `(and ${more} more error${more === 1 ? '' : 's'})`;
  const file = [...listed.map(describeTemplateError), tail];
  const templateErrors: TemplateError[] = [...listed, { code: 'more_errors', message: tail, location: { part: 'template' } }];
  const message = `${file[0]} (and ${total - 1} more errors)`;
  return new ServiceError('validation', message, { errors: { file }, templateErrors });
}

export class TemplateService {
  constructor(
    private readonly repo: TemplateRepo,
    private readonly limits: TemplateLimits = DEFAULT_LIMITS,
    /** Where files are read and compiled: the import worker, or inline (the default). */
    private readonly importer: Importer = createImporter(false, () => undefined),
  ) {}

  async get(uuid: string): Promise<TemplateRecord> {
    const record = await this.repo.getByUuid(uuid);
    if (!record) throw notFound('Template');
    return record;
  }

  /**
   * By uuid, or by the integer id documents carry. `cached`: possibly this instance's copy on a shared database
   * (docs/team-server.md, "Caches"), only for a caller whose write checks the record is still current (a document's
   * enqueue, WriteGuard).
   */
  find(ref: string | number, options: { cached?: boolean } = {}): Promise<TemplateRecord | undefined> {
    const byId = typeof ref === 'number' || /^\d{1,15}$/.test(ref);
    if (options.cached && byId && this.repo.cachedGetById) return this.repo.cachedGetById(Number(ref));
    if (options.cached && !byId && this.repo.cachedGetByUuid) return this.repo.cachedGetByUuid(String(ref));
    return byId ? this.repo.getById(Number(ref)) : this.repo.getByUuid(String(ref));
  }

  list(name: string | undefined, offset: number, limit: number): Promise<Page<TemplateRecord>> {
    return this.repo.list({ name, offset, limit });
  }

  async file(uuid: string): Promise<{ record: TemplateRecord; bytes: Buffer }> {
    const record = await this.get(uuid);
    return { record, bytes: await this.repo.readFile(record) };
  }

  /** A path on this machine holding the version's file (the render workers read and cache templates by path). */
  filePath(record: TemplateRecord): Promise<string> {
    return this.repo.localFile(record);
  }

  async create(input: Record<string, unknown>, file: UploadedFile | undefined, extra: { sampleData?: Record<string, unknown> } = {}): Promise<TemplateRecord> {
    const v = new Violations();
    if (!file) {
      const hint = typeof input.google_doc_id === 'string' && input.google_doc_id !== ''
        ? ' docloom works offline: download the Google Doc as .docx (File → Download → Microsoft Word) and upload it with its google_doc_id.'
        : '';
      v.add('file', `The file field is required.${hint}`);
    }
    const kind = file ? this.#kindOf(file) : undefined;
    const settings = this.#settings(v, input, kind ?? 'json', true);
    v.throwIfAny();
    const delimiters = settings.delimiters ?? DEFAULT_DELIMITERS;
    const compiled = await this.#import(kind!, file!.bytes, delimiters);
    const now = nowIso();
    const base = keptFilename(file!.filename);
    const own = compiled.own;
    return this.repo.create(
      {
        uuid: crypto.randomUUID(),
        name: settings.name ?? own.name ?? (base.replace(/\.[^.]+$/, '') || 'Template'),
        description: settings.description ?? own.description ?? '',
        kind: kind!,
        original_filename: base,
        google_doc_id: settings.google_doc_id ?? null,
        output_filename: settings.output_filename ?? null,
        output_filetype: settings.output_filetype ?? 'pdf',
        editable: settings.editable ?? null,
        password: settings.password ?? null,
        expiration: settings.expiration ?? DEFAULT_EXPIRATION,
        delimiters,
        fields: compiled.fields,
        sample_data: extra.sampleData ?? compiled.sampleData,
        schema: compiled.schema,
        import_warnings: compiled.warnings,
        created_at: now,
        updated_at: now,
      },
      compiled.bytes,
    );
  }

  async update(uuid: string, input: Record<string, unknown>, file: UploadedFile | undefined): Promise<TemplateRecord> {
    const current = await this.get(uuid);
    const v = new Violations();
    const kind = file ? this.#kindOf(file) : current.kind;
    const settings = this.#settings(v, input, kind, false);
    // A .json file replacing a .docx one cannot keep .docx output.
    if (kind === 'json' && current.output_filetype === 'docx' && settings.output_filetype === undefined) settings.output_filetype = 'pdf';
    v.throwIfAny();
    const patch: Partial<TemplateRecord> = { ...settings, updated_at: nowIso() };
    const delimiters = settings.delimiters ?? current.delimiters;
    const delimitersChanged = delimiters[0] !== current.delimiters[0] || delimiters[1] !== current.delimiters[1];
    if (file || delimitersChanged) {
      // A new file, or the same file read with other delimiters: check it again; it is a new version.
      const compiled = await this.#import(kind, file ? file.bytes : await this.repo.readFile(current), delimiters);
      Object.assign(patch, {
        kind,
        version: current.version + 1,
        fields: compiled.fields,
        sample_data: compiled.sampleData,
        schema: compiled.schema,
      });
      if (file) {
        patch.original_filename = keptFilename(file.filename);
        // A new file brings its own warnings (none: the old ones go).
        patch.import_warnings = compiled.warnings;
      } else {
        // Same file, other delimiters: the file's own warnings stay; the delimiter suggestion is the new one's.
        patch.import_warnings = [
          ...compiled.warnings.filter((w) => w.code === 'no_tags_found'),
          ...(current.import_warnings ?? []).filter((w) => w.code !== 'no_tags_found'),
        ];
      }
      const updated = await this.repo.update(uuid, patch, compiled.bytes);
      if (!updated) throw notFound('Template');
      return updated;
    }
    const updated = await this.repo.update(uuid, patch);
    if (!updated) throw notFound('Template');
    return updated;
  }

  async remove(uuid: string): Promise<void> {
    if (!(await this.repo.remove(uuid))) throw notFound('Template');
  }

  /**
   * Offers the sample templates from resources/templates/index.json (`[{file, name, description,
   * output_filename, data}]`, `data` being the sample data or the name of a JSON file holding it). A sample that
   * fails to import is logged and skipped, never fatal.
   */
  async seed(resourcesDir: string, log: (line: string) => void): Promise<number> {
    const dir = path.join(resourcesDir, 'templates');
    let index: Array<{ file: string; name?: string; description?: string; output_filename?: string; data?: Record<string, unknown> | string; delimiters?: string }>;
    try {
      index = JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8'));
      if (!Array.isArray(index)) throw new Error('index.json is not an array');
    } catch (err) {
      log(`samples: none offered (${(err as Error).message})`);
      return 0;
    }
    let count = 0;
    for (const entry of index) {
      try {
        const bytes = fs.readFileSync(path.join(dir, entry.file));
        const sampleData = typeof entry.data === 'string'
          ? (JSON.parse(fs.readFileSync(path.join(dir, entry.data), 'utf8')) as Record<string, unknown>)
          : entry.data;
        await this.create(
          { name: entry.name, description: entry.description, output_filename: entry.output_filename, delimiters: entry.delimiters },
          { filename: path.basename(entry.file), bytes },
          { sampleData },
        );
        count++;
      } catch (err) {
        const detail = err instanceof ServiceError && err.errors ? JSON.stringify(err.errors) : (err as Error).message;
        log(`samples: ${entry.file} skipped: ${detail}`);
      }
    }
    return count;
  }

  #kindOf(file: UploadedFile): TemplateKind {
    const kind = KINDS[path.extname(file.filename).toLowerCase()];
    if (!kind) throw new ServiceError('unsupported_type', 'The file must be a .docx (Word) or .json (docloom) template.');
    return kind;
  }

  /**
   * Reads and compiles a template file in the import worker: the bytes to keep (a .docx/.docm without its
   * macros — parts, relationships, content types; the main type made plain — and a `macros_removed` warning),
   * its fields, or the 413/415/422 that says what is wrong with it.
   */
  async #import(kind: TemplateKind, bytes: Uint8Array, delimiters: [string, string]) {
    const outcome = await this.importer.run({
      kind,
      bytes,
      delimiters,
      docxLimits: { maxUncompressedBytes: this.limits.docxUncompressedBytes, maxEntryRatio: this.limits.docxEntryRatio },
    });
    if (!outcome.ok) {
      if ('failed' in outcome) throw new ServiceError(outcome.failed === 'too_large' ? 'too_large' : 'validation', outcome.message, outcome.failed === 'too_large' ? {} : { errors: { file: [outcome.message] } });
      throw fileRefusal(outcome.errors) ?? templateErrorsResponse(outcome.errors, outcome.total);
    }
    const warnings: ImportWarning[] = [
      ...(outcome.macrosRemoved ? [{ code: 'macros_removed' as const, message: MACROS_REMOVED, location: { part: 'file' }, count: 1 }] : []),
      ...outcome.warnings,
    ];
    return { fields: outcome.fields, sampleData: outcome.sampleData, schema: outcome.schema, bytes: outcome.bytes ?? bytes, warnings, own: outcome.own };
  }

  #settings(v: Violations, input: Record<string, unknown>, kind: TemplateKind, creating: boolean): Settings {
    const s: Settings = {};
    const name = optionalString(v, 'name', input.name);
    if (name !== undefined) {
      if (name.trim() === '') {
        if (!creating) v.add('name', 'The name field must not be empty.');
      } else s.name = name.trim();
    }
    const description = optionalString(v, 'description', input.description, 65_535);
    if (description !== undefined) s.description = description;
    const outputFilename = optionalString(v, 'output_filename', input.output_filename);
    if (outputFilename !== undefined) s.output_filename = outputFilename.trim() === '' ? null : outputFilename;
    const filetype = optionalString(v, 'output_filetype', input.output_filetype);
    if (filetype !== undefined && filetype !== '') {
      const type = filetype.toLowerCase();
      if (type === 'pdf' || (type === 'docx' && kind === 'docx')) s.output_filetype = type;
      else v.add('output_filetype', 'The selected output filetype is invalid.');
    }
    const editable = optionalFlag(v, 'editable', input.editable);
    if (editable !== undefined) s.editable = editable;
    const password = optionalString(v, 'password', input.password);
    if (password !== undefined) s.password = password === '' ? null : password;
    const expiration = optionalExpiration(v, input.expiration);
    if (expiration !== undefined) s.expiration = expiration;
    const delimiters = optionalDelimiters(v, input.delimiters);
    if (delimiters !== undefined) s.delimiters = delimiters;
    const googleDocId = optionalString(v, 'google_doc_id', input.google_doc_id);
    if (googleDocId !== undefined) s.google_doc_id = googleDocId === '' ? null : googleDocId;
    return s;
  }
}
