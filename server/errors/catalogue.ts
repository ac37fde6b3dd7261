/**
 * The one error catalogue: every code docloom says — an HTTP error kind, a failed document's `error.code`, a
 * template error's `code`, a warning's `code` — declared once, with the HTTP status it answers with and what it
 * means. EngineError, ServiceError and render outcomes take only these codes (ErrorCode below), so a free string
 * does not compile; docs/api.md ("Error codes") lists the same table, and test/service/errors-catalogue.test.ts
 * keeps the two, and every code the sources emit, in step.
 *
 * `kind`: `http` — a ServiceError kind (the status of the Laravel-shaped error body); `document` — a failed
 * document's `error.code` (the document is recorded `failed`; POST /api/preview answers `status`); `template` — a
 * template problem (`template_errors[].code`; the upload answers `status`); `warning` — a note on a template that
 * was accepted (`status` null: nothing fails).
 */

export type ErrorKind = 'http' | 'document' | 'template' | 'warning' | 'rows';

export interface CatalogueEntry {
  readonly kind: ErrorKind;
  /** The HTTP status this code answers with; null for warnings and codes that never make a response. */
  readonly status: number | null;
  /** What the code means (the default message for HTTP kinds). */
  readonly meaning: string;
}

export const CATALOGUE = {
  // HTTP kinds (ServiceError; server/http/errors.ts turns them into statuses).
  bad_request: { kind: 'http', status: 400, meaning: 'The request body is malformed (not valid JSON, a broken multipart body).' },
  unauthenticated: { kind: 'http', status: 401, meaning: 'No, unknown or revoked token.' },
  forbidden: { kind: 'http', status: 403, meaning: 'The token lacks the ability (a read-only token on a write), a foreign Host, or a bad download signature.' },
  not_found: { kind: 'http', status: 404, meaning: 'Unknown id, uuid or route.' },
  method_not_allowed: { kind: 'http', status: 405, meaning: 'A known path with another method.' },
  conflict: { kind: 'http', status: 409, meaning: 'The same Idempotency-Key is still running, or the document is not completed.' },
  gone: { kind: 'http', status: 410, meaning: 'The document has expired.' },
  too_large: { kind: 'http', status: 413, meaning: 'A body, upload or .docx over a limit; the message names the limit.' },
  unsupported_type: { kind: 'http', status: 415, meaning: 'The file is not an accepted template type.' },
  validation: { kind: 'http', status: 422, meaning: 'Validation failed; `errors` maps each field to its messages.' },
  server_error: { kind: 'http', status: 500, meaning: 'A bug; logged with the request id.' },
  service_unavailable: { kind: 'http', status: 503, meaning: 'The team server cannot serve this now: its PostgreSQL database cannot be reached (nothing was stored; `Retry-After` says when to try again).' },
  insufficient_storage: { kind: 'http', status: 507, meaning: "The disk holding docloom's data is full (ENOSPC, EDQUOT); nothing was stored. As a document's error: it could not be saved." },

  // A failed document's error.code (render outcomes, EngineError for data problems).
  invalid_data: { kind: 'document', status: 422, meaning: 'The data cannot be handed to the renderer (nested too deeply to copy to a render thread).' },
  file_missing: { kind: 'document', status: null, meaning: 'A completed document\'s file was found missing at start (removed outside docloom); the document is marked failed.' },
  limit_exceeded: { kind: 'document', status: 422, meaning: 'A render limit was exceeded: rows per list, list items per document, images per document, render time or pages per document.' },
  aggregate_not_number: { kind: 'document', status: 422, meaning: 'An aggregate filter (`sum`, `min`, `max`, `avg`) met a value that is neither a number nor missing; the message names list, item and key.' },
  invalid_image: { kind: 'document', status: 422, meaning: 'An image value that is not a data: URI or http(s) URL, bad base64, or damaged image data.' },
  image_unsupported: { kind: 'document', status: 422, meaning: 'An image in a format the renderer cannot draw (SVG, TIFF, HEIC, …).' },
  image_type: { kind: 'document', status: 422, meaning: 'An image URL that did not answer a PNG, JPEG, GIF or WebP image.' },
  image_too_large: { kind: 'document', status: 422, meaning: 'An image over the image_bytes or image_pixels limit.' },
  image_blocked: { kind: 'document', status: 422, meaning: 'An image URL to a loopback, private or other non-public address (the outbound guard).' },
  image_fetch_failed: { kind: 'document', status: 422, meaning: 'An image URL could not be fetched (DNS, connection, TLS, HTTP status, offline).' },
  image_timeout: { kind: 'document', status: 422, meaning: 'An image fetch took longer than image_fetch_ms.' },
  image_url_not_allowed: { kind: 'document', status: 422, meaning: 'An image URL where URLs cannot be fetched; send a data: URI.' },
  invalid_locale: { kind: 'document', status: 422, meaning: 'The locale is not a valid BCP 47 language tag.' },
  invalid_password: { kind: 'document', status: 422, meaning: 'The PDF password is empty or longer than 127 bytes.' },
  model_invalid: { kind: 'document', status: 422, meaning: 'The template model is not an object.' },
  template_missing: { kind: 'document', status: 422, meaning: 'The template file is missing (the template was changed or deleted).' },
  fonts_missing: { kind: 'document', status: 500, meaning: 'The resources folder has no complete fonts folder (an installation problem, logged).' },
  render_failed: { kind: 'document', status: 500, meaning: 'Rendering failed (a bug, logged).' },
  render_crashed: { kind: 'document', status: 500, meaning: 'The render worker stopped while rendering (logged).' },
  storage_error: { kind: 'document', status: 503, meaning: 'Object storage (S3, team server) did not store or return a file: the bucket is missing, access was denied or it could not be reached; the message names the bucket, never the credentials.' },
  interrupted: { kind: 'document', status: null, meaning: 'The service stopped before the document was rendered; create it again.' },

  // Template errors (template_errors[].code on a refused upload; invalid_template also as a document's error).
  invalid_template: { kind: 'template', status: 422, meaning: 'The template file cannot be read (damaged, not valid JSON, not a docloom template), or it changed under the service.' },
  unsupported_file: { kind: 'template', status: 415, meaning: 'A .docx that is not a Word document (not a zip, no main part, encrypted).' },
  invalid_delimiters: { kind: 'template', status: 422, meaning: 'The delimiters are blank, longer than 10 characters or contain a line break.' },
  unclosed_section: { kind: 'template', status: 422, meaning: 'A section `{{#name}}` with no `{{/name}}`.' },
  unopened_section: { kind: 'template', status: 422, meaning: 'A `{{/name}}` with no section open.' },
  mismatched_section: { kind: 'template', status: 422, meaning: 'A closing tag that does not match the section open at that point.' },
  unclosed_tag: { kind: 'template', status: 422, meaning: 'An opening delimiter never closed.' },
  unopened_tag: { kind: 'template', status: 422, meaning: 'A closing delimiter that closes nothing.' },
  duplicate_open_delimiter: { kind: 'template', status: 422, meaning: 'A second opening delimiter inside a tag.' },
  duplicate_close_delimiter: { kind: 'template', status: 422, meaning: 'A closing delimiter doubled right after a tag.' },
  empty_tag: { kind: 'template', status: 422, meaning: 'Nothing, or no name, between the delimiters.' },
  unknown_filter: { kind: 'template', status: 422, meaning: 'A filter that does not exist.' },
  bad_filter_argument: { kind: 'template', status: 422, meaning: 'A filter with a wrong or missing argument.' },
  invalid_tag: { kind: 'template', status: 422, meaning: 'A filter on a section or image tag.' },
  invalid_expression: { kind: 'template', status: 422, meaning: 'A tag that is neither a name nor a well-formed expression (`{{a >}}`, `{{(a}}`, `{{x ? 1}}`), longer than 1,000 characters or nested more than 32 levels deep.' },
  unsupported_tag: { kind: 'template', status: 422, meaning: "A docxtemplater tag docloom does not take: raw XML (`{@x}`), a delimiter change (`{=<< >>=}`), a dash loop (`{-w:p x}`), a call or an assignment." },
  invalid_image_size: { kind: 'template', status: 422, meaning: 'An image size that is not WIDTHxHEIGHT in points, or out of range.' },
  unknown_system_tag: { kind: 'template', status: 422, meaning: 'A `$` tag other than `$page` and `$pages`.' },
  section_crosses_table: { kind: 'template', status: 422, meaning: 'A section opened in a table cell and closed outside that table.' },
  overlapping_table_sections: { kind: 'template', status: 422, meaning: 'Two table loops that share a row without one holding the other.' },
  sections_too_deep: { kind: 'template', status: 422, meaning: 'Sections ({{#…}}) nested more than 100 levels deep within one part.' },
  more_errors: { kind: 'template', status: 422, meaning: 'The last entry of a template error list cut at 100 errors: how many more there are.' },

  // A batch's rows file that cannot be used (server/batch/rows/): refused before any document is made; the body
  // carries `code`, `row` and `column` (docs/batch.md, "Bad input").
  rows_format: { kind: 'rows', status: 422, meaning: 'The rows file is not CSV, XLSX, a JSON array of objects or NDJSON, or a row in it cannot be read as such.' },
  rows_encoding: { kind: 'rows', status: 422, meaning: 'The rows file is not UTF-8 text (UTF-16, Latin-1, …); save it as UTF-8.' },
  rows_ragged: { kind: 'rows', status: 422, meaning: 'A CSV row has another number of fields than the header (often a value holding the delimiter without quotes); `column` is the first field past the header or the first the row lacks.' },
  rows_header: { kind: 'rows', status: 422, meaning: 'A header name that is not a valid field path, or two columns for one field, or a field that is both a value and an object.' },
  rows_empty: { kind: 'rows', status: 422, meaning: 'The rows file (or its sheet) has no header or no data row.' },
  rows_sheet: { kind: 'rows', status: 422, meaning: 'The workbook has no sheet of the name given.' },
  rows_too_many: { kind: 'rows', status: 422, meaning: 'The rows file has more data rows than batch_rows.' },
  rows_too_large: { kind: 'rows', status: 413, meaning: 'The rows file is larger than batch_bytes.' },

  // Warnings (the template is accepted).
  no_tags_found: { kind: 'warning', status: null, meaning: 'The file has no tags with the template\'s delimiters, but has some with other ones (`{ }`, `[ ]`, `<< >>` or `${ }`): `suggested_delimiters` names them and `count` says how many fields they give.' },
  macros_removed: { kind: 'warning', status: null, meaning: 'The uploaded file carried macros (VBA); they were removed and are never run.' },
  picture_format_unsupported: { kind: 'warning', status: null, meaning: 'A picture in a format the renderer cannot draw (TIFF, BMP, SVG without its PNG fallback, …) is left out; an EMF or WMF picture with nothing it can draw (EMF+ only, empty, unreadable) keeps its place as a light grey box.' },
  picture_too_large: { kind: 'warning', status: null, meaning: 'A picture in the template has more pixels than limits.imagePixels; a light grey box of the same size stands in for it. `location.part` names it.' },
  picture_missing: { kind: 'warning', status: null, meaning: 'A picture linked from outside the file, or whose part is missing, is left out.' },
  part_damaged: { kind: 'warning', status: null, meaning: 'A part of the .docx (a picture, the footnotes, …) is damaged; it is left out and the rest is drawn. `location.part` names it.' },
  chart_not_drawn: { kind: 'warning', status: null, meaning: 'A chart whose chart part is missing or unreadable is left out.' },
  chart_type_unsupported: { kind: 'warning', status: null, meaning: 'A chart of a type docloom does not draw (stock, surface, bar-of-pie, Office 2016 chartex without its fallback picture) is drawn as a framed box of its size with its title.' },
  math_as_text: { kind: 'warning', status: null, meaning: 'An equation is drawn as its characters in plain text, not laid out.' },
  notes_not_drawn: { kind: 'warning', status: null, meaning: 'Footnote or endnote references: the notes\' text is not drawn.' },
  shape_not_drawn: { kind: 'warning', status: null, meaning: 'A drawing with nothing docloom can draw (a shape without text, WordArt, ink, an embedded object without its picture) is left out.' },
  behind_text_not_drawn: { kind: 'warning', status: null, meaning: 'A picture or shape behind the text (a background, a watermark) is left out.' },
  columns_not_drawn: { kind: 'warning', status: null, meaning: 'No longer given: sections in columns (`w:cols`) are drawn in columns. Kept so that stored templates imported before still list it.' },
  background_not_drawn: { kind: 'warning', status: null, meaning: 'A page fill effect (a picture, texture, pattern or gradient in `w:background`) is not drawn: only the page colour is.' },
  number_format_unsupported: { kind: 'warning', status: null, meaning: 'A list numbered in a format the renderer cannot write (`w:numFmt`: Hindi, Thai, Korean, Vietnamese, legal CJK, an unknown custom format, …) is numbered with decimal numbers (or the fallback format the file gives).' },
  element_not_drawn: { kind: 'warning', status: null, meaning: 'Content of a kind the importer does not read (`location.element` names the element) is left out.' },
} as const satisfies Record<string, CatalogueEntry>;

/** Every code docloom may say. */
export type ErrorCode = keyof typeof CATALOGUE;

type CodesOfKind<K extends ErrorKind> = { [C in ErrorCode]: (typeof CATALOGUE)[C]['kind'] extends K ? C : never }[ErrorCode];

/** The codes of warnings (a template accepted with something left out or changed). */
export type WarningCode = CodesOfKind<'warning'>;

/** The kinds a ServiceError may have (the HTTP errors). */
export type HttpErrorCode = CodesOfKind<'http'>;

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(CATALOGUE, code);
}

/** The HTTP status of a code (500 for codes that never make a response of their own). */
export function statusOf(code: ErrorCode): number {
  return CATALOGUE[code].status ?? 500;
}
