/**
 * Word's vertical metrics, read from real .docx files and checked on the layout as data (docxPages): line
 * spacing exact / at least / auto, and the body's top edge when a section has no header.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDocx, p } from './build-docx.js';
import { docxPages, findText } from '../engine/pdf/boxes.js';

/** Baselines of "L1".."L4": four lines of one paragraph (breaks) with the given w:spacing. */
async function pitch(spacing: string, rPr = ''): Promise<number[]> {
  const run = (t: string): string => `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ''}<w:t>${t}</w:t></w:r>`;
  const para = `<w:p><w:pPr>${spacing}</w:pPr>${run('L1')}<w:r><w:br/></w:r>${run('L2')}<w:r><w:br/></w:r>${run('L3')}<w:r><w:br/></w:r>${run('L4')}</w:p>`;
  const pages = await docxPages(buildDocx({ body: para + p('') }));
  const ys = ['L1', 'L2', 'L3', 'L4'].map((t) => findText(pages, t).y);
  return ys.slice(1).map((y, i) => y - ys[i]);
}

test('exact line spacing is that length whatever the font size; at least grows only for taller text', async () => {
  for (const size of [16, 48]) {
    // 20 pt exactly (400 twips), for 8 pt and 24 pt text alike.
    const exact = await pitch('<w:spacing w:line="400" w:lineRule="exact"/>', `<w:sz w:val="${size}"/>`);
    for (const d of exact) assert.ok(Math.abs(d - 20) < 0.01, `${size / 2} pt text: ${d}`);
  }
  const atLeastSmall = await pitch('<w:spacing w:line="400" w:lineRule="atLeast"/>', '<w:sz w:val="16"/>');
  for (const d of atLeastSmall) assert.ok(Math.abs(d - 20) < 0.01, `small text: ${d}`);
  const atLeastBig = await pitch('<w:spacing w:line="400" w:lineRule="atLeast"/>', '<w:sz w:val="48"/>');
  for (const d of atLeastBig) assert.ok(d > 24, `24 pt text keeps its own height: ${d}`);
  // auto: a multiple of the font's single line (240ths).
  const single = await pitch('', '<w:sz w:val="24"/>');
  const double = await pitch('<w:spacing w:line="480" w:lineRule="auto"/>', '<w:sz w:val="24"/>');
  assert.ok(Math.abs(double[0] - 2 * single[0]) < 0.01, `${double[0]} vs 2 × ${single[0]}`);
});

test('multiple line spacing adds its room below the text: a double-spaced first line starts as high as a single one', async () => {
  // LibreOffice 7.4 draws this very file with "Double one" 13.8 pt below "Single one" (one single line of 12 pt
  // Arial) and "Single two" 55.2 pt below it; Word keeps the baseline at the ascent too.
  const r = '<w:rFonts w:ascii="Arial" w:hAnsi="Arial"/><w:sz w:val="24"/>';
  const dbl = '<w:spacing w:line="480" w:lineRule="auto"/>';
  const pages = await docxPages(buildDocx({ body: p('Single one', '', r) + p('Double one', dbl, r) + p('Double two', dbl, r) + p('Single two', '', r) }));
  const y = (t: string): number => findText(pages, t).y;
  const single = y('Double one') - y('Single one');
  assert.ok(Math.abs(single - 13.8) < 0.05, `one single line: ${single}`);
  assert.ok(Math.abs(y('Double two') - y('Double one') - 2 * single) < 0.05);
  assert.ok(Math.abs(y('Single two') - y('Double two') - 2 * single) < 0.05, 'the room of the last double line is below it');
});

test('Cambria (drawn with Caladea) has its typographic line, 1.15 em, not its 1.30 em Windows metrics', async () => {
  const [d] = await pitch('', '<w:rFonts w:ascii="Cambria" w:hAnsi="Cambria"/><w:sz w:val="40"/>');
  assert.ok(Math.abs(d - 23) < 0.05, `20 pt Cambria line: ${d}`);
});

test('without a header the body starts at the top margin, even one smaller than the header distance', async () => {
  const sect = '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="200" w:right="1440" w:bottom="1440" w:left="1440" w:header="850" w:footer="708" w:gutter="0"/></w:sectPr>';
  const pages = await docxPages(buildDocx({ body: p('Top line'), sectPr: sect }));
  const box = findText(pages, 'Top line');
  // Top margin 10 pt: the first baseline lies within the first line's height below it, far above 42.5 pt.
  assert.ok(box.y > 10 && box.y < 10 + 20, `baseline at ${box.y}`);
});

test('a document grid of lines (w:docGrid type lines) gives every body line whole pitches, unless the paragraph opts out', async () => {
  const sect = (grid: string): string => `<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/>${grid}</w:sectPr>`;
  const lines = (pPr: string): string => `<w:p><w:pPr>${pPr}</w:pPr><w:r><w:t>G1</w:t></w:r><w:r><w:br/></w:r><w:r><w:t>G2</w:t></w:r><w:r><w:br/></w:r><w:r><w:t>G3</w:t></w:r></w:p>`;
  const gaps = async (pPr: string, grid: string): Promise<number[]> => {
    const pages = await docxPages(buildDocx({ body: lines(pPr), sectPr: sect(grid) }));
    const ys = ['G1', 'G2', 'G3'].map((t) => findText(pages, t).y);
    return [ys[1] - ys[0], ys[2] - ys[1]];
  };
  // 18 pt pitch (360 twips) for 10 pt text: one pitch per line.
  for (const d of await gaps('', '<w:docGrid w:type="lines" w:linePitch="360"/>')) assert.ok(Math.abs(d - 18) < 0.01, `gap ${d}`);
  // Double spacing (about 23 pt of a 10 pt line) takes two pitches.
  for (const d of await gaps('<w:spacing w:line="480" w:lineRule="auto"/>', '<w:docGrid w:type="lines" w:linePitch="360"/>')) assert.ok(Math.abs(d - 36) < 0.01, `gap ${d}`);
  // No grid, a grid of type default, or a paragraph that does not snap: the font's own line.
  const plain = await gaps('', '');
  assert.ok(plain[0] < 17, `plain ${plain[0]}`);
  assert.deepEqual(await gaps('', '<w:docGrid w:linePitch="360"/>'), plain);
  assert.deepEqual(await gaps('<w:snapToGrid w:val="0"/>', '<w:docGrid w:type="lines" w:linePitch="360"/>'), plain);
});

test('on a document grid multiple spacing multiplies the line\'s pitches; a paragraph\'s first line gets its font\'s extra instead', async () => {
  // LibreOffice 7.4, 10 pt Calibri on a 21.15 pt grid (423 twips): a paragraph of single lines at 1.15 has them
  // 1.15 × 21.15 = 24.3 pt apart (SwTextFormatter::CalcRealHeight multiplies the snapped height), and one-line
  // paragraphs at 1.15 are 22.9 pt apart (the pitch plus 15 % of the font's line, added above the first line);
  // a whole pitch more or the bare pitch were both wrong.
  const sect = '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/><w:docGrid w:type="lines" w:linePitch="423"/></w:sectPr>';
  const r = '<w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/><w:sz w:val="20"/>';
  const spacing = '<w:spacing w:before="0" w:after="0" w:line="276" w:lineRule="auto"/>';
  const run = (t: string): string => `<w:r><w:rPr>${r}</w:rPr><w:t>${t}</w:t></w:r>`;
  const para = `<w:p><w:pPr>${spacing}</w:pPr>${run('M1')}<w:r><w:br/></w:r>${run('M2')}<w:r><w:br/></w:r>${run('M3')}</w:p>`;
  const pages = await docxPages(buildDocx({ body: para + p('S1', spacing, r) + p('S2', spacing, r) + p('S3', spacing, r), sectPr: sect }));
  const y = (t: string): number => findText(pages, t).y;
  for (const [a, b] of [['M1', 'M2'], ['M2', 'M3']]) assert.ok(Math.abs(y(b) - y(a) - 1.15 * 21.15) < 0.05, `${a} → ${b}: ${y(b) - y(a)}`);
  for (const [a, b] of [['S1', 'S2'], ['S2', 'S3']]) {
    const d = y(b) - y(a);
    assert.ok(d > 21.15 + 1.2 && d < 21.15 + 2.4, `${a} → ${b}: ${d}`);
  }
});

test('the document grid snaps body lines, not the lines of a text box', async () => {
  // docling__textbox: 12 pt text in text boxes on an 18 pt grid; LibreOffice 7.4 gives the boxes' lines their font's
  // 13.8 pt (SwTextSizeInfo snaps only frames IsInDocBody), the body's lines 18 pt.
  const sect = '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/><w:docGrid w:type="lines" w:linePitch="360"/></w:sectPr>';
  const three = (a: string): string => `<w:p><w:r><w:t>${a}1</w:t></w:r><w:r><w:br/></w:r><w:r><w:t>${a}2</w:t></w:r><w:r><w:br/></w:r><w:r><w:t>${a}3</w:t></w:r></w:p>`;
  const emu = 12700;
  const box =
    `<w:p><w:r><w:drawing><wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">` +
    `<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="page"><wp:posOffset>${300 * emu}</wp:posOffset></wp:positionH><wp:positionV relativeFrom="page"><wp:posOffset>${400 * emu}</wp:posOffset></wp:positionV>` +
    `<wp:extent cx="${150 * emu}" cy="${150 * emu}"/><wp:wrapNone/><wp:docPr id="1" name="Box"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">` +
    `<wps:wsp><wps:spPr><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></wps:spPr><wps:txbx><w:txbxContent>${three('T')}</w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r></w:p>`;
  const pages = await docxPages(buildDocx({ body: three('B') + box, sectPr: sect }));
  const gaps = (a: string): number[] => {
    const ys = [1, 2, 3].map((i) => findText(pages, `${a}${i}`).y);
    return [ys[1] - ys[0], ys[2] - ys[1]];
  };
  for (const d of gaps('B')) assert.ok(Math.abs(d - 18) < 0.01, `body gap ${d}`);
  for (const d of gaps('T')) assert.ok(d > 10 && d < 16, `text box gap ${d}`);
});
