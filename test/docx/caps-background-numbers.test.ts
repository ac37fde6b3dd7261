/**
 * Run capitals (w:caps, w:smallCaps), the page colour (w:background) and list number formats, imported from real
 * .docx packages, rendered, and read back from the PDF with poppler (pdftotext, pdftotext -bbox, pdftoppm).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, renderPdf, type ImportWarning } from '../../server/engine/index.js';
import { pdfText } from '../helpers/pdf.js';
import { countPixels, near, raster, words } from '../engine/pdf/helpers.js';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { buildDocx, p, type DocxParts } from './build-docx.js';

async function renderDocx(parts: DocxParts): Promise<{ pdf: Uint8Array; warnings: ImportWarning[] }> {
  const result = compileTemplate({ kind: 'docx', bytes: buildDocx(parts) });
  assert.ok(result.ok, JSON.stringify(result));
  const rendered = await renderPdf(result.template, {});
  return { pdf: rendered.bytes, warnings: result.warnings };
}

test('all capitals: the text is drawn upper-cased, from direct formatting and from a style; the model keeps it as typed', async () => {
  const styles =
    '<w:style w:type="character" w:styleId="Shout"><w:name w:val="Shout"/><w:rPr><w:caps/></w:rPr></w:style>';
  const body =
    p('Hello world', '', '<w:caps/>') +
    '<w:p><w:r><w:rPr><w:rStyle w:val="Shout"/></w:rPr><w:t>styled words</w:t></w:r></w:p>' +
    '<w:p><w:r><w:rPr><w:rStyle w:val="Shout"/><w:caps w:val="0"/></w:rPr><w:t>switched off</w:t></w:r></w:p>';
  const result = compileTemplate({ kind: 'docx', bytes: buildDocx({ body, styles }) });
  assert.ok(result.ok);
  assert.match(JSON.stringify(result.template), /Hello world/);
  const { pdf, warnings } = await renderDocx({ body, styles });
  const text = pdfText(pdf);
  assert.match(text, /HELLO WORLD/);
  assert.match(text, /STYLED WORDS/);
  assert.match(text, /switched off/);
  assert.deepEqual(warnings, []);
});

test('small capitals: lower-case letters drawn as capitals at 80 % size, capitals at full size', async () => {
  const body = p('ABC def Ghi', '', '<w:smallCaps/><w:sz w:val="40"/>');
  const { pdf, warnings } = await renderDocx({ body });
  assert.match(pdfText(pdf), /ABC DEF GHI/);
  const all = words(pdf);
  const big = all.find((w) => w.text === 'ABC');
  const small = all.find((w) => w.text === 'DEF');
  assert.ok(big && small, JSON.stringify(all));
  const ratio = (small.yMax - small.yMin) / (big.yMax - big.yMin);
  assert.ok(ratio > 0.75 && ratio < 0.85, `small/full height ${ratio}`);
  // The small letters also advance less: "DEF" at 80 % is narrower than it would be at full size.
  const wideAll = words((await renderDocx({ body: p('ABC DEF GHI', '', '<w:sz w:val="40"/>') })).pdf);
  const fullDef = wideAll.find((w) => w.text === 'DEF');
  assert.ok(fullDef);
  const widthRatio = (small.xMax - small.xMin) / (fullDef.xMax - fullDef.xMin);
  assert.ok(widthRatio > 0.75 && widthRatio < 0.85, `small/full width ${widthRatio}`);
  assert.deepEqual(warnings, []);
});

function withBackground(parts: DocxParts, attrs: string, extra = ''): Uint8Array {
  const files = unzipSync(buildDocx(parts));
  files['word/document.xml'] = strToU8(strFromU8(files['word/document.xml']).replace('<w:body>', `<w:background ${attrs}>${extra}</w:background><w:body>`));
  return zipSync(files);
}

async function renderBytes(bytes: Uint8Array): Promise<{ pdf: Uint8Array; warnings: ImportWarning[] }> {
  const result = compileTemplate({ kind: 'docx', bytes });
  assert.ok(result.ok, JSON.stringify(result));
  return { pdf: (await renderPdf(result.template, {})).bytes, warnings: result.warnings };
}

const DISPLAY = '<w:displayBackgroundShape/>';
const BODY = `${p('first page')}<w:p><w:r><w:br w:type="page"/></w:r></w:p>${p('second page')}`;

test('page colour: every page is filled with w:background when settings.xml displays it, as LibreOffice prints it', async () => {
  const { pdf, warnings } = await renderBytes(withBackground({ body: BODY, settings: DISPLAY }, 'w:color="FFF2CC"'));
  assert.deepEqual(warnings, []);
  assert.match(pdfText(pdf), /second page/);
  for (const page of [1, 2]) {
    const r = raster(pdf, page, 10);
    for (const [x, y] of [[0, 0], [r.width - 1, r.height - 1], [Math.floor(r.width / 2), Math.floor(r.height / 2)]]) {
      assert.ok(near(r.rgb(x, y), [0xff, 0xf2, 0xcc], 6), `page ${page} (${x},${y}) is ${r.rgb(x, y).join(',')}`);
    }
  }
  // The text is drawn over the colour, not hidden by it.
  assert.match(pdfText(pdf, { page: 1 }), /first page/);
  const dark = countPixels(raster(pdf, 1, 72), 72, { x: 60, y: 60, w: 200, h: 40 }, (rgb) => rgb[0] < 100);
  assert.ok(dark > 20, `text pixels ${dark}`);
});

test('page colour: a theme colour is resolved; white, automatic or not displayed is no colour; a fill effect is reported', async () => {
  const theme = await renderBytes(withBackground({ body: BODY, settings: DISPLAY }, 'w:color="4472C4" w:themeColor="accent1" w:themeTint="33"'));
  const themed = raster(theme.pdf, 1, 10).rgb(0, 0);
  assert.ok(themed[2] > themed[0] && themed[0] < 250, `theme background ${themed.join(',')}`);
  for (const [attrs, settings] of [['w:color="FFFFFF"', DISPLAY], ['w:color="auto"', DISPLAY], ['w:color="FF0000"', '<w:zoom w:percent="100"/>']] as const) {
    const { pdf, warnings } = await renderBytes(withBackground({ body: BODY, settings }, attrs));
    assert.deepEqual(warnings, []);
    assert.ok(near(raster(pdf, 1, 10).rgb(0, 0), [255, 255, 255], 2), `${attrs} ${settings}`);
  }
  const fill = '<v:background id="_x0000_s1025" o:bwmode="white" fillcolor="#fff2cc" xmlns:o="urn:schemas-microsoft-com:office:office"><v:fill r:id="rId9" o:title="Paper" type="tile"/></v:background>';
  const { pdf, warnings } = await renderBytes(withBackground({ body: BODY, settings: DISPLAY }, 'w:color="FFF2CC"', fill));
  assert.deepEqual(warnings.map((w) => [w.code, w.location.element]), [['background_not_drawn', 'w:background']]);
  assert.ok(near(raster(pdf, 2, 10).rgb(0, 0), [0xff, 0xf2, 0xcc], 6));
});

/** A numbering part with one single-level list per format: numId = index + 1. */
function listsOf(formats: string[]): { numbering: string; body: (items: number) => string } {
  const numbering = formats.map((fmt, i) =>
    `<w:abstractNum w:abstractNumId="${i}"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="${fmt}"/><w:lvlText w:val="%1."/>` +
    '<w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum>').join('') +
    formats.map((_, i) => `<w:num w:numId="${i + 1}"><w:abstractNumId w:val="${i}"/></w:num>`).join('');
  const body = (items: number): string => formats.map((fmt, i) =>
    Array.from({ length: items }, (_, k) => p(`${fmt} item ${k + 1}`, `<w:numPr><w:ilvl w:val="0"/><w:numId w:val="${i + 1}"/></w:numPr>`)).join('')).join('');
  return { numbering, body };
}

test('number formats: ordinal, words, zero-padded, Roman, letters, Hebrew, Arabic, CJK and full-width labels', async () => {
  const formats = ['ordinal', 'ordinalText', 'cardinalText', 'decimalZero', 'upperRoman', 'lowerLetter', 'hebrew1', 'hebrew2', 'arabicAbjad',
    'chineseCounting', 'chineseCountingThousand', 'japaneseCounting', 'ideographDigital', 'decimalFullWidth', 'decimalEnclosedCircle', 'russianUpper'];
  const { numbering, body } = listsOf(formats);
  const { pdf, warnings } = await renderDocx({ body: body(3), numbering });
  assert.deepEqual(warnings, []);
  const lines = pdfText(pdf, { layout: true }).split('\n').map((l) => l.trim().replace(/\s+/g, ' ')).filter(Boolean);
  const label = (fmt: string, k: number): string => {
    const line = lines.find((l) => l.endsWith(`${fmt} item ${k}`));
    assert.ok(line, `no line for ${fmt} ${k}: ${lines.join(' | ')}`);
    return line.slice(0, line.length - `${fmt} item ${k}`.length).trim();
  };
  const expected: Record<string, string[]> = {
    ordinal: ['1st.', '2nd.', '3rd.'],
    ordinalText: ['First.', 'Second.', 'Third.'],
    cardinalText: ['One.', 'Two.', 'Three.'],
    decimalZero: ['01.', '02.', '03.'],
    upperRoman: ['I.', 'II.', 'III.'],
    lowerLetter: ['a.', 'b.', 'c.'],
    chineseCounting: ['一.', '二.', '三.'],
    chineseCountingThousand: ['一.', '二.', '三.'],
    japaneseCounting: ['一.', '二.', '三.'],
    ideographDigital: ['一.', '二.', '三.'],
    decimalFullWidth: ['１.', '２.', '３.'],
    decimalEnclosedCircle: ['①.', '②.', '③.'],
    russianUpper: ['А.', 'Б.', 'В.'],
  };
  for (const [fmt, labels] of Object.entries(expected)) {
    assert.deepEqual([1, 2, 3].map((k) => label(fmt, k)), labels, fmt);
  }
  // Right-to-left letters: pdftotext gives the letter (with the full stop on either side, and bidi marks; Arabic as its shaped presentation forms).
  for (const [fmt, letters] of [['hebrew1', ['א', 'ב', 'ג']], ['hebrew2', ['א', 'ב', 'ג']], ['arabicAbjad', ['أ', 'ب', 'ج']]] as const) {
    assert.deepEqual([1, 2, 3].map((k) => label(fmt, k).replace(/[.\u200e\u200f\u202a-\u202e]/g, '').normalize('NFKC')), letters, fmt);
  }
});

test('number formats: counters past the first few (teens, hundreds, Hebrew 15/16, CJK tens)', async () => {
  const { formatCounter } = await import('../../server/engine/pdf/layout/number-formats.js');
  const cases: Array<[string, number, string]> = [
    ['ordinal', 11, '11th'], ['ordinal', 12, '12th'], ['ordinal', 21, '21st'], ['ordinal', 102, '102nd'], ['ordinal', 113, '113th'],
    ['ordinalText', 12, 'Twelfth'], ['ordinalText', 20, 'Twentieth'], ['ordinalText', 21, 'Twenty-first'], ['ordinalText', 100, 'One hundredth'],
    ['cardinalText', 15, 'Fifteen'], ['cardinalText', 42, 'Forty-two'], ['cardinalText', 101, 'One hundred one'], ['cardinalText', 2000, 'Two thousand'],
    ['decimalZero', 9, '09'], ['decimalZero', 10, '10'], ['decimalZero', 123, '123'],
    ['upperRoman', 1994, 'MCMXCIV'], ['lowerLetter', 27, 'aa'],
    ['hebrew1', 10, 'י'], ['hebrew1', 15, 'טו'], ['hebrew1', 16, 'טז'], ['hebrew1', 21, 'כא'], ['hebrew1', 500, 'תק'], ['hebrew2', 23, 'אא'],
    ['chineseCounting', 10, '十'], ['chineseCounting', 11, '十一'], ['chineseCounting', 20, '二十'], ['chineseCounting', 101, '一百零一'],
    ['chineseCounting', 110, '一百一十'], ['chineseCountingThousand', 10001, '一万零一'], ['japaneseCounting', 101, '百一'],
    ['japaneseCounting', 15, '十五'], ['ideographDigital', 10, '一〇'], ['ideographTraditional', 3, '丙'], ['ideographZodiac', 12, '亥'],
    ['decimalFullWidth', 12, '１２'], ['decimalEnclosedCircle', 10, '⑩'], ['decimalEnclosedCircle', 11, '11'], ['aiueo', 2, 'イ'], ['iroha', 3, 'ハ'],
  ];
  for (const [fmt, n, want] of cases) assert.equal(formatCounter(n, fmt as Parameters<typeof formatCounter>[1]), want, `${fmt} ${n}`);
});

test('a list label takes the capitals of its paragraph: lowerLetter in an all-caps paragraph is drawn "A."', async () => {
  const { numbering, body } = listsOf(['lowerLetter']);
  const caps = body(2).replace(/<w:r><w:t /g, '<w:r><w:rPr><w:caps/></w:rPr><w:t ');
  const { pdf } = await renderDocx({ body: caps, numbering });
  const text = pdfText(pdf, { layout: true });
  assert.match(text, /A\.\s+LOWERLETTER ITEM 1/);
  assert.match(text, /B\.\s+LOWERLETTER ITEM 2/);
});

test('number formats the renderer cannot write are numbered with decimals and reported once per format', async () => {
  const { numbering, body } = listsOf(['hindiNumbers', 'thaiLetters', 'decimal']);
  const { pdf, warnings } = await renderDocx({ body: body(2), numbering });
  assert.deepEqual(warnings.map((w) => [w.code, w.location.part, w.location.element, w.count, w.message]), [
    ['number_format_unsupported', 'word/numbering.xml', 'w:numFmt', 4, '4 list items numbered in hindiNumbers/thaiLetters drawn with decimal numbers or the file\'s fallback format (the format is not supported)'],
  ]);
  assert.match(pdfText(pdf, { layout: true }), /2\.\s+hindiNumbers item 2/);
});

test('the .json format takes caps and smallCaps as run style properties', async () => {
  const { compileTemplate: compile } = await import('../../server/engine/index.js');
  const json = { docloom: 1, body: [{ type: 'paragraph', runs: [{ text: 'quiet words', caps: true }, { text: ' and small ones', smallCaps: true }] }] };
  const result = compile({ kind: 'json', bytes: new TextEncoder().encode(JSON.stringify(json)) });
  assert.ok(result.ok, JSON.stringify(result));
  assert.match(pdfText((await renderPdf(result.template, {})).bytes), /QUIET WORDS AND SMALL ONES/);
});

test('Word 2010+ custom formats in mc:AlternateContent: 001, α and Α are written; another one falls back with a warning', async () => {
  const custom = (id: number, format: string, fallback: string): string =>
    `<w:abstractNum w:abstractNumId="${id}"><w:lvl w:ilvl="0"><w:start w:val="1"/><mc:AlternateContent><mc:Choice Requires="w14">` +
    `<w:numFmt w:val="custom" w:format="${format}"/></mc:Choice><mc:Fallback><w:numFmt w:val="${fallback}"/></mc:Fallback></mc:AlternateContent>` +
    '<w:lvlText w:val="%1."/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum>';
  const formats: Array<[string, string]> = [['001, 002, 003, ...', 'decimal'], ['α, β, γ, ...', 'lowerLetter'], ['Α, Β, Γ, ...', 'upperLetter'], ['a-1, a-2, ...', 'lowerRoman']];
  const numbering = formats.map(([f, fb], i) => custom(i, f, fb)).join('') + formats.map((_, i) => `<w:num w:numId="${i + 1}"><w:abstractNumId w:val="${i}"/></w:num>`).join('');
  const body = formats.map((_, i) => [1, 2].map((k) => p(`list${i} item ${k}`, `<w:numPr><w:ilvl w:val="0"/><w:numId w:val="${i + 1}"/></w:numPr>`)).join('')).join('');
  const { pdf, warnings } = await renderDocx({ body, numbering });
  // Spaces aside: a label wider than the hanging indent ("001.") runs into the text in pdftotext's layout.
  const lines = pdfText(pdf, { layout: true }).split('\n').map((l) => l.replace(/\s+/g, ''));
  for (const want of ['001.list0item1', '002.list0item2', 'α.list1item1', 'β.list1item2', 'Α.list2item1', 'Β.list2item2', 'i.list3item1', 'ii.list3item2']) {
    assert.ok(lines.includes(want), `${want} in ${lines.join(' | ')}`);
  }
  assert.deepEqual(warnings.map((w) => [w.code, w.count, w.message]), [
    ['number_format_unsupported', 2, '2 list items numbered in custom "a-1, a-2, ..." drawn with decimal numbers or the file\'s fallback format (the format is not supported)'],
  ]);
});

test('a shallower level with no item yet shows its start value: "%1.%2" under a level 1 that starts at 5 reads "5.1"', async () => {
  // oxsdk__hyperlink's "General" headings: level 2 of lists whose level 1 starts at 5 and 6, no level-1 item before.
  const lvl = (ilvl: number, start: number, text: string): string =>
    `<w:lvl w:ilvl="${ilvl}"><w:start w:val="${start}"/><w:numFmt w:val="decimal"/><w:lvlText w:val="${text}"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="${720 * (ilvl + 1)}" w:hanging="720"/></w:pPr></w:lvl>`;
  const numbering =
    `<w:abstractNum w:abstractNumId="1">${lvl(0, 5, '%1')}${lvl(1, 1, '%1.%2')}${lvl(2, 3, '%1.%2.%3')}</w:abstractNum>` +
    '<w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num>' +
    '<w:num w:numId="2"><w:abstractNumId w:val="1"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="7"/></w:lvlOverride></w:num>';
  const item = (numId: number, ilvl: number, text: string): string => p(text, `<w:numPr><w:ilvl w:val="${ilvl}"/><w:numId w:val="${numId}"/></w:numPr>`);
  const body = item(1, 1, 'General') + item(1, 1, 'Future') + item(1, 2, 'Deeper') + item(1, 0, 'Chapter') + item(1, 1, 'Section') + item(2, 2, 'Overridden');
  const { pdf } = await renderDocx({ body, numbering });
  const lines = pdfText(pdf, { layout: true }).split('\n').map((l) => l.trim().replace(/\s+/g, ' ')).filter(Boolean);
  // Level 1 unused: its start (5); once used, its counter (5, then level 2 restarts); a level-1 start override (7).
  assert.deepEqual(lines, ['5.1 General', '5.2 Future', '5.2.3 Deeper', '5 Chapter', '5.1 Section', '7.1.3 Overridden']);
});
