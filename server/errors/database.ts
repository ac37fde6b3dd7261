/**
 * The team server's database going away while the service works (docs/team-server.md, "When PostgreSQL drops"):
 * a refused or broken connection, a server shutting down or still starting. The HTTP layer answers 503
 * `service_unavailable` with Retry-After (never 500), the render queue leaves the job to be taken again, and the
 * pool connects anew once the database answers. Found by the error's own code or message, or in its `cause`.
 */

/** What a 503 tells a client (and a load balancer) about when to ask again, in seconds. */
export const RETRY_AFTER_SECONDS = 5;

export const DATABASE_UNAVAILABLE_MESSAGE = 'The database cannot be reached right now; nothing was stored. Try again shortly.';

/** Node's socket errors for a server that is not there (any more). */
const SOCKET_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * PostgreSQL's SQLSTATEs for the same: class 08 (connection exception), 57P01 admin_shutdown (a fast or immediate
 * stop), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or recovering).
 */
function isUnavailableState(code: string): boolean {
  return /^08[0-9A-Z]{3}$/.test(code) || code === '57P01' || code === '57P02' || code === '57P03';
}

/** node-postgres says a connection that broke or never came in words, without a code. */
const CLIENT_MESSAGES = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed and is not queryable)/;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e !== null && typeof e === 'object' && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    // Object storage out of reach is its own failure (storage_error names the bucket), whatever socket error it wraps.
    if (code === 'storage_error') return false;
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || isUnavailableState(code))) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && CLIENT_MESSAGES.test(message)) return true;
    if (e instanceof AggregateError && e.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
  }
  return false;
}
