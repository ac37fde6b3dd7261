/**
 * Vector pictures (images/drawing.ts) reach the renderer as data: URIs — from a .docx's EMF/WMF, or written into a
 * hand-made .json template. A good one is painted as paths at its box; a bad one is refused with invalid_image,
 * never a crash or a runaway render.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EngineError } from '../../../server/engine/errors.js';
import { DRAWING_MIME, MAX_DRAWING_CHARS, MAX_DRAWING_POINTS } from '../../../server/engine/images/drawing.js';
import { prepareImage } from '../../../server/engine/pdf/images.js';
import type { ImageRun } from '../../../server/engine/model/types.js';
import { model, para, raster, render, section, structure, word, words } from './helpers.js';

const uri = (body: unknown): string => `data:${DRAWING_MIME};base64,${Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)).toString('base64')}`;
const picture = (src: string, width: number, height: number): ImageRun => ({ type: 'image', src, width, height });

test('a vector picture is painted at its box: an even-odd ring filled, a translucent stroke blended', async () => {
  // A 200 × 100 pt picture: a red square ring (outer and inner square, even-odd) on the left half, a blue line at 50 % alpha.
  const drawing = {
    ops: [
      { kind: 'fill', evenOdd: true, colour: [255, 0, 0, 255], polys: [[0, 0, 0.5, 0, 0.5, 1, 0, 1], [0.125, 0.25, 0.375, 0.25, 0.375, 0.75, 0.125, 0.75]] },
      { kind: 'stroke', width: 0.05, colour: [0, 0, 255, 128], lines: [{ points: [0.6, 0.5, 0.95, 0.5], closed: false }] },
    ],
  };
  const pdf = await render(model([section([para([picture(uri(drawing), 200, 100)])])]));
  const r = raster(pdf, 1, 72);
  const at = (x: number, y: number): number[] => r.rgb(72 + x, 72 + y);
  assert.deepEqual(at(10, 10).map((c) => Math.round(c / 50)), [5, 0, 0], 'the ring is red');
  assert.ok(at(50, 50).every((c) => c > 240), `the hole of the ring is white: ${at(50, 50)}`);
  const line = at(150, 50);
  assert.ok(line[2] > 240 && line[0] > 100 && line[0] < 160, `the line is blue at half alpha over white: ${line}`);
  assert.ok(at(150, 35).every((c) => c > 240), 'the line is 5 pt thick, no more');
});

test("a vector picture's text is in the text layer, invisible, where and as wide as its glyphs were drawn", async () => {
  // A 200 × 100 pt picture whose text (its glyphs would be a fill before it) starts at 10 % across, its baseline at
  // half height, 20 pt tall, 60 % of the width wide; a character Helvetica's WinAnsi lacks is left out of the layer.
  const drawing = { ops: [{ kind: 'text', chars: 'Quarterly revenue \u4e2d', x: 0.1, baseline: 0.5, size: 0.2, width: 0.6 }] };
  const pdf = await render(model([section([para([picture(uri(drawing), 200, 100)])])]));
  const all = words(pdf);
  const first = word(all, 'Quarterly');
  const second = word(all, 'revenue');
  // The picture's box starts at the margin (72 pt); pdftotext's word box spans ascent to descent around the baseline.
  assert.ok(Math.abs(first.xMin - (72 + 20)) < 1, `starts at 10 % across: ${first.xMin}`);
  assert.ok(Math.abs(second.xMax - (72 + 20 + 120)) < 6, `ends where the drawn text did (60 % across): ${second.xMax}`);
  assert.ok(first.yMin < 72 + 50 && first.yMax > 72 + 50 - 10, `on the baseline at half height: ${first.yMin}–${first.yMax}`);
  assert.ok(!all.some((w) => w.text.includes('\u4e2d')), 'a character outside WinAnsi is not written in Helvetica');
  assert.match(structure(pdf), /\n3 Tr\n/, 'rendering mode 3: the layer draws nothing');
  const r = raster(pdf, 1, 72);
  for (let x = 95; x < 210; x += 5) assert.ok(r.rgb(x, 72 + 45).every((c) => c > 250), `nothing painted at x=${x}`);
});

test('damaged vector pictures are refused with invalid_image; random bytes never throw anything else', () => {
  const refused = (src: string): void => {
    assert.throws(() => prepareImage(src), (err: unknown) => err instanceof EngineError && err.code === 'invalid_image', src.slice(0, 80));
  };
  refused(uri('not json'));
  refused(uri({ ops: 'x' }));
  refused(uri({ ops: [{ kind: 'fill', evenOdd: false, colour: [0, 0, 0], polys: [[0, 0, 1, 1]] }] }));
  refused(uri({ ops: [{ kind: 'stroke', width: -1, colour: [0, 0, 0, 255], lines: [] }] }));
  refused(uri({ ops: [{ kind: 'image', src: 'https://example.com/x.png', x: 0, y: 0, w: 1, h: 1 }] }));
  refused(uri({ ops: [{ kind: 'fill', evenOdd: false, colour: [0, 0, 0, 255], polys: [[0, 0, 1, 'a']] }] }));
  refused(uri({ ops: [{ kind: 'spiral' }] }));
  refused(uri({ ops: [{ kind: 'text', chars: 7, x: 0, baseline: 0.5, size: 0.1, width: 1 }] }));
  refused(uri({ ops: [{ kind: 'text', chars: 'a', x: 0, baseline: 0.5, size: 0, width: 1 }] }));
  refused(uri({ ops: [{ kind: 'text', chars: 'a'.repeat(MAX_DRAWING_CHARS + 1), x: 0, baseline: 0.5, size: 0.1, width: 1 }] }));
  // Past the point budget: refused before anything is drawn.
  const many = new Array((MAX_DRAWING_POINTS + 1) * 2).fill(0.5);
  refused(uri({ ops: [{ kind: 'fill', evenOdd: false, colour: [0, 0, 0, 255], polys: [many] }] }));
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      try {
        prepareImage(uri({ ops: [value] }));
      } catch (err) {
        assert.ok(err instanceof EngineError && err.code === 'invalid_image', String(err));
      }
    }),
    { numRuns: 300 },
  );
});
