/** /api/template: list, read, create, update, delete, file (CONTRACT.md §4). */
import { Router } from 'express';
import type { Services } from '../../services/index.js';
import { requireWrite } from '../auth.js';
import { bodyFields, uploadedFile, type BodyParsers } from '../body.js';
import { pageObject, pageRequest } from '../pagination.js';
import { queryString } from '../params.js';
import { templateListJson, templateSingleJson } from '../serialize.js';

const FILE_TYPES = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  json: 'application/json',
} as const;

export function templateRoutes(s: Services, parsers: BodyParsers): Router {
  const r = Router();

  r.get('/template', async (req, res) => {
    const name = queryString(req, 'name');
    const page = pageRequest(req.query as Record<string, unknown>);
    const carried: Array<[string, string]> = [];
    if (name) carried.push(['name', name]);
    const perPage = queryString(req, 'per_page');
    if (perPage !== undefined) carried.push(['per_page', perPage]);
    const { total, items } = await s.templates.list(name || undefined, page.offset, page.perPage);
    res.json({ success: true, templates: pageObject(items.map(templateListJson), total, page, `${s.baseUrl()}/api/template`, carried) });
  });

  r.post('/template', requireWrite, ...parsers.upload, async (req, res) => {
    const template = await s.templates.create(bodyFields(req), uploadedFile(req));
    res.status(201).json({ success: true, template: templateSingleJson(template) });
  });

  r.get('/template/:uuid', async (req, res) => {
    res.json({ success: true, template: templateSingleJson(await s.templates.get(String(req.params.uuid))) });
  });

  r.put('/template/:uuid', requireWrite, ...parsers.upload, async (req, res) => {
    const template = await s.templates.update(String(req.params.uuid), bodyFields(req), uploadedFile(req));
    res.json({ success: true, template: templateSingleJson(template) });
  });

  r.delete('/template/:uuid', requireWrite, async (req, res) => {
    await s.templates.remove(String(req.params.uuid));
    res.json({ success: true, message: 'Template deleted.' });
  });

  r.get('/template/:uuid/file', async (req, res) => {
    const { record, bytes } = await s.templates.file(String(req.params.uuid));
    res.attachment(record.original_filename);
    // After attachment(), which would set a type from the extension.
    res.setHeader('Content-Type', FILE_TYPES[record.kind]);
    res.setHeader('Cache-Control', 'private, no-store');
    res.end(bytes);
  });

  return r;
}
