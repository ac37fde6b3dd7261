/**
 * The shapes the GUI reads from the local API (CONTRACT.md). Written from the contract, not imported from the
 * server: the renderer is a client like any other. Fields the GUI does not use are left out or optional.
 */

export type FieldType = 'text' | 'list' | 'table' | 'image' | 'condition';

/** One entry of a template's `fields` (a JSON string in the record). */
export interface TemplateField {
  name: string;
  type: FieldType;
  fields?: TemplateField[];
}

export interface TemplateRecord {
  uuid: string;
  id: number;
  name: string;
  description: string;
  /** A JSON string holding TemplateField[]. */
  fields: string;
  original_filename: string;
  google_doc_id?: string | null;
  output_filename: string | null;
  output_filetype: string | null;
  /** Boolean (or null) in lists, 0/1 in a single-template response. */
  editable: boolean | number | null;
  password: string | null;
  /** Minutes a generated document is kept. */
  expiration: number;
  /** `{{ }}` style pair; the service may send a string or a two-item array. */
  delimiters?: string | [string, string] | null;
  version?: number;
  created_at?: string;
  updated_at?: string;
  sample_data?: Record<string, unknown> | string | null;
  schema?: unknown;
  /** What the import left out or changed (an EMF picture, a chart…); always an array from this service. */
  import_warnings?: ImportWarning[];
}

/** One import warning: aggregated per code, part and element, with how many times it happened. */
export interface ImportWarning {
  code: string;
  message: string;
  location?: { part: string; element?: string };
  count?: number;
  /** `no_tags_found`: the delimiters with which the file does have tags, as "{ }". */
  suggested_delimiters?: string;
}

export type DocumentStatus = 'pending' | 'processing' | 'completed' | 'failed';

export interface DocumentRecord {
  id: number;
  status: DocumentStatus | string;
  output_filename: string | null;
  output_type?: string;
  template_id: number;
  template_uuid?: string;
  editable?: number;
  password?: string | null;
  test: number;
  expires_at: string;
  expired: number;
  created_at: string;
  updated_at?: string;
  download_url: string;
  editable_url?: string | null;
  pages?: number | null;
  size?: number | null;
  error?: { code: string; message: string } | null;
}

export interface PageLink {
  url: string | null;
  label: string;
  active: boolean;
}

/** Laravel's length-aware page object. */
export interface Page<T> {
  current_page: number;
  data: T[];
  first_page_url: string;
  from: number;
  last_page: number;
  last_page_url: string;
  links: PageLink[];
  next_page_url: string | null;
  path: string;
  per_page: number;
  prev_page_url: string | null;
  to: number;
  total: number;
}

export interface TokenRecord {
  id: number | string;
  name: string;
  read_only: boolean | number;
  created_at?: string;
  last_used_at?: string | null;
}

/** A browser window's sign-in (GET /api/tokens `window_sign_ins`): not an API token. */
export interface WindowSignInRecord {
  id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
  /** When it stops working if no request uses it before. */
  expires_at: string;
  /** The one this window uses. */
  current: boolean;
}

export interface ServiceInfo {
  version?: string;
  base_url?: string;
  limits?: Record<string, number>;
  /** The token this GUI itself uses (so the Tokens page can mark it); `kind` 'window' = a window sign-in. */
  token?: { id: number | string; name: string; read_only: boolean; kind?: 'api' | 'window' };
}

/** GET/PUT /api/settings: what the GUI's switches change while the service runs. */
export interface ServiceSettings {
  /** Image URLs may reach this computer and the local network (off by default). */
  allow_private_network: boolean;
}

export interface TemplateErrorItem {
  code: string;
  message: string;
  location?: { part?: string; paragraph?: number; tag?: string };
}

/** The Laravel-shaped error body (CONTRACT.md §2). */
export interface ErrorBody {
  success: false;
  message?: string;
  errors?: Record<string, string[]>;
  template_errors?: TemplateErrorItem[];
  request_id?: string;
}

export interface DocumentFilters {
  status?: string;
  template_id?: number | string;
  test?: '0' | '1' | '';
  expired?: '0' | '1' | '';
}

/** Settings a template's PUT accepts (every field optional). */
export interface TemplateSettings {
  name?: string;
  description?: string;
  output_filename?: string | null;
  output_filetype?: string;
  editable?: boolean;
  password?: string | null;
  expiration?: number;
  delimiters?: string;
}

/** A batch (POST /api/batch): one document per row of a rows file. */
export interface BatchRecord {
  id: number;
  status: 'queued' | 'processing' | 'completed' | 'completed_with_errors' | 'failed' | 'cancelled';
  total: number;
  done: number;
  failed: number;
  template_id: number;
  template_uuid: string;
  rows_filename: string;
  error: { code: string; message: string } | null;
  created_at: string;
  updated_at: string;
}

export interface BatchFailure {
  row: number;
  field: string | null;
  code: string;
  message: string;
  document_id: number;
}
