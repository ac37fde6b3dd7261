/**
 * JSON Schema (draft 2020-12) of the data a template takes, from its fields. Every property is optional (a
 * missing variable renders as nothing) and extra properties are allowed (data is often shared between
 * templates). A dotted name is accepted both nested (`{"customer": {"name": …}}`) and as written
 * (`{"customer.name": …}`), as lookup reads both.
 */
import type { Field } from '../model/types.js';
import { nameInWords } from './words.js';

type Schema = Record<string, unknown>;

const TEXT: Schema = { type: ['string', 'number', 'boolean', 'null'] };
const IMAGE: Schema = {
  type: ['string', 'null'],
  pattern: '^(?:$|[dD][aA][tT][aA]:|[hH][tT][tT][pP][sS]?://)',
  description: 'An image as a data: URI (PNG, JPEG, GIF or WebP) or an http(s) URL; empty for none.',
};
const CONDITION: Schema = {
  type: ['boolean', 'number', 'string', 'null', 'array', 'object'],
  description: 'Shown when true (or non-empty); false, 0, "", null and [] hide it.',
};

export function dataSchema(fields: Field[]): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...objectSchema(fields),
  };
}

function objectSchema(fields: Field[]): Schema {
  const properties: Record<string, Schema> = {};
  for (const field of fields) {
    if (field.name === '.') continue;
    const schema = { title: nameInWords(field.name), ...fieldSchema(field) };
    const nestedHere = properties[field.name];
    // `customer.name` came first and made `customer` an object: `customer` may now be either.
    properties[field.name] = nestedHere ? withObject(schema, nestedHere) : schema;
    const path = field.name.split('.').filter((p) => p !== '');
    if (path.length > 1) addNested(properties, path, schema);
  }
  return { type: 'object', properties, additionalProperties: true };
}

function fieldSchema(field: Field): Schema {
  switch (field.type) {
    case 'text':
      return TEXT;
    case 'image':
      return IMAGE;
    case 'condition':
      return CONDITION;
    case 'list':
    case 'table': {
      const nested = field.fields ?? [];
      const plain = nested.length > 0 && nested.every((f) => f.name === '.');
      return {
        type: ['array', 'null'],
        items: plain ? TEXT : objectSchema(nested),
      };
    }
  }
}

function withObject(schema: Schema, objectLike: Schema): Schema {
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  return {
    ...schema,
    type: types.includes('object') ? types : [...types, 'object'],
    properties: objectLike.properties,
    additionalProperties: true,
  };
}

/** Adds `customer.name` as properties.customer.properties.name, unless `customer` is already something else. */
function addNested(properties: Record<string, Schema>, path: string[], schema: Schema): void {
  let level = properties;
  for (let i = 0; i < path.length - 1; i++) {
    let node = level[path[i]];
    if (node === undefined) {
      node = { type: 'object', properties: {}, additionalProperties: true };
      level[path[i]] = node;
    } else if (typeof node.properties !== 'object') {
      return;
    }
    level = node.properties as Record<string, Schema>;
  }
  const last = path[path.length - 1];
  if (level[last] === undefined) level[last] = schema;
}
