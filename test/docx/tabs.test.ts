/**
 * Tab stops from .docx: right-aligned page numbers after dot leaders (tables of contents), middle-dot leaders,
 * centre and decimal stops, and the document's default tab stop distance (w:defaultTabStop). Read back as the
 * layout data (text boxes with their x) and from corpus files nobody here wrote.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { docxPages, findText, textBoxes, type TextBox } from '../engine/pdf/boxes.js';
import { buildDocx } from './build-docx.js';

const CORPUS = process.env.DOCLOOM_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/docx');
const LEFT = 72;

const para = (tabs: string, runs: string): string =>
  `<w:p><w:pPr>${tabs ? `<w:tabs>${tabs}</w:tabs>` : ''}</w:pPr>${runs}</w:p>`;
const t = (text: string): string => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
const TAB = '<w:r><w:tab/></w:r>';
const end = (b: TextBox): number => b.x + b.width;

test('a TOC entry: dot leader from the entry to its page number, right-aligned on the stop', async () => {
  const stop = '<w:tab w:val="right" w:leader="dot" w:pos="9000"/>';
  const pages = await docxPages(buildDocx({ body: para(stop, t('Introduction') + TAB + t('17')) }));
  const entry = findText(pages, 'Introduction');
  const number = findText(pages, '17');
  const dots = textBoxes(pages).find((b) => /^\.{10,}$/.test(b.text));
  assert.ok(dots, 'a run of dots');
  assert.ok(Math.abs(end(number) - (LEFT + 450)) < 0.5, `page number ends on the stop: ${end(number)}`);
  assert.ok(dots.x >= end(entry) && end(dots) <= number.x, 'dots between the entry and the number');
  assert.ok(number.x - end(dots) < 6 && dots.x - end(entry) < 8, 'and filling the gap');
  assert.equal(dots.y, number.y, 'on the same baseline');
});

test('middle-dot leader, centre and decimal stops', async () => {
  const stops = '<w:tab w:val="center" w:leader="middleDot" w:pos="4320"/><w:tab w:val="decimal" w:pos="8640"/>';
  const pages = await docxPages(buildDocx({ body: para(stops, t('A') + TAB + t('Middle') + TAB + t('12.50')) }));
  const dots = textBoxes(pages).find((b) => /^\u00b7{3,}$/.test(b.text));
  assert.ok(dots, `a run of middle dots: ${textBoxes(pages).map((b) => b.text).join('|')}`);
  const middle = findText(pages, 'Middle');
  assert.ok(Math.abs(middle.x + middle.width / 2 - (LEFT + 216)) < 0.5, 'centred on 3 inches');
  const amount = findText(pages, '12.50');
  const decimalX = amount.x + amount.face.width('12', amount.size);
  assert.ok(Math.abs(decimalX - (LEFT + 432)) < 0.5, `the decimal point on 6 inches: ${decimalX}`);
});

test('default tab stops every w:defaultTabStop (here 1 inch), not every half inch', async () => {
  const body = para('', t('A') + TAB + t('B') + TAB + t('C'));
  const pages = await docxPages(buildDocx({ body, settings: '<w:defaultTabStop w:val="1440"/>' }));
  assert.ok(Math.abs(findText(pages, 'B').x - (LEFT + 72)) < 0.5, `${findText(pages, 'B').x}`);
  assert.ok(Math.abs(findText(pages, 'C').x - (LEFT + 144)) < 0.5);
  const half = await docxPages(buildDocx({ body }));
  assert.ok(Math.abs(findText(half, 'B').x - (LEFT + 36)) < 0.5, 'without it: half an inch');
});

test('corpus: the aspose table of contents has dot leaders and right-aligned page numbers', { skip: !fs.existsSync(path.join(CORPUS, 'aspose__Table_of_contents.docx')) && 'no corpus' }, async () => {
  const pages = await docxPages(fs.readFileSync(path.join(CORPUS, 'aspose__Table_of_contents.docx')));
  const entry = findText(pages, 'Entry 1');
  const line = textBoxes(pages).filter((b) => b.page === entry.page && Math.abs(b.y - entry.y) < 0.5);
  const dots = line.find((b) => /^\.{10,}$/.test(b.text));
  const number = line.find((b) => b.text === '1');
  assert.ok(dots && number, line.map((b) => b.text).join('|'));
  assert.ok(dots.x >= end(entry) - 0.01 && end(dots) < number.x);
  // The dots start where the entry ends, as LibreOffice draws them (its PDF reads "Entry2......", one word, and
  // its dots end 1.4 pt before the number); they used to start up to a dot and a half later.
  assert.ok(dots.x - end(entry) < 0.01, `dots start ${dots.x - end(entry)} pt after the entry`);
  assert.ok(number.x - end(dots) < 1.5 * number.face.width('.', number.size) + 0.01, `and end ${number.x - end(dots)} pt before the number`);
});

test('a tab after spaces that hang past the line\'s end begins the next line, where it goes to the first stop', async () => {
  // LibreOffice 7.4: "Alpha", 200 spaces, a tab, "Xray" puts "Xray" on the second line at the first default stop
  // (36 pt in); "Echo", 200 spaces, a tab and a space take two lines, so the next paragraph is on the third.
  const settings = '<w:compat><w:compatSetting w:val="15" w:uri="http://schemas.microsoft.com/office/word" w:name="compatibilityMode"/></w:compat>';
  const spaces = ' '.repeat(200);
  const pages = await docxPages(buildDocx({ body: para('', t(`Alpha${spaces}`) + TAB + t('Xray')) + para('', t('Mid')) + para('', t(`Echo${spaces}`) + TAB + t(' ')) + para('', t('Next')), settings }));
  const alpha = findText(pages, 'Alpha');
  const xray = findText(pages, 'Xray');
  const mid = findText(pages, 'Mid');
  const line = mid.y - xray.y;
  assert.ok(xray.y > alpha.y + 1 && Math.abs(xray.x - (LEFT + 36)) < 0.5, `Xray at ${xray.x}, ${xray.y} (Alpha at ${alpha.y})`);
  const echo = findText(pages, 'Echo');
  const next = findText(pages, 'Next');
  assert.ok(Math.abs(next.y - echo.y - 2 * line) < 0.5, `Next ${next.y - echo.y} below Echo, a line is ${line}`);
});

test('a word that does not fit after a tab takes the tab along to the next line', async () => {
  // LibreOffice 7.4, 12 pt Times New Roman on a 451 pt line: "D" and 70 x's end at 428.7 pt in, a tab, "Yank":
  // "Yank" starts the next line's first default stop, 36 pt in — with 72 x's (no stop left on the line) as well.
  const R = '<w:rPr><w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman"/><w:sz w:val="24"/></w:rPr>';
  const run = (text: string): string => `<w:r>${R}<w:t xml:space="preserve">${text}</w:t></w:r>`;
  for (const n of [70, 72]) {
    const pages = await docxPages(buildDocx({ body: para('', run(`D${'x'.repeat(n)}`) + `<w:r>${R}<w:tab/></w:r>` + run('Yank')) }));
    const first = findText(pages, 'Dxx');
    const yank = findText(pages, 'Yank');
    assert.ok(yank.y > first.y + 1 && Math.abs(yank.x - (LEFT + 36)) < 0.5, `${n}: Yank at ${yank.x}, ${yank.y} (first line at ${first.y})`);
  }
});

test('a hanging indent is a tab stop of its own, taken before an explicit stop beyond it', async () => {
  // oxsdk__BackgroundReport's table of contents: "<tab>A.<tab>Entry…<tab>14" with a left stop at 18 pt, a dotted
  // right stop at 441 pt and a 45 pt hanging indent. The second tab goes to the indent (Word's implicit stop at the
  // hanging indent; LibreOffice's too), so the entry starts there and wraps; it used to jump to the right stop.
  const stops = '<w:tab w:val="left" w:pos="360"/><w:tab w:val="right" w:leader="dot" w:pos="8820"/>';
  const long = 'Issues relating to infrastructure and management of critical Internet resources, and to much else besides';
  const body = `<w:p><w:pPr><w:tabs>${stops}</w:tabs><w:ind w:left="900" w:right="723" w:hanging="900"/></w:pPr>` +
    `${TAB}${t('A.')}${TAB}${t(long)}${TAB}${t('14')}</w:p>`;
  const pages = await docxPages(buildDocx({ body }));
  const label = findText(pages, 'A.');
  const entry = findText(pages, 'Issues');
  assert.ok(Math.abs(label.x - (LEFT + 18)) < 0.5, `A. on the 18 pt stop: ${label.x}`);
  assert.ok(Math.abs(entry.x - (LEFT + 45)) < 0.5, `the entry at the hanging indent: ${entry.x}`);
  assert.equal(entry.y, label.y, 'on the first line');
  const number = findText(pages, '14');
  assert.ok(Math.abs(end(number) - (LEFT + 441)) < 0.5 && number.y > entry.y, `the page number on the right stop, below: ${end(number)}, ${number.y}`);
  // Without the hanging indent, the explicit stop is the next one.
  const flat = await docxPages(buildDocx({ body: para(stops, TAB + t('A.') + TAB + t('Short')) }));
  assert.ok(end(findText(flat, 'Short')) - (LEFT + 441) < 0.5 && findText(flat, 'Short').x > LEFT + 300, 'right-aligned on the dotted stop');
});
