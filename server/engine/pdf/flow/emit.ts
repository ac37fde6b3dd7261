/**
 * Laid-out lines, paragraphs, cells and small tables → positioned boxes (flow/boxes.ts) on the page being
 * filled. Nothing is drawn here: the painter (draw/painter.ts) turns the boxes into PDF operations.
 */
import type { BorderLine } from '../../model/types.js';
import { parseColor, type Rgb } from '../layout/color.js';
import type { Borders, FieldItem, Item, LaidBlock, LaidCell, LaidParagraph, LaidTable, Line } from '../layout/items.js';
import type { Box, TextBox } from './boxes.js';
import { borderThickness } from '../layout/paragraph-border-room.js';
import { turnBoxes } from './turn-cell.js';

/** Page numbers for fields: `pages` is null while the body is still being laid out (drawn once known). */
export interface FieldValues {
  page: number;
  pages: number | null;
  /** The page number as the section writes it (w:pgNumType: its start and format); default `page`. */
  pageText?: string;
}

const BLACK: Rgb = [0, 0, 0];
const NO_PAD = { left: 0, top: 0, right: 0, bottom: 0 };

function same(a: BorderLine, b: BorderLine): boolean {
  return a === b || (a.width === b.width && a.color === b.color && (a.style ?? 'single') === (b.style ?? 'single'));
}

/** A box of a chart (laid out at the origin) placed at (dx, dy). */
function moved(b: Box, dx: number, dy: number): Box {
  switch (b.kind) {
    case 'line':
      return { ...b, x1: b.x1 + dx, y1: b.y1 + dy, x2: b.x2 + dx, y2: b.y2 + dy };
    case 'path':
      return { ...b, points: b.points.map((v, i) => v + (i % 2 === 0 ? dx : dy)) };
    default:
      return { ...b, x: b.x + dx, y: b.y + dy };
  }
}

export class Emitter {
  /** Where boxes go: the boxes of the page being filled (set by the flow as pages start). */
  out: Box[] = [];
  /**
   * Places a floating object met in a stack (a header's logo, a text box in a cell) anchored at (x0, y), the
   * left of its column and the top of its paragraph (flow/floats.ts); set by whoever knows the page.
   */
  floatAt: ((t: LaidTable, x0: number, y: number, fields: FieldValues) => void) | null = null;

  fillRect(x: number, y: number, w: number, h: number, color: Rgb): void {
    if (!(w > 0) || !(h > 0)) return;
    this.out.push({ kind: 'fill', x, y, w, h, color });
  }

  rule(x1: number, y1: number, x2: number, y2: number, width: number, color: Rgb, style?: BorderLine['style']): void {
    if (style === 'double' && width >= 0.75) {
      // Two thin lines, a line's width apart.
      const w = width / 3;
      const dx = y1 === y2 ? 0 : w;
      const dy = y1 === y2 ? w : 0;
      this.out.push({ kind: 'line', x1: x1 - dx, y1: y1 - dy, x2: x2 - dx, y2: y2 - dy, width: w, color, dash: null });
      this.out.push({ kind: 'line', x1: x1 + dx, y1: y1 + dy, x2: x2 + dx, y2: y2 + dy, width: w, color, dash: null });
      return;
    }
    const dash = style === 'dashed' ? [width * 4, width * 2] : style === 'dotted' ? [width, width * 1.5] : null;
    this.out.push({ kind: 'line', x1, y1, x2, y2, width, color, dash });
  }

  border(b: BorderLine | undefined, x1: number, y1: number, x2: number, y2: number): void {
    if (!b || !(b.width > 0)) return;
    this.rule(x1, y1, x2, y2, b.width, parseColor(b.color) ?? BLACK, b.style);
  }

  borders(borders: Borders, x: number, y: number, w: number, h: number): void {
    const { top, bottom, left, right } = borders;
    // Four equal plain sides: one rectangle instead of four lines.
    if (top && bottom && left && right && top.width > 0 && (top.style ?? 'single') === 'single' &&
      same(top, bottom) && same(top, left) && same(top, right)) {
      this.out.push({ kind: 'frame', x, y, w, h, width: top.width, color: parseColor(top.color) ?? BLACK });
      return;
    }
    this.border(top, x, y, x + w, y);
    this.border(bottom, x, y + h, x + w, y + h);
    this.border(left, x, y, x, y + h);
    this.border(right, x + w, y, x + w, y + h);
  }

  link(x: number, y: number, w: number, h: number, url: string): void {
    if (w > 0 && h > 0) this.out.push({ kind: 'link', x, y, w, h, url });
  }

  // ───────────── lines and blocks ─────────────

  private decorate(underline: boolean, strike: boolean, color: Rgb, size: number, x: number, w: number, baseline: number): void {
    const thickness = Math.max(0.4, size * 0.055);
    if (underline) this.rule(x, baseline + size * 0.12, x + w, baseline + size * 0.12, thickness, color);
    if (strike) this.rule(x, baseline - size * 0.28, x + w, baseline - size * 0.28, thickness, color);
  }

  /** A field's value as text with its decorations (also how the painter draws the page count at the end). */
  fieldValue(item: FieldItem, text: string, x: number, baseline: number, width: number): void {
    const b = baseline - item.fmt.rise;
    this.out.push({ kind: 'text', x, y: b, width, text, face: item.face, size: item.fmt.drawSize, color: item.fmt.color });
    this.decorate(item.fmt.underline, item.fmt.strike, item.fmt.color, item.fmt.drawSize, x, width, b);
  }

  /** Places one line with its top-left corner at (x0, top). */
  line(line: Line, x0: number, top: number, fields: FieldValues): void {
    const baseline = top + line.baseline;
    const items = line.items;
    for (const it of items) {
      if (it.kind === 'text' && it.fmt.highlight) {
        const b = baseline - it.fmt.rise;
        this.fillRect(x0 + it.x, b - it.face.ascent * it.fmt.drawSize, it.width, (it.face.ascent + it.face.descent) * it.fmt.drawSize, it.fmt.highlight);
      }
    }
    for (const it of items) this.item(it, x0, top, baseline, line.height, fields);
  }

  private item(it: Item, x0: number, top: number, baseline: number, lineHeight: number, fields: FieldValues): void {
    const x = x0 + it.x;
    switch (it.kind) {
      case 'text': {
        const b = baseline - it.fmt.rise;
        if (!it.space) {
          const box: TextBox = { kind: 'text', x, y: b, width: it.width, text: it.text, face: it.face, size: it.fmt.drawSize, color: it.fmt.color };
          if (it.fmt.scale !== 1) box.scale = it.fmt.scale;
          const charSpace = it.fmt.spacing + (it.expand ?? 0);
          if (charSpace !== 0) box.charSpace = charSpace;
          this.out.push(box);
        }
        this.decorate(it.fmt.underline, it.fmt.strike, it.fmt.color, it.fmt.drawSize, x, it.width, b);
        if (it.fmt.link) this.link(x, top, it.width, lineHeight, it.fmt.link);
        return;
      }
      case 'image': {
        // The picture inside the room its line keeps for it (pad: a shadow's or glow's reach).
        const pad = it.pad ?? NO_PAD;
        const box = { x: x + pad.left, y: baseline - it.height + pad.top, w: it.width - pad.left - pad.right, h: it.height - pad.top - pad.bottom };
        this.out.push({ kind: 'image', ...box, image: it.image });
        if (it.outline) this.out.push({ kind: 'frame', ...box, width: it.outline.width, color: it.outline.color });
        return;
      }
      case 'chart': {
        const pad = it.pad ?? NO_PAD;
        for (const b of it.boxes) this.out.push(moved(b, x + pad.left, baseline - it.height + pad.top));
        return;
      }
      case 'field': {
        if (it.field === 'pages' && fields.pages === null) {
          const f = it.fmt;
          this.out.push({ kind: 'pageCount', x, y: baseline - f.rise, face: it.face, size: f.drawSize, color: f.color, underline: f.underline, strike: f.strike });
          return;
        }
        const text = it.field === 'page' ? (fields.pageText ?? String(fields.page)) : String(fields.pages);
        this.fieldValue(it, text, x, baseline, it.face.width(text, it.fmt.drawSize));
        return;
      }
      case 'gap': {
        if (!it.leader) return;
        const charW = it.face.width(it.leader, it.fmt.drawSize);
        if (!(charW > 0)) return;
        const count = Math.floor((it.width - charW / 2) / charW);
        if (count < 1) return;
        // Leaders start where the text before the tab ends and fill the gap with whole characters, leaving at
        // least half of one before the text the tab aligns, as LibreOffice draws them ("Entry2..... 1").
        this.out.push({ kind: 'text', x, y: baseline - it.fmt.rise, width: count * charW,
          text: it.leader.repeat(count), face: it.face, size: it.fmt.drawSize, color: it.fmt.color });
      }
    }
  }

  /** Shading and borders of the part of a paragraph placed from y to y + h. */
  paragraphBox(p: LaidParagraph, x0: number, y: number, h: number, first: boolean, last: boolean): void {
    const x = x0 + p.boxLeft;
    const w = p.boxRight - p.boxLeft;
    if (p.shading) this.fillRect(x, y, w, h, p.shading);
    if (p.borders) {
      // The top and bottom lines lie inside the box, in the room the first and last lines keep for them.
      const top = borderThickness(p.borders.top) / 2;
      const bottom = borderThickness(p.borders.bottom) / 2;
      if (first) this.border(p.borders.top, x, y + top, x + w, y + top);
      if (last) this.border(p.borders.bottom, x, y + h - bottom, x + w, y + h - bottom);
      this.border(p.borders.left, x, y, x, y + h);
      this.border(p.borders.right, x + w, y, x + w, y + h);
    }
  }

  /** Places a paragraph whole (cells, headers, footers); returns the y below it. */
  paragraph(p: LaidParagraph, x0: number, y: number, fields: FieldValues): number {
    let top = y + p.spaceBefore;
    if (p.shading || p.borders) {
      const h = p.lines.reduce((a, l) => a + l.height, 0);
      this.paragraphBox(p, x0, top, h, true, true);
    }
    for (const line of p.lines) {
      this.line(line, x0, top, fields);
      top += line.height;
    }
    return top + p.spaceAfter;
  }

  /** Places blocks one below the other (no page breaks); returns the y below them. */
  stack(blocks: LaidBlock[], x0: number, y: number, fields: FieldValues): number {
    let anchor = y;
    for (const b of blocks) {
      if (b.kind === 'paragraph') {
        anchor = y;
        y = this.paragraph(b, x0, y, fields);
      } else if (b.kind === 'table' && b.float) this.floatAt?.(b, x0, anchor, fields);
      else if (b.kind === 'table') y = this.grid(b, x0, y, fields);
    }
    return y;
  }

  /** Places a cell's content (without background) inside the cell rectangle (x, y, w, h). */
  cellContent(cell: LaidCell, x: number, y: number, w: number, h: number, fields: FieldValues): void {
    if (cell.turn) {
      this.turnedContent(cell, cell.turn, x, y, w, h, fields);
      return;
    }
    const inner = h - cell.padding.top - cell.padding.bottom;
    let dy = 0;
    if (cell.vAlign === 'middle') dy = Math.max(0, (inner - cell.contentHeight) / 2);
    else if (cell.vAlign === 'bottom') dy = Math.max(0, inner - cell.contentHeight);
    this.stack(cell.blocks, x + cell.padding.left, y + cell.padding.top + dy, fields);
  }

  /** Places a vertical-text cell's content: drawn upright at the origin, then turned into the cell. */
  private turnedContent(cell: LaidCell, turn: NonNullable<LaidCell['turn']>, x: number, y: number, w: number, h: number, fields: FieldValues): void {
    const { padding } = cell;
    const [x0, x1] = [x + padding.left, x + w - padding.right];
    const across = x1 - x0;
    // The cell's vertical alignment turns with its text: it places the lines across the cell's width.
    const shift = cell.vAlign === 'middle' ? Math.max(0, (across - turn.across) / 2) : cell.vAlign === 'bottom' ? Math.max(0, across - turn.across) : 0;
    const page = this.out;
    const own: Box[] = [];
    this.out = own;
    this.stack(cell.blocks, 0, 0, fields);
    this.out = page;
    turnBoxes(own, { direction: turn.direction, x0, y0: y + padding.top, x1, y1: y + h - padding.bottom, shift });
    page.push(...own);
  }

  /** Places a table that does not break across pages (nested tables, tables in headers and footers). */
  grid(t: LaidTable, x0: number, y: number, fields: FieldValues): number {
    const colX: number[] = [];
    let acc = x0 + t.x;
    for (const w of t.columns) {
      colX.push(acc);
      acc += w;
    }
    colX.push(acc);
    const rowY: number[] = [];
    let yy = y;
    for (const h of t.heights) {
      rowY.push(yy);
      yy += h;
    }
    rowY.push(yy);
    t.rows.forEach((row, r) => {
      for (const cell of row.cells) {
        const x = colX[cell.col];
        const w = colX[Math.min(cell.col + cell.colSpan, t.columns.length)] - x;
        const h = rowY[Math.min(r + cell.rowSpan, t.heights.length)] - rowY[r];
        if (cell.fill) this.fillRect(x, rowY[r], w, h, cell.fill);
        this.cellContent(cell, x, rowY[r], w, h, fields);
        this.borders(cell.borders, x, rowY[r], w, h);
      }
    });
    return yy;
  }
}
