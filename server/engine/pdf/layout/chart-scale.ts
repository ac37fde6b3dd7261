/**
 * Value axes of charts: automatic bounds and major unit as Office and LibreOffice choose them, and numbers written
 * by the simple Excel format codes charts carry ('General', '0', '0.0', '#,##0.00', '0%', '"$"#,##0', …).
 *
 * The automatic scale (LibreOffice's chart2 ScaleAutomatism, which follows Excel's documented rule for the bounds):
 * - values all on one side of zero reach zero when the nearest is under 5/6 of the farthest (or all are equal);
 *   else the end nearer zero moves half their spread toward zero (value axes only, not a scatter chart's x axis);
 * - the major unit is the smallest 1, 2 or 5 × 10^n that cuts the span into at most N intervals, N being 10, or
 *   fewer when the axis is too short for 10 labels (its length over one label's height, or width on a
 *   horizontal axis; at least 2);
 * - automatic ends are rounded out to whole units (counted from zero, or from the author's fixed end), and a value
 *   within 1/21 of the axis's span from an automatic end gets one more unit there (2-D charts, not percent axes);
 *   when that makes more than N intervals the next larger unit is tried.
 * The author's c:min, c:max and c:majorUnit win (a fixed unit giving more than 500 intervals is ignored).
 */

export interface Scale {
  min: number;
  max: number;
  step: number;
  /** The major tick values from min to max. */
  ticks: number[];
}

/** Which of the automatic widenings an axis gets (see above). */
export interface ScaleRules {
  /** Values on one side of zero: reach zero when spread wide, else move half the spread toward it (value axes). */
  towardZero: boolean;
  /** One more unit at an automatic end a value comes within 1/21 of the span of (2-D charts, not percent axes). */
  roomAtEnds: boolean;
}

/** The axis's length and how much of it one label takes (its height, or its width on a horizontal axis). */
export interface ScaleRoom {
  length: number;
  label: (scale: Scale) => number;
}

const MAX_AUTO_INTERVALS = 10;
const MAX_FIXED_INTERVALS = 500;

/** x rounded to 15 significant digits, so 0.1 × 3 counts as 0.3 when rounding to whole units. */
const tidy = (x: number): number => (x === 0 || !Number.isFinite(x) ? x : Number(x.toPrecision(15)));

/**
 * The scale for values from `lo` to `hi`; `fixed` are the author's c:min, c:max and c:majorUnit. With `room` the
 * scale is chosen twice, as LibreOffice does: with up to 10 intervals, then with as many as labels of that first
 * scale fit along the axis.
 */
export function valueScale(lo: number, hi: number, fixed: { min?: number; max?: number; majorUnit?: number }, rules: ScaleRules, room?: ScaleRoom): Scale {
  const first = autoScale(lo, hi, fixed, rules, MAX_AUTO_INTERVALS);
  if (!room) return first;
  const label = room.label(first);
  if (!(label > 0) || !(room.length > 0)) return first;
  const fit = Math.max(2, Math.min(MAX_AUTO_INTERVALS, Math.floor(room.length / label)));
  return fit === MAX_AUTO_INTERVALS ? first : autoScale(lo, hi, fixed, rules, fit);
}

function autoScale(lo: number, hi: number, fixed: { min?: number; max?: number; majorUnit?: number }, rules: ScaleRules, maxIntervals: number): Scale {
  let autoMin = fixed.min === undefined || !Number.isFinite(fixed.min);
  let autoMax = fixed.max === undefined || !Number.isFinite(fixed.max);
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || lo > hi) [lo, hi] = [0, 10];
  let min = autoMin ? lo : (fixed.min as number);
  let max = autoMax ? hi : (fixed.max as number);
  if (min > max) {
    if (autoMax || !autoMin) max = min;
    else min = max;
  }
  // All at or below zero: work on the mirror image (so [-5, -2] is scaled as [2, 5]) and mirror back at the end.
  const mirrored = min < 0 && max <= 0;
  if (mirrored) {
    [min, max] = [-max, -min];
    [autoMin, autoMax] = [autoMax, autoMin];
  }
  const dataMin = min;
  const dataMax = max;
  if (autoMin && min > 0 && rules.towardZero) {
    if (min === max || min / max < 5 / 6) min = 0;
    else min -= (max - min) / 2;
  }
  if (min === max) {
    if (autoMax || !autoMin) max = max === 0 ? 1 : max * 2;
    else min = min === 0 ? -1 : min / 2;
  }
  // Units are counted from zero, or from the end the author fixed.
  const base = !autoMin ? min : !autoMax ? max : 0;
  const unit = fixed.majorUnit;
  let autoStep = !(unit !== undefined && unit > 0 && Number.isFinite(unit));
  const limit = autoStep ? maxIntervals : MAX_FIXED_INTERVALS;
  let step = autoStep ? 1 : (unit as number);
  let mantissa = 0;
  let magnitude = 1;
  let low = min;
  let high = max;
  for (let attempt = 0; attempt < 1000; attempt++) {
    if (autoStep) {
      if (mantissa === 0) {
        const rough = (max - min) / limit;
        magnitude = Math.pow(10, Math.floor(Math.log10(tidy(rough))));
        const f = rough / magnitude;
        if (f <= 1) mantissa = 1;
        else if (f <= 2) mantissa = 2;
        else if (f <= 5) mantissa = 5;
        else [mantissa, magnitude] = [1, magnitude * 10];
      } else if (mantissa === 1) mantissa = 2;
      else if (mantissa === 2) mantissa = 5;
      else [mantissa, magnitude] = [1, magnitude * 10];
      step = mantissa * magnitude;
    }
    low = min;
    high = max;
    if (autoMin) {
      low = base + Math.floor(tidy((low - base) / step)) * step;
      if (rules.roomAtEnds && low !== 0 && (high - dataMin) / (high - low) > 20 / 21) low -= step;
    }
    if (autoMax) {
      high = base + Math.ceil(tidy((high - base) / step)) * step;
      if (rules.roomAtEnds && high !== 0 && (dataMax - low) / (high - low) > 20 / 21) high += step;
    }
    if (Math.floor(tidy((high - low) / step)) <= limit) break;
    autoStep = true;
  }
  if (mirrored) [low, high] = [-high, -low];
  low = tidy(low) + 0; // + 0: no "-0" label
  high = tidy(high) + 0;
  const ticks: number[] = [];
  const startBase = mirrored ? -base : base;
  const first = Math.ceil(tidy((low - startBase) / step));
  for (let k = first, i = 0; i <= MAX_FIXED_INTERVALS + 1; k++, i++) {
    const v = tidy(startBase + k * step) + 0;
    if (v > high + step * 1e-9) break;
    ticks.push(v);
  }
  return { min: low, max: high > low ? high : low + step, step, ticks };
}

/** `value` written with an Excel number format (only the parts charts use; anything else as General). */
export function formatNumber(value: number, format: string | undefined): string {
  if (!Number.isFinite(value)) return '';
  const section = (format ?? 'General').split(';')[value < 0 && (format ?? '').includes(';') ? 1 : 0] ?? '';
  const code = section.replace(/\[[^\]]*\]/g, '');
  const m = /(#,##)?0+(?:\.(0+))?/.exec(code);
  if (!m || /^general$/i.test(code.trim())) return general(value);
  const percent = code.includes('%');
  const v = percent ? value * 100 : value;
  const decimals = m[2]?.length ?? 0;
  let body = Math.abs(v).toFixed(decimals);
  if (m[1]) {
    const [int, frac] = body.split('.');
    body = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (frac ? `.${frac}` : '');
  }
  const literal = (s: string): string => s.replace(/"([^"]*)"/g, '$1').replace(/\\(.)/g, '$1').replace(/[_*]./g, '').replace(/[#0?,.%]/g, '');
  const prefix = literal(code.slice(0, m.index));
  const suffix = literal(code.slice(m.index + m[0].length));
  const sign = v < 0 && !(format ?? '').includes(';') && Number(body.replace(/,/g, '')) !== 0 ? '-' : '';
  return `${sign}${prefix}${body}${suffix}${percent ? '%' : ''}`;
}

/** General: the shortest form, up to 10 significant digits. */
function general(value: number): string {
  const rounded = Number(value.toPrecision(10));
  const text = String(rounded);
  return /e/i.test(text) ? rounded.toExponential(2).replace('e+', 'E+') : text;
}
