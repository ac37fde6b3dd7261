/**
 * The GUI's one door to the local API. Every request goes through `request()`, which adds the bearer token,
 * reads JSON or bytes, and turns failures into ApiError with a human message. Stores call these functions;
 * components never call fetch themselves.
 */
import { ApiError, errorFromResponse, networkError } from './errors.js';
import type {
  BatchFailure,
  BatchRecord,
  DocumentFilters,
  DocumentRecord,
  Page,
  ServiceInfo,
  ServiceSettings,
  TemplateRecord,
  TemplateSettings,
  TokenRecord,
  WindowSignInRecord,
} from './types.js';

interface ClientState {
  baseUrl: string;
  token: string | null;
  onUnauthenticated: () => void;
}

const state: ClientState = {
  baseUrl: defaultBaseUrl(),
  token: null,
  onUnauthenticated: () => {},
};

/** The Electron preload's apiBaseUrl when present, else the page's own origin (served by `docloom serve`). */
function defaultBaseUrl(): string {
  const fromShell = window.docloom?.apiBaseUrl;
  if (fromShell) return fromShell.replace(/\/+$/, '');
  return window.location.origin;
}

export function configureClient(options: Partial<ClientState>): void {
  Object.assign(state, options);
}

export function apiBaseUrl(): string {
  return state.baseUrl;
}

type Body = FormData | Record<string, unknown> | undefined;

interface RequestOptions {
  method?: string;
  body?: Body;
  query?: Record<string, string | number | undefined | null>;
  /** 'json' (default) or 'blob' for file answers. */
  as?: 'json' | 'blob';
  signal?: AbortSignal;
  /** The exchange call is made before there is a token. */
  anonymous?: boolean;
  headers?: Record<string, string>;
}

function urlFor(path: string, query?: RequestOptions['query']): string {
  const url = new URL(`${state.baseUrl}${path}`);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(key, String(value));
  }
  return url.toString();
}

async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: options.as === 'blob' ? '*/*' : 'application/json', ...options.headers };
  if (!options.anonymous && state.token) headers.Authorization = `Bearer ${state.token}`;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(urlFor(path, options.query), { method: options.method ?? 'GET', headers, body, signal: options.signal });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw networkError(state.baseUrl);
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON: plain text is kept as the message, an HTML page is not (nobody should read markup).
      parsed = /^\s*</.test(text) ? {} : { message: text.slice(0, 300) };
    }
    const error = errorFromResponse(response.status, parsed);
    if (response.status === 401 && !options.anonymous) state.onUnauthenticated();
    throw error;
  }
  if (options.as === 'blob') return (await response.blob()) as T;
  return (await response.json()) as T;
}

// ---- templates ----

export async function listTemplates(query: { page?: number; per_page?: number; name?: string } = {}): Promise<Page<TemplateRecord>> {
  return (await request<{ templates: Page<TemplateRecord> }>('/api/template', { query })).templates;
}

export async function getTemplate(uuid: string): Promise<TemplateRecord> {
  return (await request<{ template: TemplateRecord }>(`/api/template/${encodeURIComponent(uuid)}`)).template;
}

export async function importTemplate(file: File, extra: { name?: string } = {}): Promise<TemplateRecord> {
  const form = new FormData();
  form.set('file', file, file.name);
  if (extra.name) form.set('name', extra.name);
  return (await request<{ template: TemplateRecord }>('/api/template', { method: 'POST', body: form })).template;
}

/** Changes settings and/or replaces the template file (multipart so a file can travel with the settings). */
export async function updateTemplate(uuid: string, settings: TemplateSettings, file?: File): Promise<TemplateRecord> {
  const form = new FormData();
  for (const [key, value] of Object.entries(settings)) {
    if (value === undefined) continue;
    if (typeof value === 'boolean') form.set(key, value ? '1' : '0');
    else form.set(key, value === null ? '' : String(value));
  }
  if (file) form.set('file', file, file.name);
  return (await request<{ template: TemplateRecord }>(`/api/template/${encodeURIComponent(uuid)}`, { method: 'PUT', body: form })).template;
}

export async function deleteTemplate(uuid: string): Promise<string> {
  return (await request<{ message: string }>(`/api/template/${encodeURIComponent(uuid)}`, { method: 'DELETE' })).message;
}

export function templateFile(uuid: string): Promise<Blob> {
  return request<Blob>(`/api/template/${encodeURIComponent(uuid)}/file`, { as: 'blob' });
}

// ---- documents ----

export interface GenerateRequest {
  template_id: string;
  data: Record<string, unknown>;
  test: boolean;
  output_filename?: string;
}

export async function listDocuments(query: DocumentFilters & { page?: number; per_page?: number }): Promise<Page<DocumentRecord>> {
  return (await request<{ documents: Page<DocumentRecord> }>('/api/document', { query: { ...query } })).documents;
}

export async function getDocument(id: number): Promise<DocumentRecord> {
  return (await request<{ document: DocumentRecord }>(`/api/document/${id}`)).document;
}

/** POST /api/document as multipart/form-data, exactly the interface's request. */
/** `idempotencyKey`: one per Generate press, so a repeated request (double click, retry) makes one document. */
export async function createDocument(req: GenerateRequest, options: { idempotencyKey?: string } = {}): Promise<DocumentRecord> {
  const form = new FormData();
  form.set('template_id', req.template_id);
  form.set('data', JSON.stringify(req.data));
  form.set('test', req.test ? '1' : '0');
  if (req.output_filename) form.set('output_filename', req.output_filename);
  const headers = options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : undefined;
  return (await request<{ document: DocumentRecord }>('/api/document', { method: 'POST', body: form, headers })).document;
}

export async function deleteDocument(id: number): Promise<string> {
  return (await request<{ message: string }>(`/api/document/${id}`, { method: 'DELETE' })).message;
}

/** Renders without keeping a record: the PDF bytes for the live preview. */
export function previewPdf(req: Omit<GenerateRequest, 'output_filename'>, signal?: AbortSignal): Promise<Blob> {
  return request<Blob>('/api/preview', {
    method: 'POST',
    body: { template_id: req.template_id, data: req.data, test: req.test },
    as: 'blob',
    signal,
  });
}

// ---- service & tokens ----

export async function serviceInfo(): Promise<ServiceInfo> {
  const body = await request<ServiceInfo & { info?: ServiceInfo }>('/api/info');
  return body.info ?? body;
}

export async function getSettings(): Promise<ServiceSettings> {
  return (await request<{ settings: ServiceSettings }>('/api/settings')).settings;
}

export async function updateSettings(settings: ServiceSettings): Promise<ServiceSettings> {
  return (await request<{ settings: ServiceSettings }>('/api/settings', { method: 'PUT', body: { ...settings } })).settings;
}

export async function listTokens(): Promise<TokenRecord[]> {
  return (await listCredentials()).tokens;
}

/** The API tokens and, apart (services that have them), the browser windows' sign-ins. */
export async function listCredentials(): Promise<{ tokens: TokenRecord[]; windowSignIns: WindowSignInRecord[] }> {
  const body = await request<{ tokens: TokenRecord[] | Page<TokenRecord>; window_sign_ins?: WindowSignInRecord[] }>('/api/tokens');
  return { tokens: Array.isArray(body.tokens) ? body.tokens : body.tokens.data, windowSignIns: body.window_sign_ins ?? [] };
}

/** "Sign out": the service revokes this window's sign-in. */
export async function signOutWindow(): Promise<void> {
  await request<unknown>('/api/gui/sign-out', { method: 'POST' });
}

/** Creates a token; the plain text is in this answer only (the service keeps a hash). */
export async function createToken(name: string, readOnly: boolean): Promise<{ token: TokenRecord | null; plainText: string }> {
  const body = await request<Record<string, unknown>>('/api/tokens', { method: 'POST', body: { name, read_only: readOnly } });
  return readCreatedToken(body);
}

/** The service's answer carries the plain token under one of a few names; accept each. */
function readCreatedToken(body: Record<string, unknown>): { token: TokenRecord | null; plainText: string } {
  const token = body.token;
  const record = (token && typeof token === 'object' ? token : body.record ?? null) as (TokenRecord & { token?: string; plain_text_token?: string }) | null;
  const plainText =
    (typeof token === 'string' && token) ||
    (typeof body.plain_text_token === 'string' && body.plain_text_token) ||
    (typeof body.plainTextToken === 'string' && body.plainTextToken) ||
    record?.plain_text_token ||
    record?.token ||
    '';
  if (!plainText) throw new ApiError(500, 'The service created the token but did not return it. Revoke it and try again.');
  return { token: record && typeof record === 'object' && 'id' in record ? record : null, plainText };
}

export async function revokeToken(id: number | string): Promise<void> {
  await request<unknown>(`/api/tokens/${encodeURIComponent(String(id))}`, { method: 'DELETE' });
}

/**
 * Trades the one-time code of a sign-in link for this window's sign-in. `replacing`: the window already holds
 * one (the client's current token); it is sent along so the service revokes it.
 */
export async function exchangeSignInCode(code: string, replacing = false): Promise<string> {
  const body = await request<{ token: string }>('/api/gui/exchange', { method: 'POST', body: { code }, anonymous: !replacing });
  if (typeof body.token !== 'string' || !body.token) throw new ApiError(500, 'The service accepted the sign-in link but sent no key.');
  return body.token;
}

// ---- batches ----

export async function createBatch(templateUuid: string, file: File, options: { test?: boolean } = {}): Promise<BatchRecord> {
  const form = new FormData();
  form.set('template_id', templateUuid);
  if (options.test) form.set('test', '1');
  form.set('file', file, file.name);
  return (await request<{ batch: BatchRecord }>('/api/batch', { method: 'POST', body: form })).batch;
}

export async function getBatch(id: number): Promise<BatchRecord> {
  return (await request<{ batch: BatchRecord }>(`/api/batch/${id}`)).batch;
}

export async function listBatches(query: { page?: number; per_page?: number } = {}): Promise<Page<BatchRecord>> {
  return (await request<{ batches: Page<BatchRecord> }>('/api/batch', { query })).batches;
}

export async function cancelBatch(id: number): Promise<BatchRecord> {
  return (await request<{ batch: BatchRecord }>(`/api/batch/${id}/cancel`, { method: 'POST' })).batch;
}

export async function batchFailures(id: number): Promise<Page<BatchFailure>> {
  return (await request<{ errors: Page<BatchFailure> }>(`/api/batch/${id}/errors`, { query: { per_page: 100 } })).errors;
}

export function batchZip(id: number): Promise<Blob> {
  return request<Blob>(`/api/batch/${id}/download`, { as: 'blob' });
}

/** One row's data as a batch reads it (the row picker's preview). */
export async function batchRow(file: File, row: number): Promise<Record<string, unknown>> {
  const form = new FormData();
  form.set('row', String(row));
  form.set('file', file, file.name);
  return (await request<{ data: Record<string, unknown> }>('/api/batch/row', { method: 'POST', body: form })).data;
}
