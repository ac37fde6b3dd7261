/**
 * Step 3 (only when steps 1–2 found no errors): turn the analysed part into compiled blocks. Sections become
 * nodes around what they repeat; literal text keeps the style of the run it sits in; blocks without tags are
 * kept as they are (`static`) so binding reuses them untouched.
 */
import type { Inline, RunStyle, ShapeRun, TableCell, TableRow } from '../model/types.js';
import type { CBlock, CCell, CInline, CName, CRow } from './types.js';
import { isControlParagraph } from './pairs.js';
import { significant, type Container, type Item, type ParaInfo, type TagTok, type Tok } from './analyze.js';

/** Gives equal styles one shared object, so the binder can merge neighbouring runs by reference. */
export class StyleInterner {
  private readonly seen = new Map<string, RunStyle>();
  intern(style: RunStyle | undefined): RunStyle | undefined {
    if (style === undefined) return undefined;
    const key = JSON.stringify(style);
    const known = this.seen.get(key);
    if (known) return known;
    this.seen.set(key, style);
    return style;
  }
}

/**
 * The compiled parts of each shape drawn in a line whose text holds tags (compile.ts compiles them before the
 * paragraph holding it); a shape without tags is not here, and stays as it is.
 */
export const compiledShapes = new WeakMap<ShapeRun, CBlock[]>();

interface Frame {
  ref: CName | null;
  inverted: boolean;
  out: CBlock[];
}

export function buildContainer(container: Container, styles: StyleInterner): CBlock[] {
  const root: Frame = { ref: null, inverted: false, out: [] };
  const stack: Frame[] = [root];
  for (const item of container.items) {
    if (item.kind === 'para') {
      const info = item.info;
      // A paragraph of nothing but section tags whose partners are elsewhere only marks structure: it vanishes.
      if (isControlParagraph(info)) {
        for (const tok of significant(info) as TagTok[]) {
          if (tok.pair !== 'block') continue;
          if (tok.tag.type === 'open') stack.push({ ref: tok.tag.ref, inverted: tok.tag.inverted, out: [] });
          else closeFrame(stack);
        }
        continue;
      }
      if (info.toks.some((t) => t.kind === 'tag' && t.pair === 'block')) {
        buildPieces(info, container, styles, stack);
        continue;
      }
      stack[stack.length - 1].out.push(buildParagraph(info, container, styles));
    } else if (item.kind === 'table') {
      stack[stack.length - 1].out.push(buildTable(item, styles));
    } else {
      stack[stack.length - 1].out.push({ k: 'static', block: item.block });
    }
  }
  // A cell must keep at least one block even when all it held were loop tags.
  if (container.kind === 'cell' && root.out.length === 0) {
    const first = container.items.find((i): i is Extract<Item, { kind: 'para' }> => i.kind === 'para');
    if (first) root.out.push({ k: 'static', block: { type: 'paragraph', runs: [], ...(first.info.para.style ? { style: first.info.para.style } : {}) } });
  }
  return root.out;
}

function isSignificant(tok: Tok): boolean {
  return tok.kind === 'text' ? !tok.blank : tok.tag.type !== 'comment';
}

/**
 * A paragraph holding the tag of a section that spans paragraphs, next to other content (`Intro {{#a}}x`,
 * `y{{/a}} outro`). It is cut at those tags into pieces; what lies between a section's tags repeats, paragraph
 * boundaries included, as docxtemplater's paragraph loops do: a piece after a cut continues the paragraph the
 * piece before it left open (`joinPrev`), and a piece before a cut leaves its paragraph open (`openEnd`).
 *
 * Two refinements over that plain reading: a blank piece before an opening tag at the start of the paragraph is
 * left out (so a section with no items leaves no empty paragraph), and a blank last piece only closes the open
 * paragraph, never making an empty one of its own (`dropIfEmpty`).
 */
function buildPieces(info: ParaInfo, container: Container, styles: StyleInterner, stack: Frame[]): void {
  const toks = info.toks.filter((t) => t.kind === 'text' || t.pair !== 'rows');
  const { para } = info;
  const maxWidth = Math.max(1, container.width - (para.style?.indentLeft ?? 0) - (para.style?.indentRight ?? 0));
  const cuts: number[] = [];
  toks.forEach((t, i) => {
    if (t.kind === 'tag' && t.pair === 'block') cuts.push(i);
  });
  for (let piece = 0; piece <= cuts.length; piece++) {
    const from = piece === 0 ? 0 : cuts[piece - 1] + 1;
    const to = piece === cuts.length ? toks.length : cuts[piece];
    const content = toks.slice(from, to);
    const first = piece === 0;
    const last = piece === cuts.length;
    const blank = !content.some(isSignificant);
    const cutAfter = last ? undefined : (toks[cuts[piece]] as TagTok);
    const skip = blank && first && cutAfter?.tag.type === 'open';
    if (!skip) {
      const block: CBlock = {
        k: 'para',
        ...(para.style ? { style: para.style } : {}),
        ...(para.list ? { list: para.list } : {}),
        content: buildInline(content, info, maxWidth, styles),
        dropIfEmpty: blank && last,
        ...(first ? {} : { joinPrev: true as const }),
        ...(last ? {} : { openEnd: true as const }),
        ...(last && para.footnotes ? { footnotes: para.footnotes } : {}),
      };
      stack[stack.length - 1].out.push(block);
    }
    if (cutAfter) {
      if (cutAfter.tag.type === 'open') stack.push({ ref: cutAfter.tag.ref, inverted: cutAfter.tag.inverted, out: [] });
      else closeFrame(stack);
    }
  }
}

function closeFrame(stack: Frame[]): void {
  const frame = stack.pop() as Frame;
  const parent = stack[stack.length - 1];
  parent.out.push({ k: 'section', ref: frame.ref as CName, inverted: frame.inverted, body: frame.out });
}

function buildParagraph(info: ParaInfo, container: Container, styles: StyleInterner): CBlock {
  const toks = info.toks.filter((t) => t.kind === 'text' || t.pair !== 'rows');
  const hasTags = toks.some((t) => t.kind === 'tag');
  const taggedShape = info.para.runs.some((r) => r.type === 'shape' && compiledShapes.has(r));
  if (!hasTags && !taggedShape && toks.length === info.toks.length) return { k: 'static', block: info.para };

  const { para } = info;
  const maxWidth = Math.max(1, container.width - (para.style?.indentLeft ?? 0) - (para.style?.indentRight ?? 0));
  const sig = toks.filter((t) => (t.kind === 'text' ? !t.blank : t.tag.type !== 'comment'));
  const dropIfEmpty = sig.length > 0 && sig.every((t) => t.kind === 'tag' && t.tag.type === 'image');

  // Rule (a): a paragraph holding nothing but one whole section repeats as a paragraph (one bullet per item).
  const wrappers: TagTok[] = [];
  let lo = 0;
  let hi = sig.length - 1;
  while (lo < hi) {
    const first = sig[lo];
    if (first.kind !== 'tag' || first.tag.type !== 'open' || first.partner !== sig[hi]) break;
    wrappers.push(first);
    lo++;
    hi--;
  }
  let inner = toks;
  if (wrappers.length > 0) {
    const from = toks.indexOf(sig[lo - 1]) + 1;
    const to = toks.indexOf(sig[hi + 1]);
    inner = toks.slice(from, to);
  }
  const content = buildInline(inner, info, maxWidth, styles);
  let block: CBlock = {
    k: 'para',
    ...(para.style ? { style: para.style } : {}),
    ...(para.list ? { list: para.list } : {}),
    content,
    dropIfEmpty,
    ...(para.footnotes ? { footnotes: para.footnotes } : {}),
  };
  for (let i = wrappers.length - 1; i >= 0; i--) {
    const tag = wrappers[i].tag as Extract<TagTok['tag'], { type: 'open' }>;
    block = { k: 'section', ref: tag.ref, inverted: tag.inverted, body: [block] };
  }
  return block;
}

function buildInline(toks: Tok[], info: ParaInfo, maxWidth: number, styles: StyleInterner): CInline[] {
  const root: CInline[] = [];
  const stack: Array<{ node: Extract<CInline, { k: 'section' }> | null; out: CInline[] }> = [{ node: null, out: root }];
  const out = (): CInline[] => stack[stack.length - 1].out;
  for (const tok of toks) {
    if (tok.kind === 'text') {
      pushText(out(), info, tok.start, tok.end, styles);
      continue;
    }
    const tag = tok.tag;
    switch (tag.type) {
      case 'comment':
        break;
      case 'var':
        out().push({ k: 'var', ref: tag.ref, filters: tag.filters, ...styleProp(styles.intern(styleAt(info, tok))) });
        break;
      case 'image':
        out().push({ k: 'image', ref: tag.ref, box: tag.box, maxWidth });
        break;
      case 'system':
        out().push({ k: 'run', run: { type: 'field', field: tag.field, ...styleProp(styles.intern(styleAt(info, tok))) } });
        break;
      case 'open': {
        const node: Extract<CInline, { k: 'section' }> = { k: 'section', ref: tag.ref, inverted: tag.inverted, content: [] };
        out().push(node);
        stack.push({ node, out: node.content });
        break;
      }
      case 'close':
        stack.pop();
        break;
    }
  }
  return root;
}

function styleProp(style: RunStyle | undefined): { style?: RunStyle } {
  return style ? { style } : {};
}

/**
 * The run a tag takes its style from: the one where its name starts (Word often styles the "{{" apart from the
 * name, and the name is what the author formatted).
 */
function styleAt(info: ParaInfo, tok: TagTok): RunStyle | undefined {
  const found = info.para.runs[runIndexAt(info, tok.nameAt)];
  return found && (found.type === 'text' || found.type === 'field') ? found.style : undefined;
}

function runIndexAt(info: ParaInfo, offset: number): number {
  const starts = info.runStarts;
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Literal text [start, end) of the joined paragraph, cut back into pieces that keep their run's style. */
function pushText(out: CInline[], info: ParaInfo, start: number, end: number, styles: StyleInterner): void {
  const { runs } = info.para;
  for (let r = runIndexAt(info, start); r < runs.length && info.runStarts[r] < end; r++) {
    const run: Inline = runs[r];
    const runStart = info.runStarts[r];
    const runEnd = info.runStarts[r + 1];
    if (runEnd <= start || runEnd === runStart) continue;
    if (run.type !== 'text') {
      const parts = run.type === 'shape' ? compiledShapes.get(run) : undefined;
      out.push(run.type === 'shape' && parts ? { k: 'shape', run, parts } : { k: 'run', run });
      continue;
    }
    const text = run.text.slice(Math.max(start, runStart) - runStart, Math.min(end, runEnd) - runStart);
    if (text === '') continue;
    const style = styles.intern(run.style);
    const piece: Inline = style ? { type: 'text', text, style } : { type: 'text', text };
    // A footnote's mark keeps the note it names (flow/notes.ts places the note by it).
    if (run.footnote !== undefined) piece.footnote = run.footnote;
    // So does a line break that clears floats (layout/paragraph.ts ends it below them).
    if (run.clear !== undefined) piece.clear = run.clear;
    out.push({ k: 'run', run: piece });
  }
}

function buildTable(item: Extract<Item, { kind: 'table' }>, styles: StyleInterner): CBlock {
  const { table } = item.info;
  const rowTags = new Map<number, { opens: TagTok[]; closes: TagTok[] }>();
  const tagsAt = (r: number): { opens: TagTok[]; closes: TagTok[] } => {
    let entry = rowTags.get(r);
    if (!entry) rowTags.set(r, (entry = { opens: [], closes: [] }));
    return entry;
  };
  item.rows.forEach((cells) => {
    for (const cell of cells) {
      for (const cellItem of cell.items) {
        if (cellItem.kind !== 'para') continue;
        for (const tok of cellItem.info.toks) {
          if (tok.kind !== 'tag' || tok.pair !== 'rows') continue;
          if (tok.tag.type === 'open') tagsAt(cell.row ?? 0).opens.push(tok);
          else tagsAt(cell.row ?? 0).closes.push(tok);
        }
      }
    }
  });

  const root: { out: CRow[] } = { out: [] };
  const stack: Array<{ out: CRow[] }> = [root];
  let allStatic = true;
  item.rows.forEach((cells, r) => {
    const tags = rowTags.get(r);
    const opens = tags ? [...tags.opens].sort((a, b) => a.order - b.order) : [];
    const closes = tags ? [...tags.closes].sort((a, b) => a.order - b.order) : [];
    for (const open of opens) {
      const tag = open.tag as Extract<TagTok['tag'], { type: 'open' }>;
      const node: Extract<CRow, { k: 'section' }> = { k: 'section', ref: tag.ref, inverted: tag.inverted, rows: [] };
      stack[stack.length - 1].out.push(node);
      stack.push({ out: node.rows });
      allStatic = false;
    }
    const source: TableRow = table.rows[r];
    const compiledCells: CCell[] = cells.map((cellContainer, c) => {
      const { blocks: _blocks, ...props } = source.cells[c] as TableCell;
      return { props, blocks: buildContainer(cellContainer, styles) };
    });
    const rowIsStatic = opens.length === 0 && closes.length === 0 && compiledCells.every((cell) => cell.blocks.every((b) => b.k === 'static'));
    if (rowIsStatic) {
      stack[stack.length - 1].out.push({ k: 'static', row: source });
    } else {
      allStatic = false;
      const { cells: _cells, ...props } = source;
      stack[stack.length - 1].out.push({ k: 'row', props, cells: compiledCells });
    }
    for (let i = 0; i < closes.length; i++) stack.pop();
  });
  if (allStatic) return { k: 'static', block: table };
  return { k: 'table', columns: table.columns, ...(table.style ? { style: table.style } : {}), rows: root.out };
}
