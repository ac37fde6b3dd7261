/** The render's own limits (RenderModelOptions.limits): pages counted as the flow adds them, time checked as it goes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Table } from '../../../server/engine/model/types.js';
import { renderModel } from '../../../server/engine/pdf/render.js';
import { EngineError } from '../../../server/engine/errors.js';
import { model, para } from './helpers.js';

const LONG = Array.from({ length: 400 }, (_, i) => para(`Paragraph ${i + 1}. ${'The quick brown fox jumps over the lazy dog. '.repeat(8)}`));

function table(rows: number): Table {
  return {
    type: 'table',
    columns: [200, 200],
    rows: Array.from({ length: rows }, (_, i) => ({ cells: [{ blocks: [para(`Row ${i}`)] }, { blocks: [para('Value')] }] })),
  };
}

async function limitError(promise: Promise<unknown>): Promise<EngineError> {
  const err = await promise.then(() => assert.fail('rendered past the limit'), (e: unknown) => e);
  assert.ok(err instanceof EngineError, String(err));
  assert.equal(err.code, 'limit_exceeded');
  return err;
}

test('more pages than limits.pages: limit_exceeded naming pages_per_document, as soon as the flow passes it', async () => {
  const full = await renderModel(model(LONG), { test: false });
  assert.ok(full.pages > 20, `${full.pages} pages`);
  const err = await limitError(renderModel(model(LONG), { test: false, limits: { pages: 10 } }));
  assert.match(err.message, /more than 10 pages.*pages_per_document/);
  // Exactly at the limit it renders.
  const at = await renderModel(model(LONG), { test: false, limits: { pages: full.pages } });
  assert.equal(at.pages, full.pages);
});

test('pages a table adds (autotable, behind the flow\'s back) count too', async () => {
  const full = await renderModel(model([table(600)]), { test: false });
  assert.ok(full.pages > 5, `${full.pages} pages`);
  await limitError(renderModel(model([table(600)]), { test: false, limits: { pages: 3 } }));
});

test('a render past limits.ms: limit_exceeded naming render_ms', async () => {
  // A start far in the past stands for a render that has already taken its time.
  const err = await limitError(renderModel(model(LONG), { test: false, limits: { ms: 50 }, start: performance.now() - 10_000 }));
  assert.match(err.message, /50 ms.*render_ms/);
});
