/**
 * The only code that issues drawing operations: a thin layer over jsPDF that skips redundant state changes
 * (font, size, colours), draws laid-out lines, paragraphs, cell contents and small tables.
 */
import type { jsPDF } from 'jspdf';
import type { BorderLine } from '../../model/types.js';
import type { DocumentFonts } from '../fonts/embed.js';
import type { Face } from '../fonts/faces.js';
import { parseColor, type Rgb } from '../layout/color.js';
import type { Borders, FieldItem, Item, LaidBlock, LaidCell, LaidParagraph, LaidTable, Line } from '../layout/items.js';
import { drawImage } from './image.js';

/** Page numbers for fields: `pages` is null while the body is still being laid out (drawn later). */
export interface FieldValues {
  page: number;
  pages: number | null;
  /** Called for a field whose value is not known yet, to draw it once it is. */
  defer?: (item: FieldItem, x: number, baseline: number) => void;
}

function sameRgb(a: Rgb, b: Rgb | null): boolean {
  return b !== null && a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
}

function same(a: BorderLine, b: BorderLine): boolean {
  return a === b || (a.width === b.width && a.color === b.color && (a.style ?? 'single') === (b.style ?? 'single'));
}

const TEXT_OPTIONS = { isInputVisual: true, isOutputVisual: true };

export class Painter {
  private face: Face | null = null;
  private size = -1;
  private color: Rgb | null = null;
  private drawColor: Rgb | null = null;
  private lineWidth = -1;

  constructor(
    readonly doc: jsPDF,
    readonly fonts: DocumentFonts,
  ) {}

  /** Forget the cached state (after code that draws behind our back: autotable). */
  invalidate(): void {
    this.face = null;
    this.size = -1;
    this.color = null;
    this.drawColor = null;
    this.lineWidth = -1;
  }

  private stroke(rgb: Rgb, width: number): void {
    if (!sameRgb(rgb, this.drawColor)) {
      this.doc.setDrawColor(rgb[0], rgb[1], rgb[2]);
      this.drawColor = rgb;
    }
    if (width !== this.lineWidth) {
      this.doc.setLineWidth(width);
      this.lineWidth = width;
    }
  }

  private setFont(face: Face, size: number): void {
    if (face !== this.face) {
      const [name, style] = this.fonts.select(face);
      this.doc.setFont(name, style);
      this.face = face;
    }
    if (size !== this.size) {
      this.doc.setFontSize(size);
      this.size = size;
    }
  }

  private setTextColor(rgb: Rgb): void {
    if (!sameRgb(rgb, this.color)) {
      this.doc.setTextColor(rgb[0], rgb[1], rgb[2]);
      this.color = rgb;
    }
  }

  text(text: string, face: Face, size: number, color: Rgb, x: number, baseline: number): void {
    text = this.fonts.drawable(face, text);
    if (!text) return;
    this.setFont(face, size);
    this.setTextColor(color);
    // Input already in visual order and shaped: stop jsPDF's own bidi pass from touching it.
    this.doc.text(text, x, baseline, TEXT_OPTIONS);
  }

  fillRect(x: number, y: number, w: number, h: number, rgb: Rgb): void {
    if (!(w > 0) || !(h > 0)) return;
    this.doc.setFillColor(rgb[0], rgb[1], rgb[2]);
    this.doc.rect(x, y, w, h, 'F');
  }

  rule(x1: number, y1: number, x2: number, y2: number, width: number, rgb: Rgb, style?: BorderLine['style']): void {
    const doc = this.doc;
    if (style === 'double' && width >= 0.75) {
      // Two thin lines, a line's width apart.
      const w = width / 3;
      const dx = y1 === y2 ? 0 : w;
      const dy = y1 === y2 ? w : 0;
      this.stroke(rgb, w);
      doc.line(x1 - dx, y1 - dy, x2 - dx, y2 - dy);
      doc.line(x1 + dx, y1 + dy, x2 + dx, y2 + dy);
      return;
    }
    this.stroke(rgb, width);
    if (style === 'dashed' || style === 'dotted') {
      doc.setLineDashPattern(style === 'dashed' ? [width * 4, width * 2] : [width, width * 1.5], 0);
      doc.line(x1, y1, x2, y2);
      doc.setLineDashPattern([], 0);
    } else {
      doc.line(x1, y1, x2, y2);
    }
  }

  border(b: BorderLine | undefined, x1: number, y1: number, x2: number, y2: number): void {
    if (!b || !(b.width > 0)) return;
    this.rule(x1, y1, x2, y2, b.width, parseColor(b.color) ?? [0, 0, 0], b.style);
  }

  borders(borders: Borders, x: number, y: number, w: number, h: number): void {
    const { top, bottom, left, right } = borders;
    // Four equal plain sides: one rectangle instead of four lines.
    if (top && bottom && left && right && top.width > 0 && (top.style ?? 'single') === 'single' &&
      same(top, bottom) && same(top, left) && same(top, right)) {
      this.stroke(parseColor(top.color) ?? [0, 0, 0], top.width);
      this.doc.rect(x, y, w, h, 'S');
      return;
    }
    this.border(borders.top, x, y, x + w, y);
    this.border(borders.bottom, x, y + h, x + w, y + h);
    this.border(borders.left, x, y, x, y + h);
    this.border(borders.right, x + w, y, x + w, y + h);
  }

  link(x: number, y: number, w: number, h: number, url: string): void {
    if (w > 0 && h > 0) this.doc.link(x, y, w, h, { url });
  }

  // ───────────── lines and blocks ─────────────

  private fieldText(item: FieldItem, fields: FieldValues, x: number, baseline: number): string | null {
    if (item.field === 'page') return String(fields.page);
    if (fields.pages !== null) return String(fields.pages);
    fields.defer?.(item, x, baseline);
    return null;
  }

  /** Draws a field's value (also used for deferred page counts). */
  fieldValue(item: FieldItem, text: string, x: number, baseline: number): void {
    this.text(text, item.face, item.fmt.drawSize, item.fmt.color, x, baseline - item.fmt.rise);
    const w = item.face.width(text, item.fmt.drawSize);
    this.decorate(item.fmt.underline, item.fmt.strike, item.fmt.color, item.fmt.drawSize, x, w, baseline - item.fmt.rise);
  }

  private decorate(underline: boolean, strike: boolean, color: Rgb, size: number, x: number, w: number, baseline: number): void {
    const thickness = Math.max(0.4, size * 0.055);
    if (underline) this.rule(x, baseline + size * 0.12, x + w, baseline + size * 0.12, thickness, color);
    if (strike) this.rule(x, baseline - size * 0.28, x + w, baseline - size * 0.28, thickness, color);
  }

  /** Draws one line with its top-left corner at (x0, top). */
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
        if (!it.space) this.text(it.text, it.face, it.fmt.drawSize, it.fmt.color, x, b);
        this.decorate(it.fmt.underline, it.fmt.strike, it.fmt.color, it.fmt.drawSize, x, it.width, b);
        if (it.fmt.link) this.link(x, top, it.width, lineHeight, it.fmt.link);
        return;
      }
      case 'image':
        drawImage(this.doc, it.image, x, baseline - it.height, it.width, it.height);
        return;
      case 'field': {
        const text = this.fieldText(it, fields, x, baseline);
        if (text !== null) this.fieldValue(it, text, x, baseline);
        return;
      }
      case 'gap': {
        if (!it.leader) return;
        const charW = it.face.width(it.leader, it.fmt.drawSize);
        if (!(charW > 0)) return;
        const count = Math.floor((it.width - charW) / charW);
        if (count < 1) return;
        // Leaders end just before the text the tab aligns.
        this.text(it.leader.repeat(count), it.face, it.fmt.drawSize, it.fmt.color, x + it.width - (count + 0.5) * charW, baseline - it.fmt.rise);
      }
    }
  }

  /** Shading and borders of the part of a paragraph drawn from y to y + h. */
  paragraphBox(p: LaidParagraph, x0: number, y: number, h: number, first: boolean, last: boolean): void {
    const x = x0 + p.boxLeft;
    const w = p.boxRight - p.boxLeft;
    if (p.shading) this.fillRect(x, y, w, h, p.shading);
    if (p.borders) {
      if (first) this.border(p.borders.top, x, y, x + w, y);
      if (last) this.border(p.borders.bottom, x, y + h, x + w, y + h);
      this.border(p.borders.left, x, y, x, y + h);
      this.border(p.borders.right, x + w, y, x + w, y + h);
    }
  }

  /** Draws a paragraph whole (cells, headers, footers); returns the y below it. */
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

  /** Draws blocks one below the other (no page breaks); returns the y below them. */
  stack(blocks: LaidBlock[], x0: number, y: number, fields: FieldValues): number {
    for (const b of blocks) {
      if (b.kind === 'paragraph') y = this.paragraph(b, x0, y, fields);
      else if (b.kind === 'table') y = this.grid(b, x0, y, fields);
    }
    return y;
  }

  /** Draws a cell's background-free content inside the cell rectangle (x, y, w, h). */
  cellContent(cell: LaidCell, x: number, y: number, h: number, fields: FieldValues): void {
    const inner = h - cell.padding.top - cell.padding.bottom;
    let dy = 0;
    if (cell.vAlign === 'middle') dy = Math.max(0, (inner - cell.contentHeight) / 2);
    else if (cell.vAlign === 'bottom') dy = Math.max(0, inner - cell.contentHeight);
    this.stack(cell.blocks, x + cell.padding.left, y + cell.padding.top + dy, fields);
  }

  /** Draws a table that does not break across pages (nested tables, tables in headers and footers). */
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
        this.cellContent(cell, x, rowY[r], h, fields);
        this.borders(cell.borders, x, rowY[r], w, h);
      }
    });
    return yy;
  }
}
