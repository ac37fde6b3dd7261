/**
 * Floating objects (model/floats.ts) on the page: where a float sits (its position measured from the page, the
 * margins, the column or its anchor paragraph), its preset shape and content as boxes in front of or behind
 * the text, and the area it keeps free of the text flowing around it.
 */
import type { FloatPlacement, Table } from '../../model/types.js';
import type { FloatAxis } from '../../model/floats.js';
import { parseColor, type Rgb } from '../layout/color.js';
import type { LaidBlock, LaidTable } from '../layout/items.js';
import type { Box, ShapeBox } from './boxes.js';
import { Emitter, type FieldValues } from './emit.js';
import type { PageGeometry } from './section.js';
import { copyWith } from '../../copy.js';

/** The areas a float's position can be measured from, in page coordinates. */
export interface FloatFrame {
  pageWidth: number;
  pageHeight: number;
  /** The margins' inner edges (the body's content box). */
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** The column (or cell) the anchor is in. */
  columnLeft: number;
  columnRight: number;
  /** Top of the anchor paragraph. */
  anchorTop: number;
}

/** The area text keeps out of (page coordinates, the float's wrap distances included). */
export interface Exclusion {
  x1: number;
  x2: number;
  y1: number;
  y2: number;
  wrap: 'square' | 'topAndBottom';
  /** The sides text may take beside a square-wrapped float (model/floats.ts; absent: both). */
  side?: FloatPlacement['side'];
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

const BLACK: Rgb = [0, 0, 0];

function finite(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n);
}

/** The float of a model table, when it has a usable one (a .json model may hold anything). */
export function floatOf(table: Table): FloatPlacement | undefined {
  const f = table.style && typeof table.style === 'object' ? table.style.float : undefined;
  if (!f || typeof f !== 'object' || !finite(f.width) || !finite(f.height) || f.width < 0 || f.height < 0) return undefined;
  if (!f.x || typeof f.x !== 'object' || !f.y || typeof f.y !== 'object') return undefined;
  return f;
}

function along<F>(axis: FloatAxis<F>, start: number, end: number, size: number): number {
  const span = finite(axis.span) ? axis.span : size;
  let at = start;
  if (axis.align === 'center') at = start + (end - start - span) / 2;
  else if (axis.align === 'end') at = end - span;
  return at + (finite(axis.offset) ? axis.offset : 0) + (finite(axis.share) ? axis.share * (end - start) : 0);
}

/** Where a float sits on the page. */
export function floatRect(f: FloatPlacement, frame: FloatFrame): Rect {
  let h0 = frame.columnLeft;
  let h1 = frame.columnRight;
  switch (f.x.from) {
    case 'page': [h0, h1] = [0, frame.pageWidth]; break;
    case 'margin': [h0, h1] = [frame.left, frame.right]; break;
    case 'leftMargin': case 'insideMargin': [h0, h1] = [0, frame.left]; break;
    case 'rightMargin': case 'outsideMargin': [h0, h1] = [frame.right, frame.pageWidth]; break;
  }
  let v0 = frame.anchorTop;
  let v1 = frame.bottom;
  switch (f.y.from) {
    case 'page': [v0, v1] = [0, frame.pageHeight]; break;
    case 'margin': [v0, v1] = [frame.top, frame.bottom]; break;
    case 'topMargin': case 'insideMargin': [v0, v1] = [0, frame.top]; break;
    case 'bottomMargin': case 'outsideMargin': [v0, v1] = [frame.bottom, frame.pageHeight]; break;
  }
  return { x: along(f.x, h0, h1, f.width), y: along(f.y, v0, v1, f.height), w: f.width, h: f.height };
}

/** The float's shape as a box (nothing when it has none to draw). */
function shapeBox(f: FloatPlacement, r: Rect): ShapeBox | null {
  const s = f.shape;
  if (!s || typeof s !== 'object') return null;
  const fill = s.fill ? parseColor(s.fill) : null;
  const line = s.line && finite(s.line.width) && s.line.width > 0 ? s.line : undefined;
  if (!fill && !line) return null;
  const dash = !line || !line.style || line.style === 'single' || line.style === 'double' ? null : line.style === 'dotted' ? [line.width, line.width * 1.5] : [line.width * 4, line.width * 2];
  const tip = Array.isArray(s.tip) && finite(s.tip[0]) && finite(s.tip[1]) ? ([s.tip[0], s.tip[1]] as [number, number]) : undefined;
  return {
    ...(tip ? { tip } : {}),
    kind: 'shape',
    geometry: s.geometry,
    x: r.x,
    y: r.y,
    w: r.w,
    h: r.h,
    fill,
    stroke: line ? { width: Math.min(line.width, 12), color: parseColor(line.color) ?? BLACK, dash } : null,
    flip: s.flip === true,
    head: s.head === true,
    tail: s.tail === true,
  };
}

/** A laid-out float drawn at `r` (its shape, then its content), as boxes of its own. */
export function drawFloat(emitter: Emitter, t: LaidTable, f: FloatPlacement, r: Rect, fields: FieldValues): Box[] {
  const page = emitter.out;
  const own: Box[] = [];
  emitter.out = own;
  const shape = shapeBox(f, r);
  if (shape) own.push(shape);
  emitter.grid(t, r.x - t.x, r.y, fields);
  emitter.out = page;
  if (finite(f.rotation) && f.rotation % 360 !== 0) turnText(own, f.rotation, r);
  if (f.decorative === true) for (const b of own) if (b.kind === 'text') b.decorative = true;
  return own;
}

/**
 * Turns a float's text `degrees` clockwise about the middle of `r` (WordArt): each piece's baseline start moves
 * round the middle and its text is drawn at that angle (counter-clockwise in the painter's terms).
 */
function turnText(boxes: Box[], degrees: number, r: Rect): void {
  const phi = (degrees * Math.PI) / 180;
  const [cos, sin] = [Math.cos(phi), Math.sin(phi)];
  const [cx, cy] = [r.x + r.w / 2, r.y + r.h / 2];
  for (const b of boxes) {
    if (b.kind !== 'text') continue;
    // Clockwise on a page whose y grows downwards: (dx, dy) → (dx·cos φ − dy·sin φ, dx·sin φ + dy·cos φ).
    const [dx, dy] = [b.x - cx, b.y - cy];
    b.x = cx + dx * cos - dy * sin;
    b.y = cy + dx * sin + dy * cos;
    b.angle = (((b.angle ?? 0) - degrees) % 360 + 360) % 360;
  }
}

/** The stacking order of each float's boxes already on a page (placement z; absent: document order). */
const stacked = new WeakMap<Box, number>();

/**
 * Where a float's boxes go on the page. Behind the text: under the text, over the floats behind it that stack
 * lower (or equal: document order), under those that stack higher. In front: to `front` when given (the flow adds
 * them once the page is full), else on top — then under the front floats already there that stack higher.
 */
function layer(page: Box[], own: Box[], behind: boolean, z: number | undefined, front?: Box[]): void {
  const order = z ?? -Infinity;
  for (const b of own) stacked.set(b, order);
  const higher = (b: Box): boolean => stacked.has(b) && (stacked.get(b) as number) > order;
  if (behind) {
    // The leading run of boxes on the page that are behind-the-text floats lower than (or as low as) this one.
    let at = 0;
    while (at < page.length && stacked.has(page[at]) && !higher(page[at])) at++;
    page.splice(at, 0, ...own);
    return;
  }
  const target = front ?? page;
  let at = target.length;
  while (at > 0 && higher(target[at - 1])) at--;
  target.splice(at, 0, ...own);
}

/** The area a float keeps free of text, or null when text runs over or under it. */
export function exclusionOf(f: FloatPlacement, r: Rect): Exclusion | null {
  if (f.wrap !== 'square' && f.wrap !== 'topAndBottom') return null;
  const d = f.distance;
  const dist = (n: unknown): number => (finite(n) ? Math.max(0, n) : 0);
  const e: Exclusion = { x1: r.x - dist(d?.left), x2: r.x + r.w + dist(d?.right), y1: r.y - dist(d?.top), y2: r.y + r.h + dist(d?.bottom), wrap: f.wrap };
  if (f.wrap === 'square' && f.side) e.side = f.side;
  return e;
}

/** Where lines go: from `top`, between `left` and `right` while beside floats that reach from y1 to y2. */
export interface Around {
  left: number;
  right: number;
  top: number;
  y1: number;
  y2: number;
  /** The float's room inside [left, right] when text passes on both sides of it (page coordinates). */
  hole?: { start: number; end: number };
}

/**
 * Narrowest room (points) worth putting text beside a float whose wrapText is 'largest' (or unknown: VML without
 * a side); less and the text goes below it.
 */
const MIN_BESIDE = 72;
/**
 * Narrowest room beside a float text may take on any side ('bothSides', 'left', 'right'): Word and LibreOffice
 * fill gaps of a few words there (docx2pdf__TotalPagesWithImageTextWrapping: 47 and 55 pt gaps beside its
 * pictures hold text). Half an inch: room for a word or two of body text.
 */
const MIN_BESIDE_SIDES = 36;

/**
 * The widest free span in [left, right] between the square-wrapped floats `hits`, on a side each float lets text
 * take (wrapText 'left': only left of it; 'right': only right of it); null when none is wide enough.
 */
function widestGap(hits: Exclusion[], left: number, right: number): { left: number; right: number; hole?: { start: number; end: number } } | null {
  const edges = hits.map((e) => ({ a: Math.max(left, e.x1), b: Math.min(right, e.x2), side: e.side })).sort((x, y) => x.a - y.a);
  // A gap is usable when the float on its left allows text on its right and the one on its right allows text on its left.
  const gaps: Array<{ left: number; right: number }> = [];
  let from = left;
  let leftAllows = true;
  for (const e of edges) {
    if (leftAllows && e.side !== 'right' && e.a > from) gaps.push({ left: from, right: e.a });
    if (e.b >= from) leftAllows = e.side !== 'left';
    from = Math.max(from, e.b);
  }
  if (leftAllows && right > from) gaps.push({ left: from, right });
  const min = hits.some((e) => e.side === undefined || e.side === 'largest') ? MIN_BESIDE : MIN_BESIDE_SIDES;
  // One float with room on both sides that lets text take both (wrapText bothSides, ECMA-376 §20.4.3.7): each
  // line fills the room left of it, then goes on right of it (LibreOffice: SwTextFormatter::CalcFlyWidth in
  // sw/source/core/text/itrform2.cxx puts a fly portion in the line and formats the text on after it).
  const [a, b] = gaps;
  if (hits.length === 1 && hits[0].side === 'bothSides' && gaps.length === 2 && a.right - a.left >= min && b.right - b.left >= min) {
    return { left: a.left, right: b.right, hole: { start: a.right, end: b.left } };
  }
  let best: { left: number; right: number } | null = null;
  for (const g of gaps) if (g.right - g.left >= min && (!best || g.right - g.left > best.right - best.left)) best = g;
  return best;
}

/**
 * Where text between `top` and `top + height` may go in the column [left, right] given the page's exclusions:
 * the same column (nothing in the way), a narrower span beside a float, or a lower top (below a float that
 * leaves no room beside it). Lines take one span: beside floats that leave room on both sides, the wider.
 */
export function wrapAround(exclusions: Exclusion[], left: number, right: number, top: number, height: number): Around {
  let y = top;
  // Each jump below a float can meet another one: at most one pass per float.
  for (let pass = 0; pass <= exclusions.length; pass++) {
    const hits = exclusions.filter((e) => e.y1 < y + height && e.y2 > y && e.x1 < right && e.x2 > left);
    if (hits.length === 0) return { left, right, top: y, y1: y, y2: y };
    const best = hits.every((e) => e.wrap === 'square') ? widestGap(hits, left, right) : null;
    if (best) return copyWith(best, { top: y, y1: Math.min(...hits.map((e) => e.y1)), y2: Math.max(...hits.map((e) => e.y2)) });
    y = Math.max(...hits.map((e) => e.y2));
  }
  return { left, right, top: y, y1: y, y2: y };
}

/** The float's room of `around` from the column's left edge `left` (a line's coordinates), when there is one. */
export function holeOf(around: Around, left: number): { hole?: { start: number; end: number } } {
  return around.hole ? { hole: { start: around.hole.start - left, end: around.hole.end - left } } : {};
}

/** Whether two holes (or none) are the same. */
export function sameHole(a: { start: number; end: number } | undefined, b: { start: number; end: number } | undefined): boolean {
  return a === b || (!!a && !!b && Math.abs(a.start - b.start) < 0.01 && Math.abs(a.end - b.end) < 0.01);
}

/** The frame of a float anchored at `anchorTop` in the column [columnLeft, columnRight] of a page. */
export function frameOf(geo: PageGeometry, columnLeft: number, columnRight: number, anchorTop: number): FloatFrame {
  return { pageWidth: geo.width, pageHeight: geo.height, left: geo.left, right: geo.right, top: geo.top, bottom: geo.bottom, columnLeft, columnRight, anchorTop };
}

/**
 * Places and draws a laid-out float (in front of the text: into `front` when given); returns the area it keeps
 * free of text (null: none).
 */
export function placeFloat(emitter: Emitter, t: LaidTable, frame: FloatFrame, fields: FieldValues, front?: Box[]): Exclusion | null {
  if (!t.float) return null;
  const r = floatRect(t.float, frame);
  layer(emitter.out, drawFloat(emitter, t, t.float, r, fields), t.float.behind === true, finite(t.float.z) ? t.float.z : undefined, front);
  return exclusionOf(t.float, r);
}

/**
 * An emitter's float placer. Made as a local and then stored, never as a function literal assigned straight to the
 * property: V8's parser takes `obj.prop = (…) => …` for a method being installed and allocates that closure in the
 * old generation (Node 24: 56 bytes per closure; Node 20 does not). Made once per body flow, such a closure outlived
 * its render there, and a scavenge takes what an old object points to as alive: the flow it closes over, and through
 * it the render's whole layout, bound model and data, were copied and promoted on every render until the next full
 * collection (docs/benchmarks.md, session 19, promo19; eslint.config.js forbids the form in server/engine).
 */
type FloatAt = NonNullable<Emitter['floatAt']>;

/**
 * Lets `emitter` place the floats it meets in stacks (headers, footers, cells) on a page of `geo()`; with
 * `behind` false, those behind the text are skipped (placed apart: behindBoxes).
 */
export function placeFloatsInStacks(emitter: Emitter, geo: () => PageGeometry, behind = true): void {
  // Through a local, not written as `emitter.floatAt = (…) => …`: see FloatAt.
  const floatAt: FloatAt = (t, x0, y, fields) => {
    if (!behind && t.float?.behind) return;
    const g = geo();
    placeFloat(emitter, t, frameOf(g, x0, Math.max(g.right, x0), y), fields);
  };
  emitter.floatAt = floatAt;
}

/** The boxes of the floats behind the text in a stack (a header or footer at `y`), nothing else of it. */
export function behindBoxes(blocks: LaidBlock[], geo: PageGeometry, y: number, fields: FieldValues): Box[] {
  const scratch = new Emitter();
  const out: Box[] = [];
  const floatAt: FloatAt = (t, x0, anchorTop, f) => {
    if (!t.float?.behind) return;
    const r = floatRect(t.float, frameOf(geo, x0, Math.max(geo.right, x0), anchorTop));
    for (const b of drawFloat(scratch, t, t.float, r, f)) out.push(b);
  };
  scratch.floatAt = floatAt;
  scratch.stack(blocks, geo.left, y, fields);
  return out;
}
