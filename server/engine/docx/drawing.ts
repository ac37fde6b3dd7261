/**
 * Drawings (DrawingML w:drawing and legacy VML w:pict / w:object). The model has no floating objects, so:
 * - pictures (inline or anchored) become inline images, sized from their extent, as data: URIs;
 * - inline shapes, groups and canvases become shape runs drawn in the line (floats.ts inlineParts); VML text boxes,
 *   and DrawingML ones without an extent, become paragraphs after the anchor;
 * - SmartArt becomes its labels laid out as Word placed them (smartart.ts);
 * - EMF and WMF pictures are drawn as PNG (images/metafile.ts); one that cannot be drawn, or a picture over the
 *   pixel limit, becomes a light grey box of the same size, with a warning;
 * - charts become chart runs drawn from their cached values (chart.ts); a chart of a type not drawn is a framed
 *   box with its title (chart_type_unsupported);
 * - shapes without text, WordArt and images in other formats the renderer cannot draw are left out, each
 *   with a warning (chart_not_drawn, shape_not_drawn, picture_format_unsupported, …; warnings.ts).
 * Nothing here throws on odd content: a drawing that cannot be read is not shown, and says so.
 */
import type { Block, BorderLine, ChartRun, ImageRun, Paragraph, ShapeRun } from '../model/types.js';
import { readChart } from './chart.js';
import { encodePng } from '../images/png-encode.js';
import { toDataUri } from '../images/sniff.js';
import { drawingColor, shapeDecoration, vmlDecoration } from './decoration.js';
import { childThroughAlternate } from './alternate.js';
import { isBlock, type PartContext } from './context.js';
import type { ImageLookup } from './package.js';
import { mergeR } from './props.js';
import { toParagraphStyle, toRunStyle } from './resolve.js';
import { PARTLY_DRAWN } from './warnings.js';
import { smartArtBlocks } from './smartart.js';
import { anchoredFloats, inlineParts, vmlFloat, vmlWordArt } from './floats.js';
import { emu, round2 } from './units.js';
import { child, children, descendant, descendants, textOf, type XElement } from './xml.js';

/** Where a floating object sits (points, relative to its anchor's column), when that is known. */
export interface FloatBox {
  x: number;
  y: number;
  width: number;
  height: number;
  /** A text box's fill colour and outline, when it has them. */
  fill?: string;
  line?: BorderLine;
}

export interface DrawingOutput {
  /** An inline picture, chart or shape: stays in the paragraph's runs. */
  image?: ImageRun | ChartRun | ShapeRun;
  /** Content shown after the paragraph (text boxes, floating pictures, SmartArt text). */
  blocks: Block[];
  /** For floating content: its box, so floats side by side can stay side by side. */
  box?: FloatBox;
  /** The blocks are floating objects placed by position (floats.ts), not content to show after the paragraph. */
  positioned?: boolean;
}

/**
 * The room of an inline shape, group or canvas that docloom draws nothing of (no text or picture): Word keeps its
 * extent in the line, often as the frame the anchored shapes of a drawing are placed over (oxsdk__Complex01's
 * 402 × 167 pt rectangle above its chart). A transparent pixel of that size keeps it, drawing no ink.
 */
const EMPTY = toDataUri(encodePng({ width: 1, height: 1, data: Uint8Array.of(0, 0, 0, 0) }), 'image/png');

/** A same-size stand-in for a picture that is not drawn: a light grey box (grey 238: no ink on a page). */
const PLACEHOLDER = toDataUri(encodePng({ width: 1, height: 1, data: Uint8Array.of(238, 238, 238, 255) }), 'image/png');

const URI_PICTURE = '/picture';
const URI_DIAGRAM = '/diagram';
const URI_CHART = '/chart';

export function textBoxBlocks(ctx: PartContext, scope: XElement): Block[] {
  const out: Block[] = [];
  for (const content of descendants(scope, 'w:txbxContent')) {
    const blocks = ctx.readBlocks(content).filter(isBlock);
    // A text box has a fixed size in Word, and empty paragraphs at its end only fill it: in the flow they
    // would take room (and push a header down), so they go.
    while (blocks.length > 1 && isEmptyParagraph(blocks[blocks.length - 1])) blocks.pop();
    for (const block of blocks) out.push(block);
  }
  return out;
}

function isEmptyParagraph(block: Block): boolean {
  return block.type === 'paragraph' && block.runs.every((r) => r.type === 'text' && r.text.trim() === '');
}

export function imageRun(ctx: PartContext, relId: string | undefined, width: number | undefined, height: number | undefined, alt?: string): ImageRun | undefined {
  if (!relId || !width || !height || width <= 0 || height <= 0) return undefined;
  const found = ctx.doc.pkg.image(ctx.part, relId);
  let src: string;
  if ('uri' in found) {
    src = found.uri;
    // A metafile whose records stop early is drawn as far as it goes, and said to be damaged.
    if (found.damaged) ctx.doc.warnings.add('part_damaged', found.damaged, undefined, PARTLY_DRAWN);
  } else {
    reportPicture(ctx, found);
    // A metafile that cannot be drawn, or a picture over the pixel limit, keeps its place: the text around it
    // stays where Word puts it.
    if (found.problem !== 'too_large' && !(found.problem === 'unsupported' && (found.format === 'EMF' || found.format === 'WMF'))) return undefined;
    src = PLACEHOLDER;
  }
  const run: ImageRun = { type: 'image', src, width: round2(width), height: round2(height) };
  if (alt) run.alt = alt;
  return run;
}

/**
 * A picture's border (Word's Picture Border: `a:ln` in its shape properties) onto its run: a solid line of `w` EMU
 * (0.75 pt when absent); none for `a:noFill`, and none for a gradient or pattern line, which docloom does not draw.
 */
export function withOutline(ctx: PartContext, image: ImageRun, spPr: XElement | undefined): ImageRun {
  const ln = child(spPr, 'a:ln');
  if (!ln || child(ln, 'a:noFill')) return image;
  const color = drawingColor(child(ln, 'a:solidFill'), ctx.doc.theme);
  if (!color) return image;
  image.outline = { width: round2(Math.min(Math.max(emu(ln.attrs.w) ?? 0.75, 0.25), 12)), color };
  return image;
}

/**
 * An inline's wp:effectExtent (ECMA-376 20.4.2.6: "additional extent which shall be added to each edge of the
 * image … to compensate for any drawing effects") as room kept around its picture in the line: Word lays a picture
 * with a shadow or glow out that much wider and taller, and so does LibreOffice (writerfilter's GraphicImport adds
 * the effect extent to the inline's margins). Negative sides (Word 2007's rotated pictures) keep no room.
 */
function withEffectExtent<T extends ImageRun | ChartRun>(image: T, frame: XElement): T {
  const effect = child(frame, 'wp:effectExtent');
  if (!effect) return image;
  const side = (name: string): number => round2(Math.max(0, emu(effect.attrs[name]) ?? 0));
  const pad = { left: side('l'), top: side('t'), right: side('r'), bottom: side('b') };
  if (pad.left + pad.top + pad.right + pad.bottom > 0) image.pad = pad;
  return image;
}

/** Why a picture is not drawn, as a warning: its format, a missing or linked file, or a damaged part. */
function reportPicture(ctx: PartContext, found: Exclude<ImageLookup, { uri: string }>): void {
  const warnings = ctx.doc.warnings;
  if (found.problem === 'unsupported') warnings.add('picture_format_unsupported', ctx.part, undefined, found.format);
  else if (found.problem === 'damaged') warnings.add('part_damaged', found.target, undefined, 'picture');
  else if (found.problem === 'too_large') warnings.add('picture_too_large', found.target, undefined, found.format);
  else warnings.add('picture_missing', ctx.part);
}

/**
 * A drawing or VML picture read by `read`; when it gives nothing to draw and no more precise warning was given
 * (a picture's format, a chart, …), a `shape_not_drawn` warning. `read` answers null for what is hidden on purpose.
 */
function reported(ctx: PartContext, element: string, read: () => DrawingOutput | null): DrawingOutput {
  const before = ctx.doc.warnings.total;
  const out = read();
  if (!out) return { blocks: [] };
  if (!out.image && out.blocks.length === 0 && ctx.doc.warnings.total === before) ctx.doc.warnings.add('shape_not_drawn', ctx.part, element);
  return out;
}

export function readDrawing(ctx: PartContext, drawing: XElement): DrawingOutput {
  return reported(ctx, 'w:drawing', () => readDrawingContent(ctx, drawing));
}

function readDrawingContent(ctx: PartContext, drawing: XElement): DrawingOutput | null {
  const frame = child(drawing, 'wp:inline') ?? child(drawing, 'wp:anchor');
  if (!frame) return { blocks: [] };
  const docPr = child(frame, 'wp:docPr');
  if (docPr?.attrs.hidden === '1' || docPr?.attrs.hidden === 'true') return null;
  const extent = child(frame, 'wp:extent');
  const width = emu(extent?.attrs.cx);
  const height = emu(extent?.attrs.cy);
  const alt = docPr?.attrs.descr || docPr?.attrs.title || undefined;
  const data = descendant(frame, 'a:graphicData');
  const uri = data?.attrs.uri ?? '';
  const anchored = frame.name === 'wp:anchor';
  if (anchored && width !== undefined && height !== undefined && width >= 0 && height >= 0 && width + height > 0) {
    const floats = anchoredFloats(ctx, frame, data, width, height, alt);
    if (floats) return { blocks: floats, positioned: true };
  }
  // A picture behind the text is a background or watermark: drawn inline it would push the text away.
  if (anchored && (frame.attrs.behindDoc === '1' || frame.attrs.behindDoc === 'true')) {
    ctx.doc.warnings.add('behind_text_not_drawn', ctx.part, 'wp:anchor');
    return { blocks: [] };
  }
  if (uri.endsWith(URI_PICTURE)) {
    const blip = descendant(data, 'a:blip');
    const found = imageRun(ctx, blip?.attrs['r:embed'], width, height, alt);
    if (!found) return { blocks: [] };
    const image = withOutline(ctx, found, descendant(data, 'pic:spPr'));
    if (!anchored) return { image: withEffectExtent(image, frame), blocks: [] };
    // A floating picture gets a paragraph of its own, aligned the way it floats.
    return { blocks: [imageParagraph(ctx, image, anchorAlign(frame, image.width))], box: anchorBox(frame, image.width, image.height) };
  }
  if (uri.endsWith(URI_DIAGRAM)) return { blocks: smartArtBlocks(ctx, descendant(data, 'dgm:relIds'), width, height) };
  if (uri.endsWith(URI_CHART) || uri.endsWith('/chartex')) {
    const chart = width && height ? chartRun(ctx, data, uri.endsWith(URI_CHART), width, height) : undefined;
    if (!chart) return { blocks: [] };
    if (!anchored) return { image: withEffectExtent(chart, frame), blocks: [] };
    return { blocks: [imageParagraph(ctx, chart, anchorAlign(frame, chart.width))], box: anchorBox(frame, chart.width, chart.height) };
  }
  if (!anchored && width && height && width > 0 && height > 0) {
    // An inline shape, group or canvas is drawn in the line as Word draws it: its room there, each shape's fill,
    // outline and text (its insets, its vertical anchor) inside, as anchored ones are (floats.ts).
    const parts = inlineParts(ctx, data, width, height, alt);
    if (parts.length > 0) return { image: { type: 'shape', width: round2(width), height: round2(height), parts }, blocks: [] };
  }
  // Shapes, groups and canvases: their text boxes, and their pictures (pic:pic, or shapes filled with a picture).
  const blocks = textBoxBlocks(ctx, data ?? frame);
  const scale = groupScale(data, width, height);
  for (const shape of [...descendants(data, 'pic:pic'), ...descendants(data, 'wps:wsp')]) {
    const spPr = child(shape, shape.name === 'pic:pic' ? 'pic:spPr' : 'wps:spPr');
    const blip = shape.name === 'pic:pic' ? descendant(shape, 'a:blip') : child(child(spPr, 'a:blipFill'), 'a:blip');
    if (!blip) continue;
    const ext = child(child(spPr, 'a:xfrm'), 'a:ext');
    const single = shape === descendant(data, shape.name) && !descendant(data, 'wpg:wgp');
    const w = single ? width : (emu(ext?.attrs.cx) ?? 0) * scale.x;
    const h = single ? height : (emu(ext?.attrs.cy) ?? 0) * scale.y;
    const image = imageRun(ctx, blip.attrs['r:embed'], w, h, alt);
    if (image) blocks.push(imageParagraph(ctx, withOutline(ctx, image, spPr), anchored ? anchorAlign(frame, image.width) : undefined));
  }
  // (Content of no known kind — Strict01's shapes in the drawing namespace, wp:wsp — keeps no room: LibreOffice's neither.)
  const known = children(data).some((c) => c.name === 'wps:wsp' || c.name === 'wpg:wgp' || c.name === 'wpc:wpc');
  if (!anchored && known && blocks.length === 0 && width && height && width > 0 && height > 0) {
    // Only a shape with nothing to show (no fill, no outline) is drawn as Word draws it; else its room is kept, said.
    if (!invisible(ctx, data)) ctx.doc.warnings.add('shape_not_drawn', ctx.part, 'w:drawing');
    return { image: withEffectExtent({ type: 'image', src: EMPTY, width: round2(width), height: round2(height) }, frame), blocks };
  }
  if (!anchored || !width || !height) return { blocks };
  // A lone shape's fill and outline (groups are drawn by their parts: left out).
  const shapes = descendants(data, 'wps:wsp');
  const decoration = shapes.length === 1 && !descendant(data, 'wpg:wgp') ? shapeDecoration(shapes[0], ctx.doc.theme) : {};
  return { blocks, box: { ...anchorBox(frame, width, height), ...decoration } };
}

/** A lone shape (not a group or canvas) with neither fill nor outline: nothing to draw but its room. */
function invisible(ctx: PartContext, data: XElement | undefined): boolean {
  const shapes = descendants(data, 'wps:wsp');
  if (shapes.length !== 1 || descendant(data, 'wpg:wgp') || descendant(data, 'wpc:wpc')) return false;
  const d = shapeDecoration(shapes[0], ctx.doc.theme);
  return !d.fill && !d.line;
}

/** A typical text column (points): used to guess where an object placed at an offset sits. */
const TYPICAL_COLUMN = 470;
/** A page margin as commonly set (points): where the margin areas sit relative to the text column. */
const TYPICAL_MARGIN = 72;

/**
 * The anchor's position relative to the text column: an offset, or an alignment turned into one, from
 * whatever the anchor is relative to (column, margin, page, left or right margin area).
 */
function anchorBox(frame: XElement, width: number, height: number): FloatBox {
  const axis = (name: string, size: number, span: number): number => {
    const pos = childThroughAlternate(frame, name);
    const from = pos?.attrs.relativeFrom ?? 'column';
    // Where the reference area starts, and how wide it is, in column coordinates.
    const [base, extent] =
      from === 'page'
        ? [-TYPICAL_MARGIN, span + 2 * TYPICAL_MARGIN]
        : from === 'leftMargin' || from === 'insideMargin' || from === 'topMargin'
          ? [-TYPICAL_MARGIN, TYPICAL_MARGIN]
          : from === 'rightMargin' || from === 'outsideMargin'
            ? [span, TYPICAL_MARGIN]
            : [0, span];
    const offset = emu(textOf(child(pos, 'wp:posOffset')).trim());
    if (offset !== undefined) return base + offset;
    const align = textOf(child(pos, 'wp:align')).trim();
    if (align === 'center') return base + (extent - size) / 2;
    if (align === 'right' || align === 'outside' || align === 'bottom') return base + extent - size;
    return base;
  };
  return { x: axis('wp:positionH', width, TYPICAL_COLUMN), y: axis('wp:positionV', height, 648), width, height };
}


/** Left, center or right, from the anchor's horizontal alignment, or else from where its offset puts it. */
function anchorAlign(frame: XElement, width: number): 'left' | 'center' | 'right' {
  const pos = childThroughAlternate(frame, 'wp:positionH');
  const align = textOf(child(pos, 'wp:align')).trim();
  if (align === 'center') return 'center';
  if (align === 'right' || align === 'outside') return 'right';
  if (align) return 'left';
  const offset = emu(textOf(child(pos, 'wp:posOffset')).trim());
  if (offset === undefined) return 'left';
  const middle = offset + width / 2;
  return middle > TYPICAL_COLUMN * 0.66 ? 'right' : middle > TYPICAL_COLUMN * 0.33 ? 'center' : 'left';
}

/** Shapes in a group are sized in the group's own coordinates (chExt), which the anchor's extent scales. */
function groupScale(data: XElement | undefined, width: number | undefined, height: number | undefined): { x: number; y: number } {
  const xfrm = child(child(descendant(data, 'wpg:wgp'), 'wpg:grpSpPr'), 'a:xfrm');
  const chExt = child(xfrm, 'a:chExt');
  const cx = emu(chExt?.attrs.cx);
  const cy = emu(chExt?.attrs.cy);
  return { x: cx && width ? width / cx : 1, y: cy && height ? height / cy : 1 };
}

/**
 * A chart (docx/chart.ts), or for a chart whose part cannot be read a framed box (a chart of an unsupported kind);
 * undefined with a `chart_not_drawn` warning when the part is missing. Office 2016's chartex charts (waterfall,
 * funnel…) reach here only without a fallback picture (mc:AlternateContent chooses the picture when there is one).
 */
function chartRun(ctx: PartContext, data: XElement | undefined, classic: boolean, width: number, height: number): ChartRun | undefined {
  if (classic) {
    const chart = readChart(ctx, descendant(data, 'c:chart'), round2(width), round2(height));
    if (!chart) ctx.doc.warnings.add('chart_not_drawn', ctx.part, 'c:chart');
    return chart;
  }
  ctx.doc.warnings.add('chart_type_unsupported', ctx.part, 'cx:chart', 'chartex');
  return { type: 'chart', width: round2(width), height: round2(height), chart: { categories: [], plots: [], unsupported: 'chartex' } };
}

/** A paragraph holding one image (or chart), in the document's default paragraph style. */
export function imageParagraph(ctx: PartContext, image: ImageRun | ChartRun, align?: 'left' | 'center' | 'right'): Paragraph {
  const base = ctx.doc.styles.paragraphStyle(undefined);
  // No spacing of its own: a Normal style's HTML "auto" spacing (w:beforeAutospacing, 14 pt) would otherwise move a
  // floating picture below the position its anchor gives it.
  const style = toParagraphStyle({ ...ctx.doc.styles.docP, ...base.p, spaceBefore: 0, spaceAfter: 0, beforeAuto: false, afterAuto: false, line: undefined, lineRule: undefined });
  if (align) style.align = align;
  return { type: 'paragraph', runs: [image], style };
}

/** A length from a VML style ("196.95pt", "1.5in", "120px"…) in points. */
function vmlLength(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const m = /^(-?[0-9.]+)\s*(pt|in|cm|mm|px|pc|em)?$/.exec(value.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = m[2] ?? 'px';
  const factor: Record<string, number> = { pt: 1, in: 72, cm: 72 / 2.54, mm: 72 / 25.4, px: 0.75, pc: 12, em: 12 };
  return Number.isFinite(n) ? n * factor[unit] : undefined;
}

/** A VML style attribute's declarations (name → value). */
export function vmlStyle(style: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const decl of (style ?? '').split(';')) {
    const colon = decl.indexOf(':');
    if (colon > 0) out[decl.slice(0, colon).trim().toLowerCase()] = decl.slice(colon + 1).trim();
  }
  return out;
}

/** Legacy VML pictures and text boxes (w:pict, and the preview picture of an embedded object w:object). */
export function readVml(ctx: PartContext, pict: XElement): DrawingOutput {
  return reported(ctx, pict.name, () => readVmlContent(ctx, pict));
}

function readVmlContent(ctx: PartContext, pict: XElement): DrawingOutput {
  const blocks = textBoxBlocks(ctx, pict);
  let image: ImageRun | undefined;
  for (const imagedata of descendants(pict, 'v:imagedata')) {
    const relId = imagedata.attrs['r:id'] ?? imagedata.attrs['r:pict'];
    if (!relId) continue;
    const shape = findShapeOf(pict, imagedata);
    const css = vmlStyle(shape?.attrs.style);
    const run = imageRun(ctx, relId, vmlLength(css.width), vmlLength(css.height), shape?.attrs.alt);
    if (run && !image && blocks.length === 0 && css.position !== 'absolute') image = run;
    else if (run) blocks.push(imageParagraph(ctx, run));
  }
  if (image) return { image, blocks };
  // The drawn shape (not the v:shapetype that may precede it) carries the position.
  const shape = children(pict).find((c) => c.name.startsWith('v:') && c.name !== 'v:shapetype' && c.attrs.style !== undefined);
  const css = vmlStyle(shape?.attrs.style);
  const width = vmlLength(css.width);
  const height = vmlLength(css.height);
  // WordArt (v:textpath): its string is what is drawn, not a box filled with its colour.
  if (shape && css.position === 'absolute' && child(shape, 'v:textpath')) {
    const text = child(shape, 'v:textpath')?.attrs.string ?? '';
    const styles = ctx.doc.styles;
    const art = vmlWordArt(ctx, shape, css, vmlLength, toRunStyle(mergeR(styles.docR, styles.paragraphStyle(undefined).r), text));
    return art ? { blocks: [art], positioned: true } : { blocks };
  }
  if (shape && css.position === 'absolute') {
    const float = vmlFloat(ctx, shape, css, vmlLength, blocks);
    if (float) return { blocks: [float], positioned: true };
  }
  if (css.position === 'absolute' && width && height) {
    // mso-position-horizontal/vertical (left, center, right…) win over offsets unless they say "absolute".
    const along = (offset: string | undefined, align: string | undefined, size: number): number => {
      if (align === 'center') return (TYPICAL_COLUMN - size) / 2;
      if (align === 'right' || align === 'outside' || align === 'bottom') return TYPICAL_COLUMN - size;
      if (align === 'left' || align === 'inside' || align === 'top') return 0;
      return vmlLength(offset) ?? 0;
    };
    const x = along(css['margin-left'] ?? css.left, css['mso-position-horizontal'], width);
    const y = along(css['margin-top'] ?? css.top, css['mso-position-vertical'], height);
    return { blocks, box: { x, y, width, height, ...vmlDecoration(shape as XElement) } };
  }
  return { blocks };
}

function findShapeOf(root: XElement, target: XElement): XElement | undefined {
  for (const node of root.children) {
    if (typeof node === 'string') continue;
    if (node.children.includes(target)) return node;
    const found = findShapeOf(node, target);
    if (found) return found;
  }
  return undefined;
}
