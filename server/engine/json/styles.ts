/**
 * Style properties of the .json format. Any block, run, cell or row may carry them inline, named styles
 * (`"styles": {"muted": {...}}`, used with `"style": "muted"`) bundle them, and `"extends"` chains styles.
 * Run properties go on the runs, paragraph properties on the paragraph; the result is flat, so the renderer
 * never looks a style up.
 */
import type { BorderLine, ParagraphStyle, RunStyle, TabStop } from '../model/types.js';
import { at, array, boolean, color, fail, number, object, oneOf, string, type Json, type JsonObject } from './read.js';
import { length } from './units.js';

export interface StyleParts {
  run: RunStyle;
  para: ParagraphStyle;
}

export const RUN_KEYS = ['font', 'size', 'bold', 'italic', 'underline', 'strike', 'color', 'highlight', 'superscript', 'subscript', 'caps', 'smallCaps', 'link'] as const;
export const PARAGRAPH_KEYS = [
  'align', 'indent', 'indentLeft', 'indentRight', 'firstLine', 'spaceBefore', 'spaceAfter', 'lineHeight',
  'keepWithNext', 'pageBreakBefore', 'rtl', 'shading', 'border', 'borders', 'tabs',
] as const;
export const STYLE_KEYS: ReadonlySet<string> = new Set<string>([...RUN_KEYS, ...PARAGRAPH_KEYS]);

const LINK = /^(?:https?:\/\/|mailto:)\S+$/i;

function border(value: Json, path: string): BorderLine {
  if (value === true) return { width: 0.5, color: '#000000' };
  const obj = object(value, path);
  for (const key of Object.keys(obj)) if (!['width', 'color', 'style'].includes(key)) fail(at(path, key), `unknown property "${key}".`);
  const line: BorderLine = {
    width: obj.width === undefined ? 0.5 : length(obj.width, at(path, 'width'), 0, 20),
    color: obj.color === undefined ? '#000000' : color(obj.color, at(path, 'color')),
  };
  if (obj.style !== undefined) line.style = oneOf(obj.style, at(path, 'style'), ['single', 'double', 'dashed', 'dotted'] as const);
  return line;
}

export function borders(value: Json, path: string): NonNullable<ParagraphStyle['borders']> {
  const obj = object(value, path);
  const out: NonNullable<ParagraphStyle['borders']> = {};
  for (const [key, side] of Object.entries(obj)) {
    if (key !== 'top' && key !== 'bottom' && key !== 'left' && key !== 'right') fail(at(path, key), `unknown side "${key}"; use top, bottom, left or right.`);
    if (side === false || side === null) continue;
    out[key] = border(side, at(path, key));
  }
  return out;
}

export { border as borderLine };

function tabs(value: Json, path: string): TabStop[] {
  return array(value, path).map((item, i) => {
    const p = at(path, i);
    const obj = object(item, p);
    for (const key of Object.keys(obj)) if (!['pos', 'align', 'leader'].includes(key)) fail(at(p, key), `unknown property "${key}".`);
    const stop: TabStop = {
      pos: length(obj.pos, at(p, 'pos')),
      align: obj.align === undefined ? 'left' : oneOf(obj.align, at(p, 'align'), ['left', 'center', 'right', 'decimal'] as const),
    };
    if (obj.leader !== undefined) stop.leader = oneOf(obj.leader, at(p, 'leader'), ['none', 'dot', 'hyphen', 'underscore', 'middleDot'] as const);
    return stop;
  });
}

/** Reads the style properties of `obj` (other keys are the caller's business). */
export function readStyle(obj: JsonObject, path: string): StyleParts {
  const run: RunStyle = {};
  const para: ParagraphStyle = {};
  for (const [key, value] of Object.entries(obj)) {
    const p = at(path, key);
    switch (key) {
      case 'font': {
        const font = string(value, p).trim();
        if (font === '') fail(p, 'the font name is empty.');
        run.font = font;
        break;
      }
      case 'size': run.size = length(value, p, 1, 1000); break;
      case 'bold': run.bold = boolean(value, p); break;
      case 'italic': run.italic = boolean(value, p); break;
      case 'underline': run.underline = boolean(value, p); break;
      case 'strike': run.strike = boolean(value, p); break;
      case 'color': run.color = color(value, p); break;
      case 'highlight': run.highlight = color(value, p); break;
      case 'superscript': if (boolean(value, p)) run.vertAlign = 'superscript'; break;
      case 'subscript': if (boolean(value, p)) run.vertAlign = 'subscript'; break;
      case 'caps': run.caps = boolean(value, p); break;
      case 'smallCaps': run.smallCaps = boolean(value, p); break;
      case 'link': {
        const link = string(value, p);
        if (!LINK.test(link)) fail(p, 'a link must start with http://, https:// or mailto:.');
        run.link = link;
        break;
      }
      case 'align': para.align = oneOf(value, p, ['left', 'center', 'right', 'justify'] as const); break;
      case 'indent':
      case 'indentLeft': para.indentLeft = length(value, p, -1000); break;
      case 'indentRight': para.indentRight = length(value, p, -1000); break;
      case 'firstLine': para.indentFirstLine = length(value, p, -1000); break;
      case 'spaceBefore': para.spaceBefore = length(value, p); break;
      case 'spaceAfter': para.spaceAfter = length(value, p); break;
      case 'lineHeight': para.lineHeight = number(value, p, 0.5, 10); break;
      case 'keepWithNext': para.keepWithNext = boolean(value, p); break;
      case 'pageBreakBefore': para.pageBreakBefore = boolean(value, p); break;
      case 'rtl': para.rtl = boolean(value, p); break;
      case 'shading': para.shading = color(value, p); break;
      case 'border': {
        const line = border(value, p);
        para.borders = { top: line, bottom: line, left: line, right: line };
        break;
      }
      case 'borders': para.borders = { ...para.borders, ...borders(value, p) }; break;
      case 'tabs': para.tabs = tabs(value, p); break;
      default:
        break;
    }
  }
  return { run, para };
}

export function mergeParts(base: StyleParts, over: StyleParts): StyleParts {
  return { run: { ...base.run, ...over.run }, para: { ...base.para, ...over.para } };
}

const HEADINGS: Record<string, { size: number; before: number; after: number; italic?: boolean }> = {
  h1: { size: 20, before: 14, after: 8 },
  h2: { size: 16, before: 12, after: 6 },
  h3: { size: 13, before: 10, after: 4 },
  h4: { size: 11.5, before: 8, after: 4 },
  h5: { size: 11, before: 6, after: 3, italic: true },
  h6: { size: 10, before: 6, after: 3, italic: true },
};

function builtIn(name: string): StyleParts | null {
  const h = HEADINGS[name];
  if (!h) return null;
  const level = Number(name[1]) as 1 | 2 | 3 | 4 | 5 | 6;
  return {
    run: { size: h.size, bold: true, ...(h.italic ? { italic: true } : {}) },
    para: { heading: level, spaceBefore: h.before, spaceAfter: h.after, keepWithNext: true },
  };
}

/** The named styles of a template, resolved (with `extends` and the built-in heading styles h1–h6). */
export class StyleBook {
  private readonly resolved = new Map<string, StyleParts>();

  constructor(private readonly specs: JsonObject, private readonly path: string) {
    for (const [name, spec] of Object.entries(specs)) {
      if (name.trim() === '') fail(at(path, name), 'a style needs a name.');
      const obj = object(spec, at(path, name));
      for (const key of Object.keys(obj)) {
        if (key !== 'extends' && !STYLE_KEYS.has(key)) fail(at(at(path, name), key), `unknown style property "${key}".`);
      }
    }
    for (const name of Object.keys(specs)) this.resolve(name, at(path, name), []);
  }

  has(name: string): boolean {
    return this.resolved.has(name) || builtIn(name) !== null;
  }

  get(name: unknown, path: string): StyleParts {
    const key = string(name, path);
    const found = this.resolved.get(key) ?? builtIn(key);
    if (!found) {
      const known = [...new Set([...this.resolved.keys(), ...Object.keys(HEADINGS)])].join(', ');
      fail(path, `there is no style named "${key}" (known styles: ${known}).`);
    }
    return found;
  }

  private resolve(name: string, path: string, seen: string[]): StyleParts {
    const done = this.resolved.get(name);
    if (done) return done;
    if (seen.includes(name)) fail(path, `the styles ${[...seen, name].map((s) => `"${s}"`).join(' → ')} extend each other in a circle.`);
    const spec = this.specs[name];
    if (spec === undefined) {
      const b = builtIn(name);
      if (b) return b;
      fail(path, `there is no style named "${name}".`);
    }
    const obj = spec as JsonObject;
    let base: StyleParts = builtIn(name) ?? { run: {}, para: {} };
    if (obj.extends !== undefined) {
      const parent = string(obj.extends, at(path, 'extends'));
      base = mergeParts(base, this.resolve(parent, at(path, 'extends'), [...seen, name]));
    }
    const parts = mergeParts(base, readStyle(obj, path));
    this.resolved.set(name, parts);
    return parts;
  }
}

export function isStyleKey(key: string): boolean {
  return STYLE_KEYS.has(key);
}
