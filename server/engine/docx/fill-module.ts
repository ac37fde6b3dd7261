/**
 * A docxtemplater module that gives filled .docx copies docloom's tag semantics (CONTRACT.md §5) where
 * docxtemplater's own differ:
 *
 * - Structure: a paragraph that holds nothing but one whole section (`{#items}{name}{/items}` in a bullet)
 *   repeats as a paragraph, one per item (docxtemplater would repeat the text inline); a section that fills
 *   the only cell of a table row repeats the row; a section tag alone in its paragraph, with its partner at the
 *   edge of another paragraph, takes its paragraph with it (no empty paragraph is left behind). All three are
 *   what the PDF renderer does.
 * - `{%logo}` / `{%logo:200x80}`: the image is embedded (docxtemplater's free edition has no image module):
 *   an inline picture sized like the PDF's (fits the tag's box, or the default box, keeping its aspect ratio).
 * - `{$page}` / `{$pages}`: Word PAGE / NUMPAGES fields.
 * - `{! comment}`: nothing.
 */
import type { CName } from '../tags/types.js';

/** One picture to add to the package after rendering: media file, relationship of the part that shows it. */
export interface PlacedImage {
  part: string;
  relId: string;
  media: string;
  data: Uint8Array;
}

export interface ImageRequest {
  ref: CName;
  box: { width: number; height: number } | null;
  value: unknown;
}

/** Returns the drawing XML for an image value, or '' to leave the tag empty. */
export type ImagePlacer = (request: ImageRequest, part: string) => string;

// docxtemplater's parts are loosely typed objects; only the fields read here are declared.
interface DxtPart {
  type: string;
  tag?: string;
  position?: string;
  value: string;
  module?: string;
  location?: string;
  expandTo?: string;
  inverted?: boolean;
}

interface ScopeManagerLike {
  getValue(tag: string, meta: { part: DxtPart }): unknown;
}

const IMAGE = 'docloom-image';
const SYSTEM = 'docloom-system';
const COMMENT = 'docloom-comment';
/** A variable whose expression starts with unary minus (`{{-(a + b)}}`), which docxtemplater would read as a dash loop. */
const MINUS = 'docloom-minus';

function isText(part: DxtPart): boolean {
  return part.type === 'content' && part.position === 'insidetag';
}

function isSignificant(part: DxtPart): boolean {
  if (isText(part)) return part.value.trim() !== '';
  return part.type === 'placeholder' && part.module !== COMMENT;
}

/** Index of the enclosing element `tag` (its start part) for every part, or -1. */
function enclosing(parts: DxtPart[], tag: string): Int32Array {
  const out = new Int32Array(parts.length).fill(-1);
  const stack: number[] = [];
  parts.forEach((part, i) => {
    if (part.type === 'tag' && part.tag === tag && part.position === 'start') stack.push(i);
    out[i] = stack.length > 0 ? stack[stack.length - 1] : -1;
    if (part.type === 'tag' && part.tag === tag && part.position === 'end') stack.pop();
    if (part.type === 'tag' && part.tag === tag && part.position === 'selfclosing') out[i] = -1;
  });
  return out;
}

function isLoop(part: DxtPart): boolean {
  return part.type === 'placeholder' && part.module === 'loop';
}

/** Start/end index pairs of the sections, matched like the tag compiler does ({/} closes the innermost). */
function sectionPairs(parts: DxtPart[]): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  const stack: number[] = [];
  parts.forEach((part, i) => {
    if (!isLoop(part)) return;
    if (part.location === 'start') stack.push(i);
    else if (part.location === 'end') {
      const open = stack.pop();
      if (open !== undefined) pairs.push([open, i]);
    }
  });
  return pairs;
}

/**
 * A section over an expression may be closed with other spacing (`{{#a > 1}}`…`{{/a>1}}`), as the tag compiler
 * allows; docxtemplater compares the texts exactly, so the closing tag takes its opening tag's text.
 */
function matchCloseTags(parts: DxtPart[]): void {
  for (const [s, e] of sectionPairs(parts)) {
    const open = parts[s].value;
    const close = parts[e].value;
    if (close !== '' && close !== open && close.replace(/\s+/g, '') === open.replace(/\s+/g, '')) parts[e].value = open;
  }
}

/** First and last significant part indexes between two indexes (inclusive), within one container. */
function significantBounds(parts: DxtPart[], from: number, to: number, owner: Int32Array, ownerIndex: number): [number, number] {
  let first = -1;
  let last = -1;
  for (let i = from; i <= to; i++) {
    if (owner[i] !== ownerIndex || !isSignificant(parts[i])) continue;
    if (first < 0) first = i;
    last = i;
  }
  return [first, last];
}

function endOf(parts: DxtPart[], start: number, tag: string): number {
  let depth = 0;
  for (let i = start; i < parts.length; i++) {
    const part = parts[i];
    if (part.type !== 'tag' || part.tag !== tag) continue;
    if (part.position === 'start') depth++;
    else if (part.position === 'end' && --depth === 0) return i;
  }
  return parts.length - 1;
}

function cellsInRow(parts: DxtPart[], rowStart: number): number {
  const rowEnd = endOf(parts, rowStart, 'w:tr');
  const cellOwner = enclosing(parts, 'w:tr');
  let count = 0;
  for (let i = rowStart + 1; i < rowEnd; i++) {
    const part = parts[i];
    if (part.type === 'tag' && part.tag === 'w:tc' && part.position === 'start' && cellOwner[i] === rowStart) count++;
  }
  return count;
}

function applyStructureRules(parts: DxtPart[]): void {
  const pairs = sectionPairs(parts);
  if (pairs.length === 0) return;
  const para = enclosing(parts, 'w:p');
  const cell = enclosing(parts, 'w:tc');
  const row = enclosing(parts, 'w:tr');
  for (const [s, e] of pairs) {
    const open = parts[s];
    if (open.expandTo !== 'auto') continue;
    // A section filling the only cell of a row repeats the row.
    if (cell[s] >= 0 && cell[s] === cell[e] && row[s] >= 0 && cellsInRow(parts, row[s]) === 1) {
      const cellStart = cell[s];
      const [first, last] = significantBounds(parts, cellStart, endOf(parts, cellStart, 'w:tc'), cell, cellStart);
      if (first === s && last === e) {
        open.expandTo = 'w:tr';
        continue;
      }
    }
    // A paragraph holding nothing but the section repeats as a paragraph.
    if (para[s] >= 0 && para[s] === para[e]) {
      const pStart = para[s];
      const [first, last] = significantBounds(parts, pStart, endOf(parts, pStart, 'w:p'), para, pStart);
      if (first === s && last === e) open.expandTo = 'w:p';
    }
  }
}

/** Run content that shows something even without text (pictures, breaks, tabs, fields, symbols, section breaks). */
const VISIBLE_XML = /<(?:w:drawing|w:pict|w:object|w:br|w:cr|w:tab|w:ptab|w:sym|w:fldSimple|w:fldChar|w:sectPr|mc:AlternateContent)[\s/>]/;

/** Is there anything but blank text and markup between `from` and `to` (exclusive), tab stops in w:pPr aside? */
function hasVisibleContent(parts: DxtPart[], from: number, to: number, except: number): boolean {
  let inPPr = false;
  for (let i = from + 1; i < to; i++) {
    const part = parts[i];
    if (i === except) continue;
    if (part.type === 'tag' && part.tag === 'w:pPr') {
      inPPr = part.position === 'start';
      continue;
    }
    if (isSignificant(part)) return true;
    if (typeof part.value === 'string' && VISIBLE_XML.test(part.value)) {
      // Tab stops (w:tabs/w:tab) live in w:pPr and show nothing; a section break (w:sectPr) there does.
      if (!inPPr || part.value.includes('<w:sectPr')) return true;
    }
  }
  return false;
}

/**
 * Sections whose tags sit in different paragraphs of one body or cell, one of them alone in its paragraph and
 * the other at the edge of a paragraph with text (`• {#proof}It works because {reason}` ¶ `• {/proof}`).
 * docloom reads the lone tag's paragraph as structure only (it vanishes, docs/templates.md), so the section
 * repeats whole paragraphs: one bullet per item and no empty bullet after the last one. docxtemplater would
 * cut the paragraphs at the tags and leave the lone tag's paragraph behind, empty. Here both tags move out to
 * the paragraph boundaries, the lone tag's paragraph goes, and the section repeats exactly the paragraphs
 * between (no expansion). Other shapes (text on both sides of a tag, both tags alone — docxtemplater's own
 * paragraph loop) are left as they are.
 */
function liftSpanningSections(parts: DxtPart[]): DxtPart[] {
  const pairs = sectionPairs(parts).filter(([s]) => parts[s].expandTo === 'auto');
  if (pairs.length === 0) return parts;
  const para = enclosing(parts, 'w:p');
  const cell = enclosing(parts, 'w:tc');
  /** Part index → what goes there instead: a lone tag's whole paragraph is replaced, a moved tag is dropped. */
  const drop = new Set<number>();
  const before = new Map<number, number[]>();
  const after = new Map<number, number[]>();
  const lonely = (tag: number, pStart: number, pEnd: number): boolean => !hasVisibleContent(parts, pStart, pEnd, tag);
  const push = (map: Map<number, number[]>, at: number, tag: number): void => {
    map.set(at, [...(map.get(at) ?? []), tag]);
  };
  for (const [s, e] of pairs) {
    const ps = para[s];
    const pe = para[e];
    if (ps < 0 || pe < 0 || ps === pe || cell[s] !== cell[e]) continue;
    const psEnd = endOf(parts, ps, 'w:p');
    const peEnd = endOf(parts, pe, 'w:p');
    if ([ps, psEnd, pe, peEnd].some((i) => drop.has(i))) continue;
    const openAlone = lonely(s, ps, psEnd);
    const closeAlone = lonely(e, pe, peEnd);
    if (openAlone === closeAlone) continue;
    if (closeAlone && !hasVisibleContent(parts, ps, s, -1)) {
      // `{#a}text…` ¶ … ¶ `{/a}`: the section starts where the first paragraph starts, ends where the lone one was.
      push(before, ps, s);
      drop.add(s);
      for (let i = pe; i <= peEnd; i++) if (i !== e) drop.add(i);
    } else if (openAlone && !hasVisibleContent(parts, e, peEnd, -1)) {
      // `{#a}` ¶ … ¶ `…text{/a}`: the mirror image.
      push(after, peEnd, e);
      drop.add(e);
      for (let i = ps; i <= psEnd; i++) if (i !== s) drop.add(i);
    } else continue;
    parts[s].expandTo = '';
  }
  if (drop.size === 0) return parts;
  const out: DxtPart[] = [];
  parts.forEach((part, i) => {
    for (const t of before.get(i) ?? []) out.push(parts[t]);
    if (!drop.has(i)) out.push(part);
    for (const t of after.get(i) ?? []) out.push(parts[t]);
  });
  return out;
}

const FIELD_XML: Record<string, string> = {
  page: ' PAGE ',
  pages: ' NUMPAGES ',
};

/** Ends the text run the tag sits in, inserts `xml` (whole runs), and opens a new text run for what follows. */
function breakOutOfRun(xml: string): string {
  return `</w:t></w:r>${xml}<w:r><w:t xml:space="preserve">`;
}

export function docloomModule(options: {
  parseImageTag: (inner: string) => { ref: CName; box: { width: number; height: number } | null } | null;
  placeImage: ImagePlacer;
}): object {
  return {
    name: 'DocloomModule',
    // Before docxtemplater's own modules, so the structure rules are set before loops are expanded.
    priority: 100,
    matchers(): Array<[string | RegExp, string] | [string | RegExp, string, { priority: number }]> {
      return [
        ['%', IMAGE],
        // Only $page and $pages: `$index` (alone or in an expression) is read by the template language.
        [/^\s*\$\s*(pages?)\s*$/, SYSTEM],
        ['!', COMMENT],
        // `{-w:p items}` dash loops are refused at upload (unsupported_tag); any other `-…` is an expression.
        // (docxtemplater prefers the match with the shortest value unless told otherwise: the loop module's dash
        // matcher would win.)
        [/^\s*(-(?!\w+:\w+\s)[\s\S]*)$/, MINUS, { priority: 1000 }],
      ];
    },
    postparse(parsed: DxtPart[]): DxtPart[] {
      matchCloseTags(parsed);
      applyStructureRules(parsed);
      return liftSpanningSections(parsed);
    },
    render(part: DxtPart, renderOptions: { scopeManager: ScopeManagerLike; filePath: string }): { value: string } | null {
      if (part.module === COMMENT) return { value: '' };
      if (part.module === MINUS) {
        const text = String(renderOptions.scopeManager.getValue(part.value, { part }) ?? '');
        const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
        return { value: escaped.replace(/\r?\n/g, '</w:t><w:br/><w:t xml:space="preserve">') };
      }
      if (part.module === SYSTEM) {
        const instr = FIELD_XML[part.value.trim()];
        if (!instr) return { value: '' };
        return { value: breakOutOfRun(`<w:fldSimple w:instr="${instr}"><w:r><w:t>1</w:t></w:r></w:fldSimple>`) };
      }
      if (part.module !== IMAGE) return null;
      const tag = options.parseImageTag(part.value);
      if (!tag) return { value: '' };
      const value = renderOptions.scopeManager.getValue(part.value, { part });
      const xml = options.placeImage({ ref: tag.ref, box: tag.box, value }, renderOptions.filePath);
      return { value: xml ? breakOutOfRun(xml) : '' };
    },
  };
}

/** An inline picture (DrawingML) referring to relationship `relId`; sizes in points. */
export function inlinePictureXml(relId: string, id: number, width: number, height: number, name: string): string {
  const cx = Math.round(width * 12700);
  const cy = Math.round(height * 12700);
  const a = 'http://schemas.openxmlformats.org/drawingml/2006/main';
  return (
    `<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing">` +
    `<wp:extent cx="${cx}" cy="${cy}"/><wp:docPr id="${id}" name="${name}"/>` +
    `<wp:cNvGraphicFramePr><a:graphicFrameLocks xmlns:a="${a}" noChangeAspect="1"/></wp:cNvGraphicFramePr>` +
    `<a:graphic xmlns:a="${a}"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">` +
    `<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="${id}" name="${name}"/><pic:cNvPicPr/></pic:nvPicPr>` +
    `<pic:blipFill><a:blip r:embed="${relId}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
    `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>` +
    `</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`
  );
}
