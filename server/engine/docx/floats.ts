/**
 * Anchored drawings (wp:anchor) and absolutely positioned VML shapes → floating objects (model/floats.ts): one
 * one-cell table per picture, text box or shape, carrying where it sits (wp:positionH/V or the VML style), how
 * text wraps around it, its preset shape, fill and outline. A group (wpg:wgp) or drawing canvas (wpc:wpc) gives
 * one float per shape inside it, its child transform applied.
 */
import type { Block, BorderLine, Paragraph, RunStyle, Table, TableCell, TableRow } from '../model/types.js';
import type { FloatAxis, FloatFromX, FloatFromY, FloatPlacement, FloatShape } from '../model/floats.js';
import { childThroughAlternate } from './alternate.js';
import type { PartContext } from './context.js';
import { drawingColor, shapeDecoration, vmlDecoration, type Decoration } from './decoration.js';
import { imageParagraph, imageRun, textBoxBlocks, vmlStyle, withOutline } from './drawing.js';
import { toParagraphStyle } from './resolve.js';
import { emu, round2 } from './units.js';
import { DRAWING_MIME, encodeDrawing } from '../images/drawing.js';
import { isEastAsianWide } from '../pdf/text/east-asian-width.js';
import { toDataUri } from '../images/sniff.js';
import { wordArtDrawing } from '../images/wordart.js';
import { child, children, textOf, type XElement } from './xml.js';

const FROM_X = new Set<FloatFromX>(['page', 'margin', 'column', 'character', 'leftMargin', 'rightMargin', 'insideMargin', 'outsideMargin']);
const FROM_Y = new Set<FloatFromY>(['page', 'margin', 'paragraph', 'line', 'topMargin', 'bottomMargin', 'insideMargin', 'outsideMargin']);

/** Word's default text box insets: 0.1 inch left and right, 0.05 inch top and bottom. */
const INSET_X = 7.2;
const INSET_Y = 3.6;

/** A rectangle in points inside the anchor's box (for shapes within a group). */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

function alignOf(value: string): FloatAxis<never>['align'] {
  if (value === 'center') return 'center';
  if (value === 'right' || value === 'bottom' || value === 'outside') return 'end';
  return value ? 'start' : undefined;
}

function axisOf<F extends string>(pos: XElement | undefined, allowed: Set<F>, fallback: F): FloatAxis<F> {
  const from = (pos?.attrs.relativeFrom ?? '') as F;
  const axis: FloatAxis<F> = { from: allowed.has(from) ? from : fallback };
  const offset = emu(textOf(child(pos, 'wp:posOffset')).trim());
  const align = alignOf(textOf(child(pos, 'wp:align')).trim());
  // Word 2010+ positions by a percentage of the reference area (thousandths of a percent), in the mc:Choice it
  // reads; the Fallback's posOffset is that share of one page size.
  const pct = textOf(child(pos, 'wp14:pctPosHOffset') ?? child(pos, 'wp14:pctPosVOffset')).trim();
  if (align) axis.align = align;
  else if (!child(pos, 'wp:posOffset') && pct !== '' && Number.isFinite(Number(pct))) {
    axis.offset = 0;
    axis.share = Number(pct) / 100_000;
  } else axis.offset = round2(offset ?? 0);
  return axis;
}

const SIDES: Record<string, FloatPlacement['side']> = { bothSides: 'bothSides', both: 'bothSides', left: 'left', right: 'right', largest: 'largest' };

/** How text goes round a wp:anchor: its wrap and, square-wrapped, the sides text may take (wrapText). */
function wrapOf(frame: XElement): Pick<FloatPlacement, 'wrap' | 'side'> {
  for (const c of children(frame)) {
    if (c.name === 'wp:wrapSquare' || c.name === 'wp:wrapTight' || c.name === 'wp:wrapThrough') return { wrap: 'square', side: SIDES[c.attrs.wrapText ?? ''] };
    if (c.name === 'wp:wrapTopAndBottom') return { wrap: 'topAndBottom' };
  }
  return { wrap: 'none' };
}

/** Where a wp:anchor sits and how text goes around it. */
function anchorPlacement(frame: XElement, width: number, height: number): FloatPlacement {
  const simple = frame.attrs.simplePos === '1' || frame.attrs.simplePos === 'true' ? child(frame, 'wp:simplePos') : undefined;
  const x: FloatAxis<FloatFromX> = simple ? { from: 'page', offset: round2(emu(simple.attrs.x) ?? 0) } : axisOf(childThroughAlternate(frame, 'wp:positionH'), FROM_X, 'column');
  const y: FloatAxis<FloatFromY> = simple ? { from: 'page', offset: round2(emu(simple.attrs.y) ?? 0) } : axisOf(childThroughAlternate(frame, 'wp:positionV'), FROM_Y, 'paragraph');
  const { wrap, side } = wrapOf(frame);
  const placement: FloatPlacement = { x, y, width: round2(width), height: round2(height), wrap };
  if (side) placement.side = side;
  if (frame.attrs.behindDoc === '1' || frame.attrs.behindDoc === 'true') placement.behind = true;
  const z = Number(frame.attrs.relativeHeight);
  if (frame.attrs.relativeHeight && Number.isFinite(z)) placement.z = z;
  const d = (name: string): number => round2(emu(frame.attrs[name]) ?? 0);
  if (placement.wrap !== 'none') placement.distance = { top: d('distT'), right: d('distR'), bottom: d('distB'), left: d('distL') };
  return placement;
}

/** A piece of a float at `rect` inside the anchor's box (the whole box for a lone object). */
function moved(base: FloatPlacement, rect: Rect, whole: { w: number; h: number }): FloatPlacement {
  const shift = <F>(axis: FloatAxis<F>, delta: number, span: number): FloatAxis<F> => {
    const out: FloatAxis<F> = { ...axis, offset: round2((axis.offset ?? 0) + delta) };
    if (axis.align) out.span = round2(span);
    return out;
  };
  return { ...base, x: shift(base.x, rect.x, whole.w), y: shift(base.y, rect.y, whole.h), width: round2(rect.w), height: round2(rect.h) };
}

/**
 * The float as a one-cell table at least its size. Text that does not fit a fixed-size box runs past its foot
 * (Word cuts it at the box's edge, half lines included; a wrong font metric would else hide a whole line).
 */
export function floatTable(placement: FloatPlacement, blocks: Block[], margins: TableCell['margins'], vAlign?: TableCell['vAlign'], textDirection?: TableCell['textDirection']): Table {
  const cell: TableCell = { blocks, margins };
  if (vAlign && vAlign !== 'top') cell.vAlign = vAlign;
  if (textDirection) cell.textDirection = textDirection;
  const row: TableRow = { cells: [cell], height: placement.height };
  return {
    type: 'table',
    columns: [placement.width],
    rows: [row],
    style: { borders: null, cellMargins: margins, width: placement.width, layout: 'fixed', float: placement },
  };
}

const PRESETS: Record<string, FloatShape['geometry']> = {
  rect: 'rect', flowChartProcess: 'rect', snip1Rect: 'rect', snip2SameRect: 'rect', round1Rect: 'roundRect',
  round2SameRect: 'roundRect', roundRect: 'roundRect', flowChartAlternateProcess: 'roundRect', ellipse: 'ellipse',
  flowChartConnector: 'ellipse', line: 'line', straightConnector1: 'line', bentConnector2: 'line', bentConnector3: 'line',
  curvedConnector3: 'line', triangle: 'triangle', diamond: 'diamond', flowChartDecision: 'diamond', textBox: 'rect',
  rightArrow: 'rightArrow', leftArrow: 'leftArrow', homePlate: 'homePlate', chevron: 'chevron', wedgeRectCallout: 'wedgeRectCallout',
};

/** A preset's adjust value (a:avLst/a:gd name="…" fmla="val N"), in 100000ths; `fallback` when the file gives none. */
function adjust(prstGeom: XElement | undefined, name: string, fallback: number): number {
  const gd = children(child(prstGeom, 'a:avLst'), 'a:gd').find((g) => g.attrs.name === name);
  const m = /^val\s+(-?\d+)$/.exec(gd?.attrs.fmla?.trim() ?? '');
  return m ? Number(m[1]) : fallback;
}

/** A DrawingML shape's preset geometry, fill, outline and arrowheads (null: nothing to draw). */
export function shapeOf(ctx: PartContext, spPr: XElement | undefined, style: XElement | undefined, decoration: Decoration, xfrm: XElement | undefined): FloatShape | undefined {
  const preset = child(spPr, 'a:prstGeom')?.attrs.prst ?? (child(spPr, 'a:custGeom') ? undefined : 'rect');
  const geometry = preset ? PRESETS[preset] : undefined;
  if (!geometry) return undefined;
  let line: BorderLine | undefined = decoration.line;
  const ln = child(spPr, 'a:ln');
  if (geometry === 'line' && !line && !child(ln, 'a:noFill')) {
    // Connectors take their colour from the style's line reference even when a:ln sets only a width.
    const color = drawingColor(child(ln, 'a:solidFill'), ctx.doc.theme) ?? drawingColor(child(style, 'a:lnRef'), ctx.doc.theme);
    if (color) line = { width: Math.max(0.25, emu(ln?.attrs.w) ?? 0.75), color, style: 'single' };
  }
  const dash = child(ln, 'a:prstDash')?.attrs.val;
  if (line && dash && dash !== 'solid') line = { ...line, style: /dot/i.test(dash) ? 'dotted' : 'dashed' };
  const fill = geometry === 'line' ? undefined : decoration.fill;
  if (!fill && !line) return undefined;
  const shape: FloatShape = { geometry };
  if (fill) shape.fill = fill;
  if (line) shape.line = line;
  // The callout's tip, by ECMA-376's presetShapeDefinitions defaults (adj1 -20833, adj2 62500: below, a little left).
  if (geometry === 'wedgeRectCallout') {
    const prstGeom = child(spPr, 'a:prstGeom');
    shape.tip = [adjust(prstGeom, 'adj1', -20833) / 100000, adjust(prstGeom, 'adj2', 62500) / 100000];
  }
  if (geometry === 'line') {
    const flipH = xfrm?.attrs.flipH === '1';
    const flipV = xfrm?.attrs.flipV === '1';
    if (flipH !== flipV) shape.flip = true;
    const arrow = (el: XElement | undefined): boolean => el !== undefined && (el.attrs.type ?? 'none') !== 'none';
    // The head is at the line's start: with flipH the start is on the right.
    const head = arrow(child(ln, 'a:headEnd'));
    const tail = arrow(child(ln, 'a:tailEnd'));
    if (flipH ? tail : head) shape.head = true;
    if (flipH ? head : tail) shape.tail = true;
  }
  return shape;
}

/**
 * DrawingML's vertical text (a:bodyPr vert, ECMA-376 20.1.10.83 ST_TextVerticalType) as a turned cell: vert and
 * eaVert turn the text 90° clockwise (eaVert keeps East Asian characters upright, which docloom does not tell
 * apart), vert270 counter-clockwise. Stacked letters (wordArtVert…) and mongolianVert stay horizontal.
 */
const VERT: Record<string, TableCell['textDirection']> = { vert: 'tbRl', eaVert: 'tbRl', vert270: 'btLr' };

/** Insets, vertical alignment and text direction of a shape's text (wps:bodyPr). */
function bodyLayout(bodyPr: XElement | undefined): { margins: NonNullable<TableCell['margins']>; vAlign: TableCell['vAlign']; textDirection: TableCell['textDirection'] } {
  const inset = (name: string, fallback: number): number => round2(emu(bodyPr?.attrs[name]) ?? fallback);
  const anchor = bodyPr?.attrs.anchor;
  const vert = bodyPr?.attrs.vert;
  return {
    margins: { left: inset('lIns', INSET_X), right: inset('rIns', INSET_X), top: inset('tIns', INSET_Y), bottom: inset('bIns', INSET_Y) },
    vAlign: anchor === 'ctr' ? 'middle' : anchor === 'b' ? 'bottom' : 'top',
    textDirection: vert !== undefined && Object.hasOwn(VERT, vert) ? VERT[vert] : undefined,
  };
}

export const NO_MARGINS = { left: 0, right: 0, top: 0, bottom: 0 };

export function xfrmRect(xfrm: XElement | undefined): Rect | undefined {
  const off = child(xfrm, 'a:off');
  const ext = child(xfrm, 'a:ext');
  const w = emu(ext?.attrs.cx);
  const h = emu(ext?.attrs.cy);
  if (w === undefined || h === undefined) return undefined;
  return { x: emu(off?.attrs.x) ?? 0, y: emu(off?.attrs.y) ?? 0, w, h };
}

/** Maps a group's child coordinates (chOff, chExt) onto the rectangle the group occupies. */
function groupMap(grpSpPr: XElement | undefined, outer: Rect): (r: Rect) => Rect {
  const xfrm = child(grpSpPr, 'a:xfrm');
  const chOff = child(xfrm, 'a:chOff');
  const chExt = child(xfrm, 'a:chExt');
  const cx = emu(chExt?.attrs.cx);
  const cy = emu(chExt?.attrs.cy);
  const ox = emu(chOff?.attrs.x) ?? 0;
  const oy = emu(chOff?.attrs.y) ?? 0;
  const sx = cx ? outer.w / cx : 1;
  const sy = cy ? outer.h / cy : 1;
  return (r) => ({ x: outer.x + (r.x - ox) * sx, y: outer.y + (r.y - oy) * sy, w: r.w * sx, h: r.h * sy });
}

/** The floats of one shape, picture or group at `rect` (points, inside the anchor's box). */
function collect(ctx: PartContext, el: XElement, rect: Rect, base: FloatPlacement, whole: { w: number; h: number }, out: Table[], alt?: string): void {
  const name = el.name;
  if (name === 'wpg:wgp' || name === 'wpg:grpSp' || name === 'wpc:wpc') {
    const grpSpPr = child(el, name === 'wpc:wpc' ? 'wpc:bg' : 'wpg:grpSpPr');
    const map = name === 'wpc:wpc' ? (r: Rect): Rect => ({ x: rect.x + r.x, y: rect.y + r.y, w: r.w, h: r.h }) : groupMap(grpSpPr, rect);
    for (const c of children(el)) {
      const spPr = child(c, c.name === 'pic:pic' ? 'pic:spPr' : c.name === 'wpg:grpSp' ? 'wpg:grpSpPr' : 'wps:spPr');
      const inner = xfrmRect(child(spPr, 'a:xfrm'));
      if (!inner) continue;
      collect(ctx, c, map(inner), base, whole, out, alt);
    }
    return;
  }
  if (name === 'pic:pic') {
    const blip = child(child(el, 'pic:blipFill'), 'a:blip');
    const image = imageRun(ctx, blip?.attrs['r:embed'], rect.w, rect.h, alt);
    if (image) out.push(floatTable(moved(base, rect, whole), [imageParagraph(ctx, withOutline(ctx, image, child(el, 'pic:spPr')))], NO_MARGINS));
    return;
  }
  if (name !== 'wps:wsp') return;
  const spPr = child(el, 'wps:spPr');
  const placement = moved(base, rect, whole);
  const blip = child(child(spPr, 'a:blipFill'), 'a:blip');
  if (blip) {
    const image = imageRun(ctx, blip.attrs['r:embed'], rect.w, rect.h, alt);
    if (image) out.push(floatTable(placement, [imageParagraph(ctx, image)], NO_MARGINS));
    return;
  }
  const blocks = textBoxBlocks(ctx, child(el, 'wps:txbx') ?? el);
  const shape = shapeOf(ctx, spPr, child(el, 'wps:style'), shapeDecoration(el, ctx.doc.theme), child(spPr, 'a:xfrm'));
  if (shape) placement.shape = shape;
  if (!shape && blocks.length === 0) return;
  const bodyPr = child(el, 'wps:bodyPr');
  const body = bodyLayout(bodyPr);
  out.push(floatTable(placement, blocks, body.margins, body.vAlign, body.textDirection));
}

/**
 * The floats of an anchored drawing's graphic data (a picture, a shape, a group, a canvas); null when it holds
 * none of these (SmartArt, charts: read elsewhere).
 */
export function anchoredFloats(ctx: PartContext, frame: XElement, data: XElement | undefined, width: number, height: number, alt?: string): Table[] | null {
  const content = children(data).find((c) => c.name === 'pic:pic' || c.name === 'wps:wsp' || c.name === 'wpg:wgp' || c.name === 'wpc:wpc');
  if (!content) return null;
  const base = anchorPlacement(frame, width, height);
  const out: Table[] = [];
  collect(ctx, content, { x: 0, y: 0, w: width, h: height }, base, { w: width, h: height }, out, alt);
  return out;
}

/**
 * The parts of an inline drawing's shape, group or canvas (wp:inline), each placed from the top-left corner of
 * the `width` × `height` room it takes in the line (ShapeRun); empty when none of them has anything to draw.
 */
export function inlineParts(ctx: PartContext, data: XElement | undefined, width: number, height: number, alt?: string): Table[] {
  const content = children(data).find((c) => c.name === 'wps:wsp' || c.name === 'wpg:wgp' || c.name === 'wpc:wpc');
  const out: Table[] = [];
  if (!content) return out;
  const base: FloatPlacement = { x: { from: 'column', offset: 0 }, y: { from: 'paragraph', offset: 0 }, width: round2(width), height: round2(height), wrap: 'none' };
  collect(ctx, content, { x: 0, y: 0, w: width, h: height }, base, { w: width, h: height }, out, alt);
  return out;
}

// ─── VML ─────────────────────────────────────────────────────────────────────────────────────────────────────

const VML_FROM_X: Record<string, FloatFromX> = { page: 'page', margin: 'margin', text: 'column', char: 'character', 'left-margin-area': 'leftMargin', 'right-margin-area': 'rightMargin', 'inner-margin-area': 'insideMargin', 'outer-margin-area': 'outsideMargin' };
const VML_FROM_Y: Record<string, FloatFromY> = { page: 'page', margin: 'margin', text: 'paragraph', line: 'line', 'top-margin-area': 'topMargin', 'bottom-margin-area': 'bottomMargin', 'inner-margin-area': 'insideMargin', 'outer-margin-area': 'outsideMargin' };

function vmlAxis<F>(offset: number | undefined, align: string | undefined, from: F): FloatAxis<F> {
  const a = align && align !== 'absolute' ? alignOf(align) : undefined;
  return a ? { from, align: a } : { from, offset: round2(offset ?? 0) };
}

const VML_GEOMETRY: Record<string, FloatShape['geometry']> = { 'v:rect': 'rect', 'v:roundrect': 'roundRect', 'v:oval': 'ellipse', 'v:line': 'line' };

/**
 * An absolutely positioned VML shape (`css` its parsed style) as a float: its text box, picture and outline.
 * `length` reads a VML length in points.
 */
export function vmlFloat(ctx: PartContext, shape: XElement, css: Record<string, string>, length: (v: string | undefined) => number | undefined, blocks: Block[]): Table | null {
  const placement = vmlPlacement(shape, css, length);
  if (!placement) return null;
  const geometry = VML_GEOMETRY[shape.name] ?? 'rect';
  const decoration = vmlDecoration(shape);
  if (decoration.fill || decoration.line) {
    placement.shape = { geometry };
    if (decoration.fill && geometry !== 'line') placement.shape.fill = decoration.fill;
    if (decoration.line) placement.shape.line = decoration.line;
  }
  if (!placement.shape && blocks.length === 0) return null;
  const inset = child(shape, 'v:textbox')?.attrs.inset;
  const parts = (inset ?? '').split(',').map((v) => length(v.trim()));
  const margins = { left: parts[0] ?? INSET_X, top: parts[1] ?? INSET_Y, right: parts[2] ?? INSET_X, bottom: parts[3] ?? INSET_Y };
  return floatTable(placement, blocks, margins);
}

/** Where an absolutely positioned VML shape sits and how text goes round it; null without a size. */
function vmlPlacement(shape: XElement, css: Record<string, string>, length: (v: string | undefined) => number | undefined): FloatPlacement | null {
  const width = length(css.width);
  const height = length(css.height);
  if (!width || !height) return null;
  const x = vmlAxis(length(css['margin-left'] ?? css.left), css['mso-position-horizontal'], VML_FROM_X[css['mso-position-horizontal-relative'] ?? 'text'] ?? 'column');
  const y = vmlAxis(length(css['margin-top'] ?? css.top), css['mso-position-vertical'], VML_FROM_Y[css['mso-position-vertical-relative'] ?? 'text'] ?? 'paragraph');
  const vmlWrap = child(shape, 'w10:wrap');
  const wrapType = vmlWrap?.attrs.type;
  const wrap: FloatPlacement['wrap'] = wrapType === 'square' || wrapType === 'tight' || wrapType === 'through' ? 'square' : wrapType === 'topAndBottom' ? 'topAndBottom' : 'none';
  const placement: FloatPlacement = { x, y, width: round2(width), height: round2(height), wrap };
  const side = wrap === 'square' ? SIDES[vmlWrap?.attrs.side ?? ''] : undefined;
  if (side) placement.side = side;
  const z = Number(css['z-index']);
  if (z < 0) placement.behind = true;
  // Word writes VML z-index as the relativeHeight of the same shape (negative behind the text).
  if (css['z-index'] && Number.isFinite(z)) placement.z = Math.abs(z);
  return placement;
}

/**
 * WordArt (a VML shape with v:textpath, what Word's watermarks "CONFIDENTIAL", "DRAFT" are): a vector picture of
 * its string stretched to fill the shape and turned (images/wordart.ts), see-through by its fill's opacity. When
 * the font has no outlines for it (CFF faces), its string as text instead: in its font and fill colour, as large
 * as fits the shape, centred in it and turned by the shape's rotation, the opacity mixed with white.
 */
export function vmlWordArt(ctx: PartContext, shape: XElement, css: Record<string, string>, length: (v: string | undefined) => number | undefined, run: RunStyle): Table | null {
  const textpath = child(shape, 'v:textpath');
  const text = (textpath?.attrs.string ?? '').replace(/\s+/g, ' ').trim();
  const placement = vmlPlacement(shape, css, length);
  if (!text || !placement) return null;
  const rotation = Number.parseFloat(css.rotation ?? '');
  if (Number.isFinite(rotation) && rotation % 360 !== 0) placement.rotation = rotation;
  placement.decorative = true;
  const font = vmlStyle(textpath?.attrs.style);
  const style: RunStyle = { ...run };
  const family = font['font-family']?.replace(/^["']+|["']+$/g, '').trim();
  if (family) style.font = family;
  if (/bold|[6-9]00/.test(font['font-weight'] ?? '')) style.bold = true;
  if (/italic/.test(font['font-style'] ?? '')) style.italic = true;
  const fill = vmlDecoration(shape).fill ?? '#c0c0c0';
  const opacity = opacityOf(child(shape, 'v:fill')?.attrs.opacity);
  const art = wordArtDrawing({
    text,
    face: style.font ?? 'Calibri',
    bold: style.bold === true,
    italic: style.italic === true,
    colour: [...hexRgb(fill), Math.round(opacity * 255)],
    rotation: placement.rotation ?? 0,
    width: placement.width,
    height: placement.height,
  });
  if (art) {
    // Drawn as outlines stretched to the shape (Word's fitshape), turned inside the picture: the float stays upright.
    delete placement.rotation;
    delete placement.decorative;
    const picture = imageParagraph(ctx, { type: 'image', src: toDataUri(encodeDrawing(art), DRAWING_MIME), width: placement.width, height: placement.height });
    return floatTable(placement, [picture], NO_MARGINS, 'top');
  }
  style.color = seeThrough(fill, opacity);
  // Stretched to the shape, a Latin string's capitals fill its height at ~0.85 em; ideographs fill their whole em.
  const fills = [...text].every((ch) => ch === ' ' || isEastAsianWide(ch.codePointAt(0) ?? 0)) ? 1 : 0.85;
  style.size = round2(Math.max(1, Math.min(placement.height * fills, (placement.width * 0.95) / emsOf(text))));
  const paragraph: Paragraph = { type: 'paragraph', runs: [{ type: 'text', text, style }], style: { ...toParagraphStyle({ spaceBefore: 0, spaceAfter: 0 }), align: 'center' } };
  return floatTable(placement, [paragraph], NO_MARGINS, 'middle');
}

/** A rough width of `text` in ems, before any font is at hand: ideographs a full em, capitals wider than the rest. */
function emsOf(text: string): number {
  let ems = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    ems += cp >= 0x2e80 ? 1 : ch === ' ' ? 0.25 : ch >= 'A' && ch <= 'Z' ? 0.62 : 0.5;
  }
  return Math.max(1, ems);
}

/** VML opacity: "0.5", ".5", "50%" or 16.16 fixed point ("32768f"); 1 when absent or unreadable. */
function opacityOf(value: string | undefined): number {
  const v = (value ?? '').trim();
  const n = Number.parseFloat(v);
  if (!Number.isFinite(n)) return 1;
  const o = v.endsWith('%') ? n / 100 : v.endsWith('f') ? n / 65536 : n;
  return Math.max(0, Math.min(1, o));
}

/** A "#rrggbb" colour's channels. */
function hexRgb(color: string): [number, number, number] {
  return [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16)) as [number, number, number];
}

function seeThrough(color: string, opacity: number): string {
  const mix = hexRgb(color).map((c) => Math.round(c * opacity + 255 * (1 - opacity)));
  return `#${mix.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}
