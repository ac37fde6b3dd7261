/** Bearer tokens on /api (CONTRACT.md §3): 401 without a valid token, 403 when a read-only token tries to write. */
import type { RequestHandler, Response } from 'express';
import type { Caller } from '../services/tokens.js';
import type { TokenAccess } from '../services/token-access.js';
import { sendError } from './errors.js';

export function caller(res: Response): Caller {
  return res.locals.caller as Caller;
}

export function requireToken(tokens: TokenAccess): RequestHandler {
  return async (req, res, next) => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const found = match ? await tokens.verify(match[1]) : null;
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
