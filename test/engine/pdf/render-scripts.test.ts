/** Text beyond Latin-1: font per script, subsetting, right-to-left order, Arabic shaping, sizes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pdfFonts, pdfText, squash } from '../../helpers/pdf.js';
import { renderModel } from '../../../server/engine/pdf/render.js';
import { cyrillicInvoice, invoiceModel, latinInvoice } from '../../../bench/engine-invoice-model.js';
import { assertValidPdf, model, para, render, run, word, words } from './helpers.js';

/** pdftotext marks right-to-left runs with bidi controls and keeps Arabic presentation forms: normalise both. */
function plain(text: string): string {
  return squash(text.replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').normalize('NFKC'));
}

test('Cyrillic and Greek: extracted exactly, drawn with Liberation Sans for Arial text, only used glyphs embedded', async () => {
  const text = 'Съешь же ещё этих мягких французских булок. Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.';
  const bytes = await render(model([para(text, {}, { font: 'Arial' })]));
  assertValidPdf(bytes);
  assert.equal(plain(pdfText(bytes)), text);
  const fonts = pdfFonts(bytes);
  const liberation = fonts.find((f) => /^[A-Z]{6}\+LiberationSans-Regular$/.test(f.name));
  assert.ok(liberation && liberation.embedded && liberation.subset, fonts.map((f) => f.name).join(', '));
  assert.ok(bytes.length < 30_000, `one line of Cyrillic is small: ${bytes.length} bytes`);
});

test('Hebrew is drawn right-to-left and extracted in reading order', async () => {
  const bytes = await render(model([para('Start שלום עולם end')]));
  const fonts = pdfFonts(bytes).map((f) => f.name);
  // Standing in for a family without Hebrew: DejaVu Sans (a text face's line height), not Noto Sans Hebrew.
  assert.ok(fonts.some((n) => /\+DejaVuSans$/.test(n)) && !fonts.some((n) => /NotoSansHebrew/.test(n)), fonts.join(', '));
  // Reading (logical) order. pdftotext attaches the space after a right-to-left run to the run's start
  // ("Start שלום עולםend"), a known trait of its bidi handling: compare without spaces at that seam.
  assert.match(plain(pdfText(bytes)), /^Start שלום עולם ?end$/);
  const w = words(bytes);
  // pdftotext -bbox lists glyphs as drawn, left to right: each Hebrew word comes out reversed.
  const drawn = (s: string): string => [...s].reverse().join('');
  // Visual order: "עולם" (the second word) is left of "שלום".
  assert.ok(word(w, drawn('עולם')).xMin < word(w, drawn('שלום')).xMin, 'right-to-left');
  assert.ok(word(w, 'Start').xMax < word(w, drawn('עולם')).xMin && word(w, drawn('שלום')).xMax < word(w, 'end').xMin, 'embedded in the line');
});

test('Arabic is shaped (presentation forms) and right-to-left; an rtl paragraph is right-aligned', async () => {
  const text = 'مرحبا بالعالم';
  const bytes = await render(model([para(text, { rtl: true })]));
  const fonts = pdfFonts(bytes).map((f) => f.name);
  assert.ok(fonts.some((n) => /\+DejaVuSans$/.test(n)) && !fonts.some((n) => /NotoSansArabic/.test(n)), fonts.join(', '));
  const extracted = pdfText(bytes);
  // Shaped (drawn as contextual forms), extracted as the letters typed: the ToUnicode map names the letters.
  assert.doesNotMatch(extracted, /[\ufb50-\ufdff\ufe70-\ufefc]/);
  assert.equal(extracted.replace(/[\u200e\u200f\u202a-\u202e\s]+/g, ' ').trim(), text);
  const w = words(bytes);
  assert.ok(Math.max(...w.map((x) => x.xMax)) > 595.28 - 72 - 1, 'right-aligned');
});

test('CJK text uses Droid Sans Fallback and wraps between characters', async () => {
  const text = '中文字体测试，'.repeat(30);
  const bytes = await render(model([para(text)]));
  const fonts = pdfFonts(bytes).map((f) => f.name);
  assert.ok(fonts.some((n) => /\+DroidSansFallbackFull$/.test(n)), fonts.join(', '));
  assert.equal(plain(pdfText(bytes)).replace(/ /g, ''), text.normalize('NFKC'));
  const lines = new Set(words(bytes).map((x) => Math.round(x.yMin)));
  assert.ok(lines.size >= 3, `wrapped onto ${lines.size} lines`);
  // Inside the margin, but for a full-width comma that may hang past it (one em at most).
  for (const x of words(bytes)) assert.ok(x.xMax <= 595.28 - 72 + 0.5 || (x.text.endsWith('，') && x.xMax <= 595.28 - 72 + 12.5), `inside the margin: ${x.text} ends at ${x.xMax}`);
});

test('mixed scripts in one line, emoji and unsupported characters drawn as a box, nothing lost around them', async () => {
  const bytes = await render(model([para([run('Latin Кириллица Ελληνικά עברית عربي 漢字 '), run('emoji 😀👍🏽 '), run('end', { bold: true })])]));
  assertValidPdf(bytes);
  const t = plain(pdfText(bytes));
  for (const part of ['Latin', 'Кириллица', 'Ελληνικά', 'עברית', 'عربي', '漢字', 'emoji', 'end']) assert.ok(t.includes(part), `"${part}" in "${t}"`);
  // The page draws a box per emoji; the text layer keeps the emoji (issue #12 item 6; the skin tone joins its emoji).
  assert.match(t, /emoji 😀👍 end/);
});

test('size targets: one-page Latin invoice < 50 KB, Cyrillic < 100 KB, fonts subset', async () => {
  const latin = await renderModel(invoiceModel(latinInvoice()), { test: false });
  const cyrillic = await renderModel(invoiceModel(cyrillicInvoice()), { test: false });
  assert.equal(latin.pages, 1);
  assert.equal(cyrillic.pages, 1);
  assert.ok(latin.bytes.length < 50 * 1024, `Latin ${latin.bytes.length}`);
  assert.ok(cyrillic.bytes.length < 100 * 1024, `Cyrillic ${cyrillic.bytes.length}`);
  assert.ok(pdfFonts(latin.bytes).every((f) => !f.embedded), 'the Latin invoice embeds no font');
  const cyrFonts = pdfFonts(cyrillic.bytes).filter((f) => f.embedded);
  assert.ok(cyrFonts.length > 0 && cyrFonts.every((f) => f.subset), 'embedded fonts are subsets');
  const text = squash(pdfText(cyrillic.bytes));
  assert.ok(text.includes('Консультационные услуги, этап 20 — «проект 20»'), 'Cyrillic text extracts');
  assert.ok(text.includes('43 050,00 ₽'), 'rouble sign (from DejaVu Sans) extracts');
});
