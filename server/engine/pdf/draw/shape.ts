/** Paints a floating object's preset shape (flow/boxes.ts ShapeBox) with jsPDF's path operations. */
import type { jsPDF } from 'jspdf';
import type { ShapeBox } from '../flow/boxes.js';

/** An arrowhead's length per point of line width (Word's "medium" head), at least this many points. */
const HEAD_PER_WIDTH = 4;
const MIN_HEAD = 4;

function arrowhead(doc: jsPDF, fromX: number, fromY: number, tipX: number, tipY: number, width: number): void {
  const len = Math.hypot(tipX - fromX, tipY - fromY);
  if (!(len > 0)) return;
  const size = Math.min(len / 2, Math.max(MIN_HEAD, width * HEAD_PER_WIDTH));
  const ux = (tipX - fromX) / len;
  const uy = (tipY - fromY) / len;
  const bx = tipX - ux * size;
  const by = tipY - uy * size;
  const half = size / 2;
  doc.triangle(tipX, tipY, bx - uy * half, by + ux * half, bx + uy * half, by - ux * half, 'F');
}

export function drawShape(doc: jsPDF, b: ShapeBox): void {
  const stroke = b.stroke;
  if (b.fill) doc.setFillColor(b.fill[0], b.fill[1], b.fill[2]);
  if (stroke) {
    doc.setDrawColor(stroke.color[0], stroke.color[1], stroke.color[2]);
    doc.setLineWidth(stroke.width);
    if (stroke.dash) doc.setLineDashPattern(stroke.dash, 0);
  }
  const style = b.fill && stroke ? 'FD' : b.fill ? 'F' : 'S';
  const { x, y, w, h } = b;
  switch (b.geometry) {
    case 'line': {
      if (!stroke) break;
      const [x1, y1, x2, y2] = b.flip ? [x, y + h, x + w, y] : [x, y, x + w, y + h];
      doc.line(x1, y1, x2, y2);
      if (stroke.dash) doc.setLineDashPattern([], 0);
      if (b.head || b.tail) doc.setFillColor(stroke.color[0], stroke.color[1], stroke.color[2]);
      if (b.head) arrowhead(doc, x2, y2, x1, y1, stroke.width);
      if (b.tail) arrowhead(doc, x1, y1, x2, y2, stroke.width);
      return;
    }
    case 'ellipse':
      doc.ellipse(x + w / 2, y + h / 2, w / 2, h / 2, style);
      break;
    case 'roundRect': {
      const r = Math.min(w, h) * 0.1667;
      doc.roundedRect(x, y, w, h, r, r, style);
      break;
    }
    case 'triangle':
      doc.triangle(x + w / 2, y, x + w, y + h, x, y + h, style);
      break;
    case 'diamond':
      doc.lines([[w / 2, h / 2], [-w / 2, h / 2], [-w / 2, -h / 2], [w / 2, -h / 2]], x + w / 2, y, [1, 1], style, true);
      break;
    case 'rightArrow':
    case 'leftArrow':
    case 'homePlate':
    case 'chevron':
      polygon(doc, arrowPoints(b.geometry, x, y, w, h), style);
      break;
    case 'wedgeRectCallout':
      polygon(doc, calloutPoints(x, y, w, h, b.tip ?? [-0.20833, 0.625]), style);
      break;
    default:
      doc.rect(x, y, w, h, style);
  }
  if (stroke?.dash) doc.setLineDashPattern([], 0);
}

/** A closed polygon through `points` (absolute x, y pairs). */
function polygon(doc: jsPDF, points: Array<[number, number]>, style: string): void {
  const [first, ...rest] = points;
  const steps: Array<[number, number]> = rest.map(([px, py], i) => [px - points[i][0], py - points[i][1]]);
  doc.lines(steps, first[0], first[1], [1, 1], style, true);
}

/**
 * The outline of a block arrow in its box, with DrawingML's default adjustments (ECMA-376 presetShapeDefinitions):
 * an arrow's shaft half the box's height and its head as long as half the shorter side; a pentagon's (homePlate)
 * and a chevron's point as deep as half the shorter side.
 */
function arrowPoints(geometry: 'rightArrow' | 'leftArrow' | 'homePlate' | 'chevron', x: number, y: number, w: number, h: number): Array<[number, number]> {
  const head = Math.min(w, h) / 2;
  const mid = y + h / 2;
  switch (geometry) {
    case 'rightArrow':
      return [[x, mid - h / 4], [x + w - head, mid - h / 4], [x + w - head, y], [x + w, mid], [x + w - head, y + h], [x + w - head, mid + h / 4], [x, mid + h / 4]];
    case 'leftArrow':
      return [[x + w, mid - h / 4], [x + head, mid - h / 4], [x + head, y], [x, mid], [x + head, y + h], [x + head, mid + h / 4], [x + w, mid + h / 4]];
    case 'homePlate':
      return [[x, y], [x + w - head, y], [x + w, mid], [x + w - head, y + h], [x, y + h]];
    case 'chevron':
      return [[x, y], [x + w - head, y], [x + w, mid], [x + w - head, y + h], [x, y + h], [x + head, mid]];
  }
}

/**
 * A rectangular callout's outline (ECMA-376 presetShapeDefinitions, wedgeRectCallout): the rectangle, with a wedge
 * from one side out to the tip at `tip` (shares of the box from its centre). The wedge leaves the side the tip lies
 * beyond — left or right when it is further out across than down, relative to the box's proportions, else top or
 * bottom — between 7/12 and 10/12 of that side when the tip lies toward its far end (right, or down), else between
 * 2/12 and 5/12.
 */
export function calloutPoints(x: number, y: number, w: number, h: number, tip: [number, number]): Array<[number, number]> {
  const dx = w * tip[0];
  const dy = h * tip[1];
  const tx = x + w / 2 + dx;
  const ty = y + h / 2 + dy;
  const across = Math.abs(dy) - Math.abs((dx * h) / w) <= 0;
  const x1 = x + (w * (dx > 0 ? 7 : 2)) / 12;
  const x2 = x + (w * (dx > 0 ? 10 : 5)) / 12;
  const y1 = y + (h * (dy > 0 ? 7 : 2)) / 12;
  const y2 = y + (h * (dy > 0 ? 10 : 5)) / 12;
  const r = x + w;
  const b = y + h;
  // Each side's middle point: the tip on the side it leaves, else a point on the side itself.
  const top: [number, number] = !across && dy <= 0 ? [tx, ty] : [x1, y];
  const right: [number, number] = across && dx > 0 ? [tx, ty] : [r, y1];
  const bottom: [number, number] = !across && dy > 0 ? [tx, ty] : [x1, b];
  const left: [number, number] = across && dx <= 0 ? [tx, ty] : [x, y1];
  return [[x, y], [x1, y], top, [x2, y], [r, y], [r, y1], right, [r, y2], [r, b], [x2, b], bottom, [x1, b], [x, b], [x, y2], left, [x, y1]];
}
