/**
 * Floating objects (Word's anchored drawings, text boxes, shapes, VML shapes, frames): a one-cell table laid out
 * at its own size and placed on the page by position, out of the text flow, instead of after its paragraph. The
 * table carries the placement in `style.float`; its cell holds the object's text or picture (so tags inside a
 * text box are compiled and bound like any cell's), its margins are the box's insets.
 */
import type { BorderLine } from './types.js';

/** What a horizontal position is measured from (Word's wp:positionH/@relativeFrom). */
export type FloatFromX = 'page' | 'margin' | 'column' | 'character' | 'leftMargin' | 'rightMargin' | 'insideMargin' | 'outsideMargin';
/** What a vertical position is measured from (wp:positionV/@relativeFrom). */
export type FloatFromY = 'page' | 'margin' | 'paragraph' | 'line' | 'topMargin' | 'bottomMargin' | 'insideMargin' | 'outsideMargin';

export interface FloatAxis<F> {
  from: F;
  /** Aligned in the reference area (left/top, centre, right/bottom); the offset then moves it from there. */
  align?: 'start' | 'center' | 'end';
  /** Distance (points) from the reference area's start, or from the aligned spot when `align` is set. */
  offset?: number;
  /** A share (0–1) of the reference area's size, added to the offset: Word 2010's percentage positions (wp14:pctPosHOffset). */
  share?: number;
  /** The size aligned (a group's, for a shape inside it); default the float's own size. */
  span?: number;
}

/** A preset shape drawn under the float's content: Word's a:prstGeom (or a VML shape). */
export interface FloatShape {
  /**
   * Block arrows point right (`rightArrow`, `homePlate`, `chevron`) or left (`leftArrow`), in their box;
   * `wedgeRectCallout` is a rectangle with a wedge out to `tip`.
   */
  geometry: 'rect' | 'roundRect' | 'ellipse' | 'line' | 'triangle' | 'diamond' | 'rightArrow' | 'leftArrow' | 'homePlate' | 'chevron' | 'wedgeRectCallout';
  /** A callout's tip: its offset from the box's centre as shares of the box's width and height (DrawingML adj1, adj2). */
  tip?: [number, number];
  fill?: string;
  line?: BorderLine;
  /** Lines: drawn from the bottom-left instead of the top-left corner (flipH xor flipV). */
  flip?: boolean;
  /** Lines: arrowheads at the start (head) and the end (tail). */
  head?: boolean;
  tail?: boolean;
}

export interface FloatPlacement {
  x: FloatAxis<FloatFromX>;
  y: FloatAxis<FloatFromY>;
  /** Size in points; 0 for a frame or a floating table sized by its content (layout measures it). */
  width: number;
  height: number;
  /**
   * How text flows around it: 'none' (in front of or behind the text, which does not move), 'square' (lines
   * beside it are narrowed; Word's wrapSquare, wrapTight and wrapThrough) or 'topAndBottom' (text continues
   * below it).
   */
  wrap: 'none' | 'square' | 'topAndBottom';
  /**
   * Which sides of a square-wrapped float text may go (Word's wrapText, ECMA-376 §20.4.2.17; VML w10:wrap side):
   * 'bothSides' (absent: as Word's default), 'left' or 'right' only, or 'largest' (only the wider side).
   */
  side?: 'bothSides' | 'left' | 'right' | 'largest';
  /** Drawn under the text (Word's behindDoc). */
  behind?: boolean;
  /**
   * Stacking order among the page's floats of the same layer (behind or in front of the text): higher is drawn
   * over lower (Word's relativeHeight, VML's z-index); floats without one, or with equal ones, stack in document order.
   */
  z?: number;
  /**
   * Turned by this many degrees clockwise about its middle (VML `rotation`). Only WordArt — a watermark such as
   * "CONFIDENTIAL" across the page — is drawn turned: its text is all there is of it. Other floats stay upright.
   */
  rotation?: number;
  /**
   * Its text is decoration (WordArt: a watermark), drawn but kept out of the PDF's text layer, as LibreOffice (which
   * draws it as outlines) keeps it: copying or searching the page finds the body's words, not "CONFIDENTIAL" wedged
   * between them.
   */
  decorative?: boolean;
  /** Space kept free around it by wrapped text (points). */
  distance?: { top: number; right: number; bottom: number; left: number };
  shape?: FloatShape;
  /**
   * Goes to the next page with its anchor paragraph when, placed from that paragraph, it would pass the page's
   * foot (floating tables and frames, as LibreOffice and Word move them). Pictures and shapes with text wrapped
   * around them move so only when they would pass the page's edge; those without wrapping stay on the page.
   */
  withAnchor?: boolean;
}
