/** The extras the GUI needs (docs/api.md): preview, service info, settings, tokens, the browser sign-in exchange. */
import { Router } from 'express';
import { createRequire } from 'node:module';
import type { Services } from '../../services/index.js';
import { laravelDate } from '../../services/datetime.js';
import { caller, requireWrite } from '../auth.js';
import { bodyFields, type BodyParsers } from '../body.js';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../pagination.js';
import { idParam } from '../params.js';
import { EXPIRATION_MAX, EXPIRATION_MIN, DEFAULT_EXPIRATION } from '../../services/validate.js';
import { projectRoot } from '../../config.js';
import { ServiceError } from '../../services/errors.js';
import { isWindowSignIn, windowSignInExpiry } from '../../services/tokens.js';

function packageVersion(): string {
  try {
    const require = createRequire(import.meta.url);
    return (require(`${projectRoot()}/package.json`) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

const VERSION = packageVersion();

export function miscRoutes(s: Services, parsers: BodyParsers): Router {
  const r = Router();

  r.post('/preview', ...parsers.fields, async (req, res) => {
    const bytes = await s.documents.preview(bodyFields(req));
    res.setHeader('Content-Type', 'application/pdf');
    res.setHeader('Content-Disposition', 'inline; filename="preview.pdf"');
    res.setHeader('Cache-Control', 'no-store');
    res.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });

  r.get('/info', async (_req, res) => {
    const c = s.config;
    const who = caller(res);
    res.json({
      success: true,
      name: 'docloom',
      version: VERSION,
      base_url: s.baseUrl(),
      api_url: `${s.baseUrl()}/api`,
      token: { id: who.tokenId, name: who.name, read_only: who.readOnly, kind: who.window ? 'window' : 'api' },
      // docx: filled .docx output for DOCX templates, once the engine's filler is there.
      output_types: ['pdf', 'docx'],
      template_types: ['docx', 'json'],
      default_delimiters: '{{ }}',
      pagination: { default_per_page: DEFAULT_PER_PAGE, max_per_page: MAX_PER_PAGE },
      expiration: { default: DEFAULT_EXPIRATION, min: EXPIRATION_MIN, max: EXPIRATION_MAX, unit: 'minutes' },
      download_link_minutes: c.downloadLinkMinutes,
      // The current setting (PUT /api/settings), not only the variable it started from.
      allow_private_network: s.settings.allowPrivateNetwork(),
      render_workers: c.renderWorkers,
      limits: {
        template_upload_bytes: c.limits.templateUploadBytes,
        docx_uncompressed_bytes: c.limits.docxUncompressedBytes,
        docx_entry_ratio: c.limits.docxEntryRatio,
        request_body_bytes: c.limits.requestBodyBytes,
        rows_per_list: c.limits.rowsPerList,
        images_per_document: c.limits.imagesPerDocument,
        image_bytes: c.limits.imageBytes,
        image_pixels: c.limits.imagePixels,
        image_fetch_ms: c.limits.imageFetchMs,
        data_depth: c.limits.dataDepth,
        render_ms: c.limits.renderMs,
        pages_per_document: c.limits.pagesPerDocument,
        batch_rows: c.limits.batchRows,
        batch_bytes: c.limits.batchBytes,
      },
    });
  });

  r.get('/settings', async (_req, res) => {
    res.json({ success: true, settings: await s.settings.current() });
  });

  r.put('/settings', requireWrite, ...parsers.fields, async (req, res) => {
    res.json({ success: true, settings: await s.settings.update(bodyFields(req)) });
  });

  r.get('/tokens', async (_req, res) => {
    const all = await s.tokens.list();
    const tokens = all.filter((t) => !isWindowSignIn(t)).map((t) => ({
      id: t.id,
      name: t.name,
      read_only: t.read_only,
      created_at: laravelDate(t.created_at),
      // Recorded at most once an hour; null until first used.
      last_used_at: t.last_used_at ? laravelDate(t.last_used_at) : null,
    }));
    // Browser windows' sign-ins are not API tokens: listed apart, each with when it ends if left unused.
    const ownId = caller(res).tokenId;
    const windowSignIns = all.filter(isWindowSignIn).map((t) => ({
      id: t.id,
      name: t.name,
      created_at: laravelDate(t.created_at),
      last_used_at: t.last_used_at ? laravelDate(t.last_used_at) : null,
      expires_at: laravelDate(windowSignInExpiry(t)),
      current: t.id === ownId,
    }));
    res.json({ success: true, tokens, window_sign_ins: windowSignIns });
  });

  r.post('/tokens', requireWrite, ...parsers.fields, async (req, res) => {
    const body = bodyFields(req);
    const { record, token } = await s.tokens.create(body.name, body.read_only);
    res.status(201).json({ success: true, token, id: record.id, name: record.name, read_only: record.read_only, created_at: laravelDate(record.created_at) });
  });

  r.delete('/tokens/:id', requireWrite, async (req, res) => {
    await s.tokens.revoke(idParam(req, 'Token'));
    res.json({ success: true, message: 'Token revoked.' });
  });

  // The header's "Sign out": revokes this window's sign-in. An API token is refused (it is revoked by id).
  r.post('/gui/sign-out', async (_req, res) => {
    const who = caller(res);
    if (!who.window) throw new ServiceError('forbidden', 'Only a window sign-in signs out; revoke an API token on the Tokens page.');
    await s.tokens.revokeWindowSignIn(who.tokenId);
    res.json({ success: true, message: 'Signed out.' });
  });

  return r;
}

/**
 * POST /api/gui/exchange: no bearer needed (the one-time code is the credential). A window signing in again sends
 * the credential it held as its bearer; that old window sign-in is revoked.
 */
export function signInRoutes(s: Services, parsers: BodyParsers): Router {
  const r = Router();
  r.post('/gui/exchange', ...parsers.fields, async (req, res) => {
    const previous = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = await s.signIn.exchange(bodyFields(req).code, previous);
    res.json({ success: true, token });
  });
  return r;
}

