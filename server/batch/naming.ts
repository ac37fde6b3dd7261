/**
 * Output file names of a batch: a tag expression filled from the row (`{{certificate_id}}`), or by default the
 * row number and the template name (`0007 Certificate.pdf`); made safe for every file system
 * (services/output-filename.ts) and unique within the batch — a second `Ada.pdf` becomes `Ada (2).pdf`, compared
 * case-insensitively since Windows and macOS folders (and zip tools on them) do not tell `ada.pdf` from `Ada.pdf`.
 */
import { safeOutputFilename } from '../services/output-filename.js';
import { loadEngine } from '../services/engine.js';
import type { BatchRecord, TemplateRecord } from '../store/index.js';

export type FillText = (pattern: string, data: Record<string, unknown>, delimiters: [string, string]) => string;

export class OutputNames {
  readonly #taken = new Set<string>();
  readonly #width: number;

  constructor(
    private readonly o: { pattern?: string; templateName: string; ext: string; total: number; delimiters: [string, string]; fill: FillText },
  ) {
    this.#width = Math.max(4, String(o.total).length);
  }

  /** The name for `row`, before uniqueness (the API keeps it as the document's output_filename). */
  base(row: number, data: Record<string, unknown>): string {
    const raw = this.o.pattern ? this.o.fill(this.o.pattern, data, this.o.delimiters) : '';
    const text = raw.trim() ? raw : `${String(row).padStart(this.#width, '0')} ${this.o.templateName}`;
    return safeOutputFilename(text, this.o.ext);
  }

  /** A name no earlier row of this batch has. */
  unique(row: number, data: Record<string, unknown>): string {
    return this.claim(this.base(row, data));
  }

  claim(name: string): string {
    const dot = name.lastIndexOf('.');
    const stem = name.slice(0, dot);
    const ext = name.slice(dot);
    let candidate = name;
    for (let n = 2; this.#taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
    this.#taken.add(candidate.toLowerCase());
    return candidate;
  }
}

/** A batch's names, from its pattern (or the template's) filled by the engine: one per batch, claimed in row order. */
export async function outputNamesOf(b: BatchRecord, template: TemplateRecord): Promise<OutputNames> {
  const engine = await loadEngine();
  return new OutputNames({
    pattern: b.output_filename ?? template.output_filename ?? undefined,
    templateName: template.name,
    ext: b.output_type,
    total: b.total,
    delimiters: template.delimiters,
    fill: (p, d, delims) => engine.fillOutputText(p, d, delims),
  });
}
