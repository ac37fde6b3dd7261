/**
 * A JSON answer written with Node's response API: the same bytes and headers Express's `res.json` gives under this
 * app's settings (no ETag, no `json spaces`/`json replacer`/`json escape`; `Content-Type: application/json;
 * charset=utf-8`, `Content-Length`, no body for HEAD), without its per-call work — reading three app settings,
 * looking the type up in mime-types, then parsing and formatting the Content-Type again to set its charset. That
 * was ~20 µs of the event loop's ~0.4 ms request side per create (docs/benchmarks.md, session 16, branch svc17);
 * the answers on every create, every error and every read of one document go through here.
 */
import type { Response } from 'express';

export function sendJson(res: Response, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  if (res.req.method === 'HEAD') res.end();
  else res.end(text);
}
