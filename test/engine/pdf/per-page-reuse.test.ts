/**
 * Work done once instead of for every page or every character painted (benchmarks.md, session 16, branch hdr17):
 * a header or footer with page fields laid out again only for a page whose fields measure differently
 * (FieldLayouts), and an embedded font's glyph string built from what was found for each character before
 * (JsPdfFonts.glyphString). Each must give exactly what the longer way gave.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsPDF } from 'jspdf';
import type { Block, Inline } from '../../../server/engine/model/types.js';
import { DocumentFonts } from '../../../server/engine/pdf/fonts/embed.js';
import { JsPdfFonts, type FontProgram } from '../../../server/engine/pdf/fonts/jspdf-font.js';
import { layoutStack } from '../../../server/engine/pdf/layout/blocks.js';
import { ListCounters } from '../../../server/engine/pdf/layout/lists.js';
import { resetStyleCaches } from '../../../server/engine/pdf/layout/fmt.js';
import type { LayoutContext } from '../../../server/engine/pdf/layout/paragraph.js';
import { FieldLayouts } from '../../../server/engine/pdf/flow/header-fields.js';
import { para, run } from './helpers.js';

const page: Inline = { type: 'field', field: 'page' };
const pages: Inline = { type: 'field', field: 'pages' };

test('a footer with page fields: laid out again only when its fields measure differently, as a fresh layout each time', () => {
  resetStyleCaches();
  const ctx: LayoutContext = {
    fonts: new DocumentFonts(),
    defaults: { run: { font: 'Helvetica', size: 11 }, paragraph: {} },
    lists: new ListCounters(),
    maxImage: { width: 451, height: 300 },
    pageMargins: { left: 72, right: 72 },
  };
  const width = 451;
  // The number's width moves what follows it, a right tab's text and a right-aligned line; a paragraph without
  // fields sits between them.
  const source: Block[] = [
    para([run('Chapter one — page '), page, run(' of '), pages, run('\tConfidential')], { tabs: [{ pos: 451, align: 'right' }] }),
    para('A plain line under it'),
    para([run('Right: '), page], { align: 'right' }),
    para([run('A long line that wraps near the page number so that a wider number can push a word down: '), page, run(' end')], { indentLeft: 300 }),
  ];
  const pre = layoutStack(source, width, { ...ctx, lists: new ListCounters() });
  const part = { blocks: pre.blocks, height: pre.height, hasFields: true, source };
  const layouts = new FieldLayouts();
  const got = new Map<string, unknown>();
  for (const text of ['1', '2', '9', '10', '11', '99', '100', '7', 'i', 'ii', 'iii', 'iv', 'v', 'ii']) {
    const laid = layouts.layout(part, ctx, width, 300, text, '100');
    const fresh = layoutStack(source, width, { ...ctx, lists: new ListCounters(), fieldText: (f) => (f === 'page' ? text : '100'), maxImage: { width, height: 300 } });
    assert.deepStrictEqual(laid.blocks, fresh.blocks, `page ${text}`);
    assert.equal(laid.height, fresh.height);
    got.set(text, laid);
  }
  // Helvetica's digits are equally wide: one layout per number of digits.
  assert.equal(got.get('2'), got.get('1'));
  assert.equal(got.get('9'), got.get('1'));
  assert.equal(got.get('7'), got.get('1'));
  assert.equal(got.get('11'), got.get('10'));
  assert.notEqual(got.get('10'), got.get('9'));
  assert.notEqual(got.get('100'), got.get('99'));
  // Roman numerals of other widths each get their own; a box of another height (a title page's) too.
  assert.notEqual(got.get('ii'), got.get('i'));
  assert.notEqual(layouts.layout(part, ctx, width, 250, '1', '100'), got.get('1'));
});

/** A font program with glyphs shared between characters, one whose bytes must be escaped, none for others. */
function fakeProgram(): FontProgram {
  // 'A' and 'B' share glyph 3; 'C' is glyph 0x28 ('(' as a byte); 'D' glyph 0x0a5c; 'Z' and U+4E2D absent.
  const codeMap: Record<number, number> = { 0x41: 3, 0x42: 3, 0x43: 0x28, 0x44: 0x0a5c, 0x45: 5, 0x2019: 5, 0x20: 1 };
  const ttf = {
    cmap: { unicode: { codeMap } },
    characterToGlyph: (code: number) => codeMap[code] ?? 0,
    widthOfGlyph: (glyph: number) => 400 + glyph + 0.7,
    widthOfString: () => 0,
    bbox: [0, 0, 1000, 1000],
    flags: 32,
    stemV: 80,
    italicAngle: 0,
    ascender: 800,
    decender: -200,
    capHeight: 700,
  };
  return { ttf, deflated: '', length: 0 };
}

/** The per-character way (what glyphString did for every character drawn before it kept what it found). */
function reference(state: { toUnicode: Record<number, number>; widths: Array<number | number[]> }, text: string): string {
  const { codeMap } = fakeProgram().ttf.cmap.unicode;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const glyph = codeMap[code] || 0;
    if (glyph === 0 && code >= 0x100) continue;
    state.toUnicode[glyph] = code;
    if (!state.widths.includes(glyph)) state.widths.push(glyph, [Math.trunc(400 + glyph + 0.7)]);
    if (glyph === 0) break;
    for (const b of [glyph >> 8, glyph & 0xff]) {
      const c = String.fromCharCode(b);
      out += b === 0x28 || b === 0x29 || b === 0x5c ? `\\${c}` : b === 0x0a ? '\\n' : b === 0x0d ? '\\r' : c;
    }
  }
  return out;
}

test('glyph strings: per distinct character, with the same bytes, widths and ToUnicode entries (the last character drawn with a glyph)', () => {
  const doc = new jsPDF({ unit: 'pt' });
  const fonts = new JsPdfFonts(doc);
  fonts.add('F', fakeProgram());
  const meta = (doc.internal as unknown as { getFont(n: string, s: string): { metadata: { toUnicode: Record<number, number>; Unicode: { widths: Array<number | number[]> } } } }).getFont('F', 'normal').metadata;
  const state = { toUnicode: {} as Record<number, number>, widths: [] as Array<number | number[]> };
  const alphabet = ['A', 'B', 'C', 'D', 'E', '\u2019', ' ', 'Z', '\u4e2d', '\u00ff'];
  let seed = 7;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let n = 0; n < 400; n++) {
    let text = '';
    const length = 1 + Math.floor(random() * 6);
    // Mostly without the character that ends a string (glyph 0 below U+0100), sometimes with it.
    for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * (n % 5 === 0 ? alphabet.length : alphabet.length - 1))];
    assert.equal(fonts.glyphString('F', text), reference(state, text), JSON.stringify(text));
    assert.deepStrictEqual({ ...meta.toUnicode }, state.toUnicode, `ToUnicode after ${JSON.stringify(text)}`);
    assert.deepStrictEqual(meta.Unicode.widths, state.widths);
  }
  // 'A' and 'B' share a glyph: its entry names whichever was drawn last, also when 'A' was drawn before.
  fonts.glyphString('F', 'A');
  fonts.glyphString('F', 'B');
  fonts.glyphString('F', 'A');
  assert.equal(meta.toUnicode[3], 0x41);
  // Glyph 0x0028 and 0x0a5c: a zero byte as it is, the parenthesis, line feed and backslash escaped.
  assert.equal(fonts.glyphString('F', 'CD'), '\x00\\(\\n\\\\');
  assert.equal(fonts.glyphString('G', 'A'), null);
});

test('glyph strings: what jsPDF\'s own text() writes in the same font is taken into account', async () => {
  const fonts = new DocumentFonts();
  const { familyTtfFace } = await import('../../../server/engine/pdf/fonts/faces.js');
  const { CARLITO } = await import('../../../server/engine/pdf/fonts/families.js');
  const face = familyTtfFace(CARLITO, 'normal');
  fonts.use(face, 'Hello world');
  const doc = new jsPDF({ unit: 'pt' });
  await fonts.embed(doc);
  const name = fonts.select(face)[0];
  const before = fonts.glyphString(face, 'Hello');
  doc.setFont(name, 'normal');
  doc.text('world', 10, 10);
  // jsPDF recorded 'w', 'r', 'd' itself: the same string for the same text, and the widths listed once each.
  assert.equal(fonts.glyphString(face, 'Hello'), before);
  fonts.glyphString(face, 'world');
  const meta = (doc.internal as unknown as { getFont(n: string, s: string): { metadata: { Unicode: { widths: Array<number | number[]> } } } }).getFont(name, 'normal').metadata;
  const glyphs = meta.Unicode.widths.filter((w) => typeof w === 'number');
  assert.equal(new Set(glyphs).size, glyphs.length);
  assert.equal(glyphs.length, new Set('Helowrd').size);
});
