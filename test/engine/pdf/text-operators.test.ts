/**
 * The painter writes a font's text operators itself after jsPDF's text() has drawn the first line in it
 * (draw/painter.ts): the encoding (WinAnsi escapes for a standard font, glyph ids for an embedded one), the
 * position, the colour and the font's bookkeeping (/W widths, ToUnicode) must come out as jsPDF writes them.
 * Read back from the PDF: its text, word positions, pixels and the font objects.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pdfText } from '../../helpers/pdf.js';
import { countPixels, model, near, para, raster, render, run, structure, words } from './helpers.js';

const STANDARD_LINES = ['Net (after tax) \\ total: 100 € – paid', 'Second line (also Helvetica) with [brackets]', 'Third: naïve café, 50 %'];
const EMBEDDED_LINES = ['Привет (мир) \\ слово', 'Ещё строка: съешь же этих булок', 'Latin in Carlito (x) — end'];

async function sample(): Promise<Uint8Array> {
  return render(
    model([
      ...STANDARD_LINES.map((t) => para(t)),
      ...EMBEDDED_LINES.map((t) => para(t, {}, { font: 'Calibri' })),
      para([run('Red words here', { color: '#FF0000', size: 20 })]),
      para([run('Blue words here', { color: '#0000FF', size: 20, font: 'Calibri' })]),
    ]),
  );
}

test('text in standard and embedded fonts reads back exactly, escapes and all', async () => {
  const text = pdfText(await sample());
  for (const line of [...STANDARD_LINES, ...EMBEDDED_LINES, 'Red words here', 'Blue words here']) assert.ok(text.includes(line), `missing: ${line}\n${text}`);
});

test('every line starts at the left margin, one under the other', async () => {
  const all = words(await sample());
  const firsts = [...STANDARD_LINES, ...EMBEDDED_LINES].map((l) => l.split(' ')[0]).map((w) => all.find((x) => x.text === w));
  let lastY = -1;
  for (const w of firsts) {
    assert.ok(w, 'first word found');
    assert.ok(Math.abs(w.xMin - 72) < 0.5, `${w.text} starts at ${w.xMin}`);
    assert.ok(w.yMin > lastY + 5, `${w.text} below the previous line (${w.yMin} after ${lastY})`);
    lastY = w.yMin;
  }
});

test('colours reach the page: red and blue text is drawn in red and blue', async () => {
  const bytes = await sample();
  const all = words(bytes);
  const r = raster(bytes, 1, 144);
  for (const [word, rgb] of [['Red', [255, 0, 0]], ['Blue', [0, 0, 255]]] as const) {
    const w = all.find((x) => x.text === word)!;
    const box = { x: w.xMin, y: w.yMin, w: w.xMax - w.xMin, h: w.yMax - w.yMin };
    assert.ok(countPixels(r, 144, box, (p) => near(p, [...rgb] as [number, number, number], 60)) > 20, `${word} drawn in its colour`);
  }
});

test('an embedded font lists each glyph drawn once in /W and in its ToUnicode map', async () => {
  const qdf = structure(await sample());
  const objects = new Map<string, string>();
  for (const m of qdf.matchAll(/^(\d+) 0 obj\n([\s\S]*?)\nendobj/gm)) objects.set(m[1], m[2]);
  const type0 = [...objects.values()].filter((o) => o.includes('/Subtype /Type0'));
  assert.ok(type0.length >= 1, 'an embedded font');
  const resources = /\/Font <<([^>]*)>>/.exec(qdf)?.[1] ?? '';
  const drawn = glyphsDrawn(objects, resources);
  assert.ok(drawn.size >= 1, 'text drawn in an embedded font');
  // qpdf --qdf writes one dictionary entry or array element per line.
  let checked = 0;
  for (const [name, glyphs] of drawn) {
    const ref = new RegExp(`/${name}\\s+(\\d+) 0 R`).exec(resources)?.[1];
    assert.ok(ref, `font ${name} in the page resources`);
    const font = objects.get(ref)!;
    const descendant = objects.get(/\/DescendantFonts \[\s*(\d+) 0 R\s*\]/.exec(font)![1])!;
    const widths = /\/W \[([\s\S]*?)\n {2}\]/.exec(descendant)![1];
    const listed = [...widths.matchAll(/(\d+)\s+\[\s*\d+\s*\]/g)].map((m) => Number(m[1]));
    assert.equal(new Set(listed).size, listed.length, `${name}: no glyph listed twice in /W`);
    const cmap = objects.get(/\/ToUnicode\s+(\d+) 0 R/.exec(font)![1])!;
    for (const g of glyphs) {
      assert.ok(listed.includes(g), `${name}: glyph ${g} has a width`);
      assert.ok(cmap.includes(`<${g.toString(16).padStart(4, '0')}>`), `${name}: glyph ${g} has a ToUnicode entry`);
      checked++;
    }
  }
  assert.ok(checked > 30, `glyphs checked: ${checked}`);
});

test('glyph codes whose bytes are a parenthesis, a backslash, CR or LF are escaped and read back', async () => {
  // A subset numbers its glyphs in the order the text first uses them: a hundred distinct characters in one
  // embedded font reach glyph ids 10 (LF), 13 (CR), 40 and 41 (parentheses) and 92 (backslash).
  let chars = '';
  for (let c = 0x21; c < 0x7f; c++) chars += String.fromCharCode(c);
  for (let c = 0x410; c < 0x430; c++) chars += String.fromCharCode(c);
  const lines = [chars.slice(0, 60), chars.slice(60, 120), chars.slice(120)];
  // The lines twice: the first text in a font is written by jsPDF's own text() (hex), the rest by the painter.
  const bytes = await render(model([...lines, ...lines].map((t) => para(t, {}, { font: 'Calibri' }))));
  assert.equal(pdfText(bytes).replace(/\s+/g, ''), [...lines, ...lines].join(''), 'every character reads back');
  const qdf = structure(bytes);
  const objects = new Map<string, string>();
  for (const m of qdf.matchAll(/^(\d+) 0 obj\n([\s\S]*?)\nendobj/gm)) objects.set(m[1], m[2]);
  const strings = glyphStrings(objects, /\/Font <<([^>]*)>>/.exec(qdf)?.[1] ?? '').map((s) => s.glyphs.join(' '));
  const glyphs = new Set(strings.flatMap((s) => s.split(' ').map(Number)));
  for (const g of [10, 13, 40, 41, 92]) assert.ok(glyphs.has(g), `glyph ${g} drawn`);
  // qpdf reads the strings as a PDF reader does (an unescaped CR in a literal string would come back as LF).
  const half = strings.length / 2;
  assert.ok(Number.isInteger(half) && half >= 3, `${strings.length} strings`);
  assert.deepEqual(strings.slice(half), strings.slice(0, half), 'the painter wrote the same glyph codes as jsPDF');
});

/** The glyph strings drawn in embedded (Type0) fonts, in content order, each with its font resource name. */
function glyphStrings(objects: Map<string, string>, resources: string): Array<{ font: string; glyphs: number[] }> {
  const type0 = (name: string): boolean => {
    const ref = new RegExp(`/${name}\\s+(\\d+) 0 R`).exec(resources)?.[1];
    return ref !== undefined && (objects.get(ref) ?? '').includes('/Subtype /Type0');
  };
  const out: Array<{ font: string; glyphs: number[] }> = [];
  for (const body of objects.values()) {
    let font = '';
    // qpdf --qdf writes a string with bytes outside printable ASCII as hex, the others as literals.
    for (const m of body.matchAll(/\/(F\d+) [\d.]+ Tf|<([0-9a-f]*)>\s*Tj|\(((?:\\[\s\S]|[^\\)])*)\)\s*Tj/g)) {
      if (m[1]) {
        font = m[1];
        continue;
      }
      if (!type0(font)) continue;
      const bytes: number[] = [];
      if (m[2] !== undefined) for (let i = 0; i < m[2].length; i += 2) bytes.push(parseInt(m[2].slice(i, i + 2), 16));
      else {
        const escapes: Record<string, number> = { n: 10, r: 13, '(': 40, ')': 41, '\\': 92 };
        for (let i = 0; i < m[3].length; i++) {
          if (m[3][i] === '\\') bytes.push(escapes[m[3][++i]] ?? m[3].charCodeAt(i));
          else bytes.push(m[3].charCodeAt(i));
        }
      }
      const glyphs: number[] = [];
      for (let i = 0; i + 1 < bytes.length; i += 2) glyphs.push(bytes[i] * 256 + bytes[i + 1]);
      out.push({ font, glyphs });
    }
  }
  return out;
}

/** The glyph ids drawn per embedded (Type0) font resource name. */
function glyphsDrawn(objects: Map<string, string>, resources: string): Map<string, Set<number>> {
  const drawn = new Map<string, Set<number>>();
  for (const { font, glyphs } of glyphStrings(objects, resources)) {
    const set = drawn.get(font) ?? new Set<number>();
    for (const g of glyphs) set.add(g);
    drawn.set(font, set);
  }
  return drawn;
}
