/**
 * The desktop service listens on a fixed port (DEFAULT_PORT), so local tools can be configured once; when that
 * port is taken (another program, a `docloom serve` already running) it takes any free port instead and says so.
 * Trying the port and catching EADDRINUSE, rather than probing first, leaves no window for a race.
 */

export interface PortFallbackResult<T> {
  started: T;
  /** True when the preferred port was taken and a free one was used instead. */
  fellBack: boolean;
}

const UNAVAILABLE_CODES: ReadonlySet<unknown> = new Set(['EADDRINUSE', 'EACCES']);

/**
 * Errors that mean "this port cannot be ours" (taken, or reserved on this OS) — worth a second try on port 0.
 * Looks at `code`, then `cause.code` (startServer() keeps EADDRINUSE as the code of its own, worded error).
 */
export function isPortUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  if (UNAVAILABLE_CODES.has(code)) return true;
  return typeof cause === 'object' && cause !== null && UNAVAILABLE_CODES.has((cause as { code?: unknown }).code);
}

/**
 * Calls `start(preferredPort)`; if the port is unavailable, calls `start(0)` (the OS picks a free port).
 * Any other failure, and a failure on port 0, is passed on unchanged.
 */
export async function startWithPortFallback<T>(
  start: (port: number) => Promise<T>,
  preferredPort: number,
): Promise<PortFallbackResult<T>> {
  try {
    return { started: await start(preferredPort), fellBack: false };
  } catch (error) {
    if (preferredPort === 0 || !isPortUnavailable(error)) throw error;
    return { started: await start(0), fellBack: true };
  }
}
