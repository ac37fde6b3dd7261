/**
 * The compiled template: the source model with every tag parsed and every section placed, so binding is a
 * plain tree walk. Everything here is plain data (no functions, classes, regexes or Maps) because compiled
 * templates are cached and posted to worker threads, which structured-clone them.
 *
 * Nodes that hold no tags keep the source block as is (`static`): binding reuses the very same object, so a
 * bound model shares structure with its compiled template and must be treated as read-only.
 */
import type {
  Block,
  DocMetadata,
  Field,
  Inline,
  ListInfo,
  PageSetup,
  ParagraphStyle,
  RunStyle,
  Section,
  ShapeRun,
  Table,
  TableCell,
  TableRow,
  TemplateModel,
} from '../model/types.js';
import type { Expr } from '../lang/ast.js';
import type { AggregateOp } from '../lang/aggregate.js';

/** One step of a date format (`D MMMM YYYY` → D, ' ', MMMM, ' ', YYYY). */
export type DatePart = { lit: string } | { tok: DateToken };
export type DateToken =
  | 'YY' | 'YYYY' | 'M' | 'MM' | 'MMM' | 'MMMM' | 'D' | 'DD' | 'd' | 'dd' | 'ddd' | 'dddd'
  | 'H' | 'HH' | 'h' | 'hh' | 'm' | 'mm' | 's' | 'ss' | 'SSS' | 'Z' | 'ZZ' | 'A' | 'a';

export type CompiledFilter =
  | { f: 'number'; digits?: number }
  | { f: 'currency'; code: string; digits?: number }
  | { f: 'date'; parts: DatePart[]; /** the format names a day, so month names take their "day month" form */ withDay: boolean }
  | { f: 'upper' }
  | { f: 'lower' }
  | { f: 'default'; value: string }
  /** `sum:"net"`, `count`, `min`, `max`, `avg` over a list; `path` reads each item (empty: the item itself). */
  | { f: 'agg'; op: AggregateOp; path: string[] };

/**
 * A name as written and its lookup path (`customer.name` → ['customer', 'name']; `.` → []). When the tag is an
 * expression (`hours * rate`, `balance > 0`), `name` is its text, `path` is empty and `expr` its syntax tree:
 * read it with bind/lookup.ts's `resolve`, never with the path alone.
 */
export interface CName {
  name: string;
  path: string[];
  expr?: Expr;
}

export type CInline =
  /** Literal text or a non-text run from the template, emitted unchanged. */
  | { k: 'run'; run: Inline }
  | { k: 'var'; ref: CName; filters: CompiledFilter[]; style?: RunStyle }
  | { k: 'image'; ref: CName; /** size given in the tag, points */ box: { width: number; height: number } | null; /** width of the column it sits in */ maxWidth: number }
  | { k: 'section'; ref: CName; inverted: boolean; content: CInline[] }
  /** A shape drawn in the line (ShapeRun) whose parts' text holds tags: its parts compiled as a part of their own. */
  | { k: 'shape'; run: ShapeRun; parts: CBlock[] };

export type CBlock =
  | { k: 'static'; block: Block }
  | {
      k: 'para';
      style?: ParagraphStyle;
      list?: ListInfo;
      content: CInline[];
      /** The paragraph held only image tags: when they all come out empty, the paragraph goes too. */
      dropIfEmpty: boolean;
      /**
       * A piece of a paragraph cut by the tag of a section that spans paragraphs (`Intro {{#a}}x` ¶ `y{{/a}}`):
       * `joinPrev` continues the paragraph the binder left open just before, if any (else it starts one with
       * this style); `openEnd` leaves the paragraph open for the piece bound next. Absent on whole paragraphs.
       */
      joinPrev?: true;
      openEnd?: true;
      /** The paragraph's footnotes (Paragraph.footnotes), kept as they are: on its last piece. */
      footnotes?: Block[][];
    }
  | { k: 'section'; ref: CName; inverted: boolean; body: CBlock[] }
  | { k: 'table'; columns: number[]; style?: Table['style']; rows: CRow[] };

export interface CCell {
  /** The cell's own settings (span, shading…), copied into every bound cell. */
  props: Omit<TableCell, 'blocks'>;
  blocks: CBlock[];
}

export type CRow =
  | { k: 'static'; row: TableRow }
  | { k: 'row'; props: Omit<TableRow, 'cells'>; cells: CCell[] }
  /** A table loop (or condition) over whole rows. */
  | { k: 'section'; ref: CName; inverted: boolean; rows: CRow[] };

export interface CPartSet {
  default?: CBlock[];
  first?: CBlock[];
  even?: CBlock[];
}

/**
 * Marks, in a body compiled across section breaks, where section `section` ends (see CSection.spans). Binding
 * splits the body there, so a loop around the break repeats the break with its section's page and headers.
 */
export interface SectionEnd {
  type: 'sectionEnd';
  section: number;
}

export interface CSection {
  page: PageSetup;
  body: CBlock[];
  /**
   * The body holds the bodies of this and the following sections up to section `spans` (a section opened in one
   * and closed in a later one), with SectionEnd blocks between them; those sections' own bodies are empty.
   */
  spans?: number;
  header?: CPartSet;
  footer?: CPartSet;
  titlePage?: boolean;
  continuous?: boolean;
  pageNumbers?: Section['pageNumbers'];
}

export interface CompiledTemplate {
  kind: 'docloom-compiled';
  version: 1;
  fields: Field[];
  delimiters: [string, string];
  sections: CSection[];
  defaults: TemplateModel['defaults'];
  metadata?: DocMetadata;
  locale?: string;
  /** The page colour (TemplateModel.background). */
  background?: string;
}
