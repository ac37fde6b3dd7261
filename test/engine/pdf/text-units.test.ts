/** The pure text helpers behind the renderer: bidi order, Arabic shaping, clean-up, list counters. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bidiLevels, visualOrder } from '../../../server/engine/pdf/text/bidi.js';
import { shapeArabic } from '../../../server/engine/pdf/text/arabic.js';
import { cleanText } from '../../../server/engine/pdf/text/normalize.js';
import { ListCounters, formatCounter } from '../../../server/engine/pdf/layout/lists.js';

function visual(text: string, base: 0 | 1): string {
  return visualOrder(bidiLevels(text, base)).map((i) => text[i]).join('');
}

test('bidi: right-to-left runs reversed, numbers kept left-to-right, base direction respected', () => {
  assert.equal(visual('abc def', 0), 'abc def');
  assert.equal(visual('abc אבג דהו xyz', 0), 'abc והד גבא xyz');
  // Numbers inside Hebrew stay in reading order.
  assert.equal(visual('אבג 123 דהו', 1), 'והד 123 גבא');
  // A right-to-left paragraph puts its first word on the right; Latin runs inside stay left-to-right.
  assert.equal(visual('אבג abc def', 1), 'abc def גבא');
  // Arabic letters and Arabic-Indic digits.
  assert.equal(visual('سلام ١٢٣', 1), '١٢٣ مالس');
});

test('Arabic shaping picks contextual forms and the lam-alef ligature', () => {
  // سلام: seen initial, lam-alef final ligature, meem isolated (alef does not join forward).
  assert.equal(shapeArabic('سلام'), '\ufeb3\ufefc\ufee1');
  // كتاب: kaf initial, teh medial, alef final, beh isolated.
  assert.equal(shapeArabic('كتاب'), '\ufedb\ufe98\ufe8e\ufe8f');
  // Harakat do not break the joins: بَب → beh initial, fatha, beh final.
  assert.equal(shapeArabic('بَب'), '\ufe91\u064e\ufe90');
  assert.equal(shapeArabic('abc'), 'abc');
});

test('cleanText: controls dropped, CRLF to line breaks, composed accents, symbol bullets, emoji boxes', () => {
  assert.equal(cleanText('plain text'), 'plain text');
  assert.equal(cleanText('a\r\nb\rc\u0000d\u200be'), 'a\nb\ncde');
  assert.equal(cleanText('e\u0301'), 'é');
  assert.equal(cleanText('\uf0b7 item'), '• item');
  // One code point per picture (drawn as one box, kept in the text layer); the parts joining it are dropped.
  assert.equal(cleanText('hi 😀 👍🏽 🇫🇷 👨‍👩‍👧 end'), 'hi 😀 👍 🇫 👨 end');
});

test('list counters: formats and level text', () => {
  assert.equal(formatCounter(4, 'upperRoman'), 'IV');
  assert.equal(formatCounter(1994, 'lowerRoman'), 'mcmxciv');
  assert.equal(formatCounter(28, 'lowerLetter'), 'bb');
  assert.equal(formatCounter(3, 'upperLetter'), 'C');
  const c = new ListCounters();
  assert.equal(c.next({ id: 'x', level: 0, format: 'decimal' }), '1.');
  assert.equal(c.next({ id: 'x', level: 1, format: 'lowerLetter', text: '%1.%2.' }), '1.a.');
  assert.equal(c.next({ id: 'x', level: 1, format: 'lowerLetter', text: '%1.%2.' }), '1.b.');
  assert.equal(c.next({ id: 'x', level: 0, format: 'decimal' }), '2.');
  assert.equal(c.next({ id: 'x', level: 1, format: 'lowerLetter', text: '%1.%2.' }), '2.a.', 'deeper level restarts');
  assert.equal(c.next({ id: 'y', level: 0, format: 'decimal', start: 7 }), '7.');
  assert.equal(c.next({ id: 'x', level: 0, format: 'bullet' }), '\u2022');
});
