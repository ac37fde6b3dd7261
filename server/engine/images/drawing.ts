/**
 * A vector picture in the model: what an EMF or WMF draws (gdi.ts's display list — filled polygons, stroked
 * polylines, bitmaps), kept as vectors so the PDF painter draws it as paths (sharp at any zoom, no raster to
 * compress). It travels in the model like any picture, as a `data:` URI, with a media type of its own and a JSON
 * body; coordinates are fractions of the picture's box (0..1, y down), so the picture stretches to the size it is
 * shown at. The renderer reads it back through `readDrawing`, which checks every field: a hand-written .json
 * template can carry one too, and bad bytes get the same `invalid_image` error as a damaged PNG.
 */
import { EngineError } from '../errors.js';
import type { Op, Rgba } from './gdi.js';
import { encodePng } from './png-encode.js';
import { toDataUri } from './sniff.js';

export const DRAWING_MIME = 'application/vnd.docloom.drawing+json';

export type DrawingOp =
  | { kind: 'fill'; polys: number[][]; evenOdd: boolean; colour: Rgba }
  | { kind: 'stroke'; lines: { points: number[]; closed: boolean }[]; width: number; colour: Rgba }
  /** A bitmap (a PNG `data:` URI) into the box x, y, w, h (w, h > 0: a mirrored bitmap is stored mirrored). */
  | { kind: 'image'; src: string; x: number; y: number; w: number; h: number }
  /** Text for the text layer only (its glyphs are a fill before it): drawn invisible, stretched to `width`. */
  | { kind: 'text'; chars: string; x: number; baseline: number; size: number; width: number };

export interface Drawing {
  ops: DrawingOp[];
}

/**
 * Points and bitmaps a drawing may hold: past them the picture is refused as too complex to draw. A million points
 * is ~10 MB of JSON in the model and of page content; real charts and equations hold a few thousand.
 */
export const MAX_DRAWING_POINTS = 1_000_000;
export const MAX_DRAWING_IMAGES = 1_000;
/** Characters of text a drawing may carry for its text layer (a dense full-page chart has a few thousand). */
export const MAX_DRAWING_CHARS = 200_000;

/** 1/100,000 of the picture: a 0.07 pt step on a 10-inch-wide picture, and a third of the JSON of full precision. */
const round = (v: number): number => Math.round(v * 1e5) / 1e5;

/** The display list as a drawing (null when it holds too many points or bitmaps to draw). Bitmaps become PNGs here, once. */
export function drawingFromOps(ops: readonly Op[]): Drawing | null {
  const out: DrawingOp[] = [];
  let images = 0;
  let points = 0;
  let chars = 0;
  for (const op of ops) {
    points += op.kind === 'fill' ? op.polys.reduce((n, p) => n + (p.length >> 1), 0) : op.kind === 'stroke' ? op.lines.reduce((n, l) => n + (l.points.length >> 1), 0) : 0;
    if (points > MAX_DRAWING_POINTS) return null;
    if (op.kind === 'fill') out.push({ kind: 'fill', polys: op.polys.map((p) => p.map(round)), evenOdd: op.evenOdd, colour: op.colour });
    else if (op.kind === 'text') {
      // Past the limit the picture still draws; only its text layer stops.
      chars += op.chars.length;
      if (chars <= MAX_DRAWING_CHARS) out.push({ kind: 'text', chars: op.chars, x: round(op.x), baseline: round(op.baseline), size: round(op.size), width: round(op.width) });
    } else if (op.kind === 'stroke') {
      out.push({ kind: 'stroke', lines: op.lines.map((l) => ({ points: l.points.map(round), closed: l.closed })), width: op.width, colour: op.colour });
    } else {
      if (op.w === 0 || op.h === 0 || op.image.width === 0 || op.image.height === 0) continue;
      if (++images > MAX_DRAWING_IMAGES) return null;
      const pixels = upright(op.image.data, op.image.width, op.image.height, op.w < 0, op.h < 0, op.opaque);
      const png = encodePng({ width: op.image.width, height: op.image.height, data: pixels });
      out.push({
        kind: 'image',
        src: toDataUri(png, 'image/png'),
        x: round(Math.min(op.x, op.x + op.w)),
        y: round(Math.min(op.y, op.y + op.h)),
        w: round(Math.abs(op.w)),
        h: round(Math.abs(op.h)),
      });
    }
  }
  return { ops: out };
}

/** The pixels mirrored as the blit asked (negative width or height), alpha ignored for an opaque blit. */
function upright(data: Uint8Array, width: number, height: number, flipX: boolean, flipY: boolean, opaque: boolean): Uint8Array {
  if (!flipX && !flipY && !opaque) return data;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < height; y++) {
    const sy = flipY ? height - 1 - y : y;
    for (let x = 0; x < width; x++) {
      const sx = flipX ? width - 1 - x : x;
      const s = (sy * width + sx) * 4;
      const d = (y * width + x) * 4;
      out[d] = data[s];
      out[d + 1] = data[s + 1];
      out[d + 2] = data[s + 2];
      out[d + 3] = opaque ? 255 : data[s + 3];
    }
  }
  return out;
}

export function encodeDrawing(drawing: Drawing): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(drawing));
}

function bad(why: string): never {
  throw new EngineError('invalid_image', `The vector picture is damaged: ${why}.`);
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function colour(v: unknown): Rgba {
  if (!Array.isArray(v) || v.length !== 4 || !v.every((c) => finite(c) && c >= 0 && c <= 255)) bad('a colour is not 4 numbers 0–255');
  return [v[0], v[1], v[2], v[3]];
}

function points(v: unknown, budget: { left: number }): number[] {
  if (!Array.isArray(v) || v.length % 2 !== 0 || !v.every(finite)) bad('a polygon is not an even list of numbers');
  budget.left -= v.length >> 1;
  if (budget.left < 0) bad(`more than ${MAX_DRAWING_POINTS} points`);
  return v as number[];
}

/** Reads and checks a drawing's bytes (the body of its data: URI); throws EngineError invalid_image. */
export function readDrawing(bytes: Uint8Array): Drawing {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    bad('not JSON');
  }
  const ops = (parsed as { ops?: unknown })?.ops;
  if (!Array.isArray(ops)) bad('no list of operations');
  const budget = { left: MAX_DRAWING_POINTS };
  let images = 0;
  let chars = MAX_DRAWING_CHARS;
  const out: DrawingOp[] = ops.map((raw: unknown): DrawingOp => {
    const op = raw as Record<string, unknown>;
    switch (op?.kind) {
      case 'fill':
        if (!Array.isArray(op.polys)) bad('a fill has no polygons');
        return { kind: 'fill', polys: op.polys.map((p) => points(p, budget)), evenOdd: op.evenOdd === true, colour: colour(op.colour) };
      case 'stroke':
        if (!Array.isArray(op.lines) || !finite(op.width) || op.width < 0) bad('a stroke has no lines or no width');
        return {
          kind: 'stroke',
          lines: op.lines.map((l: { points?: unknown; closed?: unknown }) => ({ points: points(l?.points, budget), closed: l?.closed === true })),
          width: op.width,
          colour: colour(op.colour),
        };
      case 'text':
        if (typeof op.chars !== 'string' || ![op.x, op.baseline, op.size, op.width].every(finite) || !((op.size as number) > 0) || (op.width as number) < 0) {
          bad('a text has no characters or no box');
        }
        chars -= op.chars.length;
        if (chars < 0) bad(`more than ${MAX_DRAWING_CHARS} characters of text`);
        return { kind: 'text', chars: op.chars, x: op.x as number, baseline: op.baseline as number, size: op.size as number, width: op.width as number };
      case 'image':
        if (++images > MAX_DRAWING_IMAGES) bad(`more than ${MAX_DRAWING_IMAGES} bitmaps`);
        if (typeof op.src !== 'string' || !op.src.startsWith('data:image/png;base64,')) bad('a bitmap is not a PNG data: URI');
        if (![op.x, op.y, op.w, op.h].every(finite) || !((op.w as number) > 0) || !((op.h as number) > 0)) bad('a bitmap has no box');
        return { kind: 'image', src: op.src, x: op.x as number, y: op.y as number, w: op.w as number, h: op.h as number };
      default:
        return bad('an operation of no known kind');
    }
  });
  return { ops: out };
}
