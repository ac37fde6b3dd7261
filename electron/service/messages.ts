/**
 * Messages between the main process and the service's own process (electron/service-entry.ts).
 * Both sides parse what they receive: a message is data from another process, not a trusted object.
 */

export type ServiceMessage =
  /** The service listens at `url`; `token` is the GUI's bearer token for this run. */
  | { type: 'ready'; url: string; port: number; token: string; fellBack: boolean }
  /** Starting failed; the process exits after sending this. */
  | { type: 'error'; message: string };

export type ParentMessage = { type: 'stop' };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function parseServiceMessage(value: unknown): ServiceMessage | null {
  if (!isRecord(value)) return null;
  if (
    value.type === 'ready' &&
    typeof value.url === 'string' &&
    /^http:\/\/[^/\s]+$/.test(value.url) &&
    typeof value.port === 'number' &&
    Number.isInteger(value.port) &&
    typeof value.token === 'string' &&
    value.token.length > 0 &&
    typeof value.fellBack === 'boolean'
  ) {
    return { type: 'ready', url: value.url, port: value.port, token: value.token, fellBack: value.fellBack };
  }
  if (value.type === 'error' && typeof value.message === 'string') return { type: 'error', message: value.message };
  return null;
}

export function isStopMessage(value: unknown): value is ParentMessage {
  return isRecord(value) && value.type === 'stop';
}
