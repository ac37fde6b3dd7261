/**
 * What the readers of one part (the body, a header, a footer) share: the package, the style sheet, lists, the
 * theme, and the state that runs across paragraphs (complex fields may open in one paragraph and close later).
 */
import type { Block, RunStyle } from '../model/types.js';
import type { Notes } from './notes.js';
import type { Numbering } from './numbering.js';
import type { DocxPackage } from './package.js';
import type { StyleSheet, TableLayer } from './styles.js';
import type { Theme } from './theme.js';
import type { Warnings } from './warnings.js';
import type { XElement } from './xml.js';

export interface DocContext {
  pkg: DocxPackage;
  styles: StyleSheet;
  numbering: Numbering;
  theme: Theme;
  /** What the readers leave out or change (warnings.ts). */
  warnings: Warnings;
  /**
   * settings.xml's compatibility option w:splitPgBreakAndParaMark (Word 2010 and older): the paragraph mark
   * after a page break that ends its paragraph starts the next page as an empty line. Without it (Word 2013
   * and later) the mark stays with the break, so the next page starts with the next paragraph.
   */
  splitPageBreakAndMark?: boolean;
  /**
   * settings.xml's w:compatSetting compatibilityMode (15 = Word 2013 and later; absent = older). Below 15 a
   * table's w:tblInd is measured to the text of its first cell, not to its edge.
   */
  compatibilityMode?: number;
  /**
   * The space between two paragraphs is the larger of the first's space after and the second's space before, not
   * their sum: LibreOffice (writerfilter's ParaSpaceMax) does so for every .docx with a settings part that lacks
   * w:doNotUseHTMLParagraphAutoSpacing, and adds both only without a settings part or with that option; Word's
   * option of that name, "use fixed paragraph spacing instead of HTML auto spacing", means the same (neighbours.ts).
   */
  collapseSpacing?: boolean;
  /**
   * settings.xml's w:doNotUseHTMLParagraphAutoSpacing: paragraphs with w:beforeAutospacing / w:afterAutospacing
   * keep their written w:before / w:after instead of the 14 pt "auto" (HTML) spacing.
   */
  fixedAutoSpacing?: boolean;
  /** Footnotes and endnotes: the reference marks' numbers and the endnotes read (notes.ts). */
  notes?: Notes;
  /**
   * The text runs' styles of this document, one object per distinct style (by its JSON, which merging runs
   * computes anyway): Word writes the same formatting on run after run, and the renderer resolves a style once
   * per object (pdf/layout/fmt.ts merge, makeFmt), so equal styles shared are resolved once, not once per run.
   */
  runStyles: Map<string, RunStyle>;
}

/** A complex field being read (w:fldChar begin … separate … end). */
export interface OpenField {
  instr: string;
  /** 'result' after w:fldChar separate: the runs shown until end. */
  phase: 'instr' | 'result';
  /** page / pages are drawn by the renderer; their cached result runs are skipped. */
  kind?: 'page' | 'pages' | 'link' | 'other';
  link?: string;
  emitted?: boolean;
}

/** Items a block reader yields: blocks, and in the body the end of a section (its w:sectPr). */
export type Item = Block | {
  type: 'sectionEnd';
  sectPr: XElement;
  /** The paragraph that holds the w:sectPr when it holds nothing else (no run, no number): the section's mark. */
  mark?: Block;
};

export interface PartContext {
  doc: DocContext;
  /** The part's path in the zip, for its relationships (images, hyperlinks). */
  part: string;
  fields: OpenField[];
  /** Reads block-level content (paragraphs, tables, content controls); set by blocks.ts. */
  readBlocks(container: XElement, table?: TableLayer): Item[];
}

export function isBlock(item: Item): item is Block {
  return item.type !== 'sectionEnd';
}
