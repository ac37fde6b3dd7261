/**
 * Import warnings (mammoth's Result{value, messages}): what the importer leaves out or changes, gathered while it
 * reads and aggregated per code + part + element with a count, so a document with 300 EMF pictures says so once.
 *
 * The readers dispatch by element name. Every dispatcher ends in `dropped()`: an element it neither handles nor
 * knows to be invisible (IGNORED) becomes an `element_not_drawn` warning, so nothing vanishes without a word.
 */
import type { WarningCode } from '../../errors/catalogue.js';
import type { ImportWarning } from '../model/types.js';
import type { XElement } from './xml.js';

/** The detail of a part_damaged warning for a metafile whose records stop early (drawn as far as they go). */
export const PARTLY_DRAWN = 'picture drawn in part';

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The message of an aggregated warning, from its count and the details seen (formats, part kinds…). */
const MESSAGES: Record<Exclude<WarningCode, 'macros_removed' | 'no_tags_found'>, (n: number, details: string[], element?: string) => string> = {
  picture_format_unsupported: (n, d) => `${plural(n, `${d.join('/') || 'unsupported'} picture`)} not drawn (the format cannot be drawn)`,
  picture_too_large: (n, d) => `${plural(n, `${d.join('/') || ''} picture`.trim())} over the pixel limit drawn as a grey box of the same size`,
  picture_missing: (n) => `${plural(n, 'picture')} not drawn (linked from outside the file, or its file is missing)`,
  part_damaged: (n, d) =>
    d.length === 1 && d[0] === PARTLY_DRAWN
      ? `damaged picture drawn as far as it could be read${n > 1 ? ` (${n} times)` : ''}; the rest is drawn`
      : `damaged ${d.join('/') || 'part'} left out${n > 1 ? ` (${n} times)` : ''}; the rest is drawn`,
  chart_not_drawn: (n) => `${plural(n, 'chart')} not drawn`,
  chart_type_unsupported: (n, d) => `${plural(n, `${d.join('/') || 'unsupported'} chart`)} drawn as a framed box with the title (the chart type is not drawn)`,
  math_as_text: (n) => `${plural(n, 'equation')} drawn as plain text`,
  notes_not_drawn: (n, _d, element) => `${plural(n, element === 'w:endnoteReference' ? 'endnote' : 'footnote')} not drawn (only the reference mark's place stays)`,
  shape_not_drawn: (n) => `${plural(n, 'shape')} not drawn`,
  behind_text_not_drawn: (n) => `${plural(n, 'picture or shape', 'pictures or shapes')} behind the text not drawn`,
  columns_not_drawn: (n, d) => `${plural(n, 'section')} in ${d.join('/')} columns drawn as one column`,
  background_not_drawn: () => 'the page fill effect (picture, texture, pattern or gradient) is not drawn: the page colour is',
  number_format_unsupported: (n, d) => `${plural(n, 'list item')} numbered in ${d.join('/')} drawn with decimal numbers or the file's fallback format (the format is not supported)`,
  element_not_drawn: (n, _d, element) => `${plural(n, `<${element ?? '?'}> element`)} not drawn (not supported)`,
};

export type DocxWarningCode = keyof typeof MESSAGES;

interface Entry {
  code: DocxWarningCode;
  part: string;
  element?: string;
  count: number;
  details: string[];
}

export class Warnings {
  private readonly entries = new Map<string, Entry>();
  /** Occurrences noted so far (a reader compares it before and after to know whether it said something). */
  total = 0;

  /** Notes one occurrence; `detail` (a picture format, a part kind) is listed once in the message. */
  add(code: DocxWarningCode, part: string, element?: string, detail?: string): void {
    const key = `${code}\u0000${part}\u0000${element ?? ''}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { code, part, element, count: 0, details: [] };
      this.entries.set(key, entry);
    }
    entry.count++;
    this.total++;
    if (detail && !entry.details.includes(detail)) entry.details.push(detail);
  }

  list(): ImportWarning[] {
    return [...this.entries.values()].map((e) => ({
      code: e.code,
      message: MESSAGES[e.code](e.count, e.details, e.element),
      location: e.element ? { part: e.part, element: e.element } : { part: e.part },
      count: e.count,
    }));
  }
}

/**
 * Elements that are read elsewhere (properties) or are invisible by design (bookmarks, proofing and permission
 * marks, deleted and moved-away text, comment anchors, revision ids…): never a warning.
 */
export const IGNORED = new Set([
  'w:pPr', 'w:rPr', 'w:tcPr', 'w:trPr', 'w:tblPr', 'w:tblPrEx', 'w:tblGrid', 'w:sdtPr', 'w:sdtEndPr', 'w:customXmlPr', 'w:smartTagPr',
  'w:bookmarkStart', 'w:bookmarkEnd', 'w:proofErr', 'w:permStart', 'w:permEnd', 'w:noProof',
  'w:commentRangeStart', 'w:commentRangeEnd', 'w:commentReference', 'w:annotationRef',
  'w:del', 'w:moveFrom', 'w:delText', 'w:delInstrText',
  'w:moveFromRangeStart', 'w:moveFromRangeEnd', 'w:moveToRangeStart', 'w:moveToRangeEnd',
  'w:customXmlInsRangeStart', 'w:customXmlInsRangeEnd', 'w:customXmlDelRangeStart', 'w:customXmlDelRangeEnd',
  'w:customXmlMoveFromRangeStart', 'w:customXmlMoveFromRangeEnd', 'w:customXmlMoveToRangeStart', 'w:customXmlMoveToRangeEnd',
  'w:lastRenderedPageBreak', 'w:softHyphen', 'w:footnoteRef', 'w:endnoteRef', 'w:separator', 'w:continuationSeparator',
  'w:fldData', 'w14:checkbox',
]);

/** The end of every dispatcher: an element neither handled nor invisible is reported, never silently dropped. */
export function dropped(warnings: Warnings, part: string, node: XElement): void {
  if (IGNORED.has(node.name)) return;
  if (node.name === 'w:footnoteReference' || node.name === 'w:endnoteReference') warnings.add('notes_not_drawn', part, node.name);
  else warnings.add('element_not_drawn', part, node.name);
}

/**
 * The format of picture bytes the renderer cannot draw, for the warning ('EMF', 'WMF', 'TIFF', …); undefined when
 * the bytes are no picture format known at all (damaged data).
 */
export function pictureFormat(bytes: Uint8Array): string | undefined {
  const b = bytes;
  if (b.length >= 44 && b[0] === 1 && b[1] === 0 && b[2] === 0 && b[3] === 0 && b[40] === 0x20 && b[41] === 0x45 && b[42] === 0x4d && b[43] === 0x46) return 'EMF';
  if (b.length >= 4 && b[0] === 0xd7 && b[1] === 0xcd && b[2] === 0xc6 && b[3] === 0x9a) return 'WMF';
  if (b.length >= 4 && (b[0] === 1 || b[0] === 2) && b[1] === 0 && b[2] === 9 && b[3] === 0) return 'WMF';
  if (b.length >= 3 && b[0] === 0x49 && b[1] === 0x49 && b[2] === 0xbc) return 'JPEG XR';
  if (b.length >= 4 && ((b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a) || (b[0] === 0x4d && b[1] === 0x4d && b[3] === 0x2a))) return 'TIFF';
  if (b.length >= 2 && b[0] === 0x42 && b[1] === 0x4d) return 'BMP';
  const head = new TextDecoder().decode(b.subarray(0, 256)).trimStart().toLowerCase();
  if (head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'))) return 'SVG';
  if (b.length >= 12 && b[4] === 0x66 && b[5] === 0x74 && b[6] === 0x79 && b[7] === 0x70) return 'HEIF';
  if (b.length >= 4 && b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46) return 'PDF';
  if (b.length >= 4 && b[0] === 0x25 && b[1] === 0x21) return 'EPS';
  if (b.length >= 4 && b[0] === 0xc5 && b[1] === 0xd0 && b[2] === 0xd3 && b[3] === 0xc6) return 'EPS';
  return undefined;
}
