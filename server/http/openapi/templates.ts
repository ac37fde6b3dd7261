/** /api/template: list, read, create, update, delete, file (interface §4.5–4.7, CONTRACT.md §4, docs/api.md). */
import { DEFAULT_EXPIRATION, EXPIRATION_MAX, EXPIRATION_MIN } from '../../services/validate.js';
import { CATALOGUE, type WarningCode } from '../../errors/catalogue.js';
import { OTHER_DELIMITERS } from '../../services/import-core.js';
import { exact, fileResponse, flagField, formBody, jsonResponse, laravelDate, pathParam, query, ref, standardErrors, success } from './common.js';
import { errorResponse } from './errors.js';
import { pageOf, pageParameters } from './pagination.js';
import type { Area, Schema } from './types.js';

const BASE = 'http://127.0.0.1:7463';
const UUID = '3f1e9c52-8a4b-4f0e-9b7a-2c6d5e8f1a23';
const WARNING_CODES = (Object.keys(CATALOGUE) as Array<keyof typeof CATALOGUE>).filter((c): c is WarningCode => CATALOGUE[c].kind === 'warning');

const templateExample = (editable: boolean | number | null) => ({
  uuid: UUID,
  name: 'Invoice',
  fields: JSON.stringify([
    { name: 'variable 1', type: 'text' },
    { name: 'EXAMPLE_LIST', type: 'list', fields: [{ name: 'LIST_ITEM', type: 'text' }] },
    { name: 'TABLE', type: 'table', fields: [{ name: 'COL_1', type: 'text' }, { name: 'COL_2', type: 'text' }] },
    { name: 'logo', type: 'image' },
  ]),
  original_filename: 'invoice.docx',
  google_doc_id: null,
  description: '',
  output_filename: 'Invoice {{number}}',
  output_filetype: 'pdf',
  editable,
  password: null,
  expiration: DEFAULT_EXPIRATION,
  id: 3,
  delimiters: '{{ }}',
  version: 1,
  created_at: '2026-11-22T08:00:00.000000Z',
  updated_at: '2026-11-22T08:00:00.000000Z',
  sample_data: { 'variable 1': 'variable 1', EXAMPLE_LIST: [{ LIST_ITEM: 'LIST_ITEM' }], TABLE: [{ COL_1: 'COL_1', COL_2: 'COL_2' }], logo: '' },
  schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' },
  import_warnings: [],
});

/** The template as the interface types it; only `editable` differs between the list and the single response. */
function templateSchema(editable: Schema, description: string): Schema {
  return exact(
    {
      uuid: { type: 'string', format: 'uuid', description: 'Used in paths.' },
      name: { type: 'string' },
      fields: {
        type: 'string',
        contentMediaType: 'application/json',
        contentSchema: { type: 'array', items: ref('TemplateField') },
        description: "The template's variables as a JSON string: `[{name, type, fields?}]`.",
      },
      original_filename: { type: 'string' },
      google_doc_id: { type: ['string', 'null'] },
      description: { type: 'string', description: '`""` when none.' },
      output_filename: { type: ['string', 'null'], description: 'Default file name of documents; may hold tags (`Invoice {{number}}`).' },
      output_filetype: { type: 'string', description: '`pdf` unless set (never null).' },
      editable,
      password: { type: ['string', 'null'], description: 'Default PDF password of documents.' },
      expiration: { type: 'integer', minimum: EXPIRATION_MIN, maximum: EXPIRATION_MAX, description: `Minutes documents are kept (default ${DEFAULT_EXPIRATION} = 30 days).` },
      id: { type: 'integer', minimum: 1, description: "The id documents carry in `template_id`." },
      delimiters: { type: 'string', examples: ['{{ }}', '<< >>'] },
      version: { type: 'integer', minimum: 1, description: '+1 when the file or the delimiters change.' },
      created_at: laravelDate,
      updated_at: laravelDate,
      sample_data: { type: 'object', description: 'Data that fits `fields`.' },
      schema: { type: 'object', description: 'JSON Schema (2020-12) of the data.' },
      import_warnings: { type: 'array', items: ref('ImportWarning'), description: 'What the import left out or changed; `[]` when nothing.' },
    },
    description,
  );
}

const schemas: Record<string, Schema> = {
  TemplateField: {
    type: 'object',
    required: ['name', 'type'],
    additionalProperties: false,
    properties: {
      name: { type: 'string' },
      type: { type: 'string', enum: ['text', 'list', 'table', 'image', 'condition'] },
      fields: { type: 'array', items: { $ref: '#/components/schemas/TemplateField' }, description: 'Under list, table and condition.' },
    },
  },
  ImportWarning: {
    ...exact(
      {
        code: { type: 'string', enum: WARNING_CODES },
        message: { type: 'string' },
        location: {
          type: 'object',
          required: ['part'],
          additionalProperties: false,
          properties: { part: { type: 'string' }, element: { type: 'string' } },
        },
        count: { type: 'integer', minimum: 1 },
        suggested_delimiters: {
          type: 'string',
          enum: OTHER_DELIMITERS.map((pair) => pair.join(' ')),
          description: '`no_tags_found` only: the delimiters with which the file has tags (`count` fields); PUT them as `delimiters`.',
        },
      },
      'Something an accepted template import left out or changed, per code, part and element.',
    ),
    required: ['code', 'message', 'location', 'count'],
    // `suggested_delimiters` comes with `no_tags_found` and only with it.
    if: { properties: { code: { const: 'no_tags_found' } } },
    then: { properties: { suggested_delimiters: true }, required: ['suggested_delimiters'] },
    else: { properties: { suggested_delimiters: false } },
  },
  Template: templateSchema({ type: 'integer', enum: [0, 1], description: 'An integer in the single-template response, as the interface types it.' }, 'A template (GET /api/template/{uuid}, create and update).'),
  TemplateListItem: templateSchema({ type: ['boolean', 'null'], description: 'Boolean, or null when never set, in the list, as the interface types it.' }, 'A template in GET /api/template.'),
  TemplatePage: pageOf('TemplateListItem'),
};

const uuid = pathParam('uuid', "The template's uuid (from the list or the GUI's template settings).", { type: 'string' }, UUID);
const notFound = ['Template not found.'];
const templateBody = success({ template: ref('Template') });

const settingsFields: Record<string, Schema> = {
  name: { type: 'string', description: "Default: a .json template's own name, else the file name without its extension." },
  description: { type: 'string' },
  output_filename: { type: 'string', description: 'May hold tags: `Invoice {{number}}`.' },
  output_filetype: { type: 'string', enum: ['pdf', 'docx'] },
  editable: flagField('Documents also keep an editable filled .docx.'),
  password: { type: 'string', description: 'Default PDF password of documents.' },
  expiration: { type: 'integer', minimum: EXPIRATION_MIN, maximum: EXPIRATION_MAX, default: DEFAULT_EXPIRATION, description: 'Minutes documents are kept.' },
  delimiters: { type: 'string', description: 'Two markers separated by a space.', default: '{{ }}', examples: ['<< >>'] },
  google_doc_id: { type: 'string', description: 'Stored; docloom works offline, so upload the Google Doc exported as .docx.' },
};
const fileField: Schema = { type: 'string', contentMediaType: 'application/octet-stream', description: 'The template: a .docx (or .docm, macros removed) or a docloom .json.' };

const uploadErrors = (creating: boolean) => ({
  ...standardErrors({
    auth: 'write',
    body: true,
    stores: true,
    ...(creating ? {} : { notFound }),
    validation: {
      message: 'body, paragraph 3, {{#items}}: The section "items" is never closed.',
      errors: { file: ['body, paragraph 3, {{#items}}: The section "items" is never closed.'] },
    },
  }),
  '413': errorResponse('too_large', ['The template file is larger than the upload limit of 20 MB.', 'The .docx entry "word/media/x.bin" expands 1021 times; the limit is 100 times per entry.']),
  '415': errorResponse('unsupported_type', ['The file must be a .docx (Word) or .json (docloom) template.']),
});

const templatePageExample = {
  success: true,
  templates: {
    current_page: 1,
    data: [templateExample(null)],
    first_page_url: `${BASE}/api/template?page=1`,
    from: 1,
    last_page: 1,
    last_page_url: `${BASE}/api/template?page=1`,
    links: [
      { url: null, label: '&laquo; Previous', active: false },
      { url: `${BASE}/api/template?page=1`, label: '1', active: true },
      { url: null, label: 'Next &raquo;', active: false },
    ],
    next_page_url: null,
    path: `${BASE}/api/template`,
    per_page: 15,
    prev_page_url: null,
    to: 1,
    total: 1,
  },
};

export const templatesArea: Area = {
  tag: { name: 'Templates', description: 'Templates documents are made from (interface §4.5–4.7; creating and updating are docloom extras).' },
  schemas,
  paths: {
    '/api/template': {
      get: {
        operationId: 'listTemplates',
        summary: 'List templates',
        description: 'Newest first.',
        tags: ['Templates'],
        parameters: [...pageParameters, query('name', 'Only templates whose name holds this (case-insensitive).', { type: 'string' }, 'Invoice')],
        responses: {
          '200': jsonResponse('A page of templates.', success({ templates: ref('TemplatePage') }), templatePageExample),
          ...standardErrors({ auth: 'any' }),
        },
      },
      post: {
        operationId: 'createTemplate',
        summary: 'Create a template from a file',
        description: 'A template with errors is refused with 422 listing every problem with its place (at most 100, then `more_errors`).',
        tags: ['Templates'],
        requestBody: formBody(settingsFields, ['file'], { files: { file: fileField }, multipartOnly: true, example: { file: '(the bytes of invoice.docx)', name: 'Invoice', output_filename: 'Invoice {{number}}', expiration: DEFAULT_EXPIRATION } }),
        responses: {
          '201': jsonResponse('Created.', templateBody, { success: true, template: templateExample(0) }),
          ...uploadErrors(true),
        },
      },
    },
    '/api/template/{uuid}': {
      parameters: [uuid],
      get: {
        operationId: 'getTemplate',
        summary: 'Get a template',
        tags: ['Templates'],
        responses: {
          '200': jsonResponse('The template.', templateBody, { success: true, template: templateExample(0) }),
          ...standardErrors({ auth: 'any', notFound }),
        },
      },
      put: {
        operationId: 'updateTemplate',
        summary: 'Change a template and/or replace its file',
        description: 'Every field optional. A new file (or new delimiters) is checked like an upload and makes a new `version`; documents already made are untouched.',
        tags: ['Templates'],
        requestBody: formBody(settingsFields, [], { files: { file: fileField } }),
        responses: {
          '200': jsonResponse('The template as it now is.', templateBody, { success: true, template: { ...templateExample(1), version: 2 } }),
          ...uploadErrors(false),
        },
      },
      delete: {
        operationId: 'deleteTemplate',
        summary: 'Delete a template',
        description: 'Its documents stay readable.',
        tags: ['Templates'],
        responses: {
          '200': jsonResponse('Deleted.', success({ message: { type: 'string' } }), { success: true, message: 'Template deleted.' }),
          ...standardErrors({ auth: 'write', notFound, stores: true }),
        },
      },
    },
    '/api/template/{uuid}/file': {
      parameters: [uuid],
      get: {
        operationId: 'downloadTemplateFile',
        summary: 'Download the stored template file',
        tags: ['Templates'],
        responses: {
          '200': fileResponse('The file, named by `original_filename`.', ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/json']),
          ...standardErrors({ auth: 'any', notFound }),
        },
      },
    },
  },
};
