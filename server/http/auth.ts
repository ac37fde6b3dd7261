/** Bearer tokens on /api (CONTRACT.md §3): 401 without a valid token, 403 when a read-only token tries to write. */
import type { Request, RequestHandler, Response } from 'express';
import type { Caller } from '../services/tokens.js';
import type { TokenAccess } from '../services/token-access.js';
import { sendError } from './errors.js';

export function caller(res: Response): Caller {
  return res.locals.caller as Caller;
}

/**
 * Requests whose token may be checked against a team server instance's cached copy (docs/team-server.md, "Caches"):
 * reads, and `POST /api/document`, whose enqueue checks the token again in the statement that stores the document
 * (services/documents.ts, WriteGuard). Every other write reads the token from the database, so a token revoked on
 * any instance writes nothing anywhere once its revoke has committed.
 */
export function tokenCacheable(req: Request): boolean {
  return req.method === 'GET' || req.method === 'HEAD' || (req.method === 'POST' && /^\/document\/?$/.test(req.path));
}

export function requireToken(tokens: TokenAccess): RequestHandler {
  return async (req, res, next) => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const found = match ? await tokens.verify(match[1], { cached: tokenCacheable(req) }) : null;
    if (!found) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      sendError(res, 401, 'Unauthenticated.');
      return;
    }
    res.locals.caller = found;
    next();
  };
}

/** For routes that change something: a read-only token gets 403. */
export const requireWrite: RequestHandler = (_req, res, next) => {
  if (caller(res).readOnly) {
    sendError(res, 403, 'This action is unauthorized.');
    return;
  }
  next();
};
