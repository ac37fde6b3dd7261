/**
 * Layout as data: what the flow produces and the painter draws. A page is a list of positioned boxes in points,
 * y growing downwards from the page's top edge, in drawing order (later boxes paint over earlier ones). Boxes
 * are plain data: geometry tests read them instead of parsing a PDF, and nothing here knows jsPDF.
 */
import type { Face } from '../fonts/faces.js';
import type { Rgb } from '../layout/color.js';
import type { PreparedImage } from '../images.js';
import type { FloatShape } from '../../model/floats.js';

/** A run of text drawn in one face, size and colour; `y` is its baseline. */
export interface TextBox {
  kind: 'text';
  x: number;
  y: number;
  /** Advance width (layout's measure; decorations and links use it). */
  width: number;
  text: string;
  face: Face;
  size: number;
  color: Rgb;
  /** Rotation in degrees counter-clockwise around (x, y) (a chart's vertical axis title); absent: upright. */
  angle?: number;
  /** Horizontal scale of the glyphs (a factor; absent = 1): Word's character width scale (w:w). */
  scale?: number;
  /** Points added after every character (absent = 0): Word's character spacing (w:spacing in w:rPr). */
  charSpace?: number;
  /** Decoration (a watermark): drawn, but kept out of the text layer (copy, search, text extraction). */
  decorative?: boolean;
}

/** A filled rectangle (cell and paragraph shading, highlight, page background). */
export interface FillBox {
  kind: 'fill';
  x: number;
  y: number;
  w: number;
  h: number;
  color: Rgb;
}

/** A straight stroke (borders, underline, strike-through); `dash` as PDF's dash array, null when solid. */
export interface LineBox {
  kind: 'line';
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  width: number;
  color: Rgb;
  dash: number[] | null;
}

/** A stroked rectangle: a cell's four equal plain borders in one operation. */
export interface FrameBox {
  kind: 'frame';
  x: number;
  y: number;
  w: number;
  h: number;
  width: number;
  color: Rgb;
}

export interface ImageBox {
  kind: 'image';
  x: number;
  y: number;
  w: number;
  h: number;
  image: PreparedImage;
}

/** A clickable area opening `url`. */
export interface LinkBox {
  kind: 'link';
  x: number;
  y: number;
  w: number;
  h: number;
  url: string;
}

/**
 * The page count, known only once every page is laid out: the painter draws it (with `underline`/`strike`)
 * after the last page. `y` is the baseline.
 */
export interface PageCountBox {
  kind: 'pageCount';
  x: number;
  y: number;
  face: Face;
  size: number;
  color: Rgb;
  underline: boolean;
  strike: boolean;
}

/**
 * A polygon or polyline (charts: slices, areas, series lines, markers): `points` as x0, y0, x1, y1…; filled
 * and/or stroked. An open path (`closed` false) is only stroked.
 */
export interface PathBox {
  kind: 'path';
  points: number[];
  closed: boolean;
  fill: Rgb | null;
  stroke: Rgb | null;
  width: number;
}

/** A floating object's preset shape (model/floats.ts), filled and/or outlined; lines may end in arrowheads. */
export interface ShapeBox {
  kind: 'shape';
  geometry: FloatShape['geometry'];
  x: number;
  y: number;
  w: number;
  h: number;
  fill: Rgb | null;
  stroke: { width: number; color: Rgb; dash: number[] | null } | null;
  /** Lines: from the bottom-left to the top-right corner instead of top-left to bottom-right. */
  flip: boolean;
  head: boolean;
  tail: boolean;
  /** A callout's tip from the box's centre, as shares of its width and height (FloatShape.tip). */
  tip?: [number, number];
}

export type Box = TextBox | FillBox | LineBox | FrameBox | ImageBox | LinkBox | PageCountBox | PathBox | ShapeBox;

/** An outline (bookmark) entry starting on a page. */
export interface Bookmark {
  level: number;
  title: string;
}

export interface LaidPage {
  /** 1-based, over the whole document. */
  number: number;
  width: number;
  height: number;
  boxes: Box[];
  bookmarks: Bookmark[];
}
