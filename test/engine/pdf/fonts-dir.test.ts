/** setFontsDir: the packaged app reads the bundled fonts from its own folder. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pdfFonts, pdfText } from '../../helpers/pdf.js';
import { EngineError } from '../../../server/engine/errors.js';
import { projectRoot } from '../../../server/config.js';
import { renderModel, setFontsDir } from '../../../server/engine/pdf/render.js';
import { model, para } from './helpers.js';

const BUNDLED = path.join(projectRoot(), 'resources', 'fonts');

test('fonts are read from the folder setFontsDir names; a folder without them is a clear error', async (t) => {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-fonts-'));
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-nofonts-'));
  t.after(() => {
    setFontsDir(BUNDLED);
    fs.rmSync(copy, { recursive: true, force: true });
    fs.rmSync(empty, { recursive: true, force: true });
  });
  for (const f of fs.readdirSync(BUNDLED)) if (f.endsWith('.ttf')) fs.copyFileSync(path.join(BUNDLED, f), path.join(copy, f));

  setFontsDir(copy);
  const ok = await renderModel(model([para('Привет, мир', {}, { font: 'Calibri' })]), { test: false });
  assert.match(pdfText(ok.bytes), /Привет, мир/);
  assert.ok(pdfFonts(ok.bytes).some((f) => /\+Carlito-Regular$/.test(f.name)));

  setFontsDir(empty);
  await assert.rejects(renderModel(model([para('Привет, мир', {}, { font: 'Calibri' })]), { test: false }), (err: unknown) => {
    assert.ok(err instanceof EngineError);
    assert.equal(err.code, 'render_failed');
    assert.match(err.message, /Carlito-Regular\.ttf|LiberationSans/);
    return true;
  });

  setFontsDir(BUNDLED);
  const again = await renderModel(model([para('Привет, мир', {}, { font: 'Calibri' })]), { test: false });
  assert.match(pdfText(again.bytes), /Привет, мир/);
});
