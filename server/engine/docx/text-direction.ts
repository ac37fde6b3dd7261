/**
 * Word's text direction (w:textDirection, ECMA-376 17.18.93 ST_TextDirection) as the turn docloom draws.
 * Transitional writes lrTb, tbRl, btLr, lrTbV, tbRlV, tbLrV; Strict renames the top-to-bottom ones tb and tbV.
 * - btLr: lines run bottom to top, stacked left to right — the text turned 90° counter-clockwise.
 * - tbRl, tbRlV (Strict tb, tbV): lines run top to bottom, stacked right to left — Latin text turned 90°
 *   clockwise (the V form keeps East Asian characters upright, which docloom does not tell apart).
 * - lrTb, lrTbV, tbLrV: drawn horizontally. LibreOffice 7.4 (writerfilter) ignores tbLrV too, and its rendering
 *   is what the corpus measures against (aspose__Rotated_cell_text: "Hola Mundo!" upright in a tbLrV cell).
 */
import type { TableCell } from '../model/types.js';

const TURNS: Record<string, NonNullable<TableCell['textDirection']>> = {
  btLr: 'btLr',
  tbRl: 'tbRl',
  tbRlV: 'tbRl',
  tb: 'tbRl',
  tbV: 'tbRl',
};

export function textDirection(value: string | undefined): TableCell['textDirection'] {
  return value !== undefined && Object.hasOwn(TURNS, value) ? TURNS[value] : undefined;
}
