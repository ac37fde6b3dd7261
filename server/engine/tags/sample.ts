/**
 * A plausible data object for a template's fields: what the GUI pre-fills and the template record shows as
 * `sample_data`. Text is the field's name in words, lists and tables get two items, images a tiny real PNG,
 * conditions `true`. Dotted names (`customer.name`) become nested objects.
 */
import type { Field } from '../model/types.js';
import { nameInWords } from './words.js';

/** A 2×2 grey PNG: small, but a real image every renderer accepts. */
export const SAMPLE_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAADklEQVR4nGNYAAYMEAoANI4HgeaUuX0AAAAASUVORK5CYII=';

const SAMPLE_ITEMS = 2;
/**
 * Lists nested deeper than this get one sample item each, not two: two per level would double the sample with
 * every level (a template may nest sections 100 deep).
 */
const DOUBLED_LEVELS = 4;

export function sampleData(fields: Field[]): Record<string, unknown> {
  return sampleObject(fields, null, 0);
}

function sampleObject(fields: Field[], item: number | null, level: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.name === '.') continue;
    setPath(out, field.name, sampleValue(field, item, level));
  }
  return out;
}

function sampleValue(field: Field, item: number | null, level: number): unknown {
  switch (field.type) {
    case 'text':
      return item === null ? nameInWords(field.name) : `${nameInWords(field.name)} ${item + 1}`;
    case 'image':
      return SAMPLE_PNG;
    case 'condition':
      return true;
    case 'list':
    case 'table': {
      const nested = field.fields ?? [];
      const plain = nested.length > 0 && nested.every((f) => f.name === '.');
      return Array.from({ length: level < DOUBLED_LEVELS ? SAMPLE_ITEMS : 1 }, (_, i) =>
        plain ? `${nameInWords(field.name)} ${i + 1}` : sampleObject(nested, i, level + 1),
      );
    }
  }
}

/** Writes `customer.name` as { customer: { name } }, unless `customer` already holds something else. */
function setPath(target: Record<string, unknown>, name: string, value: unknown): void {
  const path = name.split('.').filter((p) => p !== '');
  if (path.length <= 1) {
    if (!(name in target)) target[name] = value;
    return;
  }
  let node: Record<string, unknown> = target;
  for (let i = 0; i < path.length - 1; i++) {
    const next = node[path[i]];
    if (next === undefined) {
      const created: Record<string, unknown> = {};
      node[path[i]] = created;
      node = created;
    } else if (next !== null && typeof next === 'object' && !Array.isArray(next)) {
      node = next as Record<string, unknown>;
    } else {
      // The prefix is already a value of its own: fall back to the key as written, which lookup also reads.
      target[name] = value;
      return;
    }
  }
  const last = path[path.length - 1];
  if (!(last in node)) node[last] = value;
}
