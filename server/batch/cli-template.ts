/**
 * The TEMPLATE of `docloom batch`: a .json or .docx file (compiled here once, so its errors are reported before
 * any row), or the uuid, id or name of a template stored in the data dir (read only: no service is needed, and
 * one may be running).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { openTemplateStore } from '../store/index.js';
import type { TemplateKind } from '../store/records.js';
import { DEFAULT_DELIMITERS, describeTemplateError } from '../services/templates.js';
import type { Engine } from '../services/engine.js';

export interface BatchTemplate {
  name: string;
  kind: TemplateKind;
  path: string;
  /** The render pool's compiled-template cache key. */
  key: string;
  delimiters: [string, string];
  password: string | null;
  outputType: string;
  outputFilename: string | null;
}

export class TemplateProblem extends Error {}

export function resolveTemplate(config: Config, engine: Engine, ref: string, delimiters?: [string, string]): BatchTemplate {
  const ext = path.extname(ref).toLowerCase();
  if ((ext === '.json' || ext === '.docx') && fs.existsSync(ref)) {
    const file = path.resolve(ref);
    const kind: TemplateKind = ext === '.docx' ? 'docx' : 'json';
    const bytes = fs.readFileSync(file);
    const d = delimiters ?? DEFAULT_DELIMITERS;
    const compiled = engine.compileTemplate({
      kind,
      bytes,
      delimiters: d,
      docxLimits: { maxUncompressedBytes: config.limits.docxUncompressedBytes, maxEntryRatio: config.limits.docxEntryRatio },
    });
    if (!compiled.ok) throw new TemplateProblem(compiled.errors.map((e) => `${ref}: ${describeTemplateError(e)}`).join('\n'));
    const stat = fs.statSync(file);
    return {
      name: path.basename(file, ext),
      kind,
      path: file,
      key: `file:${file}@${stat.mtimeMs}:${stat.size}`,
      delimiters: d,
      password: null,
      outputType: 'pdf',
      outputFilename: null,
    };
  }
  const repo = openTemplateStore(config.dataDir);
  const record =
    (/^\d{1,15}$/.test(ref) ? repo.getById(Number(ref)) : repo.getByUuid(ref)) ??
    repo.all().find((t) => t.name === ref) ??
    repo.all().find((t) => t.name.toLowerCase() === ref.toLowerCase());
  if (!record) {
    throw new TemplateProblem(`${ref}: no such file (.json or .docx), and no template of that uuid, id or name in ${config.dataDir}`);
  }
  return {
    name: record.name,
    kind: record.kind,
    path: repo.filePath(record),
    key: `${record.uuid}@${record.version}`,
    delimiters: delimiters ?? record.delimiters,
    password: record.password,
    outputType: record.output_filetype,
    outputFilename: record.output_filename,
  };
}
