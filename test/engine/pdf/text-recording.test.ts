/**
 * The per-character and per-run bookkeeping of layout and painting, taken out of the hot loops (benchmarks.md,
 * session 16, branch long17): what a document's embedded faces record and draw (DocumentFonts.use / drawable, by
 * bitsets), and a text run's format found by its fields' values (runFmt / runField) rather than a merged copy of
 * its style. Each must answer exactly as the longer way did.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsPDF } from 'jspdf';
import { DocumentFonts } from '../../../server/engine/pdf/fonts/embed.js';
import { familyTtfFace } from '../../../server/engine/pdf/fonts/faces.js';
import { CARLITO } from '../../../server/engine/pdf/fonts/families.js';
import { makeFmt, merge, resetStyleCaches, runField, runFmt } from '../../../server/engine/pdf/layout/fmt.js';
import type { RunStyle } from '../../../server/engine/model/types.js';

test('an embedded face draws what layout recorded and it covers, and nothing else', async () => {
  const face = familyTtfFace(CARLITO, 'normal');
  const fonts = new DocumentFonts();
  fonts.use(face, 'Héllo (x');
  fonts.use(face, 'Héllo again');
  // Carlito has no ideographs: recorded, but not drawable with it.
  fonts.use(face, '中');
  await fonts.embed(new jsPDF({ unit: 'pt' }));
  assert.equal(fonts.drawable(face, 'Héllo again'), 'Héllo again');
  // Never recorded: dropped (jsPDF would cut the string at it), the rest kept in order.
  assert.equal(fonts.drawable(face, 'Hzllo'), 'Hllo');
  assert.equal(fonts.drawable(face, '中H'), 'H');
  // A tab is laid out, never recorded; a space always is.
  assert.equal(fonts.drawable(face, 'H\tx a'), 'Hx a');
  // A bracket's mirror is recorded with it (right-to-left lines draw it mirrored).
  assert.equal(fonts.drawable(face, ')('), ')(');
  // Once embedded nothing more is recorded.
  fonts.use(face, 'z');
  assert.equal(fonts.drawable(face, 'z'), '');
  // A face the document never used draws nothing.
  assert.equal(fonts.drawable(familyTtfFace(CARLITO, 'bold'), 'Hello'), '');
});

test('runFmt is makeFmt(merge(base, over)): the same interned format for equal values in distinct styles', () => {
  resetStyleCaches();
  const base: RunStyle = { size: 11, color: '#1F3864', font: 'Calibri' };
  const a = runFmt(base, { bold: true, underline: true });
  const b = runFmt(base, { italic: true, underline: true, font: 'Cambria' });
  assert.equal(a, b);
  assert.equal(a, makeFmt(merge(base, { underline: true })));
  assert.deepEqual([a.size, a.underline, a.color], [11, true, [0x1f, 0x38, 0x64]]);
  // An explicit undefined does not erase a default; a value of another type is another value ("true" is not true).
  assert.equal(runFmt(base, { size: undefined, underline: true }), a);
  const text = runFmt(base, { underline: 'true' as unknown as boolean });
  assert.notEqual(text, a);
  assert.equal(text.underline, false);
  assert.equal(runFmt(base, { size: 14 }).size, 14);
  assert.equal(runFmt(base, { vertAlign: 'superscript' }).drawSize, 11 * 0.65);
  // A field holding an object goes the long way, to the same answer.
  const odd = { color: { r: 1 } as unknown as string };
  assert.equal(runFmt(base, odd), makeFmt(merge(base, odd)));
  // No style of its own, or no defaults.
  assert.equal(runFmt(base, undefined), makeFmt(base));
  assert.equal(runFmt(undefined, { size: 9 }).size, 9);
});

test('runFmt remembers styles by identity within a render only', () => {
  resetStyleCaches();
  const base: RunStyle = { size: 11 };
  const style: RunStyle = { size: 12 };
  const first = runFmt(base, style);
  assert.equal(first.size, 12);
  assert.equal(runFmt(base, style), first);
  // Another render of a changed model reads it afresh.
  style.size = 13;
  resetStyleCaches();
  assert.equal(runFmt(base, style).size, 13);
  // The same style over other defaults (a table's run defaults) is another format.
  assert.equal(runFmt({ size: 11, underline: true }, { bold: true }).underline, true);
  assert.equal(runFmt({ size: 11 }, { bold: true }).underline, false);
});

test('runField reads a field as merge(base, over) holds it', () => {
  const base: RunStyle = { size: 11, bold: true, font: 'Calibri' };
  assert.equal(runField(base, { size: 14 }, 'size'), 14);
  assert.equal(runField(base, { size: undefined }, 'size'), 11);
  assert.equal(runField(base, { bold: false }, 'bold'), false);
  assert.equal(runField(base, undefined, 'font'), 'Calibri');
  assert.equal(runField(undefined, { italic: true }, 'italic'), true);
  assert.equal(runField(base, { italic: true }, 'caps'), undefined);
  for (const over of [{ size: 14 }, { bold: false, caps: true }, {}, undefined] as Array<RunStyle | undefined>) {
    const merged = merge(base, over);
    for (const key of ['size', 'bold', 'font', 'caps'] as const) assert.equal(runField(base, over, key), merged[key]);
  }
});
