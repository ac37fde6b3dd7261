/** /api/document: create, list, read, delete, download (CONTRACT.md §6). Thin: parse → service → serialise. */
import { Router, type Request, type RequestHandler } from 'express';
import type { Services } from '../../services/index.js';
import type { DocumentFilter } from '../../store/index.js';
import { STATUSES } from '../../services/documents.js';
import { Violations } from '../../services/errors.js';
import { caller, requireWrite } from '../auth.js';
import { bodyFields, type BodyParsers } from '../body.js';
import { pageObject, pageRequest } from '../pagination.js';
import { idParam, queryString, sendFile } from '../params.js';
import { documentListJson, documentSingleJson } from '../serialize.js';
import { sendJson } from '../send-json.js';
import type { Profile } from '../../services/profile.js';

const FILTERS = ['template_id', 'status', 'test', 'expired', 'batch_id'] as const;

function flag01(v: Violations, name: string, value: string): 0 | 1 | undefined {
  if (value === '0' || value === '1') return Number(value) as 0 | 1;
  v.add(name, `The ${name} field must be 0 or 1.`);
  return undefined;
}

async function listFilter(s: Services, req: Request): Promise<{ filter: DocumentFilter; carried: Array<[string, string]> }> {
  const v = new Violations();
  const filter: DocumentFilter = {};
  const carried: Array<[string, string]> = [];
  for (const name of FILTERS) {
    const value = queryString(req, name);
    if (value === undefined || value === '') continue;
    carried.push([name, value]);
    if (name === 'template_id') {
      // The integer id documents carry, or a template uuid; an unknown one matches nothing.
      filter.template_id = /^\d{1,15}$/.test(value) ? Number(value) : ((await s.templates.find(value))?.id ?? -1);
    } else if (name === 'batch_id') {
      // An id that is not one matches nothing (like an unknown template id).
      filter.batch_id = /^\d{1,15}$/.test(value) ? Number(value) : -1;
    } else if (name === 'status') {
      if ((STATUSES as readonly string[]).includes(value)) filter.status = value as DocumentFilter['status'];
      else v.add('status', `The selected status is invalid (one of: ${STATUSES.join(', ')}).`);
    } else {
      filter[name] = flag01(v, name, value);
    }
  }
  v.throwIfAny();
  const perPage = queryString(req, 'per_page');
  if (perPage !== undefined) carried.push(['per_page', perPage]);
  return { filter, carried };
}

/** DOCLOOM_PROFILE: a middleware that ends the request's current phase under `name` (none when off). */
function phase(on: boolean, name: string): RequestHandler[] {
  if (!on) return [];
  return [
    (_req, res, next) => {
      (res.locals.profile as Profile | undefined)?.mark(name);
      next();
    },
  ];
}

export function documentRoutes(s: Services, parsers: BodyParsers): Router {
  const r = Router();
  const profiling = s.config.profile;

  r.get('/document', async (req, res) => {
    const { filter, carried } = await listFilter(s, req);
    const page = pageRequest(req.query as Record<string, unknown>);
    const { total, items } = await s.documents.list(filter, page.offset, page.perPage);
    // Cloud fields only when files are in object storage: the desktop's list gains no work per item.
    const clouds = s.documents.hasCloud ? await Promise.all(items.map((d) => s.documents.cloud(d))) : undefined;
    const data = items.map((d, i) => documentListJson(d, s.links, clouds?.[i]));
    res.json({ success: true, documents: pageObject(data, total, page, `${s.baseUrl()}/api/document`, carried) });
  });

  r.post('/document', requireWrite, ...phase(profiling, 'routing_auth'), ...parsers.fields, ...phase(profiling, 'body'), async (req, res) => {
    const key = req.headers['idempotency-key'];
    const profile = res.locals.profile as Profile | undefined;
    const { status, document } = await s.documents.create(bodyFields(req), {
      tokenId: caller(res).tokenId,
      idempotencyKey: typeof key === 'string' ? key : undefined,
      profile,
    });
    let cloud = null;
    if (s.documents.hasCloud) {
      cloud = await s.documents.cloud(document);
      profile?.mark('cloud_url');
    }
    const json = { success: true, document: documentSingleJson(document, s.links, cloud) };
    if (profile) {
      profile.mark('serialize');
      res.setHeader('Server-Timing', profile.header());
    }
    sendJson(res, status, json);
  });

  r.get('/document/:id', async (req, res) => {
    const doc = await s.documents.get(idParam(req, 'Document'));
    sendJson(res, 200, { success: true, document: documentSingleJson(doc, s.links, s.documents.hasCloud ? await s.documents.cloud(doc) : null) });
  });

  r.delete('/document/:id', requireWrite, async (req, res) => {
    await s.documents.remove(idParam(req, 'Document'));
    res.json({ success: true, message: 'Document deleted.' });
  });

  r.get('/document/:id/download', async (req, res) => {
    await sendFile(res, await s.documents.file(idParam(req, 'Document'), 'output'), queryString(req, 'inline') === '1' ? 'inline' : 'attachment');
  });

  r.get('/document/:id/editable', async (req, res) => {
    await sendFile(res, await s.documents.file(idParam(req, 'Document'), 'editable'));
  });

  return r;
}

/**
 * The signed links (`download_url`, `editable_url`) work without a bearer token: mounted before the auth
 * middleware, they answer when the request carries `signature` and pass everything else on.
 */
export function signedDownloadRoutes(s: Services): Router {
  const r = Router();
  for (const variant of ['download', 'editable'] as const) {
    r.get(`/document/:id/${variant}`, async (req, res, next) => {
      if (req.query.signature === undefined) {
        next();
        return;
      }
      const id = idParam(req, 'Document');
      const verdict = s.links.check(variant, id, req.query.expires, req.query.signature);
      if (verdict !== 'ok') {
        res.status(403).json({ success: false, message: verdict === 'expired' ? 'This download link has expired; read the document again for a fresh one.' : 'Invalid signature.' });
        return;
      }
      const file = await s.documents.file(id, variant === 'download' ? 'output' : 'editable');
      await sendFile(res, file, queryString(req, 'inline') === '1' ? 'inline' : 'attachment');
    });
  }
  return r;
}
