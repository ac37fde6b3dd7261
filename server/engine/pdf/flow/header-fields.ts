/**
 * Headers and footers that show a page number or count, laid out for each page — but not again for a page whose
 * fields measure as on a page already laid out. A field's text reaches the layout only as the width of its item
 * (layoutParagraph measures it; the emitter draws the page's own text when it paints the item), so the layout is
 * a function of those widths: pages 1–9 of a footer "Page N" share one layout, 10–99 another where the digits are
 * equally wide. A long document's footer was laid out whole again for each of its hundreds of pages.
 *
 * Which fields are measured, with which face and size, is recorded while laying out (LayoutContext.fieldMeasured);
 * a layout is reused when the same measurements made in the same order give the same widths for this page's text.
 * Since a layout makes the same measurements as long as the widths it was given so far are the same, it would
 * lay the part out exactly as before.
 */
import type { Face } from '../fonts/faces.js';
import { layoutStack } from '../layout/blocks.js';
import { ListCounters } from '../layout/lists.js';
import { copyWith } from '../../copy.js';
import type { LayoutContext } from '../layout/paragraph.js';
import type { LaidHeaderFooter } from './section.js';

interface Measure {
  field: 'page' | 'pages';
  face: Face;
  size: number;
}

/** Layouts of one part that made the same measurements, by the widths they got. */
interface Measured {
  measures: Measure[];
  byWidths: Map<string, LaidHeaderFooter>;
}

/** Bounds on what one part keeps (page numbers in a font whose digits differ in width, roman numerals…). */
const MAX_SEQUENCES = 4;
const MAX_LAYOUTS = 64;

export class FieldLayouts {
  /** Per part (of one section) and box (width, picture height): its layouts so far. */
  private readonly kept = new Map<LaidHeaderFooter, Map<string, Measured[]>>();

  /**
   * `part` (holding fields) laid out `width` wide, pictures at most `maxHeight` high, its fields showing
   * `pageText` and `pagesText` — as layoutStack would lay it out with a fresh list counter.
   */
  layout(part: LaidHeaderFooter, ctx: LayoutContext, width: number, maxHeight: number, pageText: string, pagesText: string): LaidHeaderFooter {
    const fieldText = (f: 'page' | 'pages'): string => (f === 'page' ? pageText : pagesText);
    let byBox = this.kept.get(part);
    if (!byBox) {
      byBox = new Map();
      this.kept.set(part, byBox);
    }
    const box = `${width} ${maxHeight}`;
    let sequences = byBox.get(box);
    if (!sequences) {
      sequences = [];
      byBox.set(box, sequences);
    }
    for (const m of sequences) {
      const hit = m.byWidths.get(widthsKey(m.measures, fieldText));
      if (hit) return hit;
    }
    const measures: Measure[] = [];
    const fieldMeasured = (field: 'page' | 'pages', face: Face, size: number): void => void measures.push({ field, face, size });
    const again = layoutStack(part.source, width, copyWith(ctx, { lists: new ListCounters(), fieldText, fieldMeasured, maxImage: { width, height: maxHeight } }));
    const laid = copyWith(part, { blocks: again.blocks, height: again.height });
    let into = sequences.find((m) => sameMeasures(m.measures, measures));
    if (!into) {
      if (sequences.length >= MAX_SEQUENCES) sequences.shift();
      into = { measures, byWidths: new Map() };
      sequences.push(into);
    }
    if (into.byWidths.size >= MAX_LAYOUTS) into.byWidths.clear();
    into.byWidths.set(widthsKey(measures, fieldText), laid);
    return laid;
  }
}

/** The widths the measurements give for this page's texts (exact: a layout is reused only for equal numbers). */
function widthsKey(measures: Measure[], fieldText: (f: 'page' | 'pages') => string): string {
  let key = '';
  for (const m of measures) key += `${m.face.width(fieldText(m.field), m.size)},`;
  return key;
}

function sameMeasures(a: Measure[], b: Measure[]): boolean {
  return a.length === b.length && a.every((m, i) => m.field === b[i].field && m.face === b[i].face && m.size === b[i].size);
}
