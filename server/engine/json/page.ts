/** The "page" object of the .json format → PageSetup. */
import type { PageSetup } from '../model/types.js';
import { at, array, fail, object, oneOf, onlyKeys, type Json } from './read.js';
import { length, PAGE_SIZES } from './units.js';

const PAGE_KEYS = new Set(['size', 'orientation', 'margins', 'headerDistance', 'footerDistance']);
const MM20 = 56.693;
const MM10 = 28.346;

export const DEFAULT_PAGE: PageSetup = {
  width: PAGE_SIZES.A4[0],
  height: PAGE_SIZES.A4[1],
  margins: { top: MM20, right: MM20, bottom: MM20, left: MM20 },
  headerDistance: MM10,
  footerDistance: MM10,
};

function margins(value: Json, path: string, base: PageSetup['margins']): PageSetup['margins'] {
  if (typeof value === 'number' || typeof value === 'string') {
    const m = length(value, path);
    return { top: m, right: m, bottom: m, left: m };
  }
  if (Array.isArray(value)) {
    const list = array(value, path).map((v, i) => length(v, at(path, i)));
    if (list.length === 2) return { top: list[0], right: list[1], bottom: list[0], left: list[1] };
    if (list.length === 4) return { top: list[0], right: list[1], bottom: list[2], left: list[3] };
    fail(path, 'margins as a list take 2 values [vertical, horizontal] or 4 [top, right, bottom, left].');
  }
  const obj = object(value, path);
  onlyKeys(obj, path, new Set(['top', 'right', 'bottom', 'left']));
  const out = { ...base };
  for (const side of ['top', 'right', 'bottom', 'left'] as const) {
    if (obj[side] !== undefined) out[side] = length(obj[side], at(path, side));
  }
  return out;
}

/** Reads a page object on top of `base` (the template's page, for a section that changes only some of it). */
export function readPage(value: Json | undefined, path: string, base: PageSetup = DEFAULT_PAGE): PageSetup {
  if (value === undefined) return base;
  const obj = object(value, path);
  onlyKeys(obj, path, PAGE_KEYS);
  let [width, height] = [base.width, base.height];
  if (obj.size !== undefined) {
    const sp = at(path, 'size');
    if (Array.isArray(obj.size)) {
      if (obj.size.length !== 2) fail(sp, 'a page size as a list is [width, height].');
      width = length(obj.size[0], at(sp, 0), 72);
      height = length(obj.size[1], at(sp, 1), 72);
    } else {
      [width, height] = PAGE_SIZES[oneOf(obj.size, sp, Object.keys(PAGE_SIZES))];
    }
  }
  if (obj.orientation !== undefined) {
    const orientation = oneOf(obj.orientation, at(path, 'orientation'), ['portrait', 'landscape'] as const);
    const [short, long] = width < height ? [width, height] : [height, width];
    [width, height] = orientation === 'portrait' ? [short, long] : [long, short];
  }
  const page: PageSetup = {
    width,
    height,
    margins: obj.margins === undefined ? base.margins : margins(obj.margins, at(path, 'margins'), base.margins),
  };
  const headerDistance = obj.headerDistance === undefined ? base.headerDistance : length(obj.headerDistance, at(path, 'headerDistance'));
  const footerDistance = obj.footerDistance === undefined ? base.footerDistance : length(obj.footerDistance, at(path, 'footerDistance'));
  if (headerDistance !== undefined) page.headerDistance = headerDistance;
  if (footerDistance !== undefined) page.footerDistance = footerDistance;
  if (page.margins.left + page.margins.right >= page.width - 36) fail(at(path, 'margins'), 'the left and right margins leave less than half an inch for the text.');
  if (page.margins.top + page.margins.bottom >= page.height - 36) fail(at(path, 'margins'), 'the top and bottom margins leave less than half an inch for the text.');
  return page;
}
