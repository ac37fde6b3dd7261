/**
 * Any bound model renders: odd values, missing parts, extremes and random models give a valid PDF or an
 * EngineError, never another exception or a damaged file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pdfText } from '../../helpers/pdf.js';
import type { Block, TemplateModel } from '../../../server/engine/model/types.js';
import { EngineError } from '../../../server/engine/errors.js';
import { renderModel } from '../../../server/engine/pdf/render.js';
import { assertValidPdf, model, para, run } from './helpers.js';
import { JPEG_ORANGE } from './fixture-images.js';
import { seededRandom as prng } from '../../helpers/random.js';

/** Renders a model that may be malformed on purpose (typed loosely: that is the point). */
async function renderLoose(m: unknown): Promise<Uint8Array | EngineError> {
  try {
    const r = await renderModel(m as TemplateModel, { test: true });
    assertValidPdf(r.bytes);
    return r.bytes;
  } catch (err) {
    if (err instanceof EngineError) return err;
    throw err;
  }
}

const odd: Array<[string, unknown]> = [
  ['no sections key', { version: 1, defaults: {} }],
  ['section without page', { version: 1, defaults: {}, sections: [{ body: [para('x')] }] }],
  ['nonsense page', { version: 1, defaults: {}, sections: [{ page: { width: -5, height: 'tall', margins: { top: NaN, left: 1e9 } }, body: [para('x')] }] }],
  ['huge page', { version: 1, defaults: {}, sections: [{ page: { width: 1e7, height: 1e7, margins: { top: 0, right: 0, bottom: 0, left: 0 } }, body: [para('x')] }] }],
  ['tiny page, big margins', { version: 1, defaults: {}, sections: [{ page: { width: 10, height: 10, margins: { top: 500, right: 500, bottom: 500, left: 500 } }, body: [para('a long paragraph that cannot fit anywhere at all')] }] }],
  ['garbage defaults', { version: 1, defaults: { run: { size: 'big', font: 42, color: 'nope' }, paragraph: { lineHeight: 0, indentLeft: 'x' } }, sections: [{ page: undefined, body: [para('x')] }] }],
  ['null blocks and runs', model([null as unknown as Block, { type: 'paragraph', runs: [null, { type: 'text' }, { type: 'text', text: 42 }, { type: 'mystery' }] } as unknown as Block, { type: 'unknown' } as unknown as Block])],
  ['paragraph without runs', model([{ type: 'paragraph' } as unknown as Block])],
  ['control characters and lone surrogates', model([para('a\u0000b\u0007c\uD800d\uDFFFe\r\nf\u200Bg\uFEFFh')])],
  ['extreme styles', model([para([run('tiny', { size: 0.0001 }), run('huge', { size: 100000 }), run('neg', { size: -4 })])])],
  ['extreme paragraph styles', model([para('text '.repeat(50), { indentLeft: 1e6, indentRight: -1e6, indentFirstLine: -1e9, lineHeight: 1e9, spaceBefore: -50, spaceAfter: 1e6, tabs: [{ pos: NaN, align: 'left' }, { pos: -20, align: 'right' }] as never })])],
  ['spacing taller than pages', model([para('a', { spaceBefore: 5000, spaceAfter: 5000 }), para('b', { lineHeight: 400 })])],
  ['odd lists', model([{ ...para('x'), list: { id: '', level: 99, format: 'weird' as never, text: '%9%8%1' } }, { ...para('y'), list: { id: 'a', level: -3, format: 'decimal', start: -5 } }, { ...para('z'), list: null as never }])],
  ['empty and broken tables', model([
    { type: 'table', columns: [], rows: [] },
    { type: 'table', columns: [NaN, -5, 0], rows: [{ cells: [] }, { cells: [{ blocks: [] }] }] },
    { type: 'table', columns: [100], rows: [{ cells: [{ blocks: [para('wide')], colSpan: 1e6, rowSpan: 1e6 }] }, { cells: [{ blocks: null as never }] }] },
    { type: 'table', columns: 'x' as never, rows: 'y' as never },
  ] as Block[])],
  ['deeply nested tables', (() => {
    let b: Block = para('core');
    for (let i = 0; i < 30; i++) b = { type: 'table', columns: [200], rows: [{ cells: [{ blocks: [b] }] }] };
    return model([b]);
  })()],
  ['bad images', model([para([{ type: 'image', src: JPEG_ORANGE, width: -5, height: 20 }, { type: 'image', src: JPEG_ORANGE, width: NaN, height: 20 }, { type: 'image', src: JPEG_ORANGE, width: 1e9, height: 1e-9 }])])],
  ['fields everywhere', model([para([{ type: 'field', field: 'pages' }, { type: 'field', field: 'nope' as never }])])],
  ['odd headers and footers', { version: 1, defaults: {}, sections: [{ page: undefined, body: [para('x')], header: { default: 'x', first: [null], even: [{ type: 'table', columns: [50], rows: [{ cells: [{ blocks: [para('h')] }] }] }] }, footer: [] as never, titlePage: true }] }],
  ['a 50,000-character word and a 100,000-character paragraph', model([para('W'.repeat(50_000)), para('lorem ipsum '.repeat(8_500))])],
];

for (const [name, m] of odd) {
  test(`renders: ${name}`, async () => {
    const out = await renderLoose(m);
    if (out instanceof EngineError) assert.fail(`unexpected EngineError ${out.code}: ${out.message}`);
    assert.ok(out.length > 100);
  });
}

test('the text of a mangled paragraph survives around the bad parts', async () => {
  const out = await renderLoose(model([para('a\u0000b\u0007c\uD800d\uDFFFe\r\nf\u200Bg\uFEFFh')]));
  assert.ok(out instanceof Uint8Array);
  const text = pdfText(out).replace(/TEST DOCUMENT/g, '').replace(/\s+/g, ' ').trim();
  assert.equal(text, 'abc□d□e fgh');
});

function randomModel(seed: number): unknown {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const weird = [undefined, null, -1, 0, 0.5, 3, 1e6, NaN, 'x', true, [], {}];
  const texts = ['', ' ', 'Hello world', 'Привет мир', 'שלום', 'مرحبا', '漢字かな', 'a\tb\nc', '😀', 'x'.repeat(300), '— “quotes” €'];
  // Typed as a number on purpose: a fifth of the time it is anything but one.
  const num = (): number => (r() < 0.2 ? (pick(weird) as number) : Math.round(r() * 400));
  const style = () => (r() < 0.3 ? undefined : { size: r() < 0.2 ? pick(weird) : 6 + r() * 20, bold: r() < 0.5, italic: r() < 0.3, underline: r() < 0.2, color: pick(['#ff0000', 'bad', undefined]), font: pick(['Arial', 'Calibri', 'Cambria', 'Courier New', 'Nope', 'Times New Roman', undefined]), link: r() < 0.1 ? 'https://example.com' : undefined, vertAlign: pick([undefined, 'superscript', 'subscript']) });
  const paragraph = (): unknown => ({
    type: 'paragraph',
    runs: Array.from({ length: Math.floor(r() * 5) }, () => (r() < 0.1 ? { type: 'field', field: pick(['page', 'pages']) } : r() < 0.08 ? { type: 'image', src: JPEG_ORANGE, width: num(), height: num() } : { type: 'text', text: pick(texts), style: style() })),
    style: r() < 0.5 ? undefined : { align: pick(['left', 'center', 'right', 'justify', 'x']), indentLeft: num(), indentFirstLine: r() < 0.5 ? -num() : num(), spaceAfter: num(), lineHeight: r() < 0.5 ? 1 : pick(weird), heading: pick([undefined, 1, 2, 7]), rtl: r() < 0.1, keepWithNext: r() < 0.2, pageBreakBefore: r() < 0.05, shading: r() < 0.1 ? '#eeeeee' : undefined, tabs: r() < 0.2 ? [{ pos: num(), align: pick(['left', 'right', 'center', 'decimal']) }] : undefined },
    list: r() < 0.2 ? { id: pick(['a', 'b']), level: Math.floor(r() * 4), format: pick(['bullet', 'decimal', 'lowerRoman', 'upperLetter', 'none']) } : undefined,
  });
  const block = (depth: number): unknown => {
    const k = r();
    if (k < 0.7 || depth > 2) return paragraph();
    if (k < 0.75) return { type: 'pageBreak' };
    const cols = Math.floor(r() * 5);
    return {
      type: 'table',
      columns: Array.from({ length: cols }, num),
      rows: Array.from({ length: Math.floor(r() * 6) }, () => ({
        header: r() < 0.2,
        height: r() < 0.2 ? num() : undefined,
        cells: Array.from({ length: Math.floor(r() * 5) }, () => ({ blocks: Array.from({ length: Math.floor(r() * 3) }, () => block(depth + 1)), colSpan: r() < 0.1 ? num() : undefined, rowSpan: r() < 0.1 ? Math.floor(r() * 4) : undefined, shading: r() < 0.2 ? '#ddeeff' : undefined, vAlign: pick(['top', 'middle', 'bottom', undefined]) })),
      })),
      style: r() < 0.5 ? undefined : { borders: pick<unknown>([null, undefined, { width: num(), color: '#333333', style: pick(['single', 'double', 'dashed', 'dotted']) }]), cellPadding: num(), align: pick(['left', 'center', 'right']) },
    };
  };
  return {
    version: 1,
    defaults: { run: style() ?? {}, paragraph: {} },
    sections: Array.from({ length: 1 + Math.floor(r() * 3) }, () => ({
      // Pages kept reasonable so that models stay at tens of pages (odd pages are covered above).
      page: r() < 0.8 ? { width: 300 + r() * 700, height: 300 + r() * 700, margins: { top: r() * 80, right: r() * 80, bottom: r() * 80, left: r() * 80 }, headerDistance: num(), footerDistance: num() } : pick(weird),
      body: Array.from({ length: Math.floor(r() * 12) }, () => block(0)),
      header: r() < 0.4 ? { default: [paragraph()], first: r() < 0.5 ? [paragraph()] : undefined } : undefined,
      footer: r() < 0.4 ? { default: [paragraph(), paragraph()], even: r() < 0.5 ? [paragraph()] : undefined } : undefined,
      titlePage: r() < 0.3,
    })),
  };
}

test('40 random models all render to valid PDFs', async () => {
  for (let seed = 1; seed <= 40; seed++) {
    let out: Uint8Array | EngineError;
    try {
      out = await renderLoose(randomModel(seed));
    } catch (err) {
      assert.fail(`seed ${seed}: ${(err as Error).stack}`);
    }
    if (out instanceof EngineError) assert.fail(`seed ${seed}: EngineError ${out.code}: ${out.message}`);
  }
});
