/**
 * Blocks of the .json authoring format → model blocks. See docs/templates.md for the format; every form here
 * is listed there. Style inheritance, outermost first: table → column → row → cell → block → run.
 */
import type { Block, ImageRun, Inline, ListInfo, Paragraph, ParagraphStyle, RunStyle, Table, TableCell, TableRow } from '../model/types.js';
import { EngineError } from '../errors.js';
import { decodeDataUriImage } from '../images/sniff.js';
import { at, array, boolean, color, describe, fail, integer, isObject, object, oneOf, onlyKeys, string, type Json, type JsonObject } from './read.js';
import { length } from './units.js';
import { borderLine, mergeParts, readStyle, RUN_KEYS, STYLE_KEYS, type StyleBook, type StyleParts } from './styles.js';

export interface BlockContext {
  book: StyleBook;
  /** Numbers list ids so each list (and only it) continues one numbering. */
  nextListId: () => string;
  depth: number;
}

const MAX_DEPTH = 24;
/** Images embedded in a template may be as large as the template file itself may be. */
const MAX_TEMPLATE_IMAGE_BYTES = 20 * 1024 * 1024;
const HEADING_KEYS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const;
const EMPTY: StyleParts = { run: {}, para: {} };

function keys(...names: string[]): ReadonlySet<string> {
  return new Set([...names, ...STYLE_KEYS]);
}

const PARAGRAPH_BLOCK = keys('type', 'text', 'runs', 'style');
const P_SHORTHAND = keys('p', 'style');
const HEADING_BLOCK = keys('type', 'level', 'text', 'runs', 'style');
const LIST_BLOCK = keys('type', 'ordered', 'format', 'start', 'items', 'style');
const LIST_ITEM = keys('text', 'runs', 'p', 'style', 'items', 'ordered', 'format');
const TABLE_BLOCK = keys('type', 'columns', 'header', 'rows', 'style', 'cellPadding', 'position', 'headerStyle', 'headerShading', 'repeatHeader');
const COLUMN = keys('width', 'header', 'style');
const ROW = keys('cells', 'header', 'height', 'cantSplit', 'shading', 'style');
const CELL = keys('text', 'runs', 'p', 'blocks', 'colSpan', 'rowSpan', 'shading', 'vAlign', 'textDirection', 'cellBorders', 'style');
const IMAGE_BLOCK = keys('type', 'src', 'width', 'height', 'alt', 'style');
const RULE_BLOCK = new Set(['type', 'color', 'thickness', 'spaceBefore', 'spaceAfter']);
const RUN = new Set(['text', 'style', ...RUN_KEYS]);
const FIELD_RUN = new Set(['field', 'style', ...RUN_KEYS]);
const IMAGE_RUN = new Set(['image', 'width', 'height', 'alt']);

function deeper(ctx: BlockContext, path: string): BlockContext {
  if (ctx.depth >= MAX_DEPTH) fail(path, `blocks are nested more than ${MAX_DEPTH} levels deep.`);
  return { ...ctx, depth: ctx.depth + 1 };
}

/** Style of an object: its named style (if any) under its inline properties, on top of what it inherits. */
function styleOf(obj: JsonObject, path: string, ctx: BlockContext, inherited: StyleParts): StyleParts {
  let parts = inherited;
  if (obj.style !== undefined) parts = mergeParts(parts, ctx.book.get(obj.style, at(path, 'style')));
  return mergeParts(parts, readStyle(obj, path));
}

/** Rows and cells have their own "shading" (the cell background), which must not shade each paragraph too. */
function styleOfBox(obj: JsonObject, path: string, ctx: BlockContext, inherited: StyleParts): StyleParts {
  const { shading: _cellShading, ...rest } = obj;
  return styleOf(rest, path, ctx, inherited);
}

function cleanRun(style: RunStyle): RunStyle | undefined {
  return Object.keys(style).length > 0 ? style : undefined;
}

function paragraph(runs: Inline[], style: ParagraphStyle, list?: ListInfo): Paragraph {
  const para: Paragraph = { type: 'paragraph', runs };
  if (Object.keys(style).length > 0) para.style = style;
  if (list) para.list = list;
  return para;
}

function textRun(text: string, style: RunStyle): Inline {
  const clean = cleanRun(style);
  return clean ? { type: 'text', text, style: clean } : { type: 'text', text };
}

export function readBlocks(value: Json | undefined, path: string, ctx: BlockContext, width: number, inherited: StyleParts = EMPTY): Block[] {
  const out: Block[] = [];
  array(value, path).forEach((item, i) => out.push(...readBlock(item, at(path, i), ctx, width, inherited)));
  return out;
}

function readBlock(value: Json, path: string, ctx: BlockContext, width: number, inherited: StyleParts): Block[] {
  if (typeof value === 'string') return [paragraph([textRun(value, inherited.run)], { ...inherited.para })];
  const obj = object(value, path);
  if (obj.type === undefined) {
    if (obj.p !== undefined) {
      onlyKeys(obj, path, P_SHORTHAND);
      const style = styleOf(obj, path, ctx, inherited);
      return [paragraph(readContent(obj.p, at(path, 'p'), ctx, style.run, width), style.para)];
    }
    const heading = HEADING_KEYS.find((h) => obj[h] !== undefined);
    if (heading) {
      onlyKeys(obj, path, new Set([heading, 'style', ...STYLE_KEYS]));
      const style = styleOf(obj, path, ctx, mergeParts(inherited, ctx.book.get(heading, path)));
      return [paragraph(readContent(obj[heading], at(path, heading), ctx, style.run, width), style.para)];
    }
    fail(path, 'a block is a text, or an object with "type" (paragraph, heading, list, table, image, pageBreak, rule) or one of "p", "h1"…"h6".');
  }
  const type = oneOf(obj.type, at(path, 'type'), ['paragraph', 'heading', 'list', 'table', 'image', 'pageBreak', 'rule'] as const);
  switch (type) {
    case 'paragraph': {
      onlyKeys(obj, path, PARAGRAPH_BLOCK);
      const style = styleOf(obj, path, ctx, inherited);
      return [paragraph(textOrRuns(obj, path, ctx, style.run, width), style.para)];
    }
    case 'heading': {
      onlyKeys(obj, path, HEADING_BLOCK);
      const level = obj.level === undefined ? 1 : integer(obj.level, at(path, 'level'), 1, 6);
      const style = styleOf(obj, path, ctx, mergeParts(inherited, ctx.book.get(`h${level}`, path)));
      return [paragraph(textOrRuns(obj, path, ctx, style.run, width), style.para)];
    }
    case 'list':
      onlyKeys(obj, path, LIST_BLOCK);
      return readList(obj, path, deeper(ctx, path), width, styleOf(obj, path, ctx, inherited));
    case 'table':
      onlyKeys(obj, path, TABLE_BLOCK);
      return [readTable(obj, path, deeper(ctx, path), width, inherited)];
    case 'image': {
      onlyKeys(obj, path, IMAGE_BLOCK);
      const style = styleOf(obj, path, ctx, inherited);
      const maxWidth = Math.max(1, width - (style.para.indentLeft ?? 0) - (style.para.indentRight ?? 0));
      return [paragraph([readImage(obj, 'src', path, maxWidth, style.run)], style.para)];
    }
    case 'pageBreak':
      onlyKeys(obj, path, new Set(['type']));
      return [{ type: 'pageBreak' }];
    case 'rule': {
      onlyKeys(obj, path, RULE_BLOCK);
      const line = borderLine(
        { width: obj.thickness === undefined ? 0.75 : obj.thickness, color: obj.color === undefined ? '#999999' : obj.color },
        path,
      );
      const style: ParagraphStyle = {
        spaceBefore: obj.spaceBefore === undefined ? 0 : length(obj.spaceBefore, at(path, 'spaceBefore')),
        spaceAfter: obj.spaceAfter === undefined ? 6 : length(obj.spaceAfter, at(path, 'spaceAfter')),
        lineHeight: 0.5,
        borders: { bottom: line },
      };
      return [paragraph([], style)];
    }
  }
}

/** A block's text: "text" (one run) or "runs" (several), not both. */
function textOrRuns(obj: JsonObject, path: string, ctx: BlockContext, run: RunStyle, width: number): Inline[] {
  if (obj.text !== undefined && obj.runs !== undefined) fail(path, 'give either "text" or "runs", not both.');
  if (obj.text !== undefined) return [textRun(string(obj.text, at(path, 'text')), run)];
  if (obj.runs !== undefined) return readRuns(obj.runs, at(path, 'runs'), ctx, run, width);
  return [];
}

/** Text or an array of runs (the value of "p", "h1"… and list items). */
function readContent(value: Json, path: string, ctx: BlockContext, run: RunStyle, width: number): Inline[] {
  if (typeof value === 'string') return [textRun(value, run)];
  if (Array.isArray(value)) return readRuns(value, path, ctx, run, width);
  fail(path, `expected text or an array of runs, found ${describe(value)}.`);
}

function readRuns(value: Json, path: string, ctx: BlockContext, inherited: RunStyle, width: number): Inline[] {
  return array(value, path).map((item, i) => {
    const p = at(path, i);
    if (typeof item === 'string') return textRun(item, inherited);
    const obj = object(item, p);
    if (obj.field !== undefined) {
      onlyKeys(obj, p, FIELD_RUN);
      const field = oneOf(obj.field, at(p, 'field'), ['page', 'pages'] as const);
      const style = cleanRun(styleOf(obj, p, ctx, { run: inherited, para: {} }).run);
      return style ? { type: 'field', field, style } : { type: 'field', field };
    }
    if (obj.image !== undefined) {
      onlyKeys(obj, p, IMAGE_RUN);
      return readImage(obj, 'image', p, width, inherited);
    }
    onlyKeys(obj, p, RUN);
    if (obj.text === undefined) fail(p, 'a run needs "text" (or "field", or "image").');
    const parts = styleOf(obj, p, ctx, { run: inherited, para: {} });
    if (Object.keys(parts.para).length > 0) fail(at(p, 'style'), 'a run can only use run properties (font, size, bold…), and this style sets paragraph properties.');
    return textRun(string(obj.text, at(p, 'text')), parts.run);
  });
}

/** An image: a data: URI embedded in the template, or (as text) an image tag such as {{%logo:120x60}}. */
function readImage(obj: JsonObject, key: string, path: string, maxWidth: number, run: RunStyle): Inline {
  const src = string(obj[key], at(path, key)).trim();
  const hasSize = obj.width !== undefined || obj.height !== undefined;
  if (!/^data:/i.test(src)) {
    if (/^https?:\/\//i.test(src)) {
      fail(at(path, key), 'a template cannot fetch images: embed the image as a data: URI, or use an image tag such as {{%logo}} and pass the URL in the data.');
    }
    if (hasSize) fail(path, 'the size of an image tag goes in the tag itself, like {{%logo:120x60}} (width x height in points).');
    if (obj.alt !== undefined) string(obj.alt, at(path, 'alt'));
    return textRun(src, run);
  }
  let image;
  try {
    image = decodeDataUriImage(src, MAX_TEMPLATE_IMAGE_BYTES).image;
  } catch (err) {
    fail(at(path, key), err instanceof EngineError ? err.message : 'the image cannot be read.');
  }
  const natural = { width: image.width * 0.75, height: image.height * 0.75 };
  if (image.orientation !== undefined && image.orientation >= 5) [natural.width, natural.height] = [natural.height, natural.width];
  let w = obj.width === undefined ? undefined : length(obj.width, at(path, 'width'), 1);
  let h = obj.height === undefined ? undefined : length(obj.height, at(path, 'height'), 1);
  if (w === undefined && h === undefined) {
    const scale = Math.min(1, maxWidth / natural.width);
    w = natural.width * scale;
    h = natural.height * scale;
  } else if (w === undefined) w = (natural.width * (h as number)) / natural.height;
  else if (h === undefined) h = (natural.height * w) / natural.width;
  const out: ImageRun = { type: 'image', src, width: round(w), height: round(h as number) };
  if (obj.alt !== undefined) out.alt = string(obj.alt, at(path, 'alt'));
  return out;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

const BULLETS = ['•', '–', '·'];
const ORDERED: Array<ListInfo['format']> = ['decimal', 'lowerLetter', 'lowerRoman'];
const FORMATS = ['bullet', 'decimal', 'lowerLetter', 'upperLetter', 'lowerRoman', 'upperRoman', 'none'] as const;
const LIST_INDENT = 18;

function readList(obj: JsonObject, path: string, ctx: BlockContext, width: number, style: StyleParts): Block[] {
  const id = ctx.nextListId();
  const start = obj.start === undefined ? undefined : integer(obj.start, at(path, 'start'), 0, 1_000_000);
  const out: Block[] = [];
  readItems(obj, path, ctx, width, style, id, 0, start, false, out);
  return out;
}

function readItems(
  obj: JsonObject,
  path: string,
  ctx: BlockContext,
  width: number,
  style: StyleParts,
  id: string,
  level: number,
  start: number | undefined,
  parentOrdered: boolean,
  out: Block[],
): void {
  if (level > 8) fail(path, 'lists are nested more than 9 levels deep.');
  // Sub-lists follow their parent (numbered or bullets) unless the item says otherwise.
  const ordered = obj.ordered === undefined ? parentOrdered : boolean(obj.ordered, at(path, 'ordered'));
  const format = obj.format !== undefined ? oneOf(obj.format, at(path, 'format'), FORMATS) : ordered ? ORDERED[level % 3] : 'bullet';
  const info: ListInfo = {
    id,
    level,
    format,
    text: format === 'bullet' ? BULLETS[level % 3] : format === 'none' ? '' : `%${level + 1}.`,
  };
  if (start !== undefined) info.start = start;
  const base: ParagraphStyle = {
    spaceAfter: 2,
    ...style.para,
    indentLeft: (style.para.indentLeft ?? 0) + LIST_INDENT * (level + 1),
    indentFirstLine: -LIST_INDENT,
  };
  const itemsPath = at(path, 'items');
  array(obj.items, itemsPath).forEach((item, i) => {
    const p = at(itemsPath, i);
    if (typeof item === 'string') {
      out.push(paragraph([textRun(item, style.run)], { ...base }, info));
      return;
    }
    const itemObj = object(item, p);
    onlyKeys(itemObj, p, LIST_ITEM);
    const own = styleOf(itemObj, p, ctx, { run: style.run, para: base });
    const given = ['text', 'runs', 'p'].filter((k) => itemObj[k] !== undefined);
    if (given.length > 1) fail(p, 'give one of "text", "runs" or "p", not several.');
    if (given.length === 0 && itemObj.items === undefined) fail(p, 'a list item needs "text", "runs" or "p".');
    if (given.length === 1) {
      const key = given[0];
      const content = key === 'runs' ? readRuns(itemObj.runs, at(p, 'runs'), ctx, own.run, width) : readContent(itemObj[key], at(p, key), ctx, own.run, width);
      out.push(paragraph(content, own.para, info));
    }
    if (itemObj.items !== undefined) {
      readItems(itemObj, p, deeper(ctx, p), width, { run: style.run, para: style.para }, id, level + 1, undefined, ordered, out);
    }
  });
}

interface ColumnSpec {
  width: number;
  header?: Json;
  style: StyleParts;
}

const PERCENT = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/;
const STAR = /^\s*(\d+(?:\.\d+)?)?\s*\*\s*$/;

function readColumns(value: Json | undefined, count: number, path: string, ctx: BlockContext, width: number): ColumnSpec[] {
  const specs = value === undefined ? Array.from({ length: count }, () => '*' as Json) : array(value, path);
  if (specs.length === 0) fail(path, 'a table needs at least one column.');
  let fixed = 0;
  let stars = 0;
  const parsed = specs.map((spec, i) => {
    const p = at(path, i);
    let widthSpec: Json = spec;
    let header: Json | undefined;
    let style: StyleParts = EMPTY;
    if (isObject(spec)) {
      onlyKeys(spec, p, COLUMN);
      widthSpec = spec.width === undefined ? '*' : spec.width;
      header = spec.header;
      style = styleOf(spec, p, ctx, EMPTY);
    }
    const wp = isObject(spec) ? at(p, 'width') : p;
    if (typeof widthSpec === 'string') {
      const pct = PERCENT.exec(widthSpec);
      if (pct) {
        const w = (width * Number(pct[1])) / 100;
        fixed += w;
        return { kind: 'fixed' as const, w, header, style };
      }
      const star = STAR.exec(widthSpec);
      if (star) {
        const share = star[1] === undefined ? 1 : Number(star[1]);
        if (share <= 0) fail(wp, 'a share of the width ("2*") must be more than 0.');
        stars += share;
        return { kind: 'star' as const, w: share, header, style };
      }
    }
    const w = length(widthSpec, wp, 1);
    fixed += w;
    return { kind: 'fixed' as const, w, header, style };
  });
  const rest = Math.max(0, width - fixed);
  return parsed.map((c) => ({
    width: round(c.kind === 'fixed' ? c.w : stars > 0 ? Math.max(12, (rest * c.w) / stars) : 12),
    ...(c.header !== undefined ? { header: c.header } : {}),
    style: c.style,
  }));
}

function cellCount(row: Json): number {
  const cells = isObject(row) ? row.cells : row;
  if (!Array.isArray(cells)) return 0;
  return cells.reduce<number>((n, cell) => n + (isObject(cell) && typeof cell.colSpan === 'number' ? Math.max(1, cell.colSpan) : 1), 0);
}

function readTable(obj: JsonObject, path: string, ctx: BlockContext, width: number, inherited: StyleParts): Table {
  const rowsValue = obj.rows === undefined ? [] : array(obj.rows, at(path, 'rows'));
  const headerValue = obj.header === undefined ? undefined : array(obj.header, at(path, 'header'));
  const count = Math.max(1, headerValue ? cellCount(headerValue) : 0, ...rowsValue.map(cellCount));
  const columns = readColumns(obj.columns, count, at(path, 'columns'), ctx, width);

  // Cell paragraphs sit tight unless the template says otherwise.
  let tableStyle: StyleParts = { run: inherited.run, para: { ...inherited.para, spaceAfter: 0 } };
  if (obj.style !== undefined) tableStyle = mergeParts(tableStyle, ctx.book.get(obj.style, at(path, 'style')));
  // "borders" on a table means the table's grid, not the borders of the paragraphs in its cells.
  const { borders: _grid, ...cellStyleProps } = obj;
  tableStyle = mergeParts(tableStyle, readStyle(cellStyleProps, path));

  const cellPadding = obj.cellPadding === undefined ? 4 : length(obj.cellPadding, at(path, 'cellPadding'), 0, 100);
  const style: NonNullable<Table['style']> = { cellPadding };
  if (obj.position !== undefined) style.align = oneOf(obj.position, at(path, 'position'), ['left', 'center', 'right'] as const);
  if (obj.borders === undefined || obj.borders === true) style.borders = { width: 0.5, color: '#999999' };
  else if (obj.borders === false || obj.borders === null) style.borders = null;
  else style.borders = borderLine(obj.borders, at(path, 'borders'));

  let headerStyle: StyleParts = { run: { bold: true }, para: {} };
  if (obj.headerStyle !== undefined) {
    const hp = at(path, 'headerStyle');
    if (typeof obj.headerStyle === 'string') headerStyle = ctx.book.get(obj.headerStyle, hp);
    else {
      const hs = object(obj.headerStyle, hp);
      onlyKeys(hs, hp, STYLE_KEYS);
      headerStyle = readStyle(hs, hp);
    }
  }
  const headerShading = obj.headerShading === undefined ? '#eeeeee' : obj.headerShading === null ? undefined : color(obj.headerShading, at(path, 'headerShading'));
  const repeatHeader = obj.repeatHeader === undefined ? true : boolean(obj.repeatHeader, at(path, 'repeatHeader'));
  const cellWidth = (col: number, span: number): number => {
    let w = 0;
    for (let i = col; i < col + span && i < columns.length; i++) w += columns[i].width;
    return Math.max(1, w - 2 * cellPadding);
  };

  const rows: TableRow[] = [];
  const headerCells = headerValue ?? (columns.some((c) => c.header !== undefined) ? columns.map((c) => c.header ?? '') : undefined);
  if (headerCells) {
    const hp = headerValue ? at(path, 'header') : at(path, 'columns');
    const row = readRow(headerCells, hp, ctx, columns, tableStyle, cellWidth, { header: true, style: headerStyle, shading: headerShading });
    if (repeatHeader) row.header = true;
    rows.push(row);
  }
  rowsValue.forEach((row, i) => rows.push(readRow(row, at(at(path, 'rows'), i), ctx, columns, tableStyle, cellWidth, null)));
  if (rows.length === 0) fail(path, 'a table needs "rows" or a "header".');

  return { type: 'table', columns: columns.map((c) => c.width), rows, style };
}

function readRow(
  value: Json,
  path: string,
  ctx: BlockContext,
  columns: ColumnSpec[],
  tableStyle: StyleParts,
  cellWidth: (col: number, span: number) => number,
  header: { header: true; style: StyleParts; shading: string | undefined } | null,
): TableRow {
  let cellsValue: Json[];
  const row: Partial<TableRow> = {};
  let rowStyle = tableStyle;
  let rowShading: string | undefined = header?.shading;
  if (header) rowStyle = mergeParts(rowStyle, header.style);
  if (Array.isArray(value)) cellsValue = value;
  else {
    const obj = object(value, path);
    onlyKeys(obj, path, ROW);
    cellsValue = array(obj.cells, at(path, 'cells'));
    if (obj.header !== undefined && boolean(obj.header, at(path, 'header'))) row.header = true;
    if (obj.height !== undefined) row.height = length(obj.height, at(path, 'height'));
    if (obj.cantSplit !== undefined) row.cantSplit = boolean(obj.cantSplit, at(path, 'cantSplit'));
    if (obj.shading !== undefined) rowShading = color(obj.shading, at(path, 'shading'));
    rowStyle = styleOfBox(obj, path, ctx, rowStyle);
  }
  const cellsPath = Array.isArray(value) ? path : at(path, 'cells');
  let col = 0;
  const cells: TableCell[] = cellsValue.map((cellValue, i) => {
    const p = at(cellsPath, i);
    const column = columns[Math.min(col, columns.length - 1)];
    const inherited = mergeParts(rowStyle, column.style);
    const cell = readCell(cellValue, p, ctx, inherited, col, cellWidth);
    if (cell.shading === undefined && rowShading !== undefined) cell.shading = rowShading;
    col += cell.colSpan ?? 1;
    return cell;
  });
  if (cells.length === 0) fail(cellsPath, 'a row needs at least one cell.');
  return { ...row, cells };
}

function readCell(
  value: Json,
  path: string,
  ctx: BlockContext,
  inherited: StyleParts,
  col: number,
  cellWidth: (col: number, span: number) => number,
): TableCell {
  if (typeof value === 'string' || typeof value === 'number') {
    return { blocks: [paragraph([textRun(String(value), inherited.run)], { ...inherited.para })] };
  }
  if (Array.isArray(value)) return { blocks: readBlocks(value, path, ctx, cellWidth(col, 1), inherited) };
  const obj = object(value, path);
  onlyKeys(obj, path, CELL);
  const cell: TableCell = { blocks: [] };
  if (obj.colSpan !== undefined) cell.colSpan = integer(obj.colSpan, at(path, 'colSpan'), 1, 1000);
  if (obj.rowSpan !== undefined) cell.rowSpan = integer(obj.rowSpan, at(path, 'rowSpan'), 1, 100000);
  if (obj.shading !== undefined) cell.shading = color(obj.shading, at(path, 'shading'));
  if (obj.vAlign !== undefined) cell.vAlign = oneOf(obj.vAlign, at(path, 'vAlign'), ['top', 'middle', 'bottom'] as const);
  if (obj.textDirection !== undefined) cell.textDirection = oneOf(obj.textDirection, at(path, 'textDirection'), ['btLr', 'tbRl'] as const);
  if (obj.cellBorders !== undefined) {
    const bp = at(path, 'cellBorders');
    const b = object(obj.cellBorders, bp);
    const out: NonNullable<TableCell['borders']> = {};
    for (const [side, line] of Object.entries(b)) {
      if (side !== 'top' && side !== 'bottom' && side !== 'left' && side !== 'right') fail(at(bp, side), `unknown side "${side}".`);
      out[side] = borderLine(line, at(bp, side));
    }
    cell.borders = out;
  }
  const style = styleOfBox(obj, path, ctx, inherited);
  const given = ['text', 'runs', 'p', 'blocks'].filter((k) => obj[k] !== undefined);
  if (given.length > 1) fail(path, 'give one of "text", "runs", "p" or "blocks", not several.');
  const w = cellWidth(col, cell.colSpan ?? 1);
  if (given[0] === 'blocks') cell.blocks = readBlocks(obj.blocks, at(path, 'blocks'), ctx, w, style);
  else if (given[0] === 'runs') cell.blocks = [paragraph(readRuns(obj.runs, at(path, 'runs'), ctx, style.run, w), { ...style.para })];
  else if (given[0] === 'text' || given[0] === 'p') {
    const v = obj[given[0]] as Json;
    const content = typeof v === 'number' ? [textRun(String(v), style.run)] : readContent(v, at(path, given[0]), ctx, style.run, w);
    cell.blocks = [paragraph(content, { ...style.para })];
  } else cell.blocks = [paragraph([], { ...style.para })];
  return cell;
}
