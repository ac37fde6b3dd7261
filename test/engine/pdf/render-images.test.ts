/** Images: formats, alpha, size and alignment, embedding once, bad images. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ImageRun } from '../../../server/engine/model/types.js';
import { EngineError } from '../../../server/engine/errors.js';
import { renderModel } from '../../../server/engine/pdf/render.js';
import { assertValidPdf, countPixels, model, near, para, raster, render, run, structure } from './helpers.js';
import { encodePng, pngDataUri } from './png.js';
import { BMP_MAGENTA, GIF_GREEN, JPEG_ORANGE, WEBP_BLUE } from './fixture-images.js';

function image(src: string, width: number, height: number): ImageRun {
  return { type: 'image', src, width, height };
}

const DPI = 72;

test('PNG with alpha, JPEG, GIF, WebP and BMP are drawn at the size given, inline with the text', async () => {
  // Left half opaque red, right half fully transparent.
  const halfRed = pngDataUri(encodePng(20, 10, (x) => (x < 10 ? [255, 0, 0, 255] : [255, 0, 0, 0])));
  const bytes = await render(model([
    para([run('A '), image(halfRed, 100, 50)]),
    para([image(JPEG_ORANGE, 100, 50), image(GIF_GREEN, 100, 50), image(WEBP_BLUE, 100, 50), image(BMP_MAGENTA, 100, 50)]),
  ]));
  assertValidPdf(bytes);
  const r = raster(bytes, 1, DPI);
  const aw = 11 * 0.667 + 11 * 0.278; // "A " in Helvetica 11
  const x0 = 72 + aw;
  // First line: the image sits on the baseline; its top is at the top margin (it is the tallest thing).
  assert.ok(countPixels(r, DPI, { x: x0 + 5, y: 80, w: 40, h: 30 }, (p) => near(p, [255, 0, 0], 10)) > 1000, 'opaque half red');
  assert.ok(countPixels(r, DPI, { x: x0 + 55, y: 80, w: 40, h: 30 }, (p) => near(p, [255, 255, 255], 5)) > 1000, 'transparent half shows the page');
  assert.ok(countPixels(r, DPI, { x: x0 + 101, y: 80, w: 10, h: 10 }, (p) => near(p, [255, 0, 0], 60)) === 0, 'no wider than 100 pt');
  const row = [[255, 136, 0], [0, 170, 0], [0, 0, 255], [255, 0, 255]] as const;
  row.forEach((rgb, i) => {
    const n = countPixels(r, DPI, { x: 72 + i * 100 + 10, y: 72 + 50 + 15, w: 80, h: 25 }, (p) => near(p, [rgb[0], rgb[1], rgb[2]], 30));
    assert.ok(n > 1500, `image ${i} colour at its place (${n} px)`);
  });
});

test('an image used many times is embedded once', async () => {
  const body = Array.from({ length: 20 }, () => para([image(JPEG_ORANGE, 40, 20)]));
  const bytes = await render(model(body));
  const s = structure(bytes);
  assert.equal((s.match(/\/Subtype \/Image/g) ?? []).length, 1);
  assert.equal((s.match(/\/I0 Do|\/I\d+ Do/g) ?? []).length, 20, 'drawn 20 times');
});

test('image alignment follows the paragraph; oversized images shrink to the column, zero-size ones are skipped', async () => {
  const bytes = await render(model([
    para([image(JPEG_ORANGE, 100, 40)], { align: 'center' }),
    para([image(GIF_GREEN, 5000, 1000)]),
    para([image(WEBP_BLUE, 0, 0), run('after zero')]),
  ]));
  const r = raster(bytes, 1, DPI);
  const centre = 595.28 / 2;
  assert.ok(countPixels(r, DPI, { x: centre - 45, y: 80, w: 90, h: 30 }, (p) => near(p, [255, 136, 0], 30)) > 2000, 'centred');
  assert.equal(countPixels(r, DPI, { x: 72, y: 80, w: centre - 50 - 72 - 2, h: 30 }, (p) => near(p, [255, 136, 0], 30)), 0, 'nothing left of it');
  // 5000 × 1000 scaled to the 451 pt column: about 90 pt tall, full width.
  const green = countPixels(r, DPI, { x: 72, y: 112, w: 451, h: 100 }, (p) => near(p, [0, 170, 0], 30));
  assert.ok(green > 451 * 85 && green < 451 * 95, `green area ${green}`);
});

test('bad images are EngineErrors naming the problem', async () => {
  const cases: Array<[string, string]> = [
    ['data:image/png;base64,AAAAAAAA', 'image_unsupported'],
    ['data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=', 'image_unsupported'],
    ['https://example.com/logo.png', 'invalid_image'],
    [`data:image/png;base64,${encodePng(4, 4, () => [0, 0, 0, 255]).subarray(0, 40).toString('base64')}`, 'invalid_image'],
  ];
  for (const [src, code] of cases) {
    await assert.rejects(renderModel(model([para([image(src, 10, 10)])]), { test: false }), (err: unknown) => {
      assert.ok(err instanceof EngineError, `EngineError for ${src.slice(0, 30)}`);
      assert.equal(err.code, code, `${src.slice(0, 30)}: ${err.message}`);
      return true;
    });
  }
});
