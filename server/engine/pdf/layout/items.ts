/**
 * What layout produces and drawing consumes: lines of positioned items, paragraphs of lines, tables of
 * laid-out cells. Positions are points; x is relative to the left edge of the box the block was laid out in,
 * y grows downwards from the top of a line.
 */
import type { Face } from '../fonts/faces.js';
import type { Rgb } from './color.js';
import type { BorderLine, FloatPlacement, Paragraph } from '../../model/types.js';
import type { PreparedImage } from '../images.js';
import type { Box } from '../flow/boxes.js';

/** A run style resolved for drawing. */
export interface Fmt {
  /** Nominal size (line metrics). */
  size: number;
  /** Size the glyphs are drawn at (smaller for super/subscript). */
  drawSize: number;
  /** Baseline shift upwards (super) or downwards (negative, sub). */
  rise: number;
  color: Rgb;
  underline: boolean;
  strike: boolean;
  highlight: Rgb | null;
  link: string | null;
  /** Horizontal scale of the glyphs (RunStyle.scale as a factor; 1 = as designed): widths and drawing. */
  scale: number;
  /** Points added after every character (RunStyle.charSpacing; 0 = none): widths and drawing. */
  spacing: number;
  /** The face whose ascent and descent count for the line when a fallback face draws the text (fallbackLineFace). */
  lineFace?: Face;
  /** A footnote's reference mark: the index of its note in the paragraph's footnotes (flow/notes.ts). */
  note?: number;
}

export interface TextItem {
  kind: 'text';
  x: number;
  width: number;
  text: string;
  face: Face;
  fmt: Fmt;
  /** A space between words: widened when justifying, drawn only through its decorations. */
  space: boolean;
  /** Extra space after each character, in points: a justified line's share for East Asian text. */
  expand?: number;
}

export interface ImageItem {
  kind: 'image';
  x: number;
  width: number;
  height: number;
  image: PreparedImage;
  fmt: Fmt | null;
  /** A line around the picture, centred on its edge (ImageRun.outline). */
  outline?: ImageOutline;
  /** Room kept around the picture inside `width` × `height` (ImageRun.pad). */
  pad?: ImagePad;
  /**
   * The ascent and descent (points) of the picture's run font (ImageRun.style): a line of pictures alone is at
   * least as tall as that font's line.
   */
  font?: { ascent: number; descent: number };
}

export interface ImagePad {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface ImageOutline {
  width: number;
  color: Rgb;
}

/**
 * A chart (layout/chart.ts) or a shape drawn in the line (layout/inline-shape.ts): its boxes (flow/boxes.ts)
 * relative to its top-left corner, laid out once.
 */
export interface ChartItem {
  kind: 'chart';
  x: number;
  width: number;
  height: number;
  boxes: Box[];
  /** Room kept around the chart inside `width` × `height` (ChartRun.pad). */
  pad?: ImagePad;
}

/** A page number or page count: its text is known only when the page is drawn. */
export interface FieldItem {
  kind: 'field';
  x: number;
  width: number;
  field: 'page' | 'pages';
  face: Face;
  fmt: Fmt;
}

/** The gap a tab leaves, with its leader characters (dots…) when it has one. */
export interface GapItem {
  kind: 'gap';
  x: number;
  width: number;
  leader: string | null;
  face: Face;
  fmt: Fmt;
}

export type Item = TextItem | ImageItem | FieldItem | GapItem | ChartItem;

export interface Line {
  /** Distance from the top of the line to its baseline. */
  baseline: number;
  height: number;
  items: Item[];
}

export interface Borders {
  top?: BorderLine;
  bottom?: BorderLine;
  left?: BorderLine;
  right?: BorderLine;
}

export interface LaidParagraph {
  kind: 'paragraph';
  source: Paragraph;
  lines: Line[];
  spaceBefore: number;
  spaceAfter: number;
  /** Horizontal extent of shading and borders within the box. */
  boxLeft: number;
  boxRight: number;
  shading: Rgb | null;
  borders: Borders | null;
  keepWithNext: boolean;
  pageBreakBefore: boolean;
  /** Widow/orphan control (false when the paragraph turns it off). */
  widowControl: boolean;
  /** Outline entry of a heading. */
  heading: { level: number; title: string } | null;
  /** True when a line holds a page field (headers and footers are laid out again per page then). */
  hasFields: boolean;
  /** The paragraph's footnotes, laid out at its width (flow/notes.ts places them at the page foot). */
  footnotes?: LaidBlock[];
  /** For each block of `footnotes`, the index of the note it belongs to (the mark's Fmt.note names it). */
  footnoteOf?: number[];
  /** A list item's label as counted (laid out again with it: LayoutContext.relabel). */
  listLabel?: string;
}

export interface LaidCell {
  blocks: LaidBlock[];
  /** Height of the content (without padding). */
  contentHeight: number;
  /** First grid column. */
  col: number;
  colSpan: number;
  rowSpan: number;
  fill: Rgb | null;
  vAlign: 'top' | 'middle' | 'bottom';
  borders: Borders;
  padding: { top: number; right: number; bottom: number; left: number };
  /**
   * Vertical text (model TableCell.textDirection): `blocks` are laid out with lines `contentHeight` long and
   * `across` deep, then turned 90° counter-clockwise ('btLr') or clockwise ('tbRl') into the cell.
   */
  turn?: { direction: 'btLr' | 'tbRl'; across: number };
}

export interface LaidRow {
  cells: LaidCell[];
  header: boolean;
  minHeight: number;
  /** The row is minHeight tall whatever its cells hold (w:hRule="exact"; cut content is not shown). */
  exact: boolean;
  cantSplit: boolean;
}

export interface LaidTable {
  kind: 'table';
  /** Column widths after scaling to the box. */
  columns: number[];
  /** Left edge of the table within the box, and its width. */
  x: number;
  width: number;
  rows: LaidRow[];
  /** Height of each row (content, padding and minimum height; rows spanned by tall cells grown). */
  heights: number[];
  /** A floating object (model/floats.ts): placed by position, out of the flow (flow/floats.ts). */
  float?: FloatPlacement;
  /**
   * In newspaper columns of different widths (the body laid out at the narrowest one's): the table laid out at each
   * column's width, by column (itself where that is the narrowest width). flow/body.ts takes its column's.
   */
  inColumn?: LaidTable[];
}

export interface LaidPageBreak {
  kind: 'pageBreak';
  /** A column break: the next column (the next page after the last one). */
  column?: boolean;
  /** The height the break's own line takes before it (model `lead`: space before and the empty line). */
  room?: number;
}

export type LaidBlock = LaidParagraph | LaidTable | LaidPageBreak;
