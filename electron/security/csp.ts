/**
 * The Content-Security-Policy of the GUI's pages, sent by the docloom:// protocol handler with every response.
 * Scripts come only from the app bundle (no inline script, no eval); the page may talk to one other origin, the
 * local API (its port is known only at run time, so the policy is built then); nothing is framed in from
 * elsewhere. Styles allow 'unsafe-inline', as the headless GUI's policy does (server/http/gui.ts): pdf.js, the
 * preview, adds a <style> element for the fonts of the PDF it shows. Inline styles cannot run code.
 */

/** Throws unless `apiOrigin` is a plain http origin on a loopback address (it goes verbatim into the header). */
export function assertLoopbackOrigin(apiOrigin: string): void {
  if (!/^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}$/.test(apiOrigin)) {
    throw new Error(`not a loopback http origin: ${JSON.stringify(apiOrigin)}`);
  }
}

export function buildContentSecurityPolicy(apiOrigin: string): string {
  assertLoopbackOrigin(apiOrigin);
  const directives: Record<string, string> = {
    'default-src': "'none'",
    'script-src': "'self'",
    'style-src': "'self' 'unsafe-inline'",
    'img-src': `'self' data: blob: ${apiOrigin}`,
    'font-src': "'self' data:",
    'connect-src': `'self' ${apiOrigin}`,
    'worker-src': "'self' blob:",
    'frame-src': `'self' blob: ${apiOrigin}`,
    'media-src': "'none'",
    'object-src': "'none'",
    'manifest-src': "'none'",
    'base-uri': "'none'",
    'form-action': "'none'",
    'frame-ancestors': "'none'",
  };
  return Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');
}
