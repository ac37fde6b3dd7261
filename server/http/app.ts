/**
 * The Express app: guards (Host, CORS), request ids and logging, the public /api routes (the OpenAPI description
 * and its reference page, sign-in exchange, signed downloads), bearer auth, the API routes, the GUI, and the one
 * error handler. Only server/http/ knows Express.
 */
import express, { type Express, type RequestHandler } from 'express';
import type { Services } from '../services/index.js';
import type { Logger } from '../services/log.js';
import { requireToken } from './auth.js';
import { bodyParsers } from './body.js';
import { errorHandler, sendError } from './errors.js';
import { cors, hostGuard } from './guards.js';
import { guiRoutes } from './gui.js';
import { documentRoutes, signedDownloadRoutes } from './routes/documents.js';
import { miscRoutes, signInRoutes } from './routes/misc.js';
import { openApiRoutes } from './routes/openapi.js';
import { templateRoutes } from './routes/templates.js';
import { batchRoutes } from './routes/batch.js';
import { healthRoutes } from './routes/health.js';
import { Profile } from '../services/profile.js';
import { randomHex } from '../store/random-hex.js';

export interface AppOptions {
  services: Services;
  logger: Logger;
  /** Host header values accepted (known once the port is). */
  allowedHosts: () => Set<string>;
  guiDir: string;
}

function requestLog(logger: Logger): RequestHandler {
  // The line is written only at DOCLOOM_LOG_LEVEL=debug: at any other level a request is not timed and no listener
  // is added to its response (a closure, a listener and two clock reads per request, for a line nobody prints).
  const timed = logger.debugEnabled !== false;
  return (req, res, next) => {
    const id = randomHex(12);
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    // Every response is exactly the type it says (a downloaded PDF is never sniffed into HTML).
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (timed) {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        // The path only: query strings may carry link signatures; bodies and headers (tokens) are never logged. The
        // original URL, since a response finished inside the /api router sees req.path without its mount point.
        const url = req.originalUrl;
        const query = url.indexOf('?');
        logger.debug(`[${id}] ${req.method} ${query < 0 ? url : url.slice(0, query)} ${res.statusCode} ${ms.toFixed(1)} ms`);
      });
    }
    next();
  };
}

/** 405 for a known path with another method, Laravel-style. */
function methodNotAllowed(paths: Array<[RegExp, string]>): RequestHandler {
  return (req, res, next) => {
    const hit = paths.find(([re]) => re.test(req.path));
    if (!hit) {
      next();
      return;
    }
    res.setHeader('Allow', hit[1]);
    sendError(res, 405, `The ${req.method} method is not supported for route ${req.path.replace(/^\//, 'api/')}. Supported methods: ${hit[1]}.`);
  };
}

export function createApp(o: AppOptions): Express {
  const { services: s, logger } = o;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  // DOCLOOM_PROFILE: the request's phases are timed from here (services/profile.ts); nothing at all when off.
  if (s.config.profile) {
    app.use((_req, res, next) => {
      res.locals.profile = new Profile();
      next();
    });
  }
  app.use(hostGuard(o.allowedHosts));
  app.use(requestLog(logger));
  app.use(cors(s.config.corsOrigins));

  const parsers = bodyParsers(s.config.limits);
  const api = express.Router();
  api.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  api.use(openApiRoutes(s));
  api.use(signInRoutes(s, parsers));
  api.use(healthRoutes(s));
  api.use(signedDownloadRoutes(s));
  api.use(requireToken(s.tokens));
  api.use(documentRoutes(s, parsers));
  api.use(templateRoutes(s, parsers));
  api.use(batchRoutes(s, parsers));
  api.use(miscRoutes(s, parsers));
  api.use(
    methodNotAllowed([
      [/^\/document\/?$/, 'GET, HEAD, POST'],
      [/^\/document\/[^/]+\/?$/, 'GET, HEAD, DELETE'],
      [/^\/document\/[^/]+\/(download|editable)\/?$/, 'GET, HEAD'],
      [/^\/template\/?$/, 'GET, HEAD, POST'],
      [/^\/template\/[^/]+\/?$/, 'GET, HEAD, PUT, DELETE'],
      [/^\/template\/[^/]+\/file\/?$/, 'GET, HEAD'],
      [/^\/batch\/?$/, 'GET, HEAD, POST'],
      [/^\/batch\/row\/?$/, 'POST'],
      [/^\/batch\/[^/]+\/?$/, 'GET, HEAD, DELETE'],
      [/^\/batch\/[^/]+\/(errors|download)\/?$/, 'GET, HEAD'],
      [/^\/batch\/[^/]+\/cancel\/?$/, 'POST'],
      [/^\/preview\/?$/, 'POST'],
      [/^\/info\/?$/, 'GET, HEAD'],
      [/^\/health\/?$/, 'GET, HEAD'],
      [/^\/settings\/?$/, 'GET, HEAD, PUT'],
      [/^\/tokens\/?$/, 'GET, HEAD, POST'],
      [/^\/tokens\/[^/]+\/?$/, 'DELETE'],
      [/^\/(openapi\.json|reference)\/?$/, 'GET, HEAD'],
      [/^\/gui\/exchange\/?$/, 'POST'],
      [/^\/gui\/sign-out\/?$/, 'POST'],
    ]),
  );
  api.use((_req, res) => sendError(res, 404, 'Not found.'));
  app.use('/api', api);

  app.use(guiRoutes(o.guiDir));
  app.use(errorHandler(s.config.limits, logger.error, s.config.database !== null));
  return app;
}
