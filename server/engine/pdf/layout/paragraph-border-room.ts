/**
 * Room for a paragraph's borders (w:pBdr). Word and LibreOffice put a top border's line and its w:space above
 * the first line of text and a bottom border's below the last: a Title with a 1 pt line 10 pt above it and a 3 pt
 * line 15 pt below it (poitl__OKR) is 29 pt taller than its text. The first line grows at its top, the last at its
 * foot, so the flow keeps the room with the lines (a paragraph split across pages has the top room on its first
 * page only); the paragraph's box (flow/emit.ts) spans them and draws its top and bottom lines inside its edges.
 * On a document grid the text keeps its own whole pitches, as LibreOffice lays it out. Consecutive paragraphs
 * with the same borders are one box (docx/neighbours.ts): the top and bottom lines between them are gone, and so
 * is their room. Side borders take no room in the width: their line sits w:space outside the text.
 */
import type { BorderLine } from '../../model/types.js';
import type { Borders, Line } from './items.js';
import { num } from './fmt.js';

/** Word's border spacing beside the text when a side border does not say (w:space absent). */
const SIDE_SPACE = 4;
/** w:space is at most 31 pt (ST_PointMeasure). */
const MAX_SPACE = 31;

/** How much height a border line takes: a double line is two lines and the gap between them. */
export function borderThickness(b: BorderLine | undefined): number {
  if (!b || !(num(b.width, 0) > 0)) return 0;
  return b.style === 'double' ? b.width * 3 : b.width;
}

function space(b: BorderLine, fallback: number): number {
  return Math.min(Math.max(num(b.space, fallback), 0), MAX_SPACE);
}

/** How far a side border's line lies outside the text: its w:space (4 pt when absent); 0 without a border. */
export function sideSpace(line: BorderLine | undefined): number {
  return line ? space(line, SIDE_SPACE) : 0;
}

/** What a top or bottom border adds to its line: its space and its thickness (nothing without a border). */
function room(b: BorderLine | undefined): number {
  return borderThickness(b) > 0 ? space(b!, 0) + borderThickness(b) : 0;
}

/** Grows the first line by the top border's room and the last by the bottom border's (a new Line each). */
export function padForBorders(lines: Line[], borders: Borders | null): void {
  const top = room(borders?.top);
  const bottom = room(borders?.bottom);
  if (lines.length === 0 || (top === 0 && bottom === 0)) return;
  const first = lines[0];
  lines[0] = { ...first, height: first.height + top, baseline: first.baseline + top };
  const last = lines[lines.length - 1];
  lines[lines.length - 1] = { ...last, height: last.height + bottom };
}
