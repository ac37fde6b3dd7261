/**
 * The template's `fields` (CONTRACT.md §4): every variable, list, table, image and condition in order of first
 * appearance, merged by name, with the fields used inside a list or table nested under it.
 */
import type { Field } from '../model/types.js';
import type { CBlock, CInline, CName, CRow, CSection } from './types.js';
import { namesRead } from '../lang/index.js';

type FieldType = Field['type'];

/** When one name is used in several ways, the richer use wins (a list tested as a condition is still a list). */
const RANK: Record<FieldType, number> = { condition: 1, text: 2, image: 3, list: 4, table: 5 };

class FieldSet {
  private readonly byName = new Map<string, { field: Field; nested: FieldSet | null }>();

  get size(): number {
    return this.byName.size;
  }

  /** Adds (or merges) a field; returns the set its nested fields go into. */
  add(name: string, type: FieldType, nested: boolean): FieldSet | null {
    let entry = this.byName.get(name);
    if (!entry) {
      entry = { field: { name, type }, nested: null };
      this.byName.set(name, entry);
    } else if (RANK[type] > RANK[entry.field.type]) {
      entry.field.type = type;
    }
    if (!nested) return null;
    entry.nested ??= new FieldSet();
    return entry.nested;
  }

  /** Removes a field and returns it (null when absent). */
  take(name: string): Field | null {
    const entry = this.byName.get(name);
    if (!entry) return null;
    this.byName.delete(name);
    return entry.field;
  }

  /** Merges another set's fields (the insides of one more occurrence of a section) into this one. */
  absorb(other: FieldSet): void {
    for (const { field, nested } of other.byName.values()) {
      const into = this.add(field.name, field.type, nested !== null);
      if (into && nested) into.absorb(nested);
    }
  }

  toFields(): Field[] {
    const out: Field[] = [];
    for (const { field, nested } of this.byName.values()) {
      const copy: Field = { name: field.name, type: field.type };
      if ((field.type === 'list' || field.type === 'table') && nested && nested.size > 0) copy.fields = nested.toFields();
      out.push(copy);
    }
    return out;
  }
}

export function extractFields(sections: CSection[]): Field[] {
  const root = new FieldSet();
  for (const section of sections) {
    for (const part of [section.header?.default, section.header?.first, section.header?.even]) if (part) blocks(part, root);
    blocks(section.body, root);
    for (const part of [section.footer?.default, section.footer?.first, section.footer?.even]) if (part) blocks(part, root);
  }
  return root.toFields();
}

/** The names a tag reads: itself when it is a name, else the names its expression reads. */
function names(ref: CName): string[] {
  if (!ref.expr) return [ref.name];
  return namesRead(ref.expr);
}

function section(ref: CName, inverted: boolean, kind: 'list' | 'table', set: FieldSet, walkInner: (into: FieldSet) => void): void {
  if (ref.expr) {
    // A condition written as an expression (`balance > 0`): the names it reads are values, its inside stays at
    // this level (as in an inverted section).
    for (const name of names(ref)) set.add(name, 'text', false);
    walkInner(set);
    return;
  }
  const name = ref.name;
  if (inverted) {
    // An inverted section never enters a scope: what it holds belongs to the level it sits in.
    set.add(name, 'condition', false);
    walkInner(set);
    return;
  }
  const inner = new FieldSet();
  walkInner(inner);
  // `{{#notes}}Notes: {{notes}}{{/notes}}` shows a value only when there is one: the inner `notes` is the very
  // value tested (lookup passes over a text scope to the same name outside), so it is a text field, not a list.
  const self = inner.take(name);
  // A section with no tags inside only shows or hides its content: a condition.
  const into = set.add(name, inner.size > 0 ? kind : 'condition', inner.size > 0);
  if (into) into.absorb(inner);
  if (self) set.add(name, self.type, false);
}

function blocks(list: CBlock[], set: FieldSet): void {
  for (const block of list) {
    switch (block.k) {
      case 'static':
        break;
      case 'para':
        inlines(block.content, set);
        break;
      case 'section':
        section(block.ref, block.inverted, 'list', set, (into) => blocks(block.body, into));
        break;
      case 'table':
        rows(block.rows, set);
        break;
    }
  }
}

function rows(list: CRow[], set: FieldSet): void {
  for (const row of list) {
    if (row.k === 'row') for (const cell of row.cells) blocks(cell.blocks, set);
    else if (row.k === 'section') section(row.ref, row.inverted, 'table', set, (into) => rows(row.rows, into));
  }
}

function inlines(list: CInline[], set: FieldSet): void {
  for (const node of list) {
    switch (node.k) {
      case 'run':
        break;
      case 'var': {
        // A name passed through an aggregate (`lines | sum:"net"`) is a list.
        const type = node.filters.some((f) => f.f === 'agg') ? 'list' : 'text';
        for (const name of names(node.ref)) set.add(name, type, false);
        break;
      }
      case 'image':
        set.add(node.ref.name, 'image', false);
        break;
      case 'section':
        section(node.ref, node.inverted, 'list', set, (into) => inlines(node.content, into));
        break;
      case 'shape':
        blocks(node.parts, set);
        break;
    }
  }
}
