/**
 * The data object a template expects, derived from its `fields` (CONTRACT.md §4–5):
 * text → string, list/table → array of row objects, image → data: URI or http(s) URL, condition → boolean.
 * A condition's inner fields are looked up in the same scope as the condition (mustache semantics), so they sit
 * beside it in the data. Dotted names (`customer.name`) address nested objects.
 */
import type { TemplateField, TemplateRecord } from '../api/types.js';

export type DataObject = Record<string, unknown>;

export function parseFields(template: Pick<TemplateRecord, 'fields'> | null | undefined): TemplateField[] {
  if (!template?.fields) return [];
  try {
    const parsed: unknown = typeof template.fields === 'string' ? JSON.parse(template.fields) : template.fields;
    return Array.isArray(parsed) ? (parsed as TemplateField[]).filter((f) => f && typeof f.name === 'string') : [];
  } catch {
    return [];
  }
}

function isObject(value: unknown): value is DataObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads a field's value from a scope: the literal key first, then the dotted path. */
export function readValue(scope: DataObject, name: string): unknown {
  if (name in scope) return scope[name];
  if (!name.includes('.')) return undefined;
  let node: unknown = scope;
  for (const part of name.split('.')) {
    if (!isObject(node)) return undefined;
    node = node[part];
  }
  return node;
}

/** Writes a field's value: an existing literal key is kept, otherwise dotted names build nested objects. */
export function writeValue(scope: DataObject, name: string, value: unknown): void {
  if (name in scope || !name.includes('.')) {
    scope[name] = value;
    return;
  }
  const parts = name.split('.');
  let node = scope;
  for (const part of parts.slice(0, -1)) {
    if (!isObject(node[part])) node[part] = {};
    node = node[part] as DataObject;
  }
  node[parts[parts.length - 1]] = value;
}

export function emptyValue(field: TemplateField): unknown {
  switch (field.type) {
    case 'list':
    case 'table':
      return [];
    case 'condition':
      return false;
    default:
      return '';
  }
}

/** `{{#tags}}{{.}}{{/tags}}`: a list of plain values (strings), not of objects. */
export function isPlainList(field: TemplateField): boolean {
  const inner = field.fields ?? [];
  return inner.length > 0 && inner.every((f) => f.name === '.');
}

/** A new row for a list or table: every inner field at its empty value (an empty string for plain lists). */
export function emptyRow(field: TemplateField): DataObject | string {
  if (isPlainList(field)) return '';
  const row: DataObject = {};
  fillMissing(field.fields ?? [], row);
  return row;
}

/** Adds the fields a data object lacks (in place), leaving values already there untouched. */
export function fillMissing(fields: TemplateField[], scope: DataObject): DataObject {
  for (const field of fields) {
    if (readValue(scope, field.name) === undefined) writeValue(scope, field.name, emptyValue(field));
    if (field.type === 'condition' && field.fields) fillMissing(field.fields, scope);
    if ((field.type === 'list' || field.type === 'table') && field.fields && !isPlainList(field)) {
      const rows = readValue(scope, field.name);
      if (Array.isArray(rows)) rows.forEach((row) => isObject(row) && fillMissing(field.fields ?? [], row));
    }
  }
  return scope;
}

/** The starting data for a template: its sample data when it has some, completed with empty values. */
export function initialData(template: TemplateRecord, fields: TemplateField[]): DataObject {
  let sample: unknown = template.sample_data;
  if (typeof sample === 'string') {
    try {
      sample = JSON.parse(sample);
    } catch {
      sample = null;
    }
  }
  // A JSON copy, not structuredClone: the record may be (or hold) a reactive proxy, which cannot be cloned.
  const data: DataObject = isObject(sample) ? (clonePlain(sample) as DataObject) : {};
  return fillMissing(fields, data);
}

/** A deep copy of JSON data (what the editor holds), proxies read through. */
export function clonePlain<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** Text as the editor keeps it: line breaks as `\n` (a pasted `\r\n` or lone `\r` included). */
export function normalizeText(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Removes a key written by `writeValue` (undo of a first write leaves no `undefined` behind). */
export function deleteValue(scope: DataObject, name: string): void {
  if (name in scope || !name.includes('.')) {
    delete scope[name];
    return;
  }
  const parts = name.split('.');
  let node: unknown = scope;
  for (const part of parts.slice(0, -1)) {
    if (!isObject(node)) return;
    node = node[part];
  }
  if (isObject(node)) delete node[parts[parts.length - 1]];
}

function label(path: string[]): string {
  return `“${path.join(' › ')}”`;
}

/** Problems a person can fix, worded for them; an empty list means the data fits the template. */
export function validateData(fields: TemplateField[], data: unknown, path: string[] = []): string[] {
  if (!isObject(data)) return [path.length ? `${label(path)} must be an object.` : 'The data must be a JSON object ({ … }).'];
  const problems: string[] = [];
  for (const field of fields) {
    const value = readValue(data, field.name);
    const where = [...path, field.name];
    if (value === undefined || value === null) continue; // missing values render as empty text
    switch (field.type) {
      case 'text':
        if (typeof value === 'object') problems.push(`${label(where)} should be text, not ${Array.isArray(value) ? 'a list' : 'an object'}.`);
        break;
      case 'image':
        if (typeof value !== 'string') problems.push(`${label(where)} should be an image address (https://… or data:image/…).`);
        else if (value && !/^(data:image\/|https?:\/\/)/i.test(value.trim())) {
          problems.push(`${label(where)} should start with https://, http:// or data:image/.`);
        }
        break;
      case 'condition':
        if (typeof value === 'object' && !isObject(value)) problems.push(`${label(where)} should be true or false.`);
        if (field.fields) problems.push(...validateData(field.fields, data, path));
        break;
      case 'list':
      case 'table':
        if (!Array.isArray(value)) {
          problems.push(`${label(where)} should be a list of rows ([ { … }, … ]).`);
          break;
        }
        if (isPlainList(field)) {
          value.forEach((row, i) => {
            if (typeof row === 'object' && row !== null) problems.push(`${label([...path, `${field.name} row ${i + 1}`])} should be text.`);
          });
          break;
        }
        value.forEach((row, i) => problems.push(...validateData(field.fields ?? [], row, [...path, `${field.name} row ${i + 1}`])));
        break;
    }
  }
  return problems;
}

/** Top-level keys the template does not use (a typo in the JSON view is the usual cause). */
export function unusedKeys(fields: TemplateField[], data: DataObject): string[] {
  const known = new Set<string>();
  const collect = (list: TemplateField[]): void => {
    for (const f of list) {
      known.add(f.name.split('.')[0]);
      if (f.type === 'condition' && f.fields) collect(f.fields);
    }
  };
  collect(fields);
  return Object.keys(data).filter((key) => !known.has(key));
}

/** Whether a list's rows are simple enough to edit as a table grid (every column plain text). */
export function isFlatRow(field: TemplateField): boolean {
  return (field.fields ?? []).length > 0 && (field.fields ?? []).every((f) => f.type === 'text') && !isPlainList(field);
}
