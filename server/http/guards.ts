/**
 * The local service is not open to the world (CONTRACT.md §10): refuse requests whose Host header is not the
 * service's own (DNS rebinding), and send CORS headers only to configured origins.
 */
import type { RequestHandler } from 'express';
import { sendError } from './errors.js';

/** Host header values accepted for a service on `port` (and the public URL's host, when set). */
export function allowedHosts(host: string, port: number, publicUrl: string | null): Set<string> {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  const own = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  if (own !== '0.0.0.0' && own !== '[::]') hosts.add(`${own.toLowerCase()}:${port}`);
  if (publicUrl) {
    try {
      const u = new URL(publicUrl);
      hosts.add(u.host.toLowerCase());
      // http://example:80 is written without the port; browsers send Host without it too.
      if (!u.port) hosts.add(`${u.hostname.toLowerCase()}:${u.protocol === 'https:' ? 443 : 80}`);
    } catch {
      // loadConfig gives a URL; a bad one only means no extra host.
    }
  }
  return hosts;
}

export function hostGuard(hosts: () => Set<string>): RequestHandler {
  return (req, res, next) => {
    const host = (req.headers.host ?? '').toLowerCase();
    if (!hosts().has(host)) {
      sendError(res, 403, 'This address is not allowed: use http://127.0.0.1 or http://localhost with the service\'s port.');
      return;
    }
    next();
  };
}

const CORS_HEADERS = 'Authorization, Content-Type, Accept, Idempotency-Key';
const CORS_METHODS = 'GET, HEAD, POST, PUT, DELETE, OPTIONS';

export function cors(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins.map((o) => o.replace(/\/+$/, '').toLowerCase()));
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (allowed.size === 0 || !origin || !allowed.has(origin.toLowerCase())) {
      next();
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Expose-Headers', 'Content-Disposition, X-Request-Id');
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      res.setHeader('Access-Control-Allow-Methods', CORS_METHODS);
      res.setHeader('Access-Control-Allow-Headers', CORS_HEADERS);
      res.setHeader('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    next();
  };
}
