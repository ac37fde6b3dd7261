/**
 * The fill and outline of a text box (DrawingML wps:wsp or VML v:shape / v:rect), so that a box that shows
 * as a coloured or outlined area in Word keeps it as the cell it becomes (white text on a dark box stays
 * readable). A gradient fill is drawn in its mean colour (drawing-color.ts); patterns and pictures as fills,
 * shadows and effects are not read.
 */
import type { BorderLine } from '../model/types.js';
import type { Theme } from './theme.js';
import { drawingColor, fillColor } from './drawing-color.js';
import { emu } from './units.js';
import { child, type XElement } from './xml.js';

export interface Decoration {
  fill?: string;
  line?: BorderLine;
}

/** VML colour names (fillcolor="red"); hex values pass through. */
const VML_COLOR_NAMES: Record<string, string> = { black: '#000000', white: '#ffffff', red: '#ff0000', green: '#008000', blue: '#0000ff', yellow: '#ffff00', gray: '#808080', grey: '#808080', silver: '#c0c0c0' };

export function shapeDecoration(wsp: XElement, theme: Theme): Decoration {
  return decorationOf(child(wsp, 'wps:spPr'), child(wsp, 'wps:style'), theme);
}

/** The same for a shape of a SmartArt drawing (dsp:sp). */
export function diagramShapeDecoration(sp: XElement, theme: Theme): Decoration {
  return decorationOf(child(sp, 'dsp:spPr'), child(sp, 'dsp:style'), theme);
}

/** The colour of a shape's text from its style's font reference (a:fontRef), when it sets one. */
export function styleFontColor(style: XElement | undefined, theme: Theme): string | undefined {
  return drawingColor(child(style, 'a:fontRef'), theme);
}

export { drawingColor };

function decorationOf(spPr: XElement | undefined, style: XElement | undefined, theme: Theme): Decoration {
  const out: Decoration = {};
  if (!child(spPr, 'a:noFill')) {
    const own = fillColor(spPr, theme);
    const ref = child(style, 'a:fillRef');
    const fill = own ?? (ref && ref.attrs.idx !== '0' ? drawingColor(ref, theme) : undefined);
    if (fill) out.fill = fill;
  }
  const ln = child(spPr, 'a:ln');
  if (!child(ln, 'a:noFill')) {
    const solid = child(ln, 'a:solidFill');
    const ref = child(style, 'a:lnRef');
    const color = solid ? drawingColor(solid, theme) : !ln && ref && ref.attrs.idx !== '0' ? drawingColor(ref, theme) : undefined;
    if (color) out.line = { width: Math.max(0.25, emu(ln?.attrs.w) ?? 0.75), color, style: 'single' };
  }
  return out;
}

function vmlColor(value: string | undefined, fallback: string): string | undefined {
  const token = (value ?? fallback).trim().split(/\s+/)[0].toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(token)) return token;
  if (/^#[0-9a-f]{3}$/.test(token)) return `#${token[1]}${token[1]}${token[2]}${token[2]}${token[3]}${token[3]}`;
  return VML_COLOR_NAMES[token];
}

function vmlOn(value: string | undefined): boolean {
  return value === undefined || !/^(f|false|0|off)$/i.test(value.trim());
}

/** VML shapes are filled (white) and outlined (black, 0.75 pt) unless they say otherwise. */
export function vmlDecoration(shape: XElement): Decoration {
  const out: Decoration = {};
  const fillEl = child(shape, 'v:fill');
  if (vmlOn(shape.attrs.filled) && vmlOn(fillEl?.attrs.on) && !fillEl?.attrs.type) {
    const fill = vmlColor(fillEl?.attrs.color ?? shape.attrs.fillcolor, 'white');
    if (fill && fill !== '#ffffff') out.fill = fill;
  }
  const strokeEl = child(shape, 'v:stroke');
  if (vmlOn(shape.attrs.stroked) && vmlOn(strokeEl?.attrs.on)) {
    const color = vmlColor(strokeEl?.attrs.color ?? shape.attrs.strokecolor, 'black');
    const raw = shape.attrs.strokeweight ?? strokeEl?.attrs.weight;
    const weight = raw === undefined ? 0.75 : Number.parseFloat(raw) * (raw.endsWith('px') ? 0.75 : 1);
    if (color && color !== '#ffffff') out.line = { width: Math.max(0.25, Number.isFinite(weight) && weight > 0 ? weight : 0.75), color, style: 'single' };
  }
  return out;
}
