/**
 * The `docloom://app/` protocol: serves the GUI bundle (dist/renderer) to the window. A custom protocol rather
 * than file:// gives the pages a real origin of their own (CORS for the API, 'self' in the CSP), keeps file://
 * — and with it the whole disk — out of reach, and lets every answer carry the Content-Security-Policy header.
 * The handler is a plain (Request) → Response function: main.ts passes it to protocol.handle().
 */
import fs from 'node:fs';
import path from 'node:path';
import { APP_HOST, APP_SCHEME } from './bridge-api.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.pfb': 'application/octet-stream',
  '.bcmap': 'application/octet-stream',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeOf(filePath: string): string {
  return CONTENT_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file under `rootDir` a docloom://app URL names, or null when the URL is not the app's or would leave
 * `rootDir` (`..`, encoded separators, absolute paths, NUL bytes).
 */
export function resolveAppFile(rootDir: string, requestUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return null; // malformed %-encoding
  }
  if (pathname.includes('\0')) return null;
  const relative = pathname === '/' || pathname === '' ? 'index.html' : pathname.replace(/^\/+/, '');
  const root = path.resolve(rootDir);
  const candidate = path.resolve(root, relative);
  const inside = path.relative(root, candidate);
  if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) return null;
  return candidate;
}

export interface AppProtocolOptions {
  /** The GUI bundle's folder (dist/renderer). */
  rootDir: string;
  /** The Content-Security-Policy for the pages (built once the API's port is known). */
  contentSecurityPolicy: () => string;
}

export function createAppProtocolHandler(options: AppProtocolOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    const headers = new Headers({
      'Content-Security-Policy': options.contentSecurityPolicy(),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
    });
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      headers.set('Allow', 'GET, HEAD');
      return new Response('Method not allowed', { status: 405, headers });
    }
    const filePath = resolveAppFile(options.rootDir, request.url);
    if (!filePath) return new Response('Not found', { status: 404, headers });
    let body: Buffer;
    try {
      body = await fs.promises.readFile(filePath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const missing = code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR';
      return new Response(missing ? 'Not found' : 'Cannot read file', { status: missing ? 404 : 500, headers });
    }
    headers.set('Content-Type', contentTypeOf(filePath));
    headers.set('Content-Length', String(body.byteLength));
    return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers });
  };
}
