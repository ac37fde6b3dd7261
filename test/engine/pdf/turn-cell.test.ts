/**
 * pdf/flow/turn-cell.ts: a vertical-text cell's boxes, drawn upright from (0, 0), turned a quarter into the cell.
 * Cell inner rectangle: x 100–140, y 200–300.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { turnBoxes } from '../../../server/engine/pdf/flow/turn-cell.js';
import type { Box, FillBox, LineBox, TextBox } from '../../../server/engine/pdf/flow/boxes.js';
import type { Rgb } from '../../../server/engine/pdf/layout/color.js';

const BLACK: Rgb = [0, 0, 0];
const frame = { x0: 100, y0: 200, x1: 140, y1: 300, shift: 0 };

function upright(): [TextBox, LineBox, FillBox] {
  // A word at the start of the first line (baseline 10), its underline, and a 30 × 12 highlight behind it.
  const text = { kind: 'text', x: 0, y: 10, width: 30, text: 'Word', face: {} as TextBox['face'], size: 10, color: BLACK } as TextBox;
  const line: LineBox = { kind: 'line', x1: 0, y1: 12, x2: 30, y2: 12, width: 0.5, color: BLACK, dash: null };
  const fill: FillBox = { kind: 'fill', x: 0, y: 0, w: 30, h: 12, color: BLACK };
  return [text, line, fill];
}

test('btLr: the first line at the left edge, read upwards from the bottom; text at 90°, rectangles turned', () => {
  const boxes = upright();
  turnBoxes(boxes as Box[], { ...frame, direction: 'btLr' });
  const [text, line, fill] = boxes;
  assert.deepEqual([text.x, text.y, text.angle], [110, 300, 90]);
  // The underline runs upwards along the word, to the right of its baseline (below the letters, turned).
  assert.deepEqual([line.x1, line.y1, line.x2, line.y2], [112, 300, 112, 270]);
  assert.deepEqual([fill.x, fill.y, fill.w, fill.h], [100, 270, 12, 30]);
});

test('tbRl: the first line at the right edge, read downwards from the top; text at 270°, shift moves it left', () => {
  const boxes = upright();
  turnBoxes(boxes as Box[], { ...frame, shift: 5, direction: 'tbRl' });
  const [text, line, fill] = boxes;
  assert.deepEqual([text.x, text.y, text.angle], [125, 200, 270]);
  assert.deepEqual([line.x1, line.y1, line.x2, line.y2], [123, 200, 123, 230]);
  assert.deepEqual([fill.x, fill.y, fill.w, fill.h], [123, 200, 12, 30]);
});
