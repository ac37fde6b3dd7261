/**
 * The records the store keeps, as written to disk. Datetimes are ISO 8601 strings with milliseconds (the HTTP
 * layer prints them in Laravel's microsecond format). Names follow the API's snake_case so the files read like
 * the responses.
 */
import type { ErrorCode } from '../errors/catalogue.js';
import type { Field, ImportWarning } from '../engine/model/types.js';

export type TemplateKind = 'json' | 'docx';

export interface TemplateRecord {
  id: number;
  uuid: string;
  name: string;
  description: string;
  kind: TemplateKind;
  original_filename: string;
  google_doc_id: string | null;
  output_filename: string | null;
  output_filetype: string;
  /** null when never set (the list response shows null then). */
  editable: boolean | null;
  password: string | null;
  /** Minutes a generated document is kept. */
  expiration: number;
  delimiters: [string, string];
  /** Increases whenever the file or the delimiters change (the compiled-template cache key). */
  version: number;
  fields: Field[];
  sample_data: Record<string, unknown>;
  schema: Record<string, unknown>;
  /**
   * What the import left out or changed (`macros_removed`, `picture_format_unsupported`, …). Written on every
   * import (`[]` when nothing); records stored before warnings existed lack it and read as [].
   */
  import_warnings?: ImportWarning[];
  created_at: string;
  updated_at: string;
}

export type DocumentStatus = 'pending' | 'processing' | 'completed' | 'failed';

/**
 * The errors a document gets when docloom, not its data, ended it: the service stopped before it was rendered (the
 * start-up recovery, the render pool's shutdown, `docloom migrate`), or its file was lost outside docloom
 * (the start-up reconcile, `docloom migrate`). One wording wherever it is said.
 */
export const INTERRUPTED_ERROR = { code: 'interrupted', message: 'The service stopped before this document was rendered; create it again.' } as const;
export const FILE_MISSING_ERROR = { code: 'file_missing', message: "The document's file was lost; create it again." } as const;

export interface DocumentRecord {
  id: number;
  status: DocumentStatus;
  output_filename: string | null;
  output_type: string;
  template_id: number;
  template_uuid: string;
  editable: 0 | 1;
  password: string | null;
  test: 0 | 1;
  locale: string | null;
  expires_at: string;
  expired: 0 | 1;
  /** `field`: the data field a batch row failed on, when the renderer names one. */
  error: { code: ErrorCode; message: string; field?: string } | null;
  pages: number | null;
  size: number | null;
  /** True when an editable copy (the filled .docx) was written beside the output. */
  has_editable: boolean;
  /** The batch that made it (POST /api/batch) and the row it was made from (1 = the first data row). */
  batch_id?: number;
  batch_row?: number;
  created_at: string;
  updated_at: string;
}

export interface TokenRecord {
  id: number;
  name: string;
  /** SHA-256 (hex) of the 40-character secret part; the token itself is never stored. */
  hash: string;
  read_only: boolean;
  created_at: string;
  /** How it was made when that matters for its lifetime: `sign-in` = by the GUI's browser sign-in (see tokens.ts). */
  source?: 'sign-in';
  /** Last time it authenticated a request, recorded at most once an hour (absent: never used yet). */
  last_used_at?: string;
}

export interface IdempotencyEntry {
  /** `<token id>:<key>` */
  key: string;
  /** SHA-256 of the request's normalised body. */
  hash: string;
  status: number;
  document_id: number;
  /** Epoch ms. */
  at: number;
}
