/** The extras the GUI and local tools use: preview, service info, settings (docs/api.md, "Extras"). */
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../pagination.js';
import { DEFAULT_EXPIRATION, EXPIRATION_MAX, EXPIRATION_MIN } from '../../services/validate.js';
import { exact, flagField, formBody, jsonResponse, standardErrors, success } from './common.js';
import { DATA_EXAMPLE } from './documents.js';
import type { Area, Schema } from './types.js';

const integer: Schema = { type: 'integer', minimum: 0 };

const dependency: Schema = { type: 'string', enum: ['ok', 'down'] };

const schemas: Record<string, Schema> = {
  Health: exact(
    {
      success: { type: 'boolean', description: 'true when every dependency is `ok` (status 200); false with status 503.' },
      database: { ...dependency, description: 'The store: the data folder (readable and writable), or PostgreSQL answering a query (DOCLOOM_DATABASE_URL).' },
      storage: { ...dependency, description: "Where documents' files live: the data folder, or the S3 bucket answering a HEAD (DOCLOOM_S3_BUCKET)." },
      queue: { ...dependency, description: "The render queue (this instance's render pool): `down` once the service is stopping." },
    },
    'Whether this instance can serve (a load balancer\'s probe). Each check waits 3 s at most.',
  ),
  Settings: exact({
    allow_private_network: { type: 'boolean', description: 'Image URLs may reach loopback and the local network (off by default).' },
  }),
  ServiceInfo: success(
    {
      name: { const: 'docloom' },
      version: { type: 'string' },
      base_url: { type: 'string', format: 'uri' },
      api_url: { type: 'string', format: 'uri' },
      token: exact(
        {
          id: { type: 'integer' },
          name: { type: 'string' },
          read_only: { type: 'boolean' },
          kind: { type: 'string', enum: ['api', 'window'], description: "`window`: a browser window's sign-in (POST /api/gui/exchange); `api`: an API token." },
        },
        'The token this request came with.',
      ),
      output_types: { type: 'array', items: { type: 'string' } },
      template_types: { type: 'array', items: { type: 'string' } },
      default_delimiters: { type: 'string' },
      pagination: exact({ default_per_page: { const: DEFAULT_PER_PAGE }, max_per_page: { const: MAX_PER_PAGE } }),
      expiration: exact({ default: { type: 'integer' }, min: { const: EXPIRATION_MIN }, max: { const: EXPIRATION_MAX }, unit: { const: 'minutes' } }),
      download_link_minutes: { type: 'integer', minimum: 1 },
      allow_private_network: { type: 'boolean', description: 'The setting in force now.' },
      render_workers: integer,
      limits: exact({
        template_upload_bytes: integer,
        docx_uncompressed_bytes: integer,
        docx_entry_ratio: integer,
        request_body_bytes: integer,
        rows_per_list: integer,
        images_per_document: integer,
        image_bytes: integer,
        image_pixels: integer,
        image_fetch_ms: integer,
        data_depth: integer,
        render_ms: integer,
        pages_per_document: integer,
      }),
    },
    'What the service is and how it is configured.',
  ),
};

const infoExample = {
  success: true,
  name: 'docloom',
  version: '0.1.0',
  base_url: 'http://127.0.0.1:7463',
  api_url: 'http://127.0.0.1:7463/api',
  token: { id: 3, name: 'GUI', read_only: false, kind: 'api' },
  output_types: ['pdf', 'docx'],
  template_types: ['docx', 'json'],
  default_delimiters: '{{ }}',
  pagination: { default_per_page: DEFAULT_PER_PAGE, max_per_page: MAX_PER_PAGE },
  expiration: { default: DEFAULT_EXPIRATION, min: EXPIRATION_MIN, max: EXPIRATION_MAX, unit: 'minutes' },
  download_link_minutes: 60,
  allow_private_network: false,
  render_workers: 1,
  limits: {
    template_upload_bytes: 20971520,
    docx_uncompressed_bytes: 104857600,
    docx_entry_ratio: 100,
    request_body_bytes: 10485760,
    rows_per_list: 10000,
    images_per_document: 50,
    image_bytes: 10485760,
    image_pixels: 40000000,
    image_fetch_ms: 10000,
    data_depth: 64,
    render_ms: 60000,
    pages_per_document: 2000,
  },
};

export const serviceArea: Area = {
  tag: { name: 'Service', description: 'Previews, service information and settings (docloom extras for the GUI and local tools).' },
  schemas,
  paths: {
    '/api/health': {
      get: {
        operationId: 'getHealth',
        summary: 'Health of this instance and its dependencies (no token)',
        description: "For load balancers: no token needed, nothing secret said. 503 (with Retry-After) names the dependency that is down.",
        tags: ['Service'],
        security: [],
        responses: {
          '200': jsonResponse('Every dependency answers.', { $ref: '#/components/schemas/Health' }, { success: true, database: 'ok', storage: 'ok', queue: 'ok' }),
          '503': jsonResponse('A dependency is down.', { $ref: '#/components/schemas/Health' }, { success: false, database: 'ok', storage: 'down', queue: 'ok' }),
          ...standardErrors({ auth: 'none' }),
        },
      },
    },
    '/api/preview': {
      post: {
        operationId: 'previewDocument',
        summary: 'Render a PDF without storing anything',
        description: 'A data problem that would make a `failed` document answers 422 with its message, also under `errors["data.<field>"]`; a stored template holding tags the template language now refuses, 422 with `template_errors`.',
        tags: ['Service'],
        requestBody: formBody(
          {
            template_id: { type: 'string', description: "The template's uuid (or integer id)." },
            data: { type: 'string', contentMediaType: 'application/json', description: 'A JSON object.' },
            test: flagField('1 adds the test watermark.'),
            locale: { type: 'string', description: 'BCP 47 language tag for filters.' },
          },
          ['template_id', 'data'],
          { json: { data: { anyOf: [{ type: 'object' }, { type: 'string' }] } }, example: { template_id: '3f1e9c52-8a4b-4f0e-9b7a-2c6d5e8f1a23', data: JSON.stringify(DATA_EXAMPLE) } },
        ),
        responses: {
          '200': { description: 'The PDF.', content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } } },
          ...standardErrors({
            auth: 'any',
            body: true,
            validation: { message: 'The image "logo" could not be fetched.', errors: { 'data.logo': ['The image "logo" could not be fetched.'] } },
          }),
        },
      },
    },
    '/api/info': {
      get: {
        operationId: 'getServiceInfo',
        summary: 'Service information, limits and the calling token',
        tags: ['Service'],
        responses: { '200': jsonResponse('The service.', { $ref: '#/components/schemas/ServiceInfo' }, infoExample), ...standardErrors({ auth: 'any' }) },
      },
    },
    '/api/settings': {
      get: {
        operationId: 'getSettings',
        summary: 'Settings changed while the service runs',
        tags: ['Service'],
        responses: {
          '200': jsonResponse('The settings in force.', success({ settings: { $ref: '#/components/schemas/Settings' } }), { success: true, settings: { allow_private_network: false } }),
          ...standardErrors({ auth: 'any' }),
        },
      },
      put: {
        operationId: 'updateSettings',
        summary: 'Change settings',
        description: 'Kept in the data dir; applies to the next document and preview, no restart.',
        tags: ['Service'],
        requestBody: formBody({ allow_private_network: flagField('Allow image URLs to reach the local network.') }, ['allow_private_network'], { example: { allow_private_network: 'true' } }),
        responses: {
          '200': jsonResponse('The settings as they now are.', success({ settings: { $ref: '#/components/schemas/Settings' } }), { success: true, settings: { allow_private_network: true } }),
          ...standardErrors({
            auth: 'write',
            body: true,
            stores: true,
            validation: { message: 'The allow private network field is required.', errors: { allow_private_network: ['The allow private network field is required.'] } },
          }),
        },
      },
    },
  },
};
