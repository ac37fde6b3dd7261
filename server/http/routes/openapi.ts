/**
 * GET /api/openapi.json and GET /api/reference: the description of the API (server/http/openapi/) and its readable
 * page. Public (mounted before the bearer check): a tool reads the description before it has a token.
 */
import { Router } from 'express';
import type { Services } from '../../services/index.js';
import { buildOpenApi } from '../openapi/index.js';
import { renderReference } from '../openapi/reference.js';

/** The page has no script and loads nothing: only its own inline style is allowed. */
const REFERENCE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function openApiRoutes(s: Services): Router {
  const r = Router();
  // Built per request: the address it names is the service's own, known once it listens.
  r.get('/openapi.json', (_req, res) => {
    res.json(buildOpenApi(s.baseUrl()));
  });
  r.get('/reference', (_req, res) => {
    res.setHeader('Content-Security-Policy', REFERENCE_CSP);
    res.type('html').send(renderReference(buildOpenApi(s.baseUrl())));
  });
  return r;
}
