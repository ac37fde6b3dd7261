/**
 * Records → the interface's JSON, field for field and type for type (spec §2), then CONTRACT.md's extras.
 * The list and single responses differ on purpose, exactly where the interface types them differently: a
 * template's `editable` is boolean|null in the list and an integer in the single response; a document's
 * `cloud_url` is nullable in the list and a plain string in the single response.
 */
import type { DocumentRecord, TemplateRecord } from '../store/index.js';
import { laravelDate } from '../services/datetime.js';
import type { SignedLinks } from '../services/links.js';
import type { CloudCopy } from '../store/files/file-store.js';

function documentJson(doc: DocumentRecord, links: SignedLinks, cloud: CloudCopy | null | undefined, noCloudUrl: string | null): Record<string, unknown> {
  return {
    id: doc.id,
    status: doc.status,
    output_filename: doc.output_filename,
    output_type: doc.output_type,
    template_id: doc.template_id,
    editable: doc.editable,
    password: doc.password,
    test: doc.test,
    expires_at: laravelDate(doc.expires_at),
    expired: doc.expired,
    cloud_id: cloud ? cloud.cloud_id : null,
    cloud_url: cloud ? cloud.cloud_url : noCloudUrl,
    created_at: laravelDate(doc.created_at),
    updated_at: laravelDate(doc.updated_at),
    // A fresh signature on every read, so the link a client holds is renewed whenever it reads the record.
    download_url: links.url('download', doc.id),
    template_uuid: doc.template_uuid,
    // CONTRACT.md: null or {code, message}; a batch row's failed field is in GET /api/batch/{id}/errors.
    error: doc.error ? { code: doc.error.code, message: doc.error.message } : null,
    pages: doc.pages,
    size: doc.size,
    editable_url: doc.has_editable && doc.expired === 0 ? links.url('editable', doc.id) : null,
    // Only on documents a batch made (POST /api/batch), so other documents read exactly as before.
    ...(doc.batch_id !== undefined ? { batch_id: doc.batch_id } : {}),
  };
}

/**
 * GET /api/document's items. `cloud` is the document's copy in object storage (docs/team-server.md); without one
 * `cloud_id` and `cloud_url` are null (the list types `cloud_url` nullable).
 */
export function documentListJson(doc: DocumentRecord, links: SignedLinks, cloud?: CloudCopy | null): Record<string, unknown> {
  return documentJson(doc, links, cloud, null);
}

/**
 * GET /api/document/{id} (and the create response): the interface types `cloud_url` here as a plain string, so
 * a client that reads it without a null check gets a string. Without a copy in object storage it is empty, not a
 * made-up address: documents live on the user's disk, and `download_url` is the address to fetch them from.
 */
export function documentSingleJson(doc: DocumentRecord, links: SignedLinks, cloud?: CloudCopy | null): Record<string, unknown> {
  return documentJson(doc, links, cloud, '');
}

function templateJson(t: TemplateRecord, editable: boolean | null | number): Record<string, unknown> {
  return {
    uuid: t.uuid,
    name: t.name,
    fields: JSON.stringify(t.fields),
    original_filename: t.original_filename,
    google_doc_id: t.google_doc_id,
    description: t.description,
    output_filename: t.output_filename,
    output_filetype: t.output_filetype,
    editable,
    password: t.password,
    expiration: t.expiration,
    id: t.id,
    delimiters: t.delimiters.join(' '),
    version: t.version,
    created_at: laravelDate(t.created_at),
    updated_at: laravelDate(t.updated_at),
    sample_data: t.sample_data,
    schema: t.schema,
    // Always an array: records stored before warnings existed have none.
    import_warnings: t.import_warnings ?? [],
  };
}

/** GET /api/template's items: `editable` boolean, or null when never set. */
export function templateListJson(t: TemplateRecord): Record<string, unknown> {
  return templateJson(t, t.editable);
}

/** GET /api/template/{uuid} (and create/update responses): `editable` integer 0/1. */
export function templateSingleJson(t: TemplateRecord): Record<string, unknown> {
  return templateJson(t, t.editable ? 1 : 0);
}
