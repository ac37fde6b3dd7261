/**
 * Footnotes and endnotes (footnotes.xml, endnotes.xml). A reference (w:footnoteReference / w:endnoteReference) is
 * drawn as its number, counted in reference order as Word does, in the format of settings.xml's w:footnotePr /
 * w:endnotePr (Word's defaults: decimal footnotes, lower-Roman endnotes). The note's own mark (w:footnoteRef /
 * w:endnoteRef at the start of its text) is the same number.
 *
 * Endnotes are drawn after the body of the document, in reference order. Footnotes go with the paragraph that
 * references them (Paragraph.footnotes): the page flow draws them at the foot of that paragraph's page.
 */
import { LIST_FORMATS, type Block, type ListInfo, type PageSetup, type Paragraph } from '../model/types.js';
import { formatCounter } from '../pdf/layout/number-formats.js';
import { EngineError } from '../errors.js';
import { createPartContext } from './blocks.js';
import { toParagraphStyle } from './resolve.js';
import { isBlock, type DocContext } from './context.js';
import { child, children, type XElement } from './xml.js';

export type NoteKind = 'footnote' | 'endnote';

const FORMATS = new Set<string>(LIST_FORMATS);

interface NotesPart {
  path: string;
  /** Notes by w:id; undefined when the part is missing or damaged. */
  byId?: Map<string, XElement>;
}

export class Notes {
  private readonly parts = new Map<NoteKind, NotesPart | undefined>();
  private readonly counters: Record<NoteKind, number> = { footnote: 0, endnote: 0 };
  private readonly formats: Record<NoteKind, ListInfo['format']>;
  /** The number of the note being read, for its own w:footnoteRef / w:endnoteRef mark. */
  current: string | undefined;
  /** Read endnotes, in reference order. */
  readonly endnotes: Block[] = [];
  /** Footnotes referenced by the paragraph being read, until it takes them. */
  private pending: Block[][] = [];
  /** True while a note's text is read: a reference inside a note is not followed. */
  private reading = false;

  constructor(private readonly doc: DocContext, private readonly main: string, settings: XElement | undefined) {
    this.formats = {
      footnote: format(child(child(settings, 'w:footnotePr'), 'w:numFmt'), 'decimal'),
      endnote: format(child(child(settings, 'w:endnotePr'), 'w:numFmt'), 'lowerRoman'),
    };
  }

  /**
   * The mark of a reference, or undefined when the note cannot be found (no part, damaged part, unknown id): then
   * the reference is reported and nothing is drawn, as before.
   */
  reference(kind: NoteKind, node: XElement): string | undefined {
    if (this.reading) return undefined;
    const note = this.part(kind)?.byId?.get(node.attrs['w:id'] ?? '');
    if (!note) return undefined;
    // w:customMarkFollows: the author typed the mark (a symbol) in the next run; no number is drawn or counted.
    const custom = node.attrs['w:customMarkFollows'];
    const mark = custom === '1' || custom === 'true' || custom === 'on' ? '' : formatCounter(++this.counters[kind], this.formats[kind]);
    const blocks = this.readNote(kind, note, mark);
    if (kind === 'endnote') this.endnotes.push(...blocks);
    else this.pending.push(blocks);
    return mark;
  }

  /** How many footnotes the paragraph being read references so far (the last one's index is this minus 1). */
  get pendingFootnotes(): number {
    return this.pending.length;
  }

  /** The footnotes referenced since the last call, for the paragraph just read (none inside a note's own text). */
  takeFootnotes(): Block[][] | undefined {
    if (this.reading || this.pending.length === 0) return undefined;
    const out = this.pending;
    this.pending = [];
    return out;
  }

  /** Names a notes part that is present but damaged (its notes are left out), then lets the parts go. */
  finish(): void {
    for (const kind of ['footnote', 'endnote'] as const) {
      const part = this.part(kind);
      if (part && !part.byId) this.doc.warnings.add('part_damaged', part.path, undefined, `${kind}s`);
      if (part) this.doc.pkg.forget(part.path);
    }
  }

  private readNote(kind: NoteKind, note: XElement, mark: string): Block[] {
    const path = this.part(kind)?.path ?? '';
    this.reading = true;
    this.current = mark;
    try {
      return createPartContext(this.doc, path).readBlocks(note).filter(isBlock);
    } finally {
      this.reading = false;
      this.current = undefined;
    }
  }

  private part(kind: NoteKind): NotesPart | undefined {
    if (this.parts.has(kind)) return this.parts.get(kind);
    const path = this.doc.pkg.relatedPart(this.main, `${kind}s`);
    let part: NotesPart | undefined;
    if (path && this.doc.pkg.has(path)) {
      part = { path };
      let root: XElement | undefined;
      try {
        root = this.doc.pkg.xml(path, true);
      } catch (err) {
        if (!(err instanceof EngineError) || err.code !== 'invalid_template') throw err;
      }
      if (root) {
        part.byId = new Map();
        for (const note of children(root, `w:${kind}`)) {
          // Separators (w:type separator / continuationSeparator / continuationNotice) are never referenced.
          if (!note.attrs['w:type'] || note.attrs['w:type'] === 'normal') part.byId.set(note.attrs['w:id'] ?? '', note);
        }
      }
    }
    this.parts.set(kind, part);
    return part;
  }
}

function format(numFmt: XElement | undefined, fallback: ListInfo['format']): ListInfo['format'] {
  const val = numFmt?.attrs['w:val'];
  return val && val !== 'bullet' && val !== 'none' && FORMATS.has(val) ? (val as ListInfo['format']) : fallback;
}

/** Word's separator above the endnotes: a 2-inch rule (its default separator note), as above the footnotes. */
const SEPARATOR_LENGTH = 144;

/**
 * The line Word draws between the body and the endnotes after it: an empty paragraph whose bottom border is cut to
 * 2 inches by its right indent (`page` is the last section's, whose text width it is taken from).
 */
export function endnoteSeparator(page: PageSetup | undefined): Paragraph {
  const text = page ? page.width - page.margins.left - page.margins.right : SEPARATOR_LENGTH;
  // In newspaper columns the body (and the rule) is laid out at a column's width.
  const cols = page?.columns;
  const width = cols && cols.count >= 2 ? (cols.widths?.[0] ?? (text - (cols.count - 1) * cols.space) / cols.count) : text;
  const style = toParagraphStyle({ spaceBefore: 0, spaceAfter: 0 });
  style.indentLeft = 0;
  style.indentRight = Math.max(0, width - SEPARATOR_LENGTH);
  style.borders = { bottom: { width: 0.5, color: '#000000', style: 'single', space: 0 } };
  return { type: 'paragraph', runs: [], style };
}
