/**
 * Turns what the API (or the network) says into sentences a person understands. The API's own `message` is
 * already written for people; this adds what to do next and keeps the details (field errors, template errors)
 * for the views that show them inline.
 */
import type { ErrorBody, TemplateErrorItem } from './types.js';

export class ApiError extends Error {
  /** HTTP status; 0 when the service could not be reached at all. */
  readonly status: number;
  readonly fieldErrors: Record<string, string[]>;
  readonly templateErrors: TemplateErrorItem[];
  readonly requestId?: string;

  constructor(status: number, message: string, body?: Partial<ErrorBody>) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fieldErrors = body?.errors ?? {};
    this.templateErrors = body?.template_errors ?? [];
    this.requestId = body?.request_id;
  }
}

/** Builds the ApiError for a failed response whose body has been read (JSON or not). */
export function errorFromResponse(status: number, body: unknown): ApiError {
  const parsed = (body && typeof body === 'object' ? body : {}) as Partial<ErrorBody>;
  const serverMessage = typeof parsed.message === 'string' && parsed.message.trim() ? parsed.message.trim() : '';
  return new ApiError(status, humanMessage(status, serverMessage, parsed), parsed);
}

export function networkError(baseUrl: string): ApiError {
  return new ApiError(0, `The docloom service at ${baseUrl} cannot be reached. Check that it is still running, then try again.`);
}

function humanMessage(status: number, serverMessage: string, body: Partial<ErrorBody>): string {
  switch (status) {
    case 401:
      return 'You are signed out: this session’s key is no longer accepted. Open a new sign-in link to continue.';
    case 403:
      return 'This key is not allowed to do that (it may be read-only).';
    case 404:
      return serverMessage || 'That item no longer exists. It may have been deleted.';
    case 409:
      return 'The same request is still being processed. Wait a moment and try again.';
    case 410:
      return 'This document has expired: its file was removed. Generate it again to get a new one.';
    case 413:
      return `Too large: ${serverMessage || 'the file or data is over the service’s size limit.'}`;
    case 415:
      return serverMessage || 'This kind of file is not accepted. Choose a Word document (.docx) or a docloom template (.json).';
    case 422: {
      if (body.template_errors?.length) {
        const n = body.template_errors.length;
        return `The template has ${n} problem${n === 1 ? '' : 's'} to fix before it can be used.`;
      }
      return serverMessage || 'Some values are not valid.';
    }
    default:
      if (status >= 500) {
        const ref = body.request_id ? ` (reference ${body.request_id})` : '';
        return `Something went wrong inside docloom${ref}. Try again; if it keeps happening, the service log has the details.`;
      }
      return serverMessage || `The request failed (HTTP ${status}).`;
  }
}

/**
 * One line per field problem, e.g. "logo: The image could not be read." — without the field's name when the
 * message already says it, and without the lines the headline already shows.
 */
export function fieldErrorLines(err: ApiError): string[] {
  return Object.entries(err.fieldErrors).flatMap(([field, messages]) =>
    messages
      .filter((message) => !err.message.includes(message))
      .map((message) => {
        const name = field.replace(/^data\./, '').replace(/_/g, ' ');
        return message.toLowerCase().includes(name.toLowerCase()) ? message : `${name}: ${message}`;
      }),
  );
}

/** Where a template problem is, in words: "body, paragraph 3, tag {{#items}}". */
export function describeLocation(item: TemplateErrorItem): string {
  const loc = item.location ?? {};
  const parts: string[] = [];
  if (loc.part) parts.push(loc.part === 'file' ? 'the file itself' : loc.part);
  if (typeof loc.paragraph === 'number') parts.push(`paragraph ${loc.paragraph}`);
  if (loc.tag) parts.push(`tag ${loc.tag}`);
  return parts.join(', ');
}

export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}
