/** Styled runs and paragraph formatting, checked on word positions, fonts and pixels of the real PDF. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pdfFonts, pdfText, squash } from '../../helpers/pdf.js';
import { A4, countPixels, model, near, para, raster, render, run, structure, word, words } from './helpers.js';

const LEFT = 72;
const RIGHT = A4.width - 72;

test('families map to standard PDF fonts or to metric-compatible bundled fonts, embedded as subsets', async () => {
  const bytes = await render(model([
    para([run('Arial ', { font: 'Arial' }), run('bold ', { font: 'Arial', bold: true }), run('italic ', { font: 'Helvetica', italic: true }), run('both', { font: 'Arial', bold: true, italic: true })]),
    para([run('Times ', { font: 'Times New Roman' }), run('Courier ', { font: 'Courier New' }), run('Unknown', { font: 'Comic Sans MS' })]),
    para([run('Calibri ', { font: 'Calibri' }), run('Cambria', { font: 'Cambria', bold: true })]),
  ]));
  const fonts = pdfFonts(bytes);
  const names = fonts.map((f) => f.name);
  for (const std of ['Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique', 'Helvetica-BoldOblique', 'Times-Roman', 'Courier']) {
    assert.ok(names.includes(std), `${std} in ${names.join(', ')}`);
  }
  const carlito = fonts.find((f) => /\+Carlito-Regular$/.test(f.name));
  const caladea = fonts.find((f) => /\+Caladea-Bold$/.test(f.name));
  assert.ok(carlito && carlito.embedded && carlito.subset, `Carlito subset embedded: ${names.join(', ')}`);
  assert.ok(caladea && caladea.embedded && caladea.subset, `Caladea bold subset embedded: ${names.join(', ')}`);
  // Standard fonts are never embedded.
  assert.ok(fonts.filter((f) => !f.name.includes('+')).every((f) => !f.embedded));
  assert.equal(squash(pdfText(bytes)), 'Arial bold italic both Times Courier Unknown Calibri Cambria');
});

test('size, colour, highlight, underline, strike, super- and subscript', async () => {
  const bytes = await render(model([
    para([run('Small', { size: 8 }), run(' Large', { size: 24 })]),
    para([run('Red', { color: '#ff0000', size: 30 }), run(' Marked', { highlight: '#ffff00', size: 30 })]),
    para([run('Under', { underline: true, size: 30, color: '#0000ff' }), run(' Struck', { strike: true, size: 30, color: '#00aa00' })]),
    para([run('E=mc', { size: 20 }), run('2', { size: 20, vertAlign: 'superscript' }), run(' H', { size: 20 }), run('2', { size: 20, vertAlign: 'subscript' }), run('O', { size: 20 })]),
  ]));
  const w = words(bytes);
  const small = word(w, 'Small');
  const large = word(w, 'Large');
  assert.ok((large.yMax - large.yMin) / (small.yMax - small.yMin) > 2.5, 'large text is three times taller');

  const dpi = 144;
  const r = raster(bytes, 1, dpi);
  const red = word(w, 'Red');
  const box = (x: typeof red) => ({ x: x.xMin, y: x.yMin, w: x.xMax - x.xMin, h: x.yMax - x.yMin });
  assert.ok(countPixels(r, dpi, box(red), (p) => near(p, [255, 0, 0], 40)) > 50, 'red glyph pixels');
  const marked = word(w, 'Marked');
  assert.ok(countPixels(r, dpi, box(marked), (p) => near(p, [255, 255, 0], 30)) > 200, 'yellow highlight behind the word');

  // Underline: a row of blue pixels spanning the word just below its baseline; strike: green through the middle.
  const under = word(w, 'Under');
  const k = dpi / 72;
  const rowFull = (y: number, x0: number, x1: number, target: [number, number, number]) => {
    let n = 0;
    let total = 0;
    for (let x = Math.ceil(x0 * k) + 2; x < Math.floor(x1 * k) - 2; x++, total++) if (near(r.rgb(x, y), target, 60)) n++;
    return n / total;
  };
  let underlineRow = 0;
  for (let y = Math.floor(under.yMin * k); y <= Math.ceil(under.yMax * k) + 4; y++) underlineRow = Math.max(underlineRow, rowFull(y, under.xMin, under.xMax, [0, 0, 255]));
  assert.ok(underlineRow > 0.95, `underline spans the word (${underlineRow})`);
  const struck = word(w, 'Struck');
  const mid = Math.round(((struck.yMin + struck.yMax) / 2) * k);
  let strikeRow = 0;
  for (let y = mid - 8; y <= mid + 8; y++) strikeRow = Math.max(strikeRow, rowFull(y, struck.xMin, struck.xMax, [0, 170, 0]));
  assert.ok(strikeRow > 0.95, `strike line spans the word (${strikeRow})`);

  const two = w.filter((x) => x.text === '2');
  const e = word(w, 'E=mc');
  assert.ok(two.length === 2, `two "2"s: ${w.map((x) => x.text).join(' ')}`);
  const [sup, sub] = two.sort((a, b) => a.xMin - b.xMin);
  assert.ok(sup.yMin < e.yMin, 'superscript raised');
  assert.ok(sub.yMax > word(w, 'O').yMax, 'subscript lowered');
  assert.ok(sup.yMax - sup.yMin < (e.yMax - e.yMin) * 0.8, 'superscript smaller');
});

test('hyperlinks become clickable link annotations over the linked words', async () => {
  const bytes = await render(model([para([run('Visit '), run('our website', { link: 'https://example.com/path?q=1', underline: true, color: '#0000ee' }), run(' or '), run('mail us', { link: 'mailto:info@example.com' })])]));
  const s = structure(bytes);
  assert.match(s, /\/Subtype \/Link/);
  assert.ok(s.includes('(https://example.com/path?q=1)'), 'URI of the first link');
  assert.ok(s.includes('(mailto:info@example.com)'), 'URI of the mail link');
  const rects = [...s.matchAll(/\/Rect \[([^\]]+)\]/g)].map((m) => {
    const [x1, y1, x2, y2] = m[1].trim().split(/\s+/).map(Number);
    // PDF y runs up from the bottom of the page; words() measure from the top.
    return { left: Math.min(x1, x2), right: Math.max(x1, x2), top: A4.height - Math.max(y1, y2), bottom: A4.height - Math.min(y1, y2) };
  });
  const all = words(bytes);
  for (const text of ['our', 'website', 'mail']) {
    const w = word(all, text);
    assert.ok(rects.some((r) => r.left <= w.xMin + 1 && r.right >= w.xMax - 1 && r.top <= w.yMin + 1 && r.bottom >= w.yMax - 1),
      `a link rectangle covers "${text}": ${JSON.stringify(rects)}`);
  }
  const visit = word(all, 'Visit');
  assert.ok(!rects.some((r) => r.left <= visit.xMin && r.right >= visit.xMax), 'unlinked text has no link');
});

test('alignment: left, centre, right and justify', async () => {
  const long = 'Justified text spreads its words so that every line but the last fills the whole width of the column exactly. '.repeat(3);
  const bytes = await render(model([
    para('Lefty'),
    para('Middle', { align: 'center' }),
    para('Righty', { align: 'right' }),
    para(long, { align: 'justify' }),
  ]));
  const w = words(bytes);
  assert.ok(Math.abs(word(w, 'Lefty').xMin - LEFT) < 0.5);
  const mid = word(w, 'Middle');
  assert.ok(Math.abs((mid.xMin + mid.xMax) / 2 - A4.width / 2) < 1, `centred: ${mid.xMin}–${mid.xMax}`);
  assert.ok(Math.abs(word(w, 'Righty').xMax - RIGHT) < 1);
  // Every justified line except the last ends at the right margin.
  const justified = w.filter((x) => x.yMin > word(w, 'Righty').yMax);
  const lines = new Map<number, number>();
  for (const x of justified) lines.set(Math.round(x.yMin), Math.max(lines.get(Math.round(x.yMin)) ?? 0, x.xMax));
  const ends = [...lines.entries()].sort((a, b) => a[0] - b[0]).map(([, e]) => e);
  assert.ok(ends.length >= 3, `several justified lines: ${ends.length}`);
  for (const e of ends.slice(0, -1)) assert.ok(Math.abs(e - RIGHT) < 1, `justified line ends at ${e}`);
  assert.ok(ends[ends.length - 1] < RIGHT - 20, 'the last line is not stretched');
});

test('indents: left, right, first-line and hanging; spacing before and after; line height', async () => {
  const text = 'word '.repeat(80);
  const bytes = await render(model([
    para(`Indented ${text}`, { indentLeft: 36, indentRight: 72 }),
    para(`Firstline ${text}`, { indentFirstLine: 36, spaceBefore: 30 }),
    para(`Hanging ${text}`, { indentLeft: 36, indentFirstLine: -36, spaceAfter: 30 }),
    para('Single one'),
    para('Single two'),
    para('Double one', { lineHeight: 2 }),
    para('Double two', { lineHeight: 2 }),
  ]));
  const w = words(bytes);
  const indented = w.filter((x) => x.yMin < word(w, 'Firstline').yMin);
  assert.ok(Math.abs(word(w, 'Indented').xMin - (LEFT + 36)) < 0.5);
  assert.ok(indented.every((x) => x.xMin >= LEFT + 35.5 && x.xMax <= RIGHT - 72 + 0.5), 'left and right indent respected');
  assert.ok(Math.abs(word(w, 'Firstline').xMin - (LEFT + 36)) < 0.5, 'first line indented');
  const firstlineSecond = w.find((x) => x.yMin > word(w, 'Firstline').yMax && x.yMin < word(w, 'Hanging').yMin);
  assert.ok(firstlineSecond && Math.abs(firstlineSecond.xMin - LEFT) < 0.5, 'following lines at the margin');
  assert.ok(Math.abs(word(w, 'Hanging').xMin - LEFT) < 0.5, 'hanging first line at the margin');
  const hangingSecond = w.find((x) => x.yMin > word(w, 'Hanging').yMax && x.yMin < word(w, 'Single').yMin);
  assert.ok(hangingSecond && Math.abs(hangingSecond.xMin - (LEFT + 36)) < 0.5, 'following lines indented');
  // Space before: the gap above "Firstline" is 30 pt larger than a line step.
  const lastIndented = indented.reduce((a, b) => (b.yMin > a.yMin ? b : a));
  const step = 11 * 1.15;
  assert.ok(Math.abs(word(w, 'Firstline').yMin - lastIndented.yMin - (step + 30)) < 1.5, 'space before');
  const s1 = word(w, 'one');
  const s2 = word(w, 'two');
  const d1 = w.filter((x) => x.text === 'one')[1];
  const d2 = w.filter((x) => x.text === 'two')[1];
  assert.ok(Math.abs(s2.yMin - s1.yMin - step) < 0.5, `single spacing ${s2.yMin - s1.yMin}`);
  assert.ok(Math.abs(d2.yMin - d1.yMin - 2 * step) < 0.5, `double spacing ${d2.yMin - d1.yMin}`);
});

test('tabs: default stops every half inch, explicit left/centre/right/decimal stops, leaders', async () => {
  const bytes = await render(model([
    para('Price'),
    para('A\tB\tC'),
    para('Name\tPrice\t12.50', {
      tabs: [{ pos: 200, align: 'center' }, { pos: 400, align: 'decimal', leader: 'dot' }],
    }),
    para('Total\tEnd', { tabs: [{ pos: RIGHT - LEFT, align: 'right', leader: 'dot' }] }),
  ]));
  const w = words(bytes);
  assert.ok(Math.abs(word(w, 'B').xMin - (LEFT + 36)) < 0.5, `B at the first default stop: ${word(w, 'B').xMin}`);
  assert.ok(Math.abs(word(w, 'C').xMin - (LEFT + 72)) < 0.5, 'C at the second');
  // The dot leader after "Price" starts where it ends (one word for pdftotext): its width is the lone word's.
  const priceWidth = word(w, 'Price').xMax - word(w, 'Price').xMin;
  const price = w.find((x) => x.text.startsWith('Price.'))!;
  assert.ok(Math.abs(price.xMin + priceWidth / 2 - (LEFT + 200)) < 1, 'centred on its stop');
  // Decimal: the "." sits at the stop.
  const amount = w.find((x) => x.text.endsWith('12.50'))!;
  const dotX = amount.xMin + ((amount.xMax - amount.xMin) * 2) / 5;
  assert.ok(Math.abs(dotX - (LEFT + 400)) < 3, `decimal point near the stop (${dotX})`);
  assert.ok(Math.abs(word(w, 'End').xMax - RIGHT) < 0.5, 'right tab at the margin');
  assert.match(pdfText(bytes), /Total\s*\.{10,}\s*End/, 'dot leader');
});

test('line breaks, word wrapping, and words longer than a line broken between characters', async () => {
  const huge = 'X'.repeat(400);
  const bytes = await render(model([para('Line one\nLine two'), para(huge), para('after')]));
  const w = words(bytes);
  const one = w.filter((x) => x.text === 'Line');
  assert.ok(one.length === 2 && one[1].yMin > one[0].yMin, 'a line break starts a new line');
  const pieces = w.filter((x) => /^X+$/.test(x.text));
  assert.ok(pieces.length >= 5, `the long word spans several lines (${pieces.length})`);
  assert.equal(pieces.reduce((n, x) => n + x.text.length, 0), 400, 'no character lost');
  for (const p of pieces) assert.ok(p.xMax <= RIGHT + 0.5, `piece inside the margin (${p.xMax})`);
});

test('paragraph shading and borders', async () => {
  const bytes = await render(model([
    para('Shaded paragraph', { shading: '#ccddff' }),
    para('Bordered paragraph', { borders: { top: { width: 2, color: '#ff0000' }, bottom: { width: 2, color: '#ff0000' } }, spaceBefore: 20 }),
  ]));
  const dpi = 72;
  const r = raster(bytes, 1, dpi);
  const w = words(bytes);
  const shaded = word(w, 'Shaded');
  // Shading spans the column, also right of the text.
  assert.ok(countPixels(r, dpi, { x: 400, y: shaded.yMin, w: 100, h: shaded.yMax - shaded.yMin }, (p) => near(p, [0xcc, 0xdd, 0xff], 10)) > 100);
  const bordered = word(w, 'Bordered');
  assert.ok(countPixels(r, dpi, { x: 100, y: bordered.yMin - 6, w: 300, h: 6 }, (p) => near(p, [255, 0, 0], 60)) > 200, 'top border');
  assert.ok(countPixels(r, dpi, { x: 100, y: bordered.yMax, w: 300, h: 8 }, (p) => near(p, [255, 0, 0], 60)) > 200, 'bottom border');
});
