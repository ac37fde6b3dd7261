/**
 * The template model: plain, serialisable data describing a document before and after data is bound.
 *
 * - A *source* model comes from a template file (docloom's .json format, or a .docx import). Its text may hold
 *   tags (`{{name}}`, `{{#list}}…{{/list}}`, `{{%logo}}`), written in the template's delimiters.
 * - A *bound* model has the same shape with every tag resolved: loops expanded, values formatted, images as data.
 *   engine/pdf renders only bound models.
 *
 * Lengths are PDF points (1/72 inch). Colours are `#rrggbb`. Styles are already resolved (the DOCX importer and
 * the .json loader flatten named styles and inheritance), so the renderer never looks anything up.
 */

import type { ErrorCode, WarningCode } from '../../errors/catalogue.js';
import type { FloatPlacement } from './floats.js';

export type { FloatPlacement } from './floats.js';

export interface RunStyle {
  /** Family as the author wrote it ('Calibri', 'Times New Roman', 'Helvetica'); engine/pdf maps it to a bundled font. */
  font?: string;
  /** Font size in points. */
  size?: number;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  color?: string;
  highlight?: string;
  vertAlign?: 'superscript' | 'subscript';
  /** All capitals (Word's w:caps): the text is kept as written and drawn upper-cased. */
  caps?: boolean;
  /** Small capitals (w:smallCaps): lower-case letters drawn as capitals at 80 % of the size. */
  smallCaps?: boolean;
  /** Hyperlink target (absolute URL or mailto:). */
  link?: string;
  /**
   * Horizontal scale of the glyphs in percent (Word's w:w, 1–600; absent = 100): the text is drawn and measured
   * that much wider or narrower, its height unchanged. Read from .docx only.
   */
  scale?: number;
  /**
   * Space added after every character, in points (Word's character spacing, w:spacing in w:rPr: expanded when
   * positive, condensed when negative; absent = 0): measured and drawn. Read from .docx only.
   */
  charSpacing?: number;
}

export interface TabStop {
  pos: number;
  align: 'left' | 'center' | 'right' | 'decimal';
  leader?: 'none' | 'dot' | 'hyphen' | 'underscore' | 'middleDot';
}

export interface BorderLine {
  width: number;
  color: string;
  style?: 'single' | 'double' | 'dashed' | 'dotted';
  /**
   * A paragraph border's distance from the text, in points (Word's w:space): above the first line (top), below the
   * last (bottom), beside the text (left, right; 4 pt when absent). Table and cell borders ignore it.
   */
  space?: number;
}

export interface ParagraphStyle {
  align?: 'left' | 'center' | 'right' | 'justify';
  indentLeft?: number;
  indentRight?: number;
  /** First-line indent; negative for a hanging indent. */
  indentFirstLine?: number;
  spaceBefore?: number;
  spaceAfter?: number;
  /** Line height as a multiple of the font size (1 = single). */
  lineHeight?: number;
  /**
   * Word's exact and at-least line spacing, in points (w:spacing/@w:lineRule exact | atLeast): every line of
   * the paragraph is exactly that tall, or at least that tall. Either one replaces lineHeight.
   */
  lineExact?: number;
  lineAtLeast?: number;
  /** false: the lines ignore the section's document grid (PageSetup.linePitch). */
  snapToGrid?: boolean;
  /** true: the paragraph's lines get no line numbers and are not counted (Word's w:suppressLineNumbers). */
  suppressLineNumbers?: boolean;
  /**
   * Word's automatic spacing (w:autoSpaceDE / w:autoSpaceDN): a fifth of an em between East Asian letters
   * (ideographs, kana, hangul) and Latin letters / digits that touch them, as Word and LibreOffice draw it.
   */
  autoSpaceLatin?: boolean;
  autoSpaceDigits?: boolean;
  /** Outline level of a heading (1 = top); used for bookmarks. */
  heading?: 1 | 2 | 3 | 4 | 5 | 6;
  keepWithNext?: boolean;
  pageBreakBefore?: boolean;
  /** false: the paragraph's first or last line may stand alone at a page edge (no widow/orphan control). */
  widowControl?: boolean;
  rtl?: boolean;
  tabs?: TabStop[];
  /** Distance between the default tab stops after the explicit ones (Word's w:defaultTabStop; 36 pt when absent). */
  defaultTab?: number;
  shading?: string;
  borders?: { top?: BorderLine; bottom?: BorderLine; left?: BorderLine; right?: BorderLine };
  /**
   * Added for the DOCX importer (Word's "don't add space between paragraphs of the same style"): two adjacent
   * paragraphs with the same value here have no spaceAfter/spaceBefore between them. The value is the Word
   * style's id. The importer already applies it between neighbours of the template; a renderer honouring it
   * also covers paragraphs repeated by a loop (one bullet per item).
   */
  contextualSpacing?: string;
}

export interface TextRun {
  type: 'text';
  /** May contain '\t' (tab) and '\n' (line break inside the paragraph). */
  text: string;
  style?: RunStyle;
  /**
   * This run is the reference mark of the paragraph's footnote at this index (Paragraph.footnotes): the page flow
   * puts the note on the page of the line that holds the mark. Read from .docx only.
   */
  footnote?: number;
  /**
   * The run is one line break ('\n') that also clears floats (.docx w:br w:clear): the text after it starts on
   * the first line no float narrows on that side ('left', 'right') or on either ('all').
   */
  clear?: 'left' | 'right' | 'all';
}

export interface ImageRun {
  type: 'image';
  /** A `data:` URI (bound models always; source models for images embedded in the template). */
  src: string;
  width: number;
  height: number;
  alt?: string;
  /** A line around the picture, centred on its edge (a .docx picture's border: pic:spPr's a:ln). */
  outline?: { width: number; color: string };
  /**
   * Room kept around the picture in its line, in points (a .docx inline's wp:effectExtent: what its shadow, glow
   * or thick border reaches past its box). The picture is drawn inside it; `width` × `height` stay its own size.
   */
  pad?: { left: number; top: number; right: number; bottom: number };
  /**
   * The style of the run holding the picture (.docx: its w:rPr): only its font and size count, a line holding
   * pictures alone being at least as tall as that font's line (absent: the paragraph mark's font).
   */
  style?: RunStyle;
}

/** A value the renderer fills per page. */
export interface FieldRun {
  type: 'field';
  field: 'page' | 'pages';
  style?: RunStyle;
}

/**
 * A chart drawn from the values its author's application saved with it (DOCX: the chart part's caches), as real
 * text and vector shapes `width` × `height` points, inline like a picture. Read from .docx only.
 */
export interface ChartRun {
  type: 'chart';
  width: number;
  height: number;
  chart: Chart;
  /** Room kept around the chart in its line, as ImageRun.pad. */
  pad?: ImageRun['pad'];
}

/**
 * A shape drawn in the line (a .docx inline shape, group or canvas: wp:inline holding wps:wsp, wpg:wgp or wpc:wpc):
 * it takes `width` × `height` points in the line as a picture does, sitting on the baseline, and its parts — each a
 * one-cell floating table (model/floats.ts: its preset shape, fill, outline, and its text inside the shape's insets)
 * — are drawn at their float offsets, measured from the box's top-left corner. Read from .docx only.
 */
export interface ShapeRun {
  type: 'shape';
  width: number;
  height: number;
  parts: Table[];
}

export type Inline = TextRun | ImageRun | FieldRun | ChartRun | ShapeRun;

/** Text of a chart part (title, axis labels, legend, data labels). */
export interface ChartText {
  font?: string;
  /** Points. */
  size?: number;
  bold?: boolean;
  italic?: boolean;
  color?: string;
}

/** Which labels a series shows next to its points (Word's c:dLbls). */
export interface ChartLabels {
  value?: boolean;
  percent?: boolean;
  category?: boolean;
  series?: boolean;
  /** Where: 'outEnd' (beyond the bar or slice), 'inEnd', 'ctr', 'inBase', 't', 'b', 'l', 'r', 'bestFit'. */
  position?: string;
  /** Number format of the values (Excel's format code: 'General', '0.0', '0%'…). */
  format?: string;
  text?: ChartText;
}

export interface ChartSeries {
  name: string;
  /** Values by category index (null: no value there). */
  values: Array<number | null>;
  /** Scatter charts: the x value of each point. */
  xValues?: Array<number | null>;
  /** Bubble plots: each point's bubble size (c:bubbleSize). */
  sizes?: Array<number | null>;
  /** Fill (bars, areas, slices) or line colour (lines, scatter). */
  color: string;
  /** Per-point colours (pie slices, varied colours, c:dPt). */
  pointColors?: Array<string | undefined>;
  /** Line width in points (lines, scatter); 0 = no line. */
  lineWidth?: number;
  /** Marker drawn at each point (lines, scatter): its shape and size in points. */
  marker?: { symbol: 'circle' | 'square' | 'diamond' | 'triangle' | 'x' | 'dash'; size: number; color: string };
  /** The outline of bars and slices. */
  outline?: string;
  labels?: ChartLabels;
}

export interface ChartPlot {
  kind: 'bar' | 'line' | 'area' | 'pie' | 'doughnut' | 'scatter' | 'radar' | 'bubble';
  /** Radar plots (c:radarStyle): lines without markers, lines with markers, or filled polygons. */
  radarStyle?: 'standard' | 'marker' | 'filled';
  /** Bubble plots: the largest bubble's size as a percentage of the default (c:bubbleScale, 0..300, default 100). */
  bubbleScale?: number;
  /** Bubble plots: what a bubble's size sets, its area (the default) or its width (c:sizeRepresents w). */
  sizeRepresents?: 'area' | 'w';
  /** Bubble plots: bubbles of negative size drawn, by their magnitude (c:showNegBubbles). */
  showNegBubbles?: boolean;
  /** Bars: true for horizontal bars (c:barDir bar), false for columns. */
  horizontal?: boolean;
  grouping?: 'clustered' | 'stacked' | 'percentStacked' | 'standard';
  /** Bars: the gap between categories, as a percentage of a bar's width (default 150). */
  gapWidth?: number;
  /** Bars: overlap of the bars of one category, −100..100 (percent of a bar's width). */
  overlap?: number;
  /** Doughnuts: the hole's diameter as a percentage of the ring's (default 50). */
  holeSize?: number;
  /** Pies: the first slice's angle, degrees clockwise from 12 o'clock. */
  firstSliceAngle?: number;
  /** Plotted against the secondary value axis. */
  secondary?: boolean;
  /** A 3-D plot (c:bar3DChart …), drawn flat; its value axis keeps no extra step above values near its end. */
  threeD?: boolean;
  series: ChartSeries[];
}

/** Where an axis's tick marks lie against its line: on the labels' side, the plot's side, or both. */
export type ChartTickMark = 'out' | 'in' | 'cross';

export interface ChartAxis {
  /** Not shown (c:delete). */
  hidden?: boolean;
  title?: string;
  min?: number;
  max?: number;
  majorUnit?: number;
  /** Number format of the labels. */
  format?: string;
  gridlines?: string;
  /** The axis line's colour; absent: no line (and no tick marks, which are drawn in the line's format). */
  line?: string;
  /** The axis line's width in points (a:ln w; absent: 0.75, Office's hairline-plus default). */
  lineWidth?: number;
  /** Largest value at the start (c:orientation maxMin). */
  reversed?: boolean;
  /** No tick labels (c:tickLblPos none). */
  noLabels?: boolean;
  /** Major tick marks (c:majorTickMark, ECMA-376 21.2.3.48 ST_TickMark): outside, inside or across the line; absent: none. */
  majorTicks?: ChartTickMark;
  /** Minor tick marks (c:minorTickMark), between the major ones; absent: none. Drawn on value axes only. */
  minorTicks?: ChartTickMark;
  /** Value axes: the step between minor tick marks (c:minorUnit; absent: a fifth of the major unit). */
  minorUnit?: number;
  /** Category axes: a major tick mark every this many categories (c:tickMarkSkip; absent: 1). */
  tickMarkSkip?: number;
  text?: ChartText;
}

export interface Chart {
  title?: string;
  titleText?: ChartText;
  /** Category names (the x of bar, line and area charts; slice names of pies). */
  categories: string[];
  plots: ChartPlot[];
  categoryAxis?: ChartAxis;
  valueAxis?: ChartAxis;
  /** Scatter charts: the horizontal value axis. */
  xAxis?: ChartAxis;
  /** The value axis of plots drawn against a second scale (combination charts), on the right. */
  secondaryAxis?: ChartAxis;
  legend?: {
    position: 't' | 'b' | 'l' | 'r' | 'tr';
    text?: ChartText;
    hidden?: number[];
    /**
     * The author's placement (c:manualLayout in edge mode): the legend's box as fractions of the chart's width and
     * height (x, y its top-left corner; w, h its size, absent: as wide and tall as its entries need). The plot area
     * then keeps its room: the legend is drawn where it was put, over the plot if that is where it lies.
     */
    box?: { x: number; y: number; w?: number; h?: number };
  };
  /**
   * The author's placement of the plot area (c:plotArea/c:layout/c:manualLayout, x and y in edge mode): its box as
   * fractions of the chart's width and height. `inner`: the box is the axes' rectangle, tick labels and axis titles
   * outside it (c:layoutTarget inner); otherwise it holds them too (outer, the default).
   */
  plotBox?: { x: number; y: number; w: number; h: number; inner: boolean };
  /** Where points fall on the category axis: on the category's middle ('between') or its edges ('midCat'). */
  crossBetween?: 'between' | 'midCat';
  /** Default text of the chart. */
  text?: ChartText;
  /** The chart area's fill and outline. */
  fill?: string;
  border?: string;
  /** Set for a chart whose type is not drawn: only its frame and title are (its name, e.g. 'stock'). */
  unsupported?: string;
}

/**
 * List number formats: Word's w:numFmt values the renderer writes (engine/pdf/layout/number-formats.ts). The DOCX
 * importer turns any other value into 'decimal' with a number_format_unsupported warning.
 */
export const LIST_FORMATS = [
  'bullet', 'decimal', 'lowerLetter', 'upperLetter', 'lowerRoman', 'upperRoman', 'none',
  'decimalZero', 'ordinal', 'cardinalText', 'ordinalText', 'decimalFullWidth', 'decimalEnclosedCircle',
  'hebrew1', 'hebrew2', 'arabicAlpha', 'arabicAbjad', 'russianLower', 'russianUpper', 'aiueo', 'iroha',
  'ideographDigital', 'japaneseDigitalTenThousand', 'chineseCounting', 'chineseCountingThousand',
  'taiwaneseCounting', 'taiwaneseCountingThousand', 'japaneseCounting', 'ideographTraditional', 'ideographZodiac',
  // docloom's names for Word's custom formats (w:numFmt w:val="custom" w:format="001, 002, 003, ...", "α, β, γ, ...").
  'decimalZero3', 'decimalZero4', 'decimalZero5', 'greekLower', 'greekUpper',
] as const;

export interface ListInfo {
  /** Paragraphs with the same id and level continue one numbering. */
  id: string;
  /** 0-based nesting level. */
  level: number;
  format: (typeof LIST_FORMATS)[number];
  /** Word's level text, e.g. '%1.' or '%1.%2)'; the bullet character for bullets. */
  text?: string;
  start?: number;
  /**
   * The start values of the shallower levels (index = level), shown by '%1'… while such a level has no item yet:
   * Word numbers a first level-2 item "5.1" when level 1 starts at 5 (oxsdk__hyperlink's "5.1 General").
   */
  parentStarts?: number[];
}

export interface Paragraph {
  type: 'paragraph';
  runs: Inline[];
  style?: ParagraphStyle;
  list?: ListInfo;
  /**
   * The footnotes this paragraph references, each its text (the number mark first), in reference order: drawn
   * at the foot of the page of the line holding its mark (TextRun.footnote; without one, the paragraph's last
   * line). Read from .docx only (the .json template form has none).
   */
  footnotes?: Block[][];
}

export interface TableCell {
  blocks: Block[];
  colSpan?: number;
  rowSpan?: number;
  shading?: string;
  vAlign?: 'top' | 'middle' | 'bottom';
  /**
   * Vertical text (Word's w:textDirection): 'btLr' turns the cell's content 90° counter-clockwise (lines read
   * upwards, the first at the cell's left), 'tbRl' 90° clockwise (lines read downwards, the first at the right).
   * The content is laid out with the row's height as its line length; absent: horizontal.
   */
  textDirection?: 'btLr' | 'tbRl';
  borders?: { top?: BorderLine; bottom?: BorderLine; left?: BorderLine; right?: BorderLine };
  /** This cell's own margins (points), over the table's `style.cellMargins`. */
  margins?: CellMargins;
}

/** Space between a cell's edges and its content, in points. */
export interface CellMargins {
  top?: number;
  right?: number;
  bottom?: number;
  left?: number;
}

export interface TableRow {
  cells: TableCell[];
  /** Header rows repeat at the top of every page the table continues on. */
  header?: boolean;
  /** Minimum height in points (the height itself with heightRule 'exact'). */
  height?: number;
  /** 'exact': the row is `height` tall whatever it holds (what does not fit is not shown); default: at least. */
  heightRule?: 'atLeast' | 'exact';
  /** The row moves to the next page whole instead of splitting at a page's foot. */
  cantSplit?: boolean;
}

export interface Table {
  type: 'table';
  /** Column widths in points (scaled to the available width when they do not fit). */
  columns: number[];
  rows: TableRow[];
  style?: {
    align?: 'left' | 'center' | 'right';
    borders?: BorderLine | null;
    cellPadding?: number;
    /**
     * Cell margins per side (points). When given they replace `cellPadding` (which then only says the left
     * margin); without them the cells get `cellPadding` left and right and half of it above and below.
     */
    cellMargins?: CellMargins;
    /** Default run style of the cells. */
    run?: RunStyle;
    /** Preferred width in points: the columns are scaled to it (unless `layout` is 'fixed'). */
    width?: number;
    /** Preferred width as a share of the available width (1 = all of it); `width` wins when both are given. */
    widthShare?: number;
    /** Distance of the table's left edge from the text box's left edge, in points (may be negative). */
    indent?: number;
    /**
     * 'fixed': the columns are taken as they are (only ever scaled down to fit the box). 'auto' (the default):
     * the columns are scaled to the preferred width, and columns too narrow for their longest word are widened
     * at the expense of the others when the table fits in the box.
     */
    layout?: 'fixed' | 'auto';
    /**
     * Word's rule for a table wider than its box: it keeps its width and reaches into the page's margins (to the
     * right, both sides when centred, to the left when right-aligned), never past the page's edge. Without it the
     * columns are scaled down to the box. Only in the body (a table in a cell always fits its cell), and not with a
     * `widthShare` (a share of the box stays within it).
     */
    keepWidth?: boolean;
    /** A floating object (model/floats.ts): placed on the page by position, out of the flow. */
    float?: FloatPlacement;
  };
}

export interface PageBreak {
  type: 'pageBreak';
  /** A column break (Word's w:br w:type="column"): the next column, or the next page after the last column. */
  column?: boolean;
  /**
   * The empty line a break that starts its paragraph sits on (that paragraph's style and mark, no text): the
   * line is on the page before the break, so it needs room there; where there is none it goes to the next page
   * and the break then starts another one (docx import only).
   */
  lead?: Paragraph;
}

export type Block = Paragraph | Table | PageBreak;

export interface PageSetup {
  width: number;
  height: number;
  margins: { top: number; right: number; bottom: number; left: number };
  /** Distance from the page edge to the header / footer. */
  headerDistance?: number;
  footerDistance?: number;
  /**
   * Document grid line pitch in points (Word's w:docGrid of type lines, common in East Asian documents): each
   * line of the body takes a whole number of pitches.
   */
  linePitch?: number;
  /** Newspaper columns (Word's w:cols): the body fills column 1, then 2… on each page. */
  columns?: Columns;
  /** Lines around the page (Word's w:pgBorders). */
  borders?: PageBorders;
  /** Numbers beside the body's lines (Word's w:lnNumType). */
  lineNumbers?: LineNumbering;
}

/**
 * Line numbering of a section (Word's w:lnNumType, ECMA-376 §17.6.8): every body line outside tables counts; every
 * `countBy`-th shows its number, right-aligned `distance` points left of its column. The count starts at `start`
 * on each page (`restart` 'newPage'), at the section's start ('newSection'), or goes on from the section before
 * ('continuous').
 */
export interface LineNumbering {
  countBy: number;
  start: number;
  restart: 'newPage' | 'newSection' | 'continuous';
  distance: number;
}

/**
 * Lines around each page of a section (Word's w:pgBorders). Each side's `space` is its distance in points from the
 * page's edge (`offsetFrom` 'page') or from the text area, the margins' box (`offsetFrom` 'text', the default).
 */
export interface PageBorders {
  top?: BorderLine;
  right?: BorderLine;
  bottom?: BorderLine;
  left?: BorderLine;
  offsetFrom?: 'page' | 'text';
  /** Which pages of the section have them (default: all). */
  display?: 'all' | 'first' | 'notFirst';
  /** Drawn under the page's text (w:zOrder="back") instead of over it. */
  behind?: boolean;
  /** A shadow: the bottom and right lines drawn again, a line's width outwards (w:shadow). */
  shadow?: boolean;
}

export interface Columns {
  /** 2 or more. */
  count: number;
  /** Space between columns (points); `widths`/`spaces` win when given. */
  space: number;
  /** Unequal columns (w:equalWidth off): each column's width and the space after it (points). */
  widths?: number[];
  spaces?: number[];
  /** A vertical line between columns (w:sep). */
  separator?: boolean;
}

export interface HeaderFooterSet {
  default?: Block[];
  first?: Block[];
  even?: Block[];
}

export interface Section {
  page: PageSetup;
  body: Block[];
  header?: HeaderFooterSet;
  footer?: HeaderFooterSet;
  /** Use the `first` header/footer on the section's first page. */
  titlePage?: boolean;
  /**
   * The section starts on the page where the one before it ends (Word's continuous section break), below its
   * content; its page size and headers are those of that page. The one before it balances its columns.
   */
  continuous?: boolean;
  /**
   * Page numbering of the section (Word's w:pgNumType): page fields count from `start` on its first page (else
   * they go on from the section before) and are written in `format` (a list format: decimal, lowerRoman…).
   */
  pageNumbers?: { start?: number; format?: ListInfo['format'] };
}

export interface DocMetadata {
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string;
  creator?: string;
}

export interface TemplateModel {
  version: 1;
  sections: Section[];
  /** Document defaults every run and paragraph starts from. */
  defaults: { run: RunStyle; paragraph: ParagraphStyle };
  metadata?: DocMetadata;
  /** BCP 47 locale used by filters (numbers, currency, dates). */
  locale?: string;
  /** Page colour: every page is filled with it before anything is drawn (Word's w:background). */
  background?: string;
}

/** A template variable as listed in a template's `fields` (CONTRACT.md §4). */
export interface Field {
  name: string;
  type: 'text' | 'list' | 'table' | 'image' | 'condition';
  fields?: Field[];
}

/** Where a template problem is: the part (body, header, footer:first, …), the paragraph and the tag. */
export interface TemplateErrorLocation {
  part: string;
  paragraph?: number;
  tag?: string;
  /** Where the tag starts in its paragraph's text (0-based, in characters). */
  offset?: number;
  /** Where the fault is in `tag` as shown, delimiters included (1-based), for expression errors. */
  column?: number;
}

export interface TemplateError {
  code: ErrorCode;
  message: string;
  location: TemplateErrorLocation;
}

/**
 * Something the importer left out or changed in an accepted template (mammoth's Result.messages), aggregated per
 * code + part + element with how many times it happened. `part` is the package part (word/document.xml,
 * word/header1.xml, word/media/image3.emf…), `element` the XML element when one is concerned.
 */
export interface ImportWarning {
  code: WarningCode;
  message: string;
  location: { part: string; element?: string };
  count: number;
  /** `no_tags_found` only: the delimiters, as "{ }", with which the file has tags (`count` of them). */
  suggested_delimiters?: string;
}

export type Delimiters = readonly [open: string, close: string];

export const DEFAULT_DELIMITERS: Delimiters = ['{{', '}}'];
