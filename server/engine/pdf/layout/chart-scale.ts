/**
 * Value axes of charts: Office-like automatic bounds and major unit (1, 2 or 5 × a power of ten; zero kept in
 * view when the values are all on one side of it and not far from it), and numbers written by the simple Excel
 * format codes charts carry ('General', '0', '0.0', '#,##0.00', '0%', '"$"#,##0', …).
 */

export interface Scale {
  min: number;
  max: number;
  step: number;
  /** The major tick values from min to max. */
  ticks: number[];
}

function niceStep(rough: number): number {
  if (!(rough > 0) || !Number.isFinite(rough)) return 1;
  const power = Math.pow(10, Math.floor(Math.log10(rough)));
  const f = rough / power;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power;
}

/**
 * Bounds for values from `lo` to `hi` on an axis `length` points long; `fixed` are the author's c:min, c:max
 * and c:majorUnit. `withZero`: bars and areas grow from zero, so zero is always in view. `across`: the axis runs
 * horizontally (its labels stand side by side).
 */
export function valueScale(lo: number, hi: number, length: number, fixed: { min?: number; max?: number; majorUnit?: number }, withZero: boolean, across = false): Scale {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) {
    lo = 0;
    hi = 1;
  }
  if (withZero || (lo > 0 && lo < hi * 5 / 6) || (hi < 0 && hi > lo * 5 / 6)) {
    lo = Math.min(lo, 0);
    hi = Math.max(hi, 0);
  }
  if (fixed.min !== undefined) lo = fixed.min;
  if (fixed.max !== undefined) hi = fixed.max;
  if (hi <= lo) hi = lo + (lo === 0 ? 1 : Math.abs(lo));
  // Office keeps major gridlines about 30 pt apart on a vertical axis; labels side by side need more room.
  const intervals = Math.max(2, Math.min(10, Math.floor(length / (across ? 50 : 30))));
  const step = fixed.majorUnit && fixed.majorUnit > 0 && (hi - lo) / fixed.majorUnit <= 1000 ? fixed.majorUnit : niceStep((hi - lo) / intervals);
  // Some headroom above the largest value, as Office leaves (a value on a gridline gets one more step).
  const min = fixed.min !== undefined ? fixed.min : lo < 0 ? Math.floor((lo - (hi - lo) * 0.05) / step) * step : Math.floor(lo / step) * step;
  const max = fixed.max !== undefined ? fixed.max : hi > 0 ? Math.ceil((hi + (hi - lo) * 0.05) / step) * step : Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  for (let v = min, i = 0; v <= max + step * 1e-9 && i <= 1000; i++, v = min + i * step) ticks.push(Number(v.toPrecision(12)));
  return { min, max: max > min ? max : min + step, step, ticks };
}

/** `value` written with an Excel number format (only the parts charts use; anything else as General). */
export function formatNumber(value: number, format: string | undefined, decimalsOfStep = 0): string {
  if (!Number.isFinite(value)) return '';
  const section = (format ?? 'General').split(';')[value < 0 && (format ?? '').includes(';') ? 1 : 0] ?? '';
  const code = section.replace(/\[[^\]]*\]/g, '');
  const m = /(#,##)?0+(?:\.(0+))?/.exec(code);
  if (!m || /^general$/i.test(code.trim())) return general(value, decimalsOfStep);
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

/** General: the shortest form, up to 10 significant digits (at least the axis step's decimals). */
function general(value: number, decimals: number): string {
  const rounded = Number(value.toPrecision(10));
  const text = decimals > 0 ? rounded.toFixed(decimals) : String(rounded);
  return /e/i.test(text) ? rounded.toExponential(2).replace('e+', 'E+') : text;
}

/** How many decimals a step needs (0.25 → 2). */
export function decimalsOf(step: number): number {
  const text = String(Number(step.toPrecision(10)));
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}
