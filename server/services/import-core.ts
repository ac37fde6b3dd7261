/**
 * One template import: file bytes → macros removed (.docx) → compiled → fields, or the template's problems. Runs in
 * the import worker (import-jobs.ts) so a large file never holds up the event loop, or inline when the service
 * renders inline (renderWorkers = 0: tests, the CLI). Input and outcome are plain data that cross threads.
 */
import type { Field, ImportWarning, TemplateError } from '../engine/model/types.js';
import type { Engine } from './engine.js';

export type ImportKind = 'docx' | 'json';

export interface ImportJob {
  kind: ImportKind;
  bytes: Uint8Array;
  delimiters: [string, string];
  docxLimits: { maxUncompressedBytes: number; maxEntryRatio: number };
}

/** A template's 422 lists at most this many problems, then says how many more there are (docs/api.md); the import
 * hands back no more than that, with `total` saying how many there were. */
export const MAX_LISTED_TEMPLATE_ERRORS = 100;

export type ImportOutcome =
  | {
      ok: true;
      fields: Field[];
      /** The template record's `sample_data` and `schema`, made here too (a template may have thousands of fields). */
      sampleData: Record<string, unknown>;
      schema: Record<string, unknown>;
      /** The file as it is to be kept, when the import changed it (macros removed). */
      bytes?: Uint8Array;
      macrosRemoved: boolean;
      /** What the import left out or changed (compileTemplate's warnings; macros_removed is added by the service). */
      warnings: ImportWarning[];
      /** The `name` and `description` a .json template gives itself. */
      own: { name?: string; description?: string };
    }
  | { ok: false; errors: TemplateError[]; total: number }
  /** The import itself failed: the worker ran out of memory or time. */
  | { ok: false; failed: 'too_large' | 'too_slow'; message: string };

/** The `name` and `description` a docloom .json template gives itself, used when the upload names none. */
export function ownSettings(bytes: Uint8Array): { name?: string; description?: string } {
  try {
    const doc: unknown = JSON.parse(new TextDecoder().decode(bytes).replace(/^\uFEFF/, ''));
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return {};
    const { name, description } = doc as Record<string, unknown>;
    return {
      name: typeof name === 'string' && name.trim() !== '' ? name.trim().slice(0, 255) : undefined,
      description: typeof description === 'string' ? description.slice(0, 65_535) : undefined,
    };
  } catch {
    return {}; // it compiled, so this does not happen; a name from the file name is a fine fallback anyway
  }
}

/** Other delimiters people's Word templates use (docxtemplater's `{ }`, mail-merge `<< >>`, …), tried in this order. */
export const OTHER_DELIMITERS: ReadonlyArray<[string, string]> = [['{', '}'], ['[', ']'], ['<<', '>>'], ['${', '}']];

function countFields(fields: readonly Field[]): number {
  return fields.reduce((n, f) => n + 1 + countFields(f.fields ?? []), 0);
}

/**
 * A file with no fields under its delimiters is read again with each of OTHER_DELIMITERS: the pair giving the
 * most fields becomes a `no_tags_found` warning, so the user hears "7 tags use { }" rather
 * than a silent "0 fields". Only runs for a file with no fields, so an ordinary import costs nothing more.
 */
function suggestDelimiters(engine: Engine, job: ImportJob, bytes: Uint8Array): ImportWarning | null {
  let best: { pair: [string, string]; count: number } | null = null;
  for (const pair of OTHER_DELIMITERS) {
    if (pair[0] === job.delimiters[0] && pair[1] === job.delimiters[1]) continue;
    const tried = engine.compileTemplate({ kind: job.kind, bytes, delimiters: pair, docxLimits: job.docxLimits });
    const count = tried.ok ? countFields(tried.fields) : 0;
    // On a tie the longer opening wins: `${name}` also reads as `$` + `{name}`, and `${ }` is what was meant.
    if (count > 0 && (!best || count > best.count || (count === best.count && pair[0].length > best.pair[0].length))) best = { pair, count };
  }
  if (!best) return null;
  const suggested = best.pair.join(' ');
  return {
    code: 'no_tags_found',
    message: `No ${job.delimiters.join(' ')} tags found; ${best.count} ${best.count === 1 ? 'tag uses' : 'tags use'} ${suggested}.`,
    location: { part: 'file' },
    count: best.count,
    suggested_delimiters: suggested,
  };
}

export function runImport(engine: Engine, job: ImportJob): ImportOutcome {
  let bytes = job.bytes;
  let macrosRemoved = false;
  if (job.kind === 'docx') {
    try {
      const stripped = engine.stripMacros(bytes, job.docxLimits);
      if (stripped) {
        bytes = stripped.bytes;
        macrosRemoved = true;
      }
    } catch (err) {
      // A file too damaged (or too large) to rewrite: the compiler refuses it below with its reason.
      if (!(err instanceof engine.EngineError)) throw err;
    }
  }
  const result = engine.compileTemplate({ kind: job.kind, bytes, delimiters: job.delimiters, docxLimits: job.docxLimits });
  if (!result.ok) return { ok: false, errors: result.errors.slice(0, MAX_LISTED_TEMPLATE_ERRORS), total: result.errors.length };
  const suggestion = result.fields.length === 0 ? suggestDelimiters(engine, job, bytes) : null;
  return {
    ok: true,
    fields: result.fields,
    sampleData: engine.sampleData(result.fields),
    schema: engine.dataSchema(result.fields),
    ...(macrosRemoved ? { bytes } : {}),
    macrosRemoved,
    warnings: suggestion ? [suggestion, ...result.warnings] : result.warnings,
    own: job.kind === 'json' ? ownSettings(bytes) : {},
  };
}
