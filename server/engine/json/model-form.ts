/**
 * The model form of a .json template (`"version": 1, "sections": [...]`): the engine's TemplateModel written
 * out in full (what a tool or the DOCX importer would produce). Every value is checked and copied, so a
 * loaded model is exactly the documented shape.
 */
import type {
  Block, BorderLine, CellMargins, HeaderFooterSet, Inline, ListInfo, PageSetup, Paragraph, ParagraphStyle, RunStyle, Section,
  Table, TableCell, TableRow, TabStop, TemplateModel,
} from '../model/types.js';
import { LIST_FORMATS } from '../model/types.js';
import { EngineError } from '../errors.js';
import { decodeDataUriImage } from '../images/sniff.js';
import { at, array, boolean, color, fail, integer, number, object, oneOf, onlyKeys, string, type Json, type JsonObject } from './read.js';
import { readLocale, readMetadata } from './authoring.js';
import { MAX_LENGTH } from './units.js';

const MAX_DEPTH = 24;
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

function pt(value: Json | undefined, path: string, min = 0): number {
  return number(value, path, min, MAX_LENGTH);
}

function opt<T>(obj: JsonObject, key: string, path: string, read: (v: Json, p: string) => T, into: Record<string, unknown>): void {
  if (obj[key] !== undefined) into[key] = read(obj[key], at(path, key));
}

function runStyle(value: Json, path: string): RunStyle {
  const obj = object(value, path);
  onlyKeys(obj, path, new Set(['font', 'size', 'bold', 'italic', 'underline', 'strike', 'color', 'highlight', 'vertAlign', 'link', 'caps', 'smallCaps']));
  const out: RunStyle = {};
  const o = out as Record<string, unknown>;
  opt(obj, 'font', path, string, o);
  opt(obj, 'size', path, (v, p) => pt(v, p, 1), o);
  for (const key of ['bold', 'italic', 'underline', 'strike', 'caps', 'smallCaps']) opt(obj, key, path, boolean, o);
  opt(obj, 'color', path, color, o);
  opt(obj, 'highlight', path, color, o);
  opt(obj, 'vertAlign', path, (v, p) => oneOf(v, p, ['superscript', 'subscript'] as const), o);
  opt(obj, 'link', path, string, o);
  return out;
}

function borderLine(value: Json, path: string): BorderLine {
  const obj = object(value, path);
  onlyKeys(obj, path, new Set(['width', 'color', 'style', 'space']));
  const out: BorderLine = { width: pt(obj.width, at(path, 'width')), color: color(obj.color, at(path, 'color')) };
  if (obj.style !== undefined) out.style = oneOf(obj.style, at(path, 'style'), ['single', 'double', 'dashed', 'dotted'] as const);
  if (obj.space !== undefined) out.space = number(obj.space, at(path, 'space'), 0, 31);
  return out;
}

function borders(value: Json, path: string): NonNullable<ParagraphStyle['borders']> {
  const obj = object(value, path);
  onlyKeys(obj, path, new Set(['top', 'bottom', 'left', 'right']));
  const out: NonNullable<ParagraphStyle['borders']> = {};
  for (const side of ['top', 'bottom', 'left', 'right'] as const) {
    if (obj[side] !== undefined) out[side] = borderLine(obj[side], at(path, side));
  }
  return out;
}

function paragraphStyle(value: Json, path: string): ParagraphStyle {
  const obj = object(value, path);
  onlyKeys(obj, path, new Set([
    'align', 'indentLeft', 'indentRight', 'indentFirstLine', 'spaceBefore', 'spaceAfter', 'lineHeight', 'heading',
    'keepWithNext', 'pageBreakBefore', 'rtl', 'tabs', 'shading', 'borders',
  ]));
  const out: ParagraphStyle = {};
  const o = out as Record<string, unknown>;
  opt(obj, 'align', path, (v, p) => oneOf(v, p, ['left', 'center', 'right', 'justify'] as const), o);
  for (const key of ['indentLeft', 'indentRight', 'indentFirstLine']) opt(obj, key, path, (v, p) => number(v, p, -MAX_LENGTH, MAX_LENGTH), o);
  for (const key of ['spaceBefore', 'spaceAfter']) opt(obj, key, path, (v, p) => pt(v, p), o);
  opt(obj, 'lineHeight', path, (v, p) => number(v, p, 0.1, 10), o);
  opt(obj, 'heading', path, (v, p) => integer(v, p, 1, 6), o);
  for (const key of ['keepWithNext', 'pageBreakBefore', 'rtl']) opt(obj, key, path, boolean, o);
  opt(obj, 'shading', path, color, o);
  opt(obj, 'borders', path, borders, o);
  opt(obj, 'tabs', path, (v, p) => array(v, p).map((t, i) => tabStop(t, at(p, i))), o);
  return out;
}

function tabStop(value: Json, path: string): TabStop {
  const obj = object(value, path);
  onlyKeys(obj, path, new Set(['pos', 'align', 'leader']));
  const out: TabStop = { pos: pt(obj.pos, at(path, 'pos')), align: oneOf(obj.align, at(path, 'align'), ['left', 'center', 'right', 'decimal'] as const) };
  if (obj.leader !== undefined) out.leader = oneOf(obj.leader, at(path, 'leader'), ['none', 'dot', 'hyphen', 'underscore', 'middleDot'] as const);
  return out;
}

function inline(value: Json, path: string): Inline {
  const obj = object(value, path);
  const type = oneOf(obj.type, at(path, 'type'), ['text', 'image', 'field'] as const);
  if (type === 'text') {
    onlyKeys(obj, path, new Set(['type', 'text', 'style']));
    const out: Inline = { type, text: string(obj.text, at(path, 'text')) };
    if (obj.style !== undefined) out.style = runStyle(obj.style, at(path, 'style'));
    return out;
  }
  if (type === 'field') {
    onlyKeys(obj, path, new Set(['type', 'field', 'style']));
    const out: Inline = { type, field: oneOf(obj.field, at(path, 'field'), ['page', 'pages'] as const) };
    if (obj.style !== undefined) out.style = runStyle(obj.style, at(path, 'style'));
    return out;
  }
  onlyKeys(obj, path, new Set(['type', 'src', 'width', 'height', 'alt']));
  const src = string(obj.src, at(path, 'src'));
  try {
    decodeDataUriImage(src, MAX_IMAGE_BYTES);
  } catch (err) {
    fail(at(path, 'src'), err instanceof EngineError ? err.message : 'the image cannot be read.');
  }
  const out: Inline = { type, src, width: pt(obj.width, at(path, 'width'), 0.01), height: pt(obj.height, at(path, 'height'), 0.01) };
  if (obj.alt !== undefined) out.alt = string(obj.alt, at(path, 'alt'));
  return out;
}

function listInfo(value: Json, path: string): ListInfo {
  const obj = object(value, path);
  onlyKeys(obj, path, new Set(['id', 'level', 'format', 'text', 'start', 'parentStarts']));
  const out: ListInfo = {
    id: string(obj.id, at(path, 'id')),
    level: integer(obj.level, at(path, 'level'), 0, 8),
    format: oneOf(obj.format, at(path, 'format'), LIST_FORMATS),
  };
  if (obj.text !== undefined) out.text = string(obj.text, at(path, 'text'));
  if (obj.start !== undefined) out.start = integer(obj.start, at(path, 'start'), 0, 1_000_000);
  if (obj.parentStarts !== undefined) {
    const starts = array(obj.parentStarts, at(path, 'parentStarts'));
    if (starts.length > 8) fail(at(path, 'parentStarts'), 'has more than 8 levels.');
    out.parentStarts = starts.map((v, i) => integer(v, at(at(path, 'parentStarts'), i), 0, 1_000_000));
  }
  return out;
}

function blocks(value: Json | undefined, path: string, depth: number): Block[] {
  if (depth > MAX_DEPTH) fail(path, `blocks are nested more than ${MAX_DEPTH} levels deep.`);
  return array(value, path).map((b, i) => block(b, at(path, i), depth));
}

function block(value: Json, path: string, depth: number): Block {
  const obj = object(value, path);
  const type = oneOf(obj.type, at(path, 'type'), ['paragraph', 'table', 'pageBreak'] as const);
  if (type === 'pageBreak') {
    onlyKeys(obj, path, new Set(['type']));
    return { type };
  }
  if (type === 'paragraph') {
    onlyKeys(obj, path, new Set(['type', 'runs', 'style', 'list']));
    const out: Paragraph = { type, runs: array(obj.runs, at(path, 'runs')).map((r, i) => inline(r, at(at(path, 'runs'), i))) };
    if (obj.style !== undefined) out.style = paragraphStyle(obj.style, at(path, 'style'));
    if (obj.list !== undefined) out.list = listInfo(obj.list, at(path, 'list'));
    return out;
  }
  return table(obj, path, depth);
}

function table(obj: JsonObject, path: string, depth: number): Table {
  onlyKeys(obj, path, new Set(['type', 'columns', 'rows', 'style']));
  const columns = array(obj.columns, at(path, 'columns')).map((c, i) => pt(c, at(at(path, 'columns'), i)));
  if (columns.length === 0) fail(at(path, 'columns'), 'a table needs at least one column.');
  const rows = array(obj.rows, at(path, 'rows')).map((r, i) => row(r, at(at(path, 'rows'), i), depth));
  const out: Table = { type: 'table', columns, rows };
  if (obj.style !== undefined) {
    const sp = at(path, 'style');
    const s = object(obj.style, sp);
    onlyKeys(s, sp, new Set(['align', 'borders', 'cellPadding', 'cellMargins', 'run', 'width', 'widthShare', 'indent', 'layout', 'keepWidth']));
    const style: NonNullable<Table['style']> = {};
    if (s.align !== undefined) style.align = oneOf(s.align, at(sp, 'align'), ['left', 'center', 'right'] as const);
    if (s.borders !== undefined) style.borders = s.borders === null ? null : borderLine(s.borders, at(sp, 'borders'));
    if (s.cellPadding !== undefined) style.cellPadding = pt(s.cellPadding, at(sp, 'cellPadding'));
    if (s.run !== undefined) style.run = runStyle(s.run, at(sp, 'run'));
    if (s.cellMargins !== undefined) style.cellMargins = cellMargins(s.cellMargins, at(sp, 'cellMargins'));
    if (s.width !== undefined) style.width = pt(s.width, at(sp, 'width'));
    if (s.widthShare !== undefined) style.widthShare = number(s.widthShare, at(sp, 'widthShare'), 0, 10);
    if (s.indent !== undefined) style.indent = pt(s.indent, at(sp, 'indent'), -MAX_LENGTH);
    if (s.layout !== undefined) style.layout = oneOf(s.layout, at(sp, 'layout'), ['fixed', 'auto'] as const);
    if (s.keepWidth !== undefined) style.keepWidth = boolean(s.keepWidth, at(sp, 'keepWidth'));
    out.style = style;
  }
  return out;
}

function row(value: Json, path: string, depth: number): TableRow {
  const obj = object(value, path);
  onlyKeys(obj, path, new Set(['cells', 'header', 'height', 'cantSplit']));
  const out: TableRow = { cells: array(obj.cells, at(path, 'cells')).map((c, i) => cell(c, at(at(path, 'cells'), i), depth)) };
  if (obj.header !== undefined) out.header = boolean(obj.header, at(path, 'header'));
  if (obj.height !== undefined) out.height = pt(obj.height, at(path, 'height'));
  if (obj.cantSplit !== undefined) out.cantSplit = boolean(obj.cantSplit, at(path, 'cantSplit'));
  return out;
}

function cell(value: Json, path: string, depth: number): TableCell {
  const obj = object(value, path);
  onlyKeys(obj, path, new Set(['blocks', 'colSpan', 'rowSpan', 'shading', 'vAlign', 'textDirection', 'borders', 'margins']));
  const out: TableCell = { blocks: blocks(obj.blocks, at(path, 'blocks'), depth + 1) };
  if (obj.colSpan !== undefined) out.colSpan = integer(obj.colSpan, at(path, 'colSpan'), 1, 1000);
  if (obj.rowSpan !== undefined) out.rowSpan = integer(obj.rowSpan, at(path, 'rowSpan'), 1, 100000);
  if (obj.shading !== undefined) out.shading = color(obj.shading, at(path, 'shading'));
  if (obj.vAlign !== undefined) out.vAlign = oneOf(obj.vAlign, at(path, 'vAlign'), ['top', 'middle', 'bottom'] as const);
  if (obj.textDirection !== undefined) out.textDirection = oneOf(obj.textDirection, at(path, 'textDirection'), ['btLr', 'tbRl'] as const);
  if (obj.borders !== undefined) out.borders = borders(obj.borders, at(path, 'borders'));
  if (obj.margins !== undefined) out.margins = cellMargins(obj.margins, at(path, 'margins'));
  return out;
}

function cellMargins(value: Json, path: string): CellMargins {
  const obj = object(value, path);
  onlyKeys(obj, path, new Set(['top', 'right', 'bottom', 'left']));
  const out: CellMargins = {};
  for (const side of ['top', 'right', 'bottom', 'left'] as const) if (obj[side] !== undefined) out[side] = pt(obj[side], at(path, side));
  return out;
}

function page(value: Json, path: string): PageSetup {
  const obj = object(value, path);
  onlyKeys(obj, path, new Set(['width', 'height', 'margins', 'headerDistance', 'footerDistance']));
  const mp = at(path, 'margins');
  const m = object(obj.margins, mp);
  onlyKeys(m, mp, new Set(['top', 'right', 'bottom', 'left']));
  const out: PageSetup = {
    width: pt(obj.width, at(path, 'width'), 72),
    height: pt(obj.height, at(path, 'height'), 72),
    margins: { top: pt(m.top, at(mp, 'top')), right: pt(m.right, at(mp, 'right')), bottom: pt(m.bottom, at(mp, 'bottom')), left: pt(m.left, at(mp, 'left')) },
  };
  if (out.margins.left + out.margins.right >= out.width - 36) fail(mp, 'the left and right margins leave less than half an inch for the text.');
  if (out.margins.top + out.margins.bottom >= out.height - 36) fail(mp, 'the top and bottom margins leave less than half an inch for the text.');
  if (obj.headerDistance !== undefined) out.headerDistance = pt(obj.headerDistance, at(path, 'headerDistance'));
  if (obj.footerDistance !== undefined) out.footerDistance = pt(obj.footerDistance, at(path, 'footerDistance'));
  return out;
}

function partSet(value: Json, path: string): HeaderFooterSet {
  const obj = object(value, path);
  onlyKeys(obj, path, new Set(['default', 'first', 'even']));
  const out: HeaderFooterSet = {};
  for (const variant of ['default', 'first', 'even'] as const) {
    if (obj[variant] !== undefined) out[variant] = blocks(obj[variant], at(path, variant), 0);
  }
  return out;
}

function section(value: Json, path: string): Section {
  const obj = object(value, path);
  onlyKeys(obj, path, new Set(['page', 'body', 'header', 'footer', 'titlePage']));
  const out: Section = { page: page(obj.page, at(path, 'page')), body: blocks(obj.body, at(path, 'body'), 0) };
  if (obj.header !== undefined) out.header = partSet(obj.header, at(path, 'header'));
  if (obj.footer !== undefined) out.footer = partSet(obj.footer, at(path, 'footer'));
  if (obj.titlePage !== undefined) out.titlePage = boolean(obj.titlePage, at(path, 'titlePage'));
  return out;
}

export function readModelForm(doc: JsonObject): TemplateModel {
  onlyKeys(doc, '$', new Set(['version', '$schema', 'sections', 'defaults', 'metadata', 'locale', 'background']));
  integer(doc.version, '$.version', 1, 1);
  const sections = array(doc.sections, '$.sections').map((s, i) => section(s, at('$.sections', i)));
  if (sections.length === 0) fail('$.sections', 'a template needs at least one section.');
  let defaults: TemplateModel['defaults'] = { run: {}, paragraph: {} };
  if (doc.defaults !== undefined) {
    const d = object(doc.defaults, '$.defaults');
    onlyKeys(d, '$.defaults', new Set(['run', 'paragraph']));
    defaults = {
      run: d.run === undefined ? {} : runStyle(d.run, '$.defaults.run'),
      paragraph: d.paragraph === undefined ? {} : paragraphStyle(d.paragraph, '$.defaults.paragraph'),
    };
  }
  const model: TemplateModel = { version: 1, sections, defaults };
  const metadata = readMetadata(doc.metadata, '$.metadata');
  if (metadata) model.metadata = metadata;
  const locale = readLocale(doc.locale, '$.locale');
  if (locale) model.locale = locale;
  if (doc.background !== undefined) model.background = color(doc.background, '$.background');
  return model;
}
