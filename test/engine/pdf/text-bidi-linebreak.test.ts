/**
 * The text algorithms the layout leans on, checked on their own: UAX #9 (text/bidi.ts, bidi-js) with bracket
 * pairs and mirroring, and line-break opportunities (text/line-break.ts: UAX #14 by `linebreak`, plus kinsoku).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bidiLevels, mirrored, visualOrder } from '../../../server/engine/pdf/text/bidi.js';
import { breakOpportunities } from '../../../server/engine/pdf/text/line-break.js';

/** A line as drawn, left to right: visual order, characters at odd levels mirrored. */
function visual(text: string, base: 0 | 1): string {
  const levels = bidiLevels(text, base);
  return visualOrder(levels).map((i) => (levels[i] % 2 === 1 ? mirrored(text[i]) : text[i])).join('');
}

/** The text cut at its break opportunities ("漢|字"). */
function cut(text: string, before = ''): string {
  let out = '';
  let last = 0;
  for (const i of breakOpportunities(text, before)) {
    out += `${text.slice(last, i)}|`;
    last = i;
  }
  return out + text.slice(last);
}

test('UAX #9 bracket pairs (N0): a pair around right-to-left text in a left-to-right line takes its direction', () => {
  // Both brackets belong to the Hebrew run: drawn mirrored, they enclose it. Without N0 (the former hand-written
  // algorithm) the closing one took the line's direction and came out as "דג)בא)abc".
  assert.equal(visual('אב(גד)abc', 0), '(דג)באabc');
  // A pair holding left-to-right text inside a right-to-left line keeps the line's direction, correctly mirrored.
  assert.equal(visual('אב (abc) גד', 1), 'דג (abc) בא');
  // Brackets with nothing strong inside follow the text around them.
  assert.equal(visual('abc (אב) def', 0), 'abc (בא) def');
  assert.equal(visual('אב [] גד', 1), 'דג [] בא');
});

test('UAX #9 numbers and mirroring: digits stay left to right inside right-to-left text; ≤ and « mirror', () => {
  assert.equal(visual('אב 123 גד', 1), 'דג 123 בא');
  assert.equal(visual('א ≤ ב', 1), 'ב ≥ א');
  assert.equal(visual('«שלום»', 1), '«םולש»');
  assert.equal(mirrored('a'), 'a');
  // L1: white space ending the line is at the paragraph's level (the right end of an RTL line is its start).
  assert.deepEqual(Array.from(bidiLevels('abc ', 1)), [2, 2, 2, 1]);
});

test('line breaks: between ideographs and kana, never before 、。） nor after （「, words of Latin kept whole', () => {
  assert.equal(cut('漢字、かな。（注）テスト「引用」'), '漢|字、|か|な。|（注）|テ|ス|ト|「引|用」');
  assert.equal(cut('hello world  foo'), 'hello |world  |foo');
  assert.equal(cut('well-known -5 (a) x'), 'well-|known |-5 |(a) |x');
  // Word breaks after a hyphen between digits too (phone numbers, year ranges), not after one that starts a number.
  assert.equal(cut('Call 1-800-427-2419 in 2006-2007, at -5 or x-1'), 'Call |1-|800-|427-|2419 |in |2006-|2007, |at |-5 |or |x-|1');
  assert.equal(cut('800-427', '1-'), '|800-|427');
  assert.equal(cut('-427', '800'), '-|427');
  assert.equal(cut('427', '800-'), '|427');
  assert.equal(cut('427', ' -'), '427');
  // A slash between word characters holds them together (Word, LibreOffice), where UAX #14 breaks after it; a slash
  // before a space or an ideograph still lets the line break after it.
  assert.equal(cut('see http://www.opm.gov/employ/html/Citizen.htm and/or 1/2 a/ b 漢/字'), 'see |http://www.opm.gov/employ/html/Citizen.htm |and/or |1/2 |a/ |b |漢/|字');
  assert.equal(cut('ust', 'www.justice.gov/'), 'ust');
  // Curly quotes amid East Asian text (Unicode 15.1 LB19a, as Word breaks Chinese): before “ and after ”, never
  // after “ nor before ”; between Latin words they still hold to their word.
  assert.equal(cut('未被“信用中国”（www.creditchina.gov.cn)、中国'), '未|被|“信|用|中|国”|（www.creditchina.gov.cn)、|中|国');
  assert.equal(cut('He said “hello” to “世界”。'), 'He |said |“hello” |to |“世|界”。');
  assert.equal(cut('“信用', '未被'), '|“信|用');
  // After a closing quote that ends the text before (the fragment holds no quote of its own).
  assert.equal(cut('中国', '信用”'), '|中|国');
  assert.equal(cut('中国', '”信用'), '|中|国');
  assert.equal(cut('abc', '信用”'), 'abc');
  // Kinsoku beyond UAX #14: small kana, the prolonged sound mark and iteration marks do not start a line.
  assert.equal(cut('テッーク々'), 'テッー|ク々');
});

test('line breaks across fragments: the text before decides the opportunity at position 0', () => {
  assert.equal(cut('字です', '漢'), '|字|で|す');
  assert.equal(cut('。です', '漢'), '。|で|す');
  assert.equal(cut('abc', 'x '), '|abc');
  assert.equal(cut('abc', 'x'), 'abc');
  assert.equal(cut('字', '（'), '字');
});
