/**
 * Lines around the page (model PageBorders, Word's w:pgBorders), as boxes for the flow to put under or over a
 * page's content. Each side sits at its `space` from the page's edge (offsetFrom 'page') or outside the margins'
 * box (offsetFrom 'text', the default), its line's width inside that distance; the sides meet at the corners;
 * with a shadow, the bottom and right lines are drawn again just outside.
 */
import type { BorderLine, PageBorders } from '../../model/types.js';
import { parseColor } from '../layout/color.js';
import { num } from '../layout/fmt.js';
import type { Box } from './boxes.js';
import { Emitter } from './emit.js';
import type { PageGeometry } from './section.js';

/** w:space is at most 31 pt (ST_PointMeasure); a .json model may say anything. */
const MAX_SPACE = 31;

function usable(line: BorderLine | undefined): line is BorderLine {
  return !!line && typeof line === 'object' && num(line.width, 0) > 0;
}

/** Whether the section's page `index` (0: its first) has the borders. */
export function bordersOnPage(borders: PageBorders | undefined, index: number): borders is PageBorders {
  if (!borders || typeof borders !== 'object') return false;
  if (borders.display === 'first') return index === 0;
  if (borders.display === 'notFirst') return index > 0;
  return true;
}

/** The boxes of the page borders of a page of `geo` (its margins as the section sets them). */
export function pageBorderBoxes(borders: PageBorders, geo: PageGeometry): Box[] {
  const sides = { top: borders.top, right: borders.right, bottom: borders.bottom, left: borders.left };
  const width = (line: BorderLine | undefined): number => (usable(line) ? Math.min(num(line.width, 0), 12) : 0);
  const space = (line: BorderLine | undefined): number => (usable(line) ? Math.min(Math.max(num(line.space, 0), 0), MAX_SPACE) : 0);
  const fromPage = borders.offsetFrom === 'page';
  // Each side's line's middle: from the page's edge inwards, or from the margins outwards.
  const at = {
    top: fromPage ? space(sides.top) + width(sides.top) / 2 : geo.top - space(sides.top) - width(sides.top) / 2,
    left: fromPage ? space(sides.left) + width(sides.left) / 2 : geo.left - space(sides.left) - width(sides.left) / 2,
    bottom: fromPage ? geo.height - space(sides.bottom) - width(sides.bottom) / 2 : geo.bottom + space(sides.bottom) + width(sides.bottom) / 2,
    right: fromPage ? geo.width - space(sides.right) - width(sides.right) / 2 : geo.right + space(sides.right) + width(sides.right) / 2,
  };
  // Kept on the page.
  at.top = Math.max(at.top, 0);
  at.left = Math.max(at.left, 0);
  at.bottom = Math.min(at.bottom, geo.height);
  at.right = Math.min(at.right, geo.width);
  const emitter = new Emitter();
  const draw = (line: BorderLine | undefined, x1: number, y1: number, x2: number, y2: number): void => {
    if (!usable(line)) return;
    emitter.rule(x1, y1, x2, y2, width(line), parseColor(line.color) ?? [0, 0, 0], line.style);
  };
  // Horizontal sides reach over the vertical ones' widths, so the corners are closed.
  draw(sides.top, at.left - width(sides.left) / 2, at.top, at.right + width(sides.right) / 2, at.top);
  draw(sides.bottom, at.left - width(sides.left) / 2, at.bottom, at.right + width(sides.right) / 2, at.bottom);
  draw(sides.left, at.left, at.top, at.left, at.bottom);
  draw(sides.right, at.right, at.top, at.right, at.bottom);
  if (borders.shadow === true) {
    // ECMA-376 §17.3.4 (shadow): the bottom and right borders are duplicated below and to the right of their place.
    const [b, r] = [width(sides.bottom), width(sides.right)];
    draw(sides.bottom, at.left - width(sides.left) / 2 + b, at.bottom + b, at.right + r / 2 + r, at.bottom + b);
    draw(sides.right, at.right + r, at.top + r, at.right + r, at.bottom + b / 2 + b);
  }
  return emitter.out;
}
