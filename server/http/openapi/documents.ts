/** /api/document: create, list, read, delete, download (interface §4.1–4.4, CONTRACT.md §6, docs/api.md). */
import { STATUSES } from '../../services/documents.js';
import { CONTENT_TYPES } from '../../services/documents.js';
import { EXPIRATION_MAX, EXPIRATION_MIN } from '../../services/validate.js';
import { exact, fileResponse, flagField, formBody, int01, jsonResponse, laravelDate, pathParam, query, ref, standardErrors, success } from './common.js';
import { DOCUMENT_ERROR_CODES, errorResponse } from './errors.js';
import { pageOf, pageParameters } from './pagination.js';
import type { Area, Schema } from './types.js';

const BASE = 'http://127.0.0.1:7463';
const TEMPLATE_UUID = '3f1e9c52-8a4b-4f0e-9b7a-2c6d5e8f1a23';

/** The interface's data shapes (§4.1): plain variables, a list, a table and an image URL. */
export const DATA_EXAMPLE = {
  'variable 1': 'Ada Lovelace',
  EXAMPLE_LIST: [{ LIST_ITEM: 'First item' }, { LIST_ITEM: 'Second item' }],
  TABLE: [
    { COL_1: 'Analytical engine', COL_2: '1200.00' },
    { COL_1: 'Punched cards', COL_2: '35.50' },
  ],
  logo: 'https://example.com/logo.png',
};

const documentExample = (cloudUrl: string | null) => ({
  id: 42,
  status: 'completed',
  output_filename: 'Invoice INV-0042.pdf',
  output_type: 'pdf',
  template_id: 3,
  editable: 0,
  password: null,
  test: 0,
  expires_at: '2026-12-22T08:11:00.000000Z',
  expired: 0,
  cloud_id: null,
  cloud_url: cloudUrl,
  created_at: '2026-11-22T08:11:00.000000Z',
  updated_at: '2026-11-22T08:11:00.000000Z',
  download_url: `${BASE}/api/document/42/download?expires=1763802660&signature=9c4b7d0e2f6a8b1c3d5e7f9a0b2c4d6e8f0a1b3c5d7e9f1a3b5c7d9e1f3a5b7c`,
  template_uuid: TEMPLATE_UUID,
  error: null,
  pages: 1,
  size: 18734,
  editable_url: null,
});

/** The document as the interface types it; only `cloud_url` differs between the list and the single response. */
function documentSchema(cloudUrl: Schema, description: string): Schema {
  return exact(
    {
      id: { type: 'integer', minimum: 1 },
      status: { type: 'string', enum: [...STATUSES], description: '`pending` → `processing` → `completed` | `failed`.' },
      output_filename: { type: ['string', 'null'], description: 'With its extension (`Invoice INV-1.pdf`).' },
      output_type: { type: 'string', enum: Object.keys(CONTENT_TYPES) },
      template_id: { type: 'integer', minimum: 1, description: "The template's integer `id`." },
      editable: int01,
      password: { type: ['string', 'null'], description: 'PDF open password (shown, as the interface does; never logged).' },
      test: { ...int01, description: '1 = a "TEST DOCUMENT" watermark on every page.' },
      expires_at: { ...laravelDate, description: '`created_at` + the expiration in minutes.' },
      expired: { ...int01, description: '1 once `expires_at` has passed and the files are deleted.' },
      cloud_id: { type: ['string', 'null'], description: "The output's object key when files are kept in S3-compatible storage (the team server's DOCLOOM_S3_BUCKET) and the document is completed and not expired; null otherwise (the desktop keeps documents on this computer's disk)." },
      cloud_url: cloudUrl,
      created_at: laravelDate,
      updated_at: laravelDate,
      download_url: { type: 'string', format: 'uri', description: 'Absolute, signed, time-limited; renewed on every read.' },
      template_uuid: { type: 'string', format: 'uuid' },
      error: {
        description: 'Why a `failed` document failed.',
        oneOf: [{ type: 'null' }, exact({ code: { type: 'string', enum: DOCUMENT_ERROR_CODES }, message: { type: 'string' } })],
      },
      pages: { type: ['integer', 'null'], minimum: 1, description: 'Page count once completed.' },
      size: { type: ['integer', 'null'], minimum: 0, description: 'Bytes of the file once completed.' },
      editable_url: { type: ['string', 'null'], format: 'uri', description: 'Signed link to the editable filled .docx, when one was kept.' },
    },
    description,
  );
}

const schemas: Record<string, Schema> = {
  Document: documentSchema(
    { type: 'string', description: 'A plain string in the single-document response, as the interface types it: a presigned GET of the object (or DOCLOOM_S3_PUBLIC_BASE_URL + key) when `cloud_id` is set, else `""` (fetch `download_url`).' },
    'A document (GET /api/document/{id} and the create response).',
  ),
  DocumentListItem: documentSchema({ type: ['string', 'null'], description: 'A presigned GET of the object (or DOCLOOM_S3_PUBLIC_BASE_URL + key) when `cloud_id` is set; null otherwise.' }, 'A document in GET /api/document.'),
  DocumentPage: pageOf('DocumentListItem'),
};

const id = pathParam('id', 'The integer document id (anything else is 404).', { type: 'integer', minimum: 1 }, 42);
const notFound = ['Document not found.'];
const documentBody = success({ document: ref('Document') });

const createFields: Record<string, Schema> = {
  template_id: { type: 'string', description: "The template's uuid (or its integer id).", examples: [TEMPLATE_UUID] },
  data: {
    type: 'string',
    contentMediaType: 'application/json',
    description: "A JSON object: keys are the template's variable names. In multipart it may also be a file part (`curl -F data=@data.json`).",
  },
  output_type: { type: 'string', enum: Object.keys(CONTENT_TYPES), description: "Default the template's `output_filetype`; `docx` for DOCX templates." },
  output_filename: { type: 'string', description: "Default the template's pattern with its tags filled, else its name; the extension is appended." },
  test: flagField('1 makes a test document (watermarked); default 0.'),
  password: { type: 'string', description: "PDF open password; default the template's." },
  editable: flagField("Also keep an editable filled .docx (DOCX templates); default the template's."),
  expiration: { type: 'integer', minimum: EXPIRATION_MIN, maximum: EXPIRATION_MAX, description: "Minutes the document is kept; default the template's." },
  locale: { type: 'string', description: 'BCP 47 language tag for filters (`de-CH`).' },
  async: flagField('1 answers 202 at once with the document `pending`.'),
};

const downloadResponses = (what: string) => ({
  '200': fileResponse(what, Object.values(CONTENT_TYPES)),
  ...standardErrors({ auth: 'any', notFound }),
  '403': errorResponse('forbidden', ['Invalid signature.', 'This download link has expired; read the document again for a fresh one.', 'This action is unauthorized.']),
  '409': errorResponse('conflict', ['The document is not ready yet (status: processing).', 'The document failed to render, so it has no file.']),
  '410': errorResponse('gone', ['Document has expired.']),
});

const signedParams = [
  query('expires', 'Signed link: when it stops working (unix seconds).', { type: 'integer' }),
  query('signature', 'Signed link: its signature (hex); with it no bearer token is needed.', { type: 'string' }),
  query('inline', '1: `Content-Disposition: inline` instead of `attachment`.', { type: 'string', enum: ['0', '1'] }),
];

export const documentsArea: Area = {
  tag: { name: 'Documents', description: 'Documents made from templates (interface §4.1–4.4).' },
  schemas,
  paths: {
    '/api/document': {
      get: {
        operationId: 'listDocuments',
        summary: 'List documents',
        description: 'Newest first. Filters and `per_page` are carried in every page link.',
        tags: ['Documents'],
        parameters: [
          ...pageParameters,
          query('template_id', "The template's integer id or uuid (an unknown one matches nothing).", { type: 'string' }, '3'),
          query('status', 'Only documents in this status.', { type: 'string', enum: [...STATUSES] }, 'completed'),
          query('test', 'Only test (1) or real (0) documents.', { type: 'string', enum: ['0', '1'] }),
          query('expired', 'Only expired (1) or live (0) documents.', { type: 'string', enum: ['0', '1'] }),
        ],
        responses: {
          '200': jsonResponse('A page of documents.', success({ documents: ref('DocumentPage') }), {
            success: true,
            documents: {
              current_page: 1,
              data: [documentExample(null)],
              first_page_url: `${BASE}/api/document?page=1`,
              from: 1,
              last_page: 1,
              last_page_url: `${BASE}/api/document?page=1`,
              links: [
                { url: null, label: '&laquo; Previous', active: false },
                { url: `${BASE}/api/document?page=1`, label: '1', active: true },
                { url: null, label: 'Next &raquo;', active: false },
              ],
              next_page_url: null,
              path: `${BASE}/api/document`,
              per_page: 15,
              prev_page_url: null,
              to: 1,
              total: 1,
            },
          }),
          ...standardErrors({ auth: 'any', validation: { message: 'The selected status is invalid (one of: pending, processing, completed, failed).', errors: { status: ['The selected status is invalid (one of: pending, processing, completed, failed).'] } } }),
        },
      },
      post: {
        operationId: 'createDocument',
        summary: 'Create a document',
        description:
          'Renders at once: 201 with the document `completed`, or `failed` with `error` (the record exists). `async=1` answers 202 with it `pending`. ' +
          'Idempotency-Key: same key + same body → the first response again; another body → 422; the first still running → 409. ' +
          'A stored template holding tags the template language now refuses → 422 with `errors.template_id` and every tag in `template_errors`.',
        tags: ['Documents'],
        parameters: [{ name: 'Idempotency-Key', in: 'header', description: 'Makes a retry safe (kept 24 hours per token; ≤ 255 characters).', schema: { type: 'string', maxLength: 255 } }],
        requestBody: formBody(createFields, ['template_id', 'data'], {
          json: { data: { description: 'A JSON object, or a string holding one.', anyOf: [{ type: 'object' }, { type: 'string' }] } },
          example: { template_id: TEMPLATE_UUID, data: JSON.stringify(DATA_EXAMPLE), output_type: 'pdf', output_filename: 'Invoice INV-0042', test: '0' },
        }),
        responses: {
          '201': jsonResponse('Rendered: `completed`, or `failed` with `error`.', documentBody, { success: true, document: documentExample('') }),
          '202': jsonResponse('`async=1`: accepted, `pending`; poll GET /api/document/{id}.', documentBody, {
            success: true,
            document: { ...documentExample(''), status: 'pending', pages: null, size: null },
          }),
          ...standardErrors({
            auth: 'write',
            body: true,
            stores: true,
            validation: { message: 'The template id field is required.', errors: { template_id: ['The template id field is required.'] } },
          }),
          '409': errorResponse('conflict', ['A request with this Idempotency-Key is still being processed; retry when it has finished.']),
        },
      },
    },
    '/api/document/{id}': {
      parameters: [id],
      get: {
        operationId: 'getDocument',
        summary: 'Get a document',
        tags: ['Documents'],
        responses: {
          '200': jsonResponse('The document; `download_url` is a fresh signed link.', documentBody, { success: true, document: documentExample('') }),
          ...standardErrors({ auth: 'any', notFound }),
        },
      },
      delete: {
        operationId: 'deleteDocument',
        summary: 'Delete a document',
        description: 'The record and its files are removed.',
        tags: ['Documents'],
        responses: {
          '200': jsonResponse('Deleted.', success({ message: { type: 'string' } }), { success: true, message: 'Document deleted.' }),
          ...standardErrors({ auth: 'write', notFound, stores: true }),
        },
      },
    },
    '/api/document/{id}/download': {
      parameters: [id],
      get: {
        operationId: 'downloadDocument',
        summary: "Download a document's file",
        description: 'With the bearer token, or as the signed `download_url` (`expires` + `signature`, no token).',
        tags: ['Documents'],
        security: [{ bearer: [] }, { signedLink: [] }],
        parameters: signedParams,
        responses: downloadResponses('The file (`application/pdf`, or the .docx type).'),
      },
    },
    '/api/document/{id}/editable': {
      parameters: [id],
      get: {
        operationId: 'downloadEditableDocument',
        summary: "Download a document's editable copy",
        description: 'The filled .docx kept with `editable=1`; with the bearer token or as the signed `editable_url`. 404 when none was kept.',
        tags: ['Documents'],
        security: [{ bearer: [] }, { signedLink: [] }],
        parameters: signedParams,
        responses: {
          ...downloadResponses('The editable .docx.'),
          '404': errorResponse('not_found', ['Document not found.', 'The document has no editable copy.']),
        },
      },
    },
  },
};
