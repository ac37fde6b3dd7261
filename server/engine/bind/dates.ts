/**
 * The `date` filter: reads ISO 8601 dates (the wall-clock time as written, offset kept for Z/ZZ) and Unix
 * timestamps (seconds or milliseconds, shown in UTC), then writes them with dayjs's format tokens. Month and
 * weekday names come from Intl in the document's locale, so every locale works without loading locale files.
 */
import type { DatePart } from '../tags/types.js';

interface WallClock {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** Minutes east of UTC, when the value carried an offset (or was a timestamp: 0). */
  offset: number | null;
  weekday: number; // 0 = Sunday
  /** The same calendar moment as a UTC Date, for Intl's month and weekday names. */
  utc: Date;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const DIGITS_ONLY = /^-?\d{1,16}$/;
/** Below this a timestamp is taken as seconds (1e11 s is the year 5138; 1e11 ms is March 1973). */
const SECONDS_CUTOFF = 1e11;

function fromUtcMillis(ms: number): WallClock | null {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return null;
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
    offset: 0,
    weekday: d.getUTCDay(),
    utc: d,
  };
}

function parseOffset(text: string | undefined): number | null {
  if (!text) return null;
  if (text === 'Z' || text === 'z') return 0;
  const sign = text[0] === '-' ? -1 : 1;
  const digits = text.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  return sign * (hours * 60 + minutes);
}

/** The date a value stands for, or null when it is not one. */
export function readDate(value: unknown): WallClock | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    return fromUtcMillis(Math.abs(value) < SECONDS_CUTOFF ? value * 1000 : value);
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (DIGITS_ONLY.test(text)) return readDate(Number(text));
  const m = ISO.exec(text);
  if (m) {
    const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
    const millisecond = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
    const utc = new Date(Date.UTC(year, month - 1, day, hour, minute, second, millisecond));
    // Reject 2026-02-30 and the like rather than rolling over into March.
    if (utc.getUTCMonth() !== month - 1 || utc.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return null;
    return { year, month, day, hour, minute, second, millisecond, offset: parseOffset(m[8]), weekday: utc.getUTCDay(), utc };
  }
  // Anything else JavaScript reads as a date ("22 Nov 2026", RFC 2822): take its local wall-clock time.
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return null;
  const d = new Date(ms);
  return {
    year: d.getFullYear(),
    month: d.getMonth() + 1,
    day: d.getDate(),
    hour: d.getHours(),
    minute: d.getMinutes(),
    second: d.getSeconds(),
    millisecond: d.getMilliseconds(),
    offset: null,
    weekday: d.getDay(),
    utc: new Date(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate(), 12)),
  };
}

const PRESETS = {
  month: { month: 'long' },
  monthShort: { month: 'short' },
  dayMonth: { day: 'numeric', month: 'long' },
  dayMonthShort: { day: 'numeric', month: 'short' },
  weekday: { weekday: 'long' },
  weekdayShort: { weekday: 'short' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;
type Preset = keyof typeof PRESETS;

/** Intl formatters are costly to create: one per locale and preset, kept for the life of the process. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function part(locale: string, preset: Preset, date: Date, type: Intl.DateTimeFormatPartTypes): string {
  const key = `${locale}\u0000${preset}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { ...PRESETS[preset], timeZone: 'UTC' });
    formatters.set(key, f);
  }
  for (const p of f.formatToParts(date)) if (p.type === type) return p.value;
  return '';
}

function monthName(clock: WallClock, locale: string, long: boolean, withDay: boolean): string {
  // With a day in the format, take the month from "day month" (Russian "ноября", Polish "listopada"), else standalone.
  const preset: Preset = withDay ? (long ? 'dayMonth' : 'dayMonthShort') : long ? 'month' : 'monthShort';
  return part(locale, preset, clock.utc, 'month');
}

function pad(n: number, width = 2): string {
  return String(Math.abs(n)).padStart(width, '0');
}

function offsetText(offset: number | null, colon: boolean): string {
  const minutes = offset ?? 0;
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}${colon ? ':' : ''}${pad(abs % 60)}`;
}

/** Formats a value as a date; values that are not dates come back as they were (as text). */
export function formatDate(value: unknown, parts: DatePart[], withDay: boolean, locale: string): string | null {
  const clock = readDate(value);
  if (!clock) return null;
  let out = '';
  for (const p of parts) {
    if ('lit' in p) {
      out += p.lit;
      continue;
    }
    switch (p.tok) {
      case 'YYYY': out += clock.year < 0 ? `-${pad(clock.year, 4)}` : pad(clock.year, 4); break;
      case 'YY': out += pad(clock.year % 100); break;
      case 'M': out += String(clock.month); break;
      case 'MM': out += pad(clock.month); break;
      case 'MMM': out += monthName(clock, locale, false, withDay); break;
      case 'MMMM': out += monthName(clock, locale, true, withDay); break;
      case 'D': out += String(clock.day); break;
      case 'DD': out += pad(clock.day); break;
      case 'd': out += String(clock.weekday); break;
      case 'dd': out += part(locale, 'weekdayShort', clock.utc, 'weekday').slice(0, 2); break;
      case 'ddd': out += part(locale, 'weekdayShort', clock.utc, 'weekday'); break;
      case 'dddd': out += part(locale, 'weekday', clock.utc, 'weekday'); break;
      case 'H': out += String(clock.hour); break;
      case 'HH': out += pad(clock.hour); break;
      case 'h': out += String(clock.hour % 12 || 12); break;
      case 'hh': out += pad(clock.hour % 12 || 12); break;
      case 'm': out += String(clock.minute); break;
      case 'mm': out += pad(clock.minute); break;
      case 's': out += String(clock.second); break;
      case 'ss': out += pad(clock.second); break;
      case 'SSS': out += pad(clock.millisecond, 3); break;
      case 'Z': out += offsetText(clock.offset, true); break;
      case 'ZZ': out += offsetText(clock.offset, false); break;
      case 'A': out += clock.hour < 12 ? 'AM' : 'PM'; break;
      case 'a': out += clock.hour < 12 ? 'am' : 'pm'; break;
    }
  }
  return out;
}
