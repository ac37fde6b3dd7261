/**
 * Right-to-left and East Asian text imported from real .docx packages, rendered, and read back from the PDF with
 * poppler (pdftotext -bbox for positions, pdffonts for the faces): direction from a style or docDefaults,
 * mirrored alignment and indents, w:bidiVisual tables, breaks between ideographs with kinsoku, the eastAsia slot.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { compileTemplate, renderPdf } from '../../server/engine/index.js';
import { pdfFonts, pdfText } from '../helpers/pdf.js';
import { words, type Word } from '../engine/pdf/helpers.js';
import { buildDocx, p, type DocxParts } from './build-docx.js';
import { corpusFile, pdfWords } from './static-words.js';
import { docxPages, textBoxes } from '../engine/pdf/boxes.js';

/** DEFAULT_SECT: A4 with 1-inch margins. */
const LEFT = 72;
const RIGHT = 595.3 - 72;

async function renderDocx(parts: DocxParts): Promise<Uint8Array> {
  const result = compileTemplate({ kind: 'docx', bytes: buildDocx(parts) });
  assert.ok(result.ok, JSON.stringify(result));
  return (await renderPdf(result.template, {})).bytes;
}

/** pdftotext -bbox lists right-to-left glyphs as drawn, left to right: a Hebrew word comes out reversed. */
const drawn = (s: string): string => [...s].reverse().join('');

function find(all: Word[], text: string): Word {
  const w = all.find((x) => x.text === text);
  assert.ok(w, `"${text}" not among: ${all.map((x) => x.text).join(' ')}`);
  return w;
}

const RTL_STYLE = '<w:style w:type="paragraph" w:styleId="Rtl"><w:name w:val="Rtl"/><w:pPr><w:bidi/></w:pPr></w:style>';

test('right-to-left from a paragraph style: right-aligned, words in visual order; jc left and ind left are its start', async () => {
  const body =
    p('שלום עולם', '<w:pStyle w:val="Rtl"/>') +
    // In a right-to-left paragraph "left" means the start side: right-aligned, indented an inch from the right.
    p('בוקר טוב', '<w:pStyle w:val="Rtl"/><w:jc w:val="left"/><w:ind w:left="1440"/>') +
    p('ערב טוב', '<w:pStyle w:val="Rtl"/><w:jc w:val="right"/>') +
    p('לילה טוב');
  const all = words(await renderDocx({ body, styles: RTL_STYLE }));
  const hello = find(all, drawn('שלום'));
  const world = find(all, drawn('עולם'));
  // Visual order: the second word is drawn left of the first; the line ends at the right margin.
  assert.ok(world.xMax < hello.xMin, `עולם at ${world.xMin}, שלום at ${hello.xMin}`);
  assert.ok(Math.abs(hello.xMax - RIGHT) < 1, `right edge ${hello.xMax}, margin ${RIGHT}`);
  const morning = find(all, drawn('בוקר'));
  assert.ok(Math.abs(morning.xMax - (RIGHT - 72)) < 1, `indented from the right: ${morning.xMax}`);
  // jc right in a right-to-left paragraph is its end: the left.
  const evening = find(all, drawn('ערב'));
  assert.ok(evening.xMin > LEFT && all.filter((w) => w.text === drawn('טוב')).some((w) => Math.abs(w.xMin - LEFT) < 1), `ערב at ${evening.xMin}`);
  // The same Hebrew in a paragraph without the style: a left-to-right paragraph, left-aligned.
  const night = find(all, drawn('לילה'));
  assert.ok(night.xMin > LEFT + 10 && night.xMin < LEFT + 60, `לילה at ${night.xMin}`);
});

test('right-to-left from docDefaults: every paragraph is right-aligned', async () => {
  const styles = '<w:docDefaults><w:pPrDefault><w:pPr><w:bidi/></w:pPr></w:pPrDefault></w:docDefaults>';
  const all = words(await renderDocx({ body: p('שלום עולם'), styles }));
  assert.ok(Math.abs(find(all, drawn('שלום')).xMax - RIGHT) < 1);
  assert.ok(find(all, drawn('עולם')).xMax < find(all, drawn('שלום')).xMin);
});

test('a w:bidiVisual table has its first column on the right, at the right margin', async () => {
  const cell = (w: number, text: string): string =>
    `<w:tc><w:tcPr><w:tcW w:w="${w}" w:type="dxa"/></w:tcPr>${p(text)}</w:tc>`;
  const table = (visual: boolean): string =>
    `<w:tbl><w:tblPr>${visual ? '<w:bidiVisual/>' : ''}<w:tblW w:w="7000" w:type="dxa"/></w:tblPr>` +
    '<w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="3000"/><w:gridCol w:w="2000"/></w:tblGrid>' +
    `<w:tr>${cell(2000, 'first')}${cell(3000, 'second')}${cell(2000, 'third')}</w:tr>` +
    `<w:tr><w:tc><w:tcPr><w:tcW w:w="5000" w:type="dxa"/><w:gridSpan w:val="2"/></w:tcPr>${p('wide')}</w:tc>${cell(2000, 'last')}</w:tr></w:tbl>`;
  const all = words(await renderDocx({ body: table(true) + p('') }));
  const [first, second, third] = ['first', 'second', 'third'].map((t) => find(all, t));
  assert.ok(first.xMin > second.xMax && second.xMin > third.xMax, `first ${first.xMin}, second ${second.xMin}, third ${third.xMin}`);
  // 100 pt columns: the first column's cell is the rightmost 100 pt of the text area.
  assert.ok(first.xMin > RIGHT - 100 && first.xMax < RIGHT, `first at ${first.xMin}–${first.xMax}`);
  // The spanning cell covers the first two columns: on the right too, left of it the last column.
  assert.ok(find(all, 'wide').xMin > find(all, 'last').xMax);
  assert.ok(find(all, 'wide').xMin > RIGHT - 250);
  // Without w:bidiVisual: first on the left.
  const ltr = words(await renderDocx({ body: table(false) + p('') }));
  assert.ok(find(ltr, 'first').xMin < find(ltr, 'third').xMin);
  assert.ok(find(ltr, 'first').xMin < LEFT + 10);
});

/** Lines of one page: the glyph boxes pdftotext finds, grouped by baseline. */
function lines(all: Word[]): Array<{ y: number; xMin: number; xMax: number }> {
  const byY = new Map<number, { y: number; xMin: number; xMax: number }>();
  for (const w of all) {
    const y = Math.round(w.yMax);
    const line = byY.get(y) ?? { y, xMin: Infinity, xMax: -Infinity };
    line.xMin = Math.min(line.xMin, w.xMin);
    line.xMax = Math.max(line.xMax, w.xMax);
    byY.set(y, line);
  }
  return [...byY.values()].sort((a, b) => a.y - b.y);
}

test('a long line of ideographs breaks between ideographs, every line within the margins and filled', async () => {
  const text = '漢字仮名交じり文'.repeat(30);
  const pdf = await renderDocx({ body: p(text) });
  const found = lines(words(pdf));
  assert.ok(found.length >= 5, `${found.length} lines`);
  for (const line of found) assert.ok(line.xMin > LEFT - 0.5 && line.xMax < RIGHT + 0.5, `line ${line.xMin}–${line.xMax}`);
  // Not broken at the few places a Latin breaker would find: every line but the last ends less than one
  // ideograph (10 pt) short of the margin.
  for (const line of found.slice(0, -1)) assert.ok(line.xMax > RIGHT - 10.5, `line ends at ${line.xMax}`);
  assert.equal(pdfText(pdf).replace(/\s+/g, ''), text);
});

test('kinsoku: 、。） never start a line, 「（ never end one, wherever the line happens to end', async () => {
  // About 45 ideographs fit a line at 10 pt: the marks land at and around the line's end in one of these.
  const paragraphs: string[] = [];
  for (let k = 40; k <= 50; k++) {
    paragraphs.push('漢'.repeat(k) + '。' + '字'.repeat(60));
    paragraphs.push('漢'.repeat(k) + '、' + '字'.repeat(60));
    paragraphs.push('漢'.repeat(k) + '（注）' + '字'.repeat(60));
  }
  const pdf = await renderDocx({ body: paragraphs.map((t) => p(t)).join('') });
  const text = pdfText(pdf, { layout: true });
  const rows = text.split('\n').map((l) => l.trim()).filter(Boolean);
  assert.ok(rows.length >= paragraphs.length * 2, `${rows.length} lines`);
  for (const row of rows) {
    assert.ok(!/^[、。）]/.test(row), `a line starts with a closing mark: ${row}`);
    assert.ok(!/（$/.test(row), `a line ends with an opening bracket: ${row}`);
  }
  // The marks did reach a line's end: some line ends with one (it moved up rather than down).
  assert.ok(rows.some((r) => /[、。）]$/.test(r)), 'some line ends with a mark');
});

test('the eastAsia font slot: ideographs in the w:eastAsia font, Latin of the same run in w:ascii', async () => {
  const rPr = '<w:rFonts w:ascii="Arial" w:hAnsi="Arial" w:eastAsia="SimSun"/>';
  const pdf = await renderDocx({ body: p('Hello世界', '', rPr) });
  const fonts = pdfFonts(pdf).map((f) => f.name);
  // Arial is Helvetica (a standard font); SimSun the bundled CJK face. One style for the whole run would draw
  // "Hello" in the CJK face and list it alone.
  assert.ok(fonts.includes('Helvetica'), fonts.join(', '));
  assert.ok(fonts.some((n) => /\+DroidSansFallbackFull$/.test(n)), fonts.join(', '));
  // Word's automatic space (w:autoSpaceDE, on by default) sets 世界 a fifth of an em apart: pdftotext sees a space.
  assert.match(pdfText(pdf), /Hello 世界/);
  // A theme's minorEastAsia face works the same way (w:eastAsiaTheme).
  const theme =
    '<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="t"><a:themeElements><a:fontScheme name="f">' +
    '<a:majorFont><a:latin typeface="Arial"/><a:ea typeface="SimHei"/><a:cs typeface=""/></a:majorFont>' +
    '<a:minorFont><a:latin typeface="Courier New"/><a:ea typeface="SimSun"/><a:cs typeface=""/></a:minorFont>' +
    '</a:fontScheme></a:themeElements></a:theme>';
  const themed = await renderDocx({ body: p('Code字', '', '<w:rFonts w:asciiTheme="minorHAnsi" w:hAnsiTheme="minorHAnsi" w:eastAsiaTheme="minorEastAsia"/>'), theme });
  const names = pdfFonts(themed).map((f) => f.name);
  assert.ok(names.includes('Courier') && names.some((n) => /DroidSansFallbackFull$/.test(n)), names.join(', '));
});

test('the line grid (w:docGrid type lines): each line takes a grid pitch; w:snapToGrid off and other grid types do not', async () => {
  const sect = (grid: string): string =>
    `<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/>${grid}</w:sectPr>`;
  const spacing = '<w:spacing w:after="0" w:line="240" w:lineRule="auto"/>';
  const body = ['one', 'two', 'three', '一行目', '二行目'].map((t) => p(t, spacing)).join('') +
    ['free1', 'free2'].map((t) => p(t, `<w:snapToGrid w:val="0"/>${spacing}`)).join('');
  const tops = async (grid: string): Promise<number[]> => {
    const all = words(await renderDocx({ body, sectPr: sect(grid) }));
    return ['one', 'two', 'three', '一行目', '二行目', 'free1', 'free2'].map((t) => find(all, t).yMax);
  };
  // 360 twips = 18 pt per line for 10 pt text (about 11.5 pt without the grid), Latin and ideographs alike.
  const grid = await tops('<w:docGrid w:type="lines" w:linePitch="360"/>');
  for (const i of [1, 2, 3, 4]) assert.ok(Math.abs(grid[i] - grid[i - 1] - 18) < 1, `grid step ${i}: ${grid[i] - grid[i - 1]}`);
  // Off the grid: the font's own line.
  assert.ok(grid[6] - grid[5] < 14, `snapToGrid off: ${grid[6] - grid[5]}`);
  // A grid of type "default" (Word's for Latin templates) only records the pitch.
  const none = await tops('<w:docGrid w:linePitch="360"/>');
  assert.ok(none[1] - none[0] < 14, `no grid: ${none[1] - none[0]}`);
});

test('a grid of lines holds a whole number of lines, centred between the margins (LibreOffice text grid): the first line starts half the spare height lower', async () => {
  const gridSect = (bottom: number): string =>
    `<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="${bottom}" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/><w:docGrid w:type="lines" w:linePitch="360"/></w:sectPr>`;
  const firstLine = async (bottom: number): Promise<number> => find(words(await renderDocx({ body: p('first'), sectPr: gridSect(bottom) })), 'first').yMax;
  // A4 with 1-inch margins: a 697.9 pt body holds 38 lines of 18 pt (684 pt) and 13.9 pt to spare, half of it above.
  // With the bottom margin 13.9 pt (278 twips) larger, the body is exactly 38 lines and starts on the margin.
  const spare = (841.9 - 144 - 38 * 18) / 2;
  const centred = await firstLine(1440);
  const exact = await firstLine(1440 + 278);
  assert.ok(Math.abs(centred - exact - spare) < 0.1, `first line ${centred} vs ${exact}: ${centred - exact} pt lower, expected ${spare}`);
});

test('an ideographic comma that does not fit hangs past the line end instead of taking the ideograph before it down (Word\'s overflowPunct)', async () => {
  // 10 pt ideographs are 10 pt wide: 45 fill the 451.3 pt column, the comma after them is the 46th character.
  const spacing = '<w:spacing w:after="0" w:line="240" w:lineRule="auto"/>';
  const rPr = '<w:rFonts w:eastAsia="SimSun"/><w:sz w:val="20"/><w:szCs w:val="20"/>';
  const text = '中'.repeat(45) + '、' + '国'.repeat(10);
  const lines = new Map<number, string>();
  for (const w of words(await renderDocx({ body: p(text, spacing, rPr) }))) lines.set(Math.round(w.yMax), (lines.get(Math.round(w.yMax)) ?? '') + w.text);
  const [first, second] = [...lines.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t);
  assert.equal(first, '中'.repeat(45) + '、', 'the comma hangs at the end of the full first line');
  assert.equal(second, '国'.repeat(10));
  // Latin text keeps its full stop inside the column: a word that does not fit goes down whole.
  const latin = words(await renderDocx({ body: p('word '.repeat(200), spacing) }));
  assert.ok(latin.every((w) => w.xMax <= RIGHT + 0.5), 'no Latin word past the margin');
});

test('Arabic in a font without Arabic (Times New Roman) is drawn with DejaVu Sans at a text line height; named Noto stays Noto', async () => {
  const line = 'مرحبا بالعالم هذا نص عربي طويل للتجربة '.repeat(8);
  const rtl = '<w:bidi/><w:spacing w:after="0" w:line="240" w:lineRule="auto"/>';
  const times = await renderDocx({ body: p(line, rtl, '<w:rFonts w:cs="Times New Roman"/><w:sz w:val="24"/><w:szCs w:val="24"/><w:rtl/>') });
  const fonts = pdfFonts(times).map((f) => f.name);
  assert.ok(fonts.some((n) => /\+DejaVuSans$/.test(n)) && !fonts.some((n) => /NotoSansArabic/.test(n)), fonts.join(', '));
  // 12 pt text: about 14 pt from line to line, as Word draws Times New Roman's Arabic (Noto Sans Arabic's own
  // line is 2.1 em, which would make it 25 pt).
  const found = lines(words(times));
  assert.ok(found.length >= 3, `${found.length} lines`);
  for (let i = 1; i < found.length; i++) assert.ok(found[i].y - found[i - 1].y < 16, `line step ${found[i].y - found[i - 1].y}`);
  // The text extracts as the letters typed (not as presentation forms).
  assert.match(pdfText(times), /مرحبا/);
  const noto = await renderDocx({ body: p('مرحبا بالعالم', rtl, '<w:rFonts w:cs="Noto Sans Arabic"/><w:rtl/>') });
  assert.ok(pdfFonts(noto).some((f) => /\+NotoSansArabic-Regular$/.test(f.name)));
});

test('a page number in an East Asian font is drawn (with the face that has digits)', async () => {
  // 游明朝 maps to a CJK family whose own face has no Latin digits: the number used to be drawn with no glyph.
  const rPr = '<w:rPr><w:rFonts w:ascii="游明朝" w:hAnsi="游明朝" w:eastAsia="游明朝"/></w:rPr>';
  const field = `<w:p><w:r>${rPr}<w:fldChar w:fldCharType="begin"/></w:r><w:r>${rPr}<w:instrText xml:space="preserve"> PAGE </w:instrText></w:r><w:r>${rPr}<w:fldChar w:fldCharType="end"/></w:r></w:p>`;
  const pdf = await renderDocx({
    body: p('Body'),
    headers: { header1: field },
    sectPr: '<w:sectPr><w:headerReference w:type="default" r:id="rId_header1"/><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>',
  });
  const number = words(pdf).find((w) => w.text === '1');
  assert.ok(number, `the page number is in the PDF's text: ${words(pdf).map((w) => w.text).join(' ')}`);
  assert.ok(number.yMax < 72, 'in the header');
});

test('spaces between Arabic words drawn by the stand-in are the run\'s own font\'s (Times: a quarter em), not DejaVu Sans\' third of an em', async () => {
  const rtl = '<w:bidi/><w:spacing w:after="0" w:line="240" w:lineRule="auto"/>';
  const pdf = await renderDocx({ body: p('مرحبا بالعالم هذا نص', rtl, '<w:rFonts w:cs="Times New Roman"/><w:sz w:val="24"/><w:szCs w:val="24"/><w:rtl/>') });
  const all = words(pdf).filter((w) => /[\u0600-\u06ff]/.test(w.text)).sort((a, b) => a.xMin - b.xMin);
  assert.equal(all.length, 4, all.map((w) => w.text).join(' '));
  // Word draws a w:rtl run's spaces in its w:cs font; LibreOffice's glyph fallback keeps them there too (its PDF of
  // oxsdk__Comment044 has 2.95–3.05 pt gaps between such words at 12 pt). DejaVu Sans' space is 3.8 pt.
  for (let i = 1; i < all.length; i++) {
    const gap = all[i].xMin - all[i - 1].xMax;
    assert.ok(gap > 2.5 && gap < 3.4, `gap ${gap.toFixed(2)} pt before ${all[i].text}`);
  }
});

test('corpus: Arabic news text in Times New Roman (oxsdk__Comment044) breaks its lines where LibreOffice does', { skip: !fs.existsSync(corpusFile('oxsdk__Comment044.docx')) && 'no corpus' }, async () => {
  const all = await pdfWords(fs.readFileSync(corpusFile('oxsdk__Comment044.docx')));
  // The second paragraph's first line ends with "عاجزين عن" (drawn reversed by pdftotext -bbox) on the line that
  // begins with "بغداد", as in LibreOffice's PDF; with DejaVu Sans' wider spaces they were pushed to the next line.
  const baghdad = all.find((w) => w.text === drawn('بغداد'));
  const unable = all.find((w) => w.text === drawn('عاجزين'));
  assert.ok(baghdad && unable, 'both words found');
  assert.ok(Math.abs(baghdad.yMax - unable.yMax) < 1, `same line: ${baghdad.yMax} / ${unable.yMax}`);
});

test('a justified line of Chinese reaches both margins: the spare room goes after each character (no spaces to widen); the last line is not spread', async () => {
  const text = '满足中华人民共和国政府采购法第二十二条规定未被列入失信被执行人重大税收违法案件当事人名单政府采购严重违法失信行为记录名单';
  const pages = await docxPages(buildDocx({ body: p(text, '<w:jc w:val="both"/>', '<w:rFonts w:eastAsia="SimSun"/><w:sz w:val="32"/>') }));
  const boxes = textBoxes(pages).filter((b) => /[\u4e00-\u9fff]/.test(b.text));
  const ys = [...new Set(boxes.map((b) => b.y))].sort((a, b) => a - b);
  assert.ok(ys.length >= 2, `${ys.length} lines`);
  const first = boxes.filter((b) => b.y === ys[0]);
  const last = boxes.filter((b) => b.y === ys[ys.length - 1]);
  const right = Math.max(...first.map((b) => b.x + b.width));
  assert.ok(Math.abs(right - RIGHT) < 0.5, `first line ends at ${right}, margin ${RIGHT}`);
  assert.ok(first.some((b) => (b.charSpace ?? 0) > 0), 'spread by character spacing');
  assert.ok(last.every((b) => !b.charSpace), 'the last line keeps its natural spacing');
  assert.ok(Math.max(...last.map((b) => b.x + b.width)) < RIGHT - 16, 'and ends short of the margin');
});
