/**
 * Permission requests from web content (camera, microphone, geolocation, notifications, HID, …): the GUI needs
 * none of them, so all are refused — except writing text to the clipboard from the app's own pages, which the
 * GUI's "copy" buttons (API base URL, a new token) use. Checklist item 5 (docs/security.md).
 */
import { isAppUrl } from './navigation.js';

const ALLOWED_FOR_APP_PAGES: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

export function isPermissionAllowed(permission: string, requestingUrl: string | undefined): boolean {
  return ALLOWED_FOR_APP_PAGES.has(permission) && requestingUrl !== undefined && isAppUrl(requestingUrl);
}

/** The part of Electron's Session used here. */
export interface PermissionSession {
  setPermissionRequestHandler(
    handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void, details: { requestingUrl?: string }) => void,
  ): void;
  setPermissionCheckHandler(
    handler: (webContents: unknown, permission: string, requestingOrigin: string, details: { requestingUrl?: string }) => boolean,
  ): void;
}

export function applyPermissionPolicy(session: PermissionSession): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(isPermissionAllowed(permission, details.requestingUrl));
  });
  session.setPermissionCheckHandler((_contents, permission, _origin, details) =>
    isPermissionAllowed(permission, details.requestingUrl),
  );
}
