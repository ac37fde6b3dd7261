/** Lists (numbering, bullets, indentation) and headers/footers with page fields. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pdfPageCount, pdfText } from '../../helpers/pdf.js';
import type { ListInfo, Paragraph } from '../../../server/engine/model/types.js';
import { A4, model, para, render, run, section, word, words } from './helpers.js';

function item(text: string, list: ListInfo): Paragraph {
  return { ...para(text), list };
}

/** Text lines with runs of spaces collapsed (pdftotext -layout keeps a label and its text on one line). */
function lines(text: string): string[] {
  return text.split('\n').map((l) => l.trim().replace(/\s+/g, ' ')).filter(Boolean);
}

test('numbered lists: counters per list and level, deeper levels restart, level text and formats', async () => {
  const dec = (level: number, id = 'a'): ListInfo => ({ id, level, format: level === 0 ? 'decimal' : level === 1 ? 'lowerLetter' : 'lowerRoman', text: level === 1 ? '%1.%2)' : undefined });
  const bytes = await render(model([
    item('Apples', dec(0)),
    item('Red', dec(1)),
    item('Green', dec(1)),
    item('Deep', dec(2)),
    item('Deeper', dec(2)),
    item('Pears', dec(0)),
    item('Yellow', dec(1)),
    item('Other list', { id: 'b', level: 0, format: 'upperRoman', start: 4 }),
    item('Letters', { id: 'c', level: 0, format: 'upperLetter' }),
    item('Letters two', { id: 'c', level: 0, format: 'upperLetter' }),
    item('Continued', dec(0)),
  ]));
  assert.deepEqual(lines(pdfText(bytes, { layout: true })), [
    '1. Apples', '1.a) Red', '1.b) Green', 'i. Deep', 'ii. Deeper', '2. Pears', '2.a) Yellow',
    'IV. Other list', 'A. Letters', 'B. Letters two', '3. Continued',
  ]);
});

test('bullets and list indentation: label in the hanging indent, text at the indent, deeper levels further in', async () => {
  const bytes = await render(model([
    item('Top level item with enough words to wrap onto a second line of the page for sure, and even more words', { id: 'x', level: 0, format: 'bullet' }),
    item('Nested', { id: 'x', level: 1, format: 'bullet', text: '–' }),
    item('Custom indent', { id: 'y', level: 0, format: 'decimal' }),
  ]));
  const text = pdfText(bytes);
  assert.match(text, /•\s+Top level item/);
  assert.match(text, /–\s+Nested/);
  const w = words(bytes);
  const bullet = word(w, '•');
  const top = word(w, 'Top');
  assert.ok(Math.abs(bullet.xMin - (72 + 18)) < 0.5, `bullet at the hanging indent: ${bullet.xMin}`);
  assert.ok(Math.abs(top.xMin - (72 + 36)) < 0.5, `text at the left indent: ${top.xMin}`);
  const wrapped = w.find((x) => x.yMin > top.yMax && x.yMin < word(w, 'Nested').yMin)!;
  assert.ok(Math.abs(wrapped.xMin - (72 + 36)) < 0.5, 'wrapped lines align with the text');
  assert.ok(Math.abs(word(w, 'Nested').xMin - (72 + 72)) < 0.5, 'level 1 text one step further in');
});

test('headers and footers on every page with page X of Y, first-page and even variants', async () => {
  const body = Array.from({ length: 120 }, (_, i) => para(`Body line ${i + 1}`));
  const footer = [para([run('Page '), { type: 'field', field: 'page' }, run(' of '), { type: 'field', field: 'pages' }], { align: 'center' })];
  const bytes = await render(model([section(body, {
    titlePage: true,
    header: { default: [para('Default header')], first: [para('Title page header')], even: [para('Even header')] },
    footer: { default: footer, first: [para('First footer')] },
  })]));
  const pages = pdfPageCount(bytes);
  assert.ok(pages >= 3, `several pages (${pages})`);
  for (let p = 1; p <= pages; p++) {
    const t = pdfText(bytes, { page: p });
    if (p === 1) {
      assert.match(t, /Title page header/);
      assert.match(t, /First footer/);
    } else {
      assert.match(t, p % 2 === 0 ? /Even header/ : /Default header/, `page ${p} header`);
      assert.match(t, new RegExp(`Page ${p} of ${pages}`), `page ${p} footer`);
    }
  }
  // Footer centred near the bottom, header near the top, body between them.
  const w = words(bytes).filter((x) => x.page === 2);
  const pageWord = word(w, 'Page');
  assert.ok(pageWord.yMax > A4.height - 72 && pageWord.yMax <= A4.height - 36 + 1, `footer at ${pageWord.yMax}`);
  assert.ok(word(w, 'Even').yMin >= 36 - 1 && word(w, 'Even').yMax < 72, 'header in the top margin');
});

test('a tall header pushes the body down instead of overlapping it', async () => {
  const header = Array.from({ length: 8 }, (_, i) => para(`Header line ${i + 1}`));
  const bytes = await render(model([section([para('Body starts here')], { header: { default: header } })]));
  const w = words(bytes);
  const lastHeader = w.filter((x) => x.text === '8')[0];
  assert.ok(word(w, 'Body').yMin > lastHeader.yMax, 'body below the header');
});

test('page fields in the body: the page count is filled in once known', async () => {
  const bytes = await render(model([
    para([run('This document has '), { type: 'field', field: 'pages' }, run(' pages; this is page '), { type: 'field', field: 'page' }]),
    { type: 'pageBreak' },
    { type: 'pageBreak' },
    para([run('Now on page '), { type: 'field', field: 'page' }]),
  ]));
  const text = pdfText(bytes);
  assert.match(text, /This document has 3 pages; this is page 1/);
  assert.match(text, /Now on page 3/);
});
