/**
 * Charts' automatic value axes (engine/pdf/layout/chart-scale.ts): bounds and major unit as LibreOffice's chart2
 * ScaleAutomatism chooses them (Excel's rule for the bounds): up to 10 intervals of 1, 2 or 5 × 10^n, zero reached
 * by values spread wide on one side of it, one more unit at an end a value comes within 1/21 of, fewer intervals
 * on an axis too short for 10 labels; the author's c:min, c:max and c:majorUnit win. The expected ticks are those
 * LibreOffice 7.4 prints for the corpus charts holding the same data (aspose__Combo_chart, poitl__reference_chart).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { valueScale, type Scale } from '../../../server/engine/pdf/layout/chart-scale.js';

const VALUE = { towardZero: true, roomAtEnds: true };
const span = (s: Scale): string => `${s.min}..${s.max} by ${s.step}: ${s.ticks.join(' ')}`;

test('values 1.8 to 4.5 (the Combo chart\'s bars): 0 to 5 by 0.5, not by 1', () => {
  assert.equal(span(valueScale(1.8, 4.5, {}, VALUE)), '0..5 by 0.5: 0 0.5 1 1.5 2 2.5 3 3.5 4 4.5 5');
});

test('values up to 5 (Word\'s default chart): 0 to 6 by 1, as 0 to 5.5 by 0.5 would be 11 intervals; 3-D: 0 to 5 by 0.5', () => {
  assert.equal(span(valueScale(1.8, 5, {}, VALUE)), '0..6 by 1: 0 1 2 3 4 5 6');
  assert.equal(span(valueScale(1.8, 5, {}, { towardZero: true, roomAtEnds: false })), '0..5 by 0.5: 0 0.5 1 1.5 2 2.5 3 3.5 4 4.5 5');
  assert.equal(span(valueScale(1.8, 10, {}, VALUE)), '0..12 by 2: 0 2 4 6 8 10 12');
  assert.equal(span(valueScale(12, 32, {}, VALUE)), '0..35 by 5: 0 5 10 15 20 25 30 35');
});

test('a scatter chart\'s x axis does not reach for zero; values close together start half their spread lower', () => {
  assert.equal(span(valueScale(0.7, 2.6, {}, { towardZero: false, roomAtEnds: true })), '0.5..3 by 0.5: 0.5 1 1.5 2 2.5 3');
  assert.equal(span(valueScale(95, 100, {}, VALUE)), '92..101 by 1: 92 93 94 95 96 97 98 99 100 101');
});

test('negative values are scaled as their mirror image; mixed signs get a unit of room at both ends', () => {
  assert.equal(span(valueScale(-5, -2, {}, VALUE)), '-6..0 by 1: -6 -5 -4 -3 -2 -1 0');
  assert.equal(span(valueScale(-3, 7, {}, VALUE)), '-4..8 by 2: -4 -2 0 2 4 6 8');
});

test('the author\'s c:min, c:max and c:majorUnit win; units count from a fixed end', () => {
  assert.equal(span(valueScale(1.8, 5, { min: 1 }, VALUE)), '1..5.5 by 0.5: 1 1.5 2 2.5 3 3.5 4 4.5 5 5.5');
  assert.equal(span(valueScale(1.8, 5, { majorUnit: 2 }, VALUE)), '0..6 by 2: 0 2 4 6');
  assert.equal(span(valueScale(1.8, 5, { max: 7 }, VALUE)), '0..7 by 1: 0 1 2 3 4 5 6 7');
  assert.equal(span(valueScale(1.8, 5, { min: 0, max: 5, majorUnit: 2.5 }, VALUE)), '0..5 by 2.5: 0 2.5 5');
});

test('an axis with room for fewer than 10 labels gets fewer intervals (its length over one label\'s height)', () => {
  let measured: Scale | undefined;
  const short = valueScale(1.8, 5, {}, VALUE, { length: 50, label: (s) => ((measured = s), 11) });
  assert.equal(measured && span(measured), '0..6 by 1: 0 1 2 3 4 5 6', 'the first scale is the one measured');
  assert.equal(span(short), '0..6 by 2: 0 2 4 6');
  assert.equal(span(valueScale(1.8, 5, {}, VALUE, { length: 200, label: () => 11 })), '0..6 by 1: 0 1 2 3 4 5 6');
});
