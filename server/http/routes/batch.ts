/**
 * /api/batch (docs/api.md, "Batches"): create from a rows file or a JSON array, progress, the page of batches,
 * the failed rows, the outputs as one streamed zip (or one merged PDF), cancel, delete. Thin: parse → service →
 * serialise. A rows file is received straight to disk (the store's incoming/ folder), never into memory.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import multer, { MulterError } from 'multer';
import type { Services } from '../../services/index.js';
import { ServiceError } from '../../services/errors.js';
import { laravelDate } from '../../services/datetime.js';
import type { BatchRecord } from '../../store/index.js';
import { RowsError } from '../../batch/rows/index.js';
import { ZipWriter } from '../../batch/zip.js';
import { PdfMerger } from '../../batch/merge.js';
import { csvLine } from '../../batch/errors-csv.js';
import { requireWrite } from '../auth.js';
import { bodyFields, type BodyParsers } from '../body.js';
import { pageObject, pageRequest } from '../pagination.js';
import { queryString } from '../params.js';
import { sendError } from '../errors.js';

export function batchJson(b: BatchRecord, baseUrl: string): Record<string, unknown> {
  return {
    id: b.id,
    status: b.status,
    total: b.total,
    done: b.done,
    failed: b.failed,
    template_id: b.template_id,
    template_uuid: b.template_uuid,
    output_type: b.output_type,
    output_filename: b.output_filename,
    test: b.test,
    rows_filename: b.rows_filename,
    rows_format: b.rows_format,
    error: b.error,
    created_at: laravelDate(b.created_at),
    updated_at: laravelDate(b.updated_at),
    download_url: `${baseUrl}/api/batch/${b.id}/download`,
    errors_url: `${baseUrl}/api/batch/${b.id}/errors`,
    documents_url: `${baseUrl}/api/document?batch_id=${b.id}`,
  };
}

function batchId(req: Request): number {
  const raw = req.params.id;
  if (typeof raw !== 'string' || !/^[1-9]\d{0,14}$/.test(raw)) throw new ServiceError('not_found', 'Batch not found.');
  return Number(raw);
}

/** A rows file the batch cannot use: its status, with the code, row and column beside Laravel's fields. */
function sendRowsError(res: Response, err: RowsError): void {
  const message = err.describe();
  const located = { code: err.code, row: err.row, column: err.column ? { index: err.column.index, name: err.column.name ?? null } : null };
  sendError(res, err.status, message, err.status === 422 ? { errors: { file: [message] }, ...located } : located);
}

export function batchRoutes(s: Services, parsers: BodyParsers): Router {
  const r = Router();
  const batches = s.batches;
  // Services over a store without batches (never `docloom serve`'s): no batch routes.
  if (!batches) return r;
  const limits = s.config.limits;
  const upload = multer({
    storage: multer.diskStorage({
      // A function, so the folder is made when an upload comes (never at start, which must work on a full disk).
      destination: (_req, _file, cb) => {
        const dir = batches.incomingDir;
        fs.mkdir(dir, { recursive: true }, (err) => cb(err, dir));
      },
      filename: (_req, _file, cb) => cb(null, `upload-${process.pid}-${crypto.randomBytes(6).toString('hex')}`),
    }),
    defParamCharset: 'utf8',
    limits: { fileSize: limits.batchBytes, fieldSize: limits.requestBodyBytes, files: 1, fields: 100, parts: 101 },
  }).any();
  /** Multipart: the `file` part to disk; JSON and forms: the usual parsers (`data` as a JSON array). */
  const body: RequestHandler = (req, res, next) => {
    if (!req.is('multipart/form-data')) {
      const chain = [...parsers.fields];
      const step = (err?: unknown): void => {
        if (err) return next(err);
        const h = chain.shift();
        if (!h) return next();
        void h(req, res, step as NextFunction);
      };
      step();
      return;
    }
    upload(req, res, (err?: unknown) => {
      if (err instanceof MulterError && err.code === 'LIMIT_FILE_SIZE') {
        sendRowsError(res, new RowsError('rows_too_large', `The file is larger than the limit of ${Math.round(limits.batchBytes / 1024 / 1024)} MB (batch_bytes).`, 0, undefined, 413));
        return;
      }
      next(err);
    });
  };

  r.post('/batch', requireWrite, body, async (req, res) => {
    const files = ((req.files as Express.Multer.File[] | undefined) ?? []).filter((f) => f.fieldname === 'file' || f.fieldname === 'data');
    const file = files.find((f) => f.fieldname === 'file') ?? files[0];
    // Parts other than the rows file are not kept.
    for (const f of files) if (f !== file) await fs.promises.rm(f.path, { force: true });
    try {
      const batch = await batches.create(bodyFields(req), file ? { path: file.path, filename: path.basename(file.originalname || 'rows') } : {});
      res.status(202).json({ success: true, batch: batchJson(batch, s.baseUrl()) });
    } catch (err) {
      if (err instanceof RowsError) {
        sendRowsError(res, err);
        return;
      }
      throw err;
    }
  });

  // One row's data (the GUI's row preview). Any token: nothing is kept.
  r.post('/batch/row', body, async (req, res) => {
    const files = ((req.files as Express.Multer.File[] | undefined) ?? []).filter((f) => f.fieldname === 'file');
    try {
      const row = await batches.row(bodyFields(req), files[0] ? { path: files[0].path, filename: path.basename(files[0].originalname || 'rows') } : {});
      res.json({ success: true, row: row.row, data: row.data });
    } catch (err) {
      if (err instanceof RowsError) {
        sendRowsError(res, err);
        return;
      }
      throw err;
    }
  });

  r.get('/batch', async (req, res) => {
    const page = pageRequest(req.query as Record<string, unknown>);
    const carried: Array<[string, string]> = [];
    const perPage = queryString(req, 'per_page');
    if (perPage !== undefined) carried.push(['per_page', perPage]);
    const { total, items } = await batches.list(page.offset, page.perPage);
    res.json({ success: true, batches: pageObject(items.map((b) => batchJson(b, s.baseUrl())), total, page, `${s.baseUrl()}/api/batch`, carried) });
  });

  // `/batch/row` is a path of its own (POST only): another method there gets the 405 of app.ts, not "Batch not found."
  const notRow: RequestHandler = (req, _res, next) => next(req.params.id === 'row' ? 'route' : undefined);

  r.get('/batch/:id', notRow, async (req, res) => {
    res.json({ success: true, batch: batchJson(await batches.get(batchId(req)), s.baseUrl()) });
  });

  r.get('/batch/:id/errors', async (req, res) => {
    const id = batchId(req);
    const failures = await batches.failures(id);
    if (queryString(req, 'format') === 'csv') {
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.attachment(`batch-${id}-errors.csv`);
      res.write(csvLine(['row', 'field', 'code', 'message']));
      for (const f of failures) res.write(csvLine([f.row, f.field ?? '', f.code, f.message]));
      res.end();
      return;
    }
    const page = pageRequest(req.query as Record<string, unknown>);
    const carried: Array<[string, string]> = [];
    const perPage = queryString(req, 'per_page');
    if (perPage !== undefined) carried.push(['per_page', perPage]);
    const items = failures.slice(page.offset, page.offset + page.perPage);
    res.json({ success: true, errors: pageObject(items, failures.length, page, `${s.baseUrl()}/api/batch/${id}/errors`, carried) });
  });

  r.get('/batch/:id/download', async (req, res) => {
    const id = batchId(req);
    await batches.get(id);
    const docs = (await batches.documentsOf(id)).filter((d) => d.status === 'completed' && d.expired === 0);
    if (queryString(req, 'merge') === '1') {
      if (docs.some((d) => d.output_type !== 'pdf')) throw new ServiceError('conflict', 'Only PDF outputs can be merged into one PDF.');
      if (docs.some((d) => d.password)) throw new ServiceError('conflict', 'Password-protected PDFs cannot be merged.');
      const merger = new PdfMerger();
      for (const doc of docs) {
        const bytes = await batches.output(doc);
        if (bytes) await merger.add(bytes);
      }
      const bytes = await merger.save(`Batch ${id}`);
      res.attachment(`batch-${id}.pdf`);
      res.setHeader('Content-Type', 'application/pdf');
      res.setHeader('Content-Length', String(bytes.byteLength));
      res.end(bytes);
      return;
    }
    res.attachment(`batch-${id}.zip`);
    res.setHeader('Content-Type', 'application/zip');
    const zip = new ZipWriter(res);
    for (const doc of docs) {
      if (res.destroyed) return;
      const bytes = await batches.output(doc);
      // Expired or deleted since the list was taken: left out.
      if (!bytes) continue;
      await zip.add(doc.output_filename ?? `${doc.id}.${doc.output_type}`, bytes, new Date(doc.created_at));
    }
    await zip.end();
  });

  r.post('/batch/:id/cancel', requireWrite, async (req, res) => {
    const batch = await batches.cancel(batchId(req));
    res.json({ success: true, batch: batchJson(batch, s.baseUrl()) });
  });

  r.delete('/batch/:id', notRow, requireWrite, async (req, res) => {
    await batches.remove(batchId(req), (doc) => s.documents.remove(doc.id));
    res.json({ success: true, message: 'Batch deleted.' });
  });

  return r;
}
