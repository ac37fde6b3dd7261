/**
 * Issue #12 item 6: a character no bundled font has stays in the PDF's text layer as itself (the page draws a box
 * for it), in the .json and the .docx paths alike. Read back with pdftotext from a real render.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { compileTemplate, renderPdf, type TemplateSource } from '../../../server/engine/index.js';
import { buildDocx, p } from '../../docx/build-docx.js';
import { pdfText, squash, withPdfFile } from '../../helpers/pdf.js';

// Ethiopic, Tibetan and Javanese letters and an emoji: none of the bundled fonts has them (resolve.ts's chain ends
// in a box for each). A Latin word on each side shows nothing around them is lost.
const MISSING = 'ሀ ཀ ꦲ 😀';
const DATA = { word: MISSING };

async function shown(source: TemplateSource): Promise<string> {
  const compiled = compileTemplate(source);
  assert.ok(compiled.ok, JSON.stringify(!compiled.ok && compiled.errors));
  return squash(pdfText((await renderPdf(compiled.template, DATA)).bytes));
}

const json = (body: unknown[]): TemplateSource => ({ kind: 'json', bytes: new TextEncoder().encode(JSON.stringify({ docloom: 1, body })) });

test('.json template: characters no font has, in template text and in data, read back as themselves', async () => {
  const text = await shown(json([`before ${MISSING} after`, 'data: {{word}} end']));
  assert.equal(text, `before ${MISSING} after data: ${MISSING} end`);
  assert.ok(!text.includes('□'), text);
});

test('.docx template: characters no font has, in template text and in data, read back as themselves', async () => {
  const bytes = buildDocx({ body: p(`before ${MISSING} after`) + p('data: {{word}} end') });
  const text = await shown({ kind: 'docx', bytes, delimiters: ['{{', '}}'] });
  assert.equal(text, `before ${MISSING} after data: ${MISSING} end`);
});

test('the page still draws one box per such character: the word is as wide as the same word written with boxes', async () => {
  // Both in DejaVu Sans, whose white square (U+25A1) the missing-glyph face draws.
  const template = { docloom: 1, defaults: { font: 'DejaVu Sans' }, body: [`x${'ሀ'.repeat(10)}y`, `x${'□'.repeat(10)}y`] };
  const compiled = compileTemplate({ kind: 'json', bytes: new TextEncoder().encode(JSON.stringify(template)) });
  assert.ok(compiled.ok);
  const html = withPdfFile((await renderPdf(compiled.template, {})).bytes, (file) => execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' }));
  const widths = [...html.matchAll(/<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)"[^>]*>([^<]*)<\/word>/g)].map((m) => [m[3], Number(m[2]) - Number(m[1])] as const);
  const missing = widths.find(([w]) => w.includes('ሀ'));
  const boxes = widths.find(([w]) => w.includes('□'));
  assert.ok(missing && boxes, JSON.stringify(widths));
  assert.equal(missing[0], `x${'ሀ'.repeat(10)}y`);
  assert.ok(Math.abs(missing[1] - boxes[1]) < 0.5, JSON.stringify(widths));
});
