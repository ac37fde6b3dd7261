/**
 * Aggregates over a list, as filters (Carbone's aggSum): `sum:"net"` (a path per item; none: the items
 * themselves), `count`, `min`, `max`, `avg`. Missing and null values are skipped; an empty list sums (and
 * counts) to 0 and has no min, max or average; any other non-number is a data error naming list, item and key.
 * Linear in the list.
 */
import { member, round15 } from './values.js';

export type AggregateOp = 'sum' | 'count' | 'min' | 'max' | 'avg';
export const AGGREGATES: readonly AggregateOp[] = ['sum', 'count', 'min', 'max', 'avg'];

export interface AggregateFault {
  /** 0-based item number. */
  item: number;
  key: string;
  value: unknown;
}

export type AggregateResult = { ok: true; value: number | undefined } | { ok: false; fault: AggregateFault };

export function aggregate(op: AggregateOp, list: unknown, path: readonly string[]): AggregateResult {
  if (!Array.isArray(list)) return { ok: true, value: undefined };
  const numbers: number[] = [];
  for (let i = 0; i < list.length; i++) {
    let value: unknown = list[i];
    for (const key of path) value = member(value, key);
    if (value === undefined || value === null) continue;
    if (op === 'count') {
      numbers.push(0);
      continue;
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) return { ok: false, fault: { item: i, key: path.join('.'), value } };
    numbers.push(value);
  }
  switch (op) {
    case 'count':
      return { ok: true, value: numbers.length };
    case 'sum':
      return { ok: true, value: round15(sum(numbers)) };
    case 'avg':
      return { ok: true, value: numbers.length === 0 ? undefined : round15(sum(numbers) / numbers.length) };
    case 'min':
      return { ok: true, value: numbers.length === 0 ? undefined : numbers.reduce((a, b) => (b < a ? b : a)) };
    case 'max':
      return { ok: true, value: numbers.length === 0 ? undefined : numbers.reduce((a, b) => (b > a ? b : a)) };
  }
}

function sum(numbers: number[]): number {
  let total = 0;
  for (const n of numbers) total += n;
  return total;
}
