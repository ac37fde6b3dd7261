/**
 * The GUI at `/`: the Vite build in dist/renderer with an index.html fallback for the single-page app, under a
 * strict Content-Security-Policy. Without a build, `/` explains how to make one.
 */
import express, { Router } from 'express';
import fs from 'node:fs';
import path from 'node:path';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const NO_BUILD = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>docloom</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>docloom</h1>
<p>The service is running, but the GUI has not been built yet. Run <code>npm run build</code> and reload this page.</p>
<p>The API is at <code>/api</code>.</p>
</body></html>
`;

export function guiRoutes(dir: string): Router {
  const r = Router();
  r.use((_req, res, next) => {
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Frame-Options', 'DENY');
    next();
  });
  const index = path.join(dir, 'index.html');
  r.use(express.static(dir, { index: 'index.html', fallthrough: true, dotfiles: 'ignore' }));
  r.get(/.*/, (req, res) => {
    // A missing asset is a 404; any other path is a route of the single-page app.
    if (/\.[a-z0-9]{1,8}$/i.test(req.path) && req.path !== '/index.html') {
      res.status(404).type('text/plain').send('Not found.');
      return;
    }
    if (fs.existsSync(index)) {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(index);
    } else {
      res.status(200).type('html').send(NO_BUILD);
    }
  });
  return r;
}
