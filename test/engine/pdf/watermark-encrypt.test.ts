/** Test-document watermark and AES-256 encryption. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pdfInfo, pdfPageCount, pdfText, qpdfEncryption } from '../../helpers/pdf.js';
import { encryptPdf } from '../../../server/engine/pdf/encrypt.js';
import { EngineError } from '../../../server/engine/errors.js';
import { renderModel } from '../../../server/engine/pdf/render.js';
import { countPixels, model, para, raster, render, section } from './helpers.js';

const isWatermarkGrey = (p: [number, number, number]): boolean =>
  p[0] > 170 && p[0] < 240 && Math.abs(p[0] - p[1]) < 6 && Math.abs(p[1] - p[2]) < 6;

test('test documents carry a visible, extractable diagonal watermark on every page', async () => {
  const body = [para('Content under the watermark stays readable.'), { type: 'pageBreak' as const }, para('Second page.')];
  const landscape = { width: 842, height: 595, margins: { top: 50, right: 50, bottom: 50, left: 50 } };
  const bytes = await render(model([section(body), section([para('Landscape page.')], { page: landscape })]), true);
  const plainBytes = await render(model([section(body), section([para('Landscape page.')], { page: landscape })]), false);
  const pages = pdfPageCount(bytes);
  assert.equal(pages, 3);
  for (let p = 1; p <= pages; p++) {
    assert.match(pdfText(bytes, { page: p }), /TEST DOCUMENT/, `page ${p} text layer`);
    // Pixels: light grey where the page is white without the watermark, in the middle of the page.
    const dpi = 36;
    const r = raster(bytes, p, dpi);
    const clean = raster(plainBytes, p, dpi);
    const w = r.width * (72 / dpi);
    const h = r.height * (72 / dpi);
    const centre = { x: w / 2 - 80, y: h / 2 - 80, w: 160, h: 160 };
    const grey = countPixels(r, dpi, centre, isWatermarkGrey);
    assert.ok(grey > 200, `page ${p}: watermark pixels ${grey}`);
    assert.equal(countPixels(clean, dpi, centre, isWatermarkGrey), 0, `page ${p}: none without test`);
  }
  assert.doesNotMatch(pdfText(plainBytes), /TEST DOCUMENT/);
  // The content is still there and readable through it.
  assert.match(pdfText(bytes, { page: 1 }), /Content under the watermark stays readable\./);
});

test('encryptPdf: AES-256 (R6, AESv3); the password opens it, nothing else does; metadata survives', async () => {
  const rendered = await renderModel(model([para('Secret content Ωμέγα')], { metadata: { title: 'Confidential', author: 'Ann' } }), { test: false });
  const bytes = await encryptPdf(rendered.bytes, 'pw-ключ');
  const report = qpdfEncryption(bytes, 'pw-ключ');
  assert.match(report, /R = 6/);
  assert.match(report, /stream encryption method: AESv3/);
  assert.match(report, /string encryption method: AESv3/);
  assert.doesNotMatch(report, /RC4/);
  assert.match(pdfText(bytes, { password: 'pw-ключ' }), /Secret content Ωμέγα/);
  assert.throws(() => pdfText(bytes), 'no password: pdftotext refuses');
  assert.throws(() => pdfText(bytes, { password: 'wrong' }), 'wrong password refused');
  const info = pdfInfo(bytes, { password: 'pw-ключ' });
  assert.equal(info.Title, 'Confidential');
  assert.equal(info.Author, 'Ann');
  assert.equal(info.Creator, 'docloom');
  assert.equal(Number(info.Pages), 1);
  // Also qpdf decrypts it to the same page content.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-enc-'));
  try {
    fs.writeFileSync(path.join(dir, 'in.pdf'), bytes);
    execFileSync('qpdf', ['--password=pw-ключ', '--decrypt', path.join(dir, 'in.pdf'), path.join(dir, 'out.pdf')]);
    assert.match(pdfText(fs.readFileSync(path.join(dir, 'out.pdf'))), /Secret content/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('encryptPdf refuses an empty password with an EngineError', async () => {
  const rendered = await renderModel(model([para('x')]), { test: false });
  await assert.rejects(encryptPdf(rendered.bytes, ''), (err: unknown) => err instanceof EngineError && err.code === 'invalid_password');
});
