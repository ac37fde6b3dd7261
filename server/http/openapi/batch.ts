/**
 * /api/batch (docs/api.md, "Batches"; docs/batch.md): create from a rows file or a JSON array, one row's data,
 * progress, the page of batches, the failed rows (JSON or CSV), the outputs (zip, or one merged PDF), cancel,
 * delete. Its `extend` puts what batches add to documents on them: `batch_id` on a document, the `batch_id` filter of GET /api/document, and the batch limits in GET /api/info.
 */
import { CATALOGUE, type ErrorCode } from '../../errors/catalogue.js';
import type { BatchStatus } from '../../store/batches.js';
import type { RowsFormat } from '../../batch/rows/types.js';
import { DEFAULT_LIMITS } from '../../config.js';
import { EXPIRATION_MAX, EXPIRATION_MIN } from '../../services/validate.js';
import { exact, fileResponse, flagField, formBody, jsonResponse, laravelDate, pathParam, query, ref, standardErrors, success } from './common.js';
import { DOCUMENT_ERROR_CODES, errorResponse } from './errors.js';
import { pageOf, pageParameters } from './pagination.js';
import type { Area, ResponseObject, Schema } from './types.js';

const BASE = 'http://127.0.0.1:7463';
const TEMPLATE_UUID = '3f1e9c52-8a4b-4f0e-9b7a-2c6d5e8f1a23';

/** Every status a batch has, in its order; the type check fails here when the store gains one. */
const STATUSES = ['queued', 'processing', 'completed', 'completed_with_errors', 'failed', 'cancelled'] as const satisfies readonly BatchStatus[];
const FORMATS = ['csv', 'xlsx', 'json', 'ndjson'] as const satisfies readonly RowsFormat[];
/** `true` only when `Listed` names every member of `All`: the lists above cannot silently miss one. */
type Covers<Listed, All> = [Exclude<All, Listed>] extends [never] ? true : never;
const _complete: [Covers<(typeof STATUSES)[number], BatchStatus>, Covers<(typeof FORMATS)[number], RowsFormat>] = [true, true];

/** Why a whole batch ended `failed` (server/batch/service.ts): a full disk, the template gone, a bug. */
/** Batches are kept in the data folder only: the team server (DOCLOOM_DATABASE_URL) answers 503. */

const BATCH_ERROR_CODES: ErrorCode[] = ['insufficient_storage', 'template_missing', 'render_failed'];

/** The rows-file codes of the catalogue, by the status they are answered with. */
const rowsCodes = (status: number): ErrorCode[] => (Object.keys(CATALOGUE) as ErrorCode[]).filter((c) => CATALOGUE[c].kind === 'rows' && CATALOGUE[c].status === status);

const batchExample = (status: string, done: number, failed: number) => ({
  id: 7,
  status,
  total: 300,
  done,
  failed,
  template_id: 3,
  template_uuid: TEMPLATE_UUID,
  output_type: 'pdf',
  output_filename: '{{certificate_id}}',
  test: 0,
  rows_filename: 'rows.csv',
  rows_format: 'csv',
  error: null,
  created_at: '2026-11-22T08:11:00.000000Z',
  updated_at: '2026-11-22T08:11:04.000000Z',
  download_url: `${BASE}/api/batch/7/download`,
  errors_url: `${BASE}/api/batch/7/errors`,
  documents_url: `${BASE}/api/document?batch_id=7`,
});

const failureExample = { row: 2, field: 'logo', code: 'invalid_image', message: 'The image "logo" is not a data: URI or an http(s) URL.', document_id: 912 };

/** A refused rows file: Laravel's fields, then where the problem is (docs/batch.md, "Bad input"). */
function rowsErrorSchema(codes: ErrorCode[], withErrors: boolean, description: string): Schema {
  return exact(
    {
      success: { const: false },
      message: { type: 'string', minLength: 1, description: 'The problem with its place in front: `Row 2, column C (name): …`.' },
      ...(withErrors ? { errors: exact({ file: { type: 'array', minItems: 1, maxItems: 1, items: { type: 'string' } } }, 'The message again, under `file`.') } : {}),
      code: { type: 'string', enum: codes },
      row: { type: 'integer', minimum: 0, description: '1 = the first data row (after the header); 0 = the header or the file as a whole.' },
      column: {
        description: 'The column (1-based, as the sheet\'s column letters count) and its header, or null.',
        oneOf: [{ type: 'null' }, exact({ index: { type: 'integer', minimum: 1 }, name: { type: ['string', 'null'] } })],
      },
    },
    description,
  );
}

const schemas: Record<string, Schema> = {
  Batch: exact(
    {
      id: { type: 'integer', minimum: 1 },
      status: {
        type: 'string',
        enum: [...STATUSES],
        description:
          '`queued` → `processing` → `completed` (every row made) | `completed_with_errors` (some rows failed) | `failed` (the batch itself stopped: `error`) | `cancelled`.',
      },
      total: { type: 'integer', minimum: 0, description: 'Data rows in the file.' },
      done: { type: 'integer', minimum: 0, description: 'Rows made (`completed` documents).' },
      failed: { type: 'integer', minimum: 0, description: 'Rows that failed (`failed` documents); `done + failed = total` once the batch has run through.' },
      template_id: { type: 'integer', minimum: 1, description: "The template's integer `id`." },
      template_uuid: { type: 'string', format: 'uuid' },
      output_type: { type: 'string', enum: ['pdf', 'docx'] },
      output_filename: { type: ['string', 'null'], description: "The tag expression each file is named from; null: the template's, else the row number and the template name." },
      test: { type: 'integer', enum: [0, 1] },
      rows_filename: { type: 'string', description: 'The uploaded file\'s name (`data.json` for `data`).' },
      rows_format: { type: 'string', enum: [...FORMATS] },
      error: {
        description: 'Why a `failed` batch stopped.',
        oneOf: [{ type: 'null' }, exact({ code: { type: 'string', enum: BATCH_ERROR_CODES }, message: { type: 'string' } })],
      },
      created_at: laravelDate,
      updated_at: laravelDate,
      download_url: { type: 'string', format: 'uri', description: 'GET /api/batch/{id}/download (bearer token).' },
      errors_url: { type: 'string', format: 'uri', description: 'GET /api/batch/{id}/errors.' },
      documents_url: { type: 'string', format: 'uri', description: 'GET /api/document?batch_id={id}.' },
    },
    'A batch: one document per row of a rows file.',
  ),
  BatchPage: pageOf('Batch'),
  BatchRowFailure: exact(
    {
      row: { type: 'integer', minimum: 1, description: 'The data row (1 = the first after the header).' },
      field: { type: ['string', 'null'], description: 'The data field the row failed on; null when the renderer names none.' },
      code: { type: 'string', enum: DOCUMENT_ERROR_CODES },
      message: { type: 'string' },
      document_id: { type: 'integer', minimum: 1, description: 'The row\'s `failed` document.' },
    },
    'A row of a batch that failed.',
  ),
  BatchRowFailurePage: pageOf('BatchRowFailure'),
  RowsError: rowsErrorSchema(rowsCodes(422), true, 'A rows file that cannot be used (422): nothing was kept.'),
  RowsTooLarge: rowsErrorSchema(rowsCodes(413), false, 'A rows file over `batch_bytes` (413): nothing was kept.'),
};

const id = pathParam('id', 'The integer batch id (anything else is 404).', { type: 'integer', minimum: 1 }, 7);
const notFound = ['Batch not found.'];
const batchBody = success({ batch: ref('Batch') });

/**
 * A rows file's 422 next to the fields' own, and its 413 next to the body's: the two refusals share a status,
 * and `code` (the rows one's) tells them apart.
 */
function rowsResponses(validation: { message: string; errors: Record<string, string[]> }): Record<string, ResponseObject> {
  const fields = errorResponse('validation', [validation.message], validation.errors);
  const tooLarge = errorResponse('too_large', ['The request body is larger than the limit of 10 MB.']);
  const ragged = 'Row 2, column C: the row has 3 fields, the header 2 (a value holding "," needs quotes).';
  return {
    '413': {
      description: `${tooLarge.description} A rows file over \`batch_bytes\` answers \`rows_too_large\` with \`code\`, \`row\` and \`column\`.`,
      content: {
        'application/json': {
          schema: { oneOf: [ref('Error'), ref('RowsTooLarge')] },
          examples: {
            ...tooLarge.content!['application/json'].examples,
            rows: { value: { success: false, message: `The file is larger than the limit of ${Math.round(DEFAULT_LIMITS.batchBytes / 1024 / 1024)} MB (batch_bytes).`, code: 'rows_too_large', row: 0, column: null } },
          },
        },
      },
    },
    '422': {
      description: `${fields.description} A rows file that cannot be used answers one of the \`rows_*\` codes with \`code\`, \`row\` and \`column\`.`,
      content: {
        'application/json': {
          schema: { oneOf: [ref('ValidationError'), ref('RowsError')] },
          examples: {
            ...fields.content!['application/json'].examples,
            rows: { value: { success: false, message: ragged, errors: { file: [ragged] }, code: 'rows_ragged', row: 2, column: { index: 3, name: null } } },
            header: {
              value: { success: false, message: 'Header, column B (a..b): …', errors: { file: ['Header, column B (a..b): …'] }, code: 'rows_header', row: 0, column: { index: 2, name: 'a..b' } },
            },
          },
        },
      },
    },
  };
}

const rowsFile: Schema = {
  type: 'string',
  contentMediaType: 'application/octet-stream',
  description: 'The rows: CSV (`,` `;` or tab), XLSX, a JSON array of objects or NDJSON, UTF-8 (docs/batch.md); up to `batch_bytes`, received straight to disk.',
};
const sheetField: Schema = { type: 'string', description: 'XLSX: the sheet to read (default the first).' };

const createFields: Record<string, Schema> = {
  template_id: { type: 'string', description: "The template's uuid (or its integer id).", examples: [TEMPLATE_UUID] },
  data: { type: 'string', contentMediaType: 'application/json', description: 'Instead of `file`: a JSON array of row objects (up to the request body limit).' },
  output_type: { type: 'string', enum: ['pdf', 'docx'], description: "Default the template's `output_filetype`; `docx` for DOCX templates." },
  output_filename: { type: 'string', description: 'A tag expression filled from each row (`{{certificate_id}}`); names are made unique within the batch.' },
  test: flagField('1 makes test documents (watermarked); default 0.'),
  password: { type: 'string', description: "PDF open password of every document; default the template's." },
  expiration: { type: 'integer', minimum: EXPIRATION_MIN, maximum: EXPIRATION_MAX, description: "Minutes each document is kept; default the template's." },
  locale: { type: 'string', description: 'BCP 47 language tag for filters (`de-CH`).' },
  sheet: sheetField,
};

/** Multipart with the `file` part (or a `data` field); urlencoded and JSON with `data` (an array in JSON). */
function createBody() {
  const body = formBody(createFields, ['template_id'], {
    files: { file: rowsFile },
    json: { data: { description: 'A JSON array of row objects, or a string holding one.', anyOf: [{ type: 'array', items: { type: 'object' } }, { type: 'string' }] } },
    example: { template_id: TEMPLATE_UUID, data: JSON.stringify([{ certificate_id: 'C-0001', recipient: 'Ada Lovelace' }]), output_filename: '{{certificate_id}}' },
    description: 'The rows as the multipart part `file`, or as `data` (a JSON array); one of them is required (422 `errors.file` without either).',
  });
  // A new array each: formBody's content types share theirs.
  for (const type of ['application/x-www-form-urlencoded', 'application/json']) body.content[type].schema.required = ['template_id', 'data'];
  return body;
}

const pageExample = (path: string, items: unknown[]) => ({
  current_page: 1,
  data: items,
  first_page_url: `${BASE}${path}?page=1`,
  from: 1,
  last_page: 1,
  last_page_url: `${BASE}${path}?page=1`,
  links: [
    { url: null, label: '&laquo; Previous', active: false },
    { url: `${BASE}${path}?page=1`, label: '1', active: true },
    { url: null, label: 'Next &raquo;', active: false },
  ],
  next_page_url: null,
  path: `${BASE}${path}`,
  per_page: 15,
  prev_page_url: null,
  to: items.length,
  total: items.length,
});

export const batchArea: Area = {
  tag: { name: 'Batches', description: 'One document per row of a rows file (docs/api.md, "Batches"; docs/batch.md). An extra: not in the interface.' },
  schemas,
  // /api/batch/row before /api/batch/{id}: a concrete path is matched before a template that would also take it.
  paths: {
    '/api/batch': {
      get: {
        operationId: 'listBatches',
        summary: 'List batches',
        description: 'Newest first; `per_page` is carried in every page link.',
        tags: ['Batches'],
        parameters: pageParameters,
        responses: {
          '200': jsonResponse('A page of batches.', success({ batches: ref('BatchPage') }), { success: true, batches: pageExample('/api/batch', [batchExample('completed', 300, 0)]) }),
          ...standardErrors({ auth: 'any' }),
        },
      },
      post: {
        operationId: 'createBatch',
        summary: 'Create a batch',
        description:
          'The whole rows file is read once before anything is kept: a file that cannot be used makes no batch and no document (422/413 with `code`, `row`, `column`). ' +
          'Accepted: 202 with the batch `queued`; poll GET /api/batch/{id}. One batch renders at a time, at batch priority (previews and single documents go first).',
        tags: ['Batches'],
        requestBody: createBody(),
        responses: {
          '202': jsonResponse('Accepted: `queued`, `done: 0`, `failed: 0`.', batchBody, { success: true, batch: batchExample('queued', 0, 0) }),
          ...standardErrors({ auth: 'write', body: true, stores: true }),
          ...rowsResponses({ message: 'The template id field is required.', errors: { template_id: ['The template id field is required.'] } }),
        },
      },
    },
    '/api/batch/row': {
      post: {
        operationId: 'readBatchRow',
        summary: "One row's data",
        description: "One row's data exactly as a batch would read it, to preview it (POST /api/preview) before starting. Any token: nothing is kept.",
        tags: ['Batches'],
        requestBody: formBody(
          { row: { type: 'integer', minimum: 1, default: 1, description: '1 = the first data row.' }, sheet: sheetField },
          [],
          { files: { file: rowsFile }, multipartOnly: true, description: 'The rows file as the part `file` (required: 422 `errors.file` without it).' },
        ),
        responses: {
          '200': jsonResponse('The row and its data.', success({ row: { type: 'integer', minimum: 1 }, data: { type: 'object' } }), {
            success: true,
            row: 3,
            data: { certificate_id: 'C-0003', recipient: 'Ada Lovelace', instructor: { name: 'Charles Babbage' }, with_honors: true },
          }),
          ...standardErrors({ auth: 'any', body: true }),
          ...rowsResponses({ message: 'The file has 5 rows.', errors: { row: ['The file has 5 rows.'] } }),
        },
      },
    },
    '/api/batch/{id}': {
      parameters: [id],
      get: {
        operationId: 'getBatch',
        summary: 'Get a batch',
        description: 'Its progress now.',
        tags: ['Batches'],
        responses: {
          '200': jsonResponse('The batch.', batchBody, { success: true, batch: batchExample('processing', 120, 1) }),
          ...standardErrors({ auth: 'any', notFound }),
        },
      },
      delete: {
        operationId: 'deleteBatch',
        summary: 'Delete a batch',
        description: 'Cancels what is left, deletes every document of the batch (records, then files), then the batch and its stored rows file.',
        tags: ['Batches'],
        responses: {
          '200': jsonResponse('Deleted.', success({ message: { type: 'string' } }), { success: true, message: 'Batch deleted.' }),
          ...standardErrors({ auth: 'write', notFound, stores: true }),
        },
      },
    },
    '/api/batch/{id}/cancel': {
      parameters: [id],
      post: {
        operationId: 'cancelBatch',
        summary: 'Cancel a batch',
        description: 'Stops what is left (rows being rendered finish; no new row starts); the documents made stay. A batch that has ended is answered as it is.',
        tags: ['Batches'],
        responses: {
          '200': jsonResponse('The batch, `cancelled` (or as it ended).', batchBody, { success: true, batch: batchExample('cancelled', 120, 1) }),
          ...standardErrors({ auth: 'write', notFound, stores: true }),
        },
      },
    },
    '/api/batch/{id}/errors': {
      parameters: [id],
      get: {
        operationId: 'listBatchErrors',
        summary: "A batch's failed rows",
        description: 'In row order: a page of failures, or with `format=csv` every failure as CSV (`row,field,code,message`, no paging; the CLI\'s errors.csv).',
        tags: ['Batches'],
        parameters: [...pageParameters, query('format', '`csv`: the failures as `text/csv` (every one, no paging).', { type: 'string', enum: ['csv'] })],
        responses: {
          '200': {
            description: 'The failed rows: JSON (a page), or CSV with `format=csv` (then `Content-Disposition: attachment; filename="batch-{id}-errors.csv"`).',
            content: {
              'application/json': {
                schema: success({ errors: ref('BatchRowFailurePage') }),
                examples: { example: { value: { success: true, errors: pageExample('/api/batch/7/errors', [failureExample]) } } },
              },
              'text/csv': { schema: { type: 'string', contentMediaType: 'text/csv' } },
            },
          },
          ...standardErrors({ auth: 'any', notFound }),
        },
      },
    },
    '/api/batch/{id}/download': {
      parameters: [id],
      get: {
        operationId: 'downloadBatch',
        summary: "Download a batch's outputs",
        description:
          'Every `completed`, not expired output in row order under its `output_filename`, as a zip streamed as it is read (no `Content-Length`); ' +
          'while the batch runs, the rows done so far. `merge=1`: every PDF output in one PDF, for printing (built in memory).',
        tags: ['Batches'],
        parameters: [query('merge', '1: one merged PDF (`batch-{id}.pdf`) instead of the zip.', { type: 'string', enum: ['0', '1'] })],
        responses: {
          '200': fileResponse('The zip (`batch-{id}.zip`), or with `merge=1` the merged PDF (`batch-{id}.pdf`).', ['application/zip', 'application/pdf']),
          ...standardErrors({ auth: 'any', notFound }),
          '409': errorResponse('conflict', ['Only PDF outputs can be merged into one PDF.', 'Password-protected PDFs cannot be merged.']),
        },
      },
    },
  },
  extend({ paths, schemas: all }) {
    // A document a batch made says which (absent on the others, so they read exactly as before). Its `error`
    // stays CONTRACT.md's {code, message}; the failed field is in the batch's errors list.
    for (const name of ['Document', 'DocumentListItem']) {
      const doc = all[name] as { properties: Record<string, Schema> };
      doc.properties.batch_id = { type: 'integer', minimum: 1, description: 'Extra: the batch that made it (POST /api/batch); only on such documents.' };
    }
    paths['/api/document'].get!.parameters!.push(
      query('batch_id', "A batch's id: its documents (an id that is not a whole number matches nothing).", { type: 'string' }, '7'),
    );
    const limits = (all.ServiceInfo as { properties: Record<string, { properties: Record<string, Schema>; required: string[] }> }).properties.limits;
    limits.properties.batch_rows = { type: 'integer', minimum: 0, description: 'Data rows a batch\'s rows file may hold.' };
    limits.properties.batch_bytes = { type: 'integer', minimum: 0, description: 'Bytes a batch\'s rows file may have.' };
    limits.required.push('batch_rows', 'batch_bytes');
    const info = paths['/api/info'].get!.responses['200'] as ResponseObject;
    const example = info.content!['application/json'].examples!.example.value as { limits: Record<string, number> };
    Object.assign(example.limits, { batch_rows: DEFAULT_LIMITS.batchRows, batch_bytes: DEFAULT_LIMITS.batchBytes });
  },
};
