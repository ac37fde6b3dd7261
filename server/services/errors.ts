/**
 * Errors the services raise for the caller's mistakes. Each has a kind, an HTTP code of the error catalogue
 * (server/errors/catalogue.ts, which gives its status); server/http/errors.ts makes the Laravel-shaped bodies. Anything else thrown is a bug (500).
 */
import type { TemplateError } from '../engine/model/types.js';
import type { HttpErrorCode } from '../errors/catalogue.js';

/** The HTTP kinds of the error catalogue (server/errors/catalogue.ts). */
export type ServiceErrorKind = HttpErrorCode;

export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  /** Laravel's `errors` (422 only): field → messages. */
  readonly errors?: Record<string, string[]>;
  /** Structured template problems (422 on a template upload). */
  readonly templateErrors?: TemplateError[];

  constructor(kind: ServiceErrorKind, message: string, extra: { errors?: Record<string, string[]>; templateErrors?: TemplateError[] } = {}) {
    super(message);
    this.name = 'ServiceError';
    this.kind = kind;
    this.errors = extra.errors;
    this.templateErrors = extra.templateErrors;
  }
}

/** A 422 whose message is the first error, as Laravel words it ("… (and 2 more errors)"). */
export function validationError(errors: Record<string, string[]>, templateErrors?: TemplateError[]): ServiceError {
  const all = Object.values(errors).flat();
  const more = all.length - 1;
  const message = more > 0 ? `${all[0]} (and ${more} more error${more === 1 ? '' : 's'})` : all[0] ?? 'The given data was invalid.';
  return new ServiceError('validation', message, { errors, templateErrors });
}

/** Collects field errors in order, then throws them all at once. */
export class Violations {
  readonly errors: Record<string, string[]> = {};

  add(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }

  has(field?: string): boolean {
    return field === undefined ? Object.keys(this.errors).length > 0 : field in this.errors;
  }

  throwIfAny(): void {
    if (this.has()) throw validationError(this.errors);
  }
}

export const notFound = (what: 'Document' | 'Template' | 'Token'): ServiceError => new ServiceError('not_found', `${what} not found.`);
