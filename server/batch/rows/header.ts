/**
 * Header names → data paths (docs/batch.md, "Headers"). `recipient` fills `data.recipient`; a dotted name
 * (`instructor.name`) fills a nested object; a whole-number segment (`items.0.description`) is a list index. The
 * header is checked as a whole before any row is read, so a name that cannot be a path, two names for one field,
 * or a field that would be both a value and an object (`a` beside `a.b`) is one 422 naming the column.
 */
import { RowsError } from './errors.js';
import { cellValue } from './cells.js';

/** A segment: a key, or a list index. */
export type Segment = string | number;

export interface Column {
  /** 1-based, as in the file. */
  index: number;
  name: string;
  path: Segment[];
}

/** Highest list index a header may name: `items.99999999` must not make a list of a hundred million holes. */
export const MAX_INDEX = 9_999;
/** Segments per path (the data's depth limit is far above this; a deeper header is almost certainly a mistake). */
const MAX_DEPTH = 16;
/** Names the JSON data model cannot hold safely as plain keys. */
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Checks the header and returns the columns that carry data. A column whose header is blank is left out (the
 * trailing empty columns spreadsheets export); its cells are ignored.
 */
export function parseHeader(names: readonly string[]): Column[] {
  const columns: Column[] = [];
  const seen = new Map<string, Column>();
  names.forEach((raw, i) => {
    const name = raw.trim();
    if (name === '') return;
    const column = { index: i + 1, name };
    const parts = name.split('.').map((s) => s.trim());
    if (parts.some((p) => p === '')) {
      throw new RowsError('rows_header', `"${name}" is not a valid field path: a dot must sit between two names (like instructor.name).`, 0, column);
    }
    if (parts.length > MAX_DEPTH) throw new RowsError('rows_header', `"${name}" nests more than ${MAX_DEPTH} levels.`, 0, column);
    const path: Segment[] = parts.map((p) => {
      if (FORBIDDEN.has(p)) throw new RowsError('rows_header', `"${p}" cannot be a field name.`, 0, column);
      if (/^\d+$/.test(p)) {
        const n = Number(p);
        if (n > MAX_INDEX) throw new RowsError('rows_header', `the list index ${p} is over ${MAX_INDEX}.`, 0, column);
        return n;
      }
      return p;
    });
    const key = path.join('.');
    const twin = seen.get(key);
    if (twin) throw new RowsError('rows_header', `"${name}" fills the same field as column ${twin.index} ("${twin.name}").`, 0, column);
    const full: Column = { ...column, path };
    seen.set(key, full);
    columns.push(full);
  });
  checkShapes(columns);
  return columns;
}

/** A field that is a value in one column and an object or list in another, or an object in one and a list in another. */
function checkShapes(columns: Column[]): void {
  // Every proper prefix of a path is a container: an object (next segment a name) or a list (next a number).
  const containers = new Map<string, { list: boolean; column: Column }>();
  for (const column of columns) {
    for (let i = 1; i < column.path.length; i++) {
      const prefix = column.path.slice(0, i).join('.');
      const list = typeof column.path[i] === 'number';
      const before = containers.get(prefix);
      if (before && before.list !== list) {
        throw new RowsError('rows_header', `"${prefix}" is a list in column ${before.column.index} ("${before.column.name}") but an object here.`, 0, column);
      }
      if (!before) containers.set(prefix, { list, column });
    }
  }
  for (const column of columns) {
    const other = containers.get(column.path.join('.'));
    if (other) throw new RowsError('rows_header', `"${column.name}" is a value here but holds fields in column ${other.column.index} ("${other.column.name}").`, 0, column);
  }
}

type Container = Record<string, unknown> | unknown[];

/**
 * One row's cells → its data object. Cells follow cells.ts; list items left empty are dropped and the list closed
 * up (a row with two of three items gives a list of two), and a list or object left with nothing is left out.
 */
export function buildRow(columns: readonly Column[], cells: readonly (string | boolean | undefined)[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  let lists = false;
  for (const column of columns) {
    const raw = cells[column.index - 1];
    const value = typeof raw === 'string' ? cellValue(raw) : raw;
    if (value === undefined) continue;
    let node: Container = data;
    for (let i = 0; i < column.path.length - 1; i++) {
      const seg = column.path[i];
      const nextIsList = typeof column.path[i + 1] === 'number';
      let child = (node as Record<string | number, unknown>)[seg] as Container | undefined;
      if (child === undefined) {
        child = nextIsList ? [] : {};
        lists ||= nextIsList;
        (node as Record<string | number, unknown>)[seg] = child;
      }
      node = child;
    }
    (node as Record<string | number, unknown>)[column.path[column.path.length - 1]] = value;
  }
  return lists ? (compact(data) as Record<string, unknown>) : data;
}

/** Closes up the holes empty cells left in lists. */
function compact(value: unknown): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    // forEach skips holes.
    value.forEach((v) => out.push(compact(v)));
    return out;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) (value as Record<string, unknown>)[k] = compact(v);
  }
  return value;
}
