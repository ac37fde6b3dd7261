/**
 * A small, strict XML parser for the parts of a .docx. Why not a DOM: the importer only walks element trees, a
 * DOM costs several times more time and memory, and owning the parser makes the security rules plain:
 *
 * - No DTD processing at all: a document with `<!DOCTYPE` is refused (Word never writes one), so no entity can
 *   be declared, expanded or fetched. Only XML's five predefined entities and character references are read.
 * - Malformed input (unbalanced tags, bad attributes, unknown entities, text outside the root) throws XmlError,
 *   which the importer reports as an invalid template.
 *
 * Names are normalised through their namespace: whatever prefix a producer chose, an element of the
 * WordprocessingML namespace is called `w:…`, a DrawingML one `a:…` (see namespaces.ts). Unknown namespaces
 * keep their prefix behind a `~` so they never collide with a known one.
 */
import { canonicalPrefix } from './namespaces.js';

export class XmlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlError';
  }
}

export interface XElement {
  name: string;
  attrs: Record<string, string>;
  children: XNode[];
}

export type XNode = XElement | string;

/**
 * The attributes of every element without any, and the children of every empty element (<w:b/>, about half of a
 * part's elements): one shared, frozen object each instead of a new one per element. Nothing changes a parsed tree.
 */
const NO_ATTRS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NO_CHILDREN: XNode[] = Object.freeze([]) as unknown as XNode[];
/** Stands on the parser's stack for an element left out of the tree (parseXml's `skip`). */
const SKIPPED: XElement = Object.freeze({ name: '', attrs: NO_ATTRS, children: NO_CHILDREN });

/**
 * An element whose content is parsed when it is first read (parseXml's `lazy`). Its start tag is parsed at once
 * (name, attributes); its content is checked as strictly as the rest of the part while the part is parsed — the same
 * errors are thrown then — but no node is built for it until `children` is read.
 */
class LazyElement implements XElement {
  private parsed: XNode[] | undefined;
  /** Where the element's markup ends in `text` (set when its end tag is read). */
  end = 0;

  constructor(
    readonly name: string,
    readonly attrs: Record<string, string>,
    private readonly text: string,
    readonly start: number,
    /** The namespace declarations in force outside the element. */
    private readonly outer: Map<string, string>,
    private readonly skip: ReadonlySet<string> | undefined,
    private readonly skipAttributes: ReadonlySet<string> | undefined,
  ) {}

  get children(): XNode[] {
    if (this.parsed === undefined) {
      this.parsed = parse(this.text.slice(this.start, this.end), this.skip, this.skipAttributes, undefined, this.outer).children;
    }
    return this.parsed;
  }
}

/** The names `key in attrs` finds on an object literal without having set them (the eager parse refuses them too). */
const INHERITED: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Element nesting deeper than this is not a Word document but an attack on the tree walkers' stacks. */
const MAX_DEPTH = 1000;

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(raw: string): string {
  if (raw.indexOf('&') < 0) return raw;
  return raw.replace(/&([^;&\s]{0,12});?/g, (match, body: string) => {
    if (!match.endsWith(';')) throw new XmlError(`Bare "&" in text near "${match}"`);
    if (body.startsWith('#')) {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      if (!Number.isInteger(code) || code < 0 || code > 0x10ffff) throw new XmlError(`Bad character reference &${body};`);
      return String.fromCodePoint(code);
    }
    const value = PREDEFINED[body];
    if (value === undefined) throw new XmlError(`Unknown entity &${body}; (DTD entities are not processed)`);
    return value;
  });
}

/** One decoder for every part (decode() without `stream` keeps no state between calls). */
const UTF8 = new TextDecoder('utf-8');

/** Decodes the bytes of a part (UTF-8, or UTF-16 with a byte order mark) to text. */
export function decodeXmlBytes(bytes: Uint8Array): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return UTF8.decode(bytes); // strips a UTF-8 BOM
}

interface Scope {
  /** raw prefix ('' = default namespace) → canonical prefix */
  map: Map<string, string>;
  /**
   * Raw name → resolved name, for elements and attributes met in this scope. A scope is shared by every element
   * that declares no namespace (nearly all), so each name is resolved once per part instead of once per element:
   * resolving built a new string per element and attribute, a fifth of the parse's time in garbage collection.
   */
  elements: Map<string, string>;
  attributes: Map<string, string>;
}

function newScope(map: Map<string, string>): Scope {
  return { map, elements: new Map(), attributes: new Map() };
}

/**
 * The ASCII characters that end a name: white space, '/', '>' and '='. One table load per character instead of
 * seven comparisons: names are most of a part's characters the parser looks at one by one (~5 % of the parse).
 */
const NAME_END = new Uint8Array(128);
for (const code of [32, 9, 10, 13, 0x2f, 0x3e, 0x3d]) NAME_END[code] = 1;

/** Any character but white space, '/', '>' and '=' may be part of a name here (the producer checked the rest). */
function isNameChar(code: number): boolean {
  return code >= 128 || NAME_END[code] === 0;
}

/** A namespace declaration's attribute name: 'xmlns' or 'xmlns:…' (the first character settles most names). */
function isDeclaration(name: string): boolean {
  return name.charCodeAt(0) === 0x78 /* x */ && (name === 'xmlns' || name.startsWith('xmlns:'));
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/**
 * Parses a whole XML document and returns its root element. Throws XmlError when the text is not well formed.
 * Elements named in `skip` (resolved names, e.g. 'w:latentStyles') are left out of the tree with everything
 * inside them: their markup is still read through (tags matched and nested, attributes quoted, no '<' in a
 * value), but no element, attribute or text object is built for what no reader looks at. Attributes named in
 * `skipAttributes` (e.g. 'w:rsidR') are read as strictly (quoted, entities valid, no duplicate) and left out of
 * their element's `attrs`. Elements named in `lazy` (e.g. 'w:style', below the root) are checked as strictly as
 * any, but their content becomes nodes only when their `children` are first read.
 */
export function parseXml(text: string, skip?: ReadonlySet<string>, skipAttributes?: ReadonlySet<string>, lazy?: ReadonlySet<string>): XElement {
  return parse(text, skip, skipAttributes, lazy, undefined);
}

function parse(
  text: string,
  skip: ReadonlySet<string> | undefined,
  skipAttributes: ReadonlySet<string> | undefined,
  lazy: ReadonlySet<string> | undefined,
  outer: Map<string, string> | undefined,
): XElement {
  const len = text.length;
  let pos = 0;
  let root: XElement | null = null;
  const stack: XElement[] = [];
  // How many elements deep the parser is inside a skipped element (0: building the tree).
  let skipDepth = 0;
  // How many elements deep the parser is inside a lazy element's content (0: building the tree), and that element.
  let lazyDepth = 0;
  let lazyOpen: LazyElement | null = null;
  const rawNames: string[] = [];
  const scopes: Scope[] = [newScope(outer ?? new Map([['xml', 'xml']]))];

  const resolveUncached = (rawName: string, isAttr: boolean, scope: Scope): string => {
    const colon = rawName.indexOf(':');
    if (colon < 0) {
      if (isAttr) return rawName; // unprefixed attributes are in no namespace
      const def = scope.map.get('');
      return def ? `${def}:${rawName}` : rawName;
    }
    const prefix = rawName.slice(0, colon);
    if (prefix === 'xmlns') return rawName;
    const canon = scope.map.get(prefix);
    return `${canon ?? `~${prefix}`}:${rawName.slice(colon + 1)}`;
  };
  const resolve = (rawName: string, isAttr: boolean, scope: Scope): string => {
    const cache = isAttr ? scope.attributes : scope.elements;
    let name = cache.get(rawName);
    if (name === undefined) {
      name = resolveUncached(rawName, isAttr, scope);
      cache.set(rawName, name);
    }
    return name;
  };
  // Attributes of the start tag being read, as name, value, name, value…: one array for the whole part, of which
  // the first `attrCount` entries are this tag's (a counter, not `length = 0`, which is a runtime call per tag).
  const rawAttrs: string[] = [];
  let attrCount: number;
  // The resolved names of the start tag's attributes left out (`skipAttributes`), and inside a lazy element's
  // content those kept (no `attrs` object is built there), to refuse one given twice.
  const dropped: string[] = [];
  const kept: string[] = [];
  // The next '&' at or after some position (2^32 - 1 when there is none): most parts have few entities, so a text or
  // an attribute value needs decoding only when it reaches past this, found once instead of searched per value.
  let nextAmp = -1;
  const decodeAt = (start: number, end: number): string => {
    if (nextAmp < start) nextAmp = text.indexOf('&', start) >>> 0;
    const raw = text.slice(start, end);
    return nextAmp < end ? decodeEntities(raw) : raw;
  };
  // Likewise the next '<' (2^32 - 1 when there is none): the next tag, and the check that no attribute value holds one.
  let nextLt = -1;
  const ltFrom = (start: number): number => {
    if (nextLt < start) nextLt = text.indexOf('<', start) >>> 0;
    return nextLt;
  };

  while (pos < len) {
    const lt = ltFrom(pos);
    if (lt >= len) {
      const tail = text.slice(pos);
      if (stack.length > 0 || tail.trim() !== '') throw new XmlError('Unexpected end of document');
      break;
    }
    if (lt > pos) {
      if (stack.length === 0) {
        if (text.slice(pos, lt).trim() !== '') throw new XmlError('Text outside the root element');
      } else if (skipDepth === 0) {
        if (lazyDepth === 0) stack[stack.length - 1].children.push(decodeAt(pos, lt));
      }
    }
    const next = text.charCodeAt(lt + 1);
    if (next === 0x21 /* ! */) {
      if (text.startsWith('<!--', lt)) {
        const end = text.indexOf('-->', lt + 4);
        if (end < 0) throw new XmlError('Unterminated comment');
        pos = end + 3;
        continue;
      }
      if (text.startsWith('<![CDATA[', lt)) {
        const end = text.indexOf(']]>', lt + 9);
        if (end < 0) throw new XmlError('Unterminated CDATA section');
        if (stack.length === 0) throw new XmlError('CDATA outside the root element');
        if (skipDepth === 0 && lazyDepth === 0) stack[stack.length - 1].children.push(text.slice(lt + 9, end));
        pos = end + 3;
        continue;
      }
      if (text.startsWith('<!DOCTYPE', lt)) throw new XmlError('DOCTYPE declarations are not allowed');
      throw new XmlError('Unsupported markup declaration');
    }
    if (next === 0x3f /* ? */) {
      const end = text.indexOf('?>', lt + 2);
      if (end < 0) throw new XmlError('Unterminated processing instruction');
      pos = end + 2;
      continue;
    }
    if (next === 0x2f /* / */) {
      const end = text.indexOf('>', lt + 2);
      if (end < 0) throw new XmlError('Unterminated end tag');
      const open = rawNames.pop();
      // Compared in place (no slice per end tag): the name, then nothing but white space up to '>'.
      let matches = open !== undefined && text.startsWith(open, lt + 2);
      for (let q = lt + 2 + (open?.length ?? 0); matches && q < end; q++) matches = isSpace(text.charCodeAt(q));
      if (!matches) {
        throw new XmlError(`End tag </${text.slice(lt + 2, end).trim()}> does not match <${open ?? '(none)'}>`);
      }
      const done = stack.pop() as XElement;
      scopes.pop();
      if (skipDepth > 0) skipDepth--;
      else if (lazyDepth > 0 && --lazyDepth === 0) {
        const open = lazyOpen as LazyElement;
        open.end = end + 1;
        lazyOpen = null;
        // Entities are checked as they are decoded: content that holds any is read now, so that a bad one is
        // refused with the part (the same error, thrown by the same parser). The next '&' is the one decodeAt
        // keeps: searched once per '&', not from every lazy element to the end of the part.
        if (nextAmp < open.start) nextAmp = text.indexOf('&', open.start) >>> 0;
        if (nextAmp < end) void open.children;
      }
      if (stack.length === 0) root = done;
      pos = end + 1;
      continue;
    }
    // Start tag: name, attributes, optional self-closing slash.
    if (root !== null && stack.length === 0) throw new XmlError('More than one root element');
    let p = lt + 1;
    while (p < len && isNameChar(text.charCodeAt(p))) p++;
    const rawName = text.slice(lt + 1, p);
    if (rawName === '') throw new XmlError('Empty element name');
    attrCount = 0;
    // Whether the tag declares a namespace: most tags do not, and then no attribute needs testing for one.
    let declares = false;
    let selfClosing = false;
    for (;;) {
      while (p < len && isSpace(text.charCodeAt(p))) p++;
      if (p >= len) throw new XmlError(`Unterminated start tag <${rawName}>`);
      const c = text[p];
      if (c === '>') {
        p++;
        break;
      }
      if (c === '/') {
        if (text[p + 1] !== '>') throw new XmlError(`Bad "/" in <${rawName}>`);
        selfClosing = true;
        p += 2;
        break;
      }
      const nameStart = p;
      while (p < len && isNameChar(text.charCodeAt(p))) p++;
      const attrName = text.slice(nameStart, p);
      if (attrName === '') throw new XmlError(`Bad attribute in <${rawName}>`);
      while (p < len && isSpace(text.charCodeAt(p))) p++;
      if (text[p] !== '=') throw new XmlError(`Attribute ${attrName} without a value in <${rawName}>`);
      p++;
      while (p < len && isSpace(text.charCodeAt(p))) p++;
      const quote = text[p];
      if (quote !== '"' && quote !== "'") throw new XmlError(`Unquoted attribute ${attrName} in <${rawName}>`);
      const valueEnd = text.indexOf(quote, p + 1);
      if (valueEnd < 0) throw new XmlError(`Unterminated attribute ${attrName} in <${rawName}>`);
      if (ltFrom(p + 1) < valueEnd) throw new XmlError(`"<" in attribute ${attrName}`);
      const declaration = isDeclaration(attrName);
      if (declaration) declares = true;
      rawAttrs[attrCount++] = attrName;
      if (skipDepth > 0) rawAttrs[attrCount++] = '';
      else if (lazyDepth > 0 && !declaration) rawAttrs[attrCount++] = '';
      else rawAttrs[attrCount++] = decodeAt(p + 1, valueEnd);
      p = valueEnd + 1;
    }
    if (skipDepth > 0) {
      // Inside a skipped element: only the nesting is kept, to match the end tags.
      if (!selfClosing) {
        if (stack.length >= MAX_DEPTH) throw new XmlError(`Elements nested deeper than ${MAX_DEPTH} levels`);
        stack.push(SKIPPED);
        rawNames.push(rawName);
        scopes.push(scopes[scopes.length - 1]);
        skipDepth++;
      }
      pos = p;
      continue;
    }
    // Namespace declarations open a new scope only when the element has some (the common case has none).
    let scope = scopes[scopes.length - 1];
    for (let i = 0; declares && i < attrCount; i += 2) {
      const name = rawAttrs[i];
      if (isDeclaration(name)) {
        if (scope === scopes[scopes.length - 1]) scope = newScope(new Map(scope.map));
        const prefix = name === 'xmlns' ? '' : name.slice(6);
        scope.map.set(prefix, canonicalPrefix(rawAttrs[i + 1]) ?? `~${prefix || 'default'}`);
      }
    }
    let attrs = NO_ATTRS;
    let droppedCount = 0;
    let keptCount = 0;
    for (let i = 0; i < attrCount; i += 2) {
      const name = rawAttrs[i];
      if (declares && isDeclaration(name)) continue;
      const key = resolve(name, true, scope);
      if (skipAttributes !== undefined && skipAttributes.has(key)) {
        for (let d = 0; d < droppedCount; d++) if (dropped[d] === key) throw new XmlError(`Duplicate attribute ${name} in <${rawName}>`);
        dropped[droppedCount++] = key;
        continue;
      }
      if (lazyDepth > 0) {
        // The check below without the object: the same names refused (`in` also finds Object.prototype's).
        if (keptCount > 0 && INHERITED.has(key)) throw new XmlError(`Duplicate attribute ${name} in <${rawName}>`);
        for (let k = 0; k < keptCount; k++) if (kept[k] === key) throw new XmlError(`Duplicate attribute ${name} in <${rawName}>`);
        kept[keptCount++] = key;
        continue;
      }
      if (attrs === NO_ATTRS) attrs = {};
      else if (key in attrs) throw new XmlError(`Duplicate attribute ${name} in <${rawName}>`);
      attrs[key] = rawAttrs[i + 1];
    }
    const name = resolve(rawName, false, scope);
    const skipped = skip !== undefined && stack.length > 0 && skip.has(name);
    if (lazyDepth > 0) {
      // A lazy element's content: only the nesting is kept, to match the end tags (its nodes are built when read).
      if (!selfClosing) {
        if (stack.length >= MAX_DEPTH) throw new XmlError(`Elements nested deeper than ${MAX_DEPTH} levels`);
        stack.push(SKIPPED);
        rawNames.push(rawName);
        scopes.push(scope);
        if (skipped) skipDepth = 1;
        else lazyDepth++;
      }
      pos = p;
      continue;
    }
    const deferred = !skipped && !selfClosing && lazy !== undefined && stack.length > 0 && lazy.has(name);
    const element: XElement = skipped
      ? SKIPPED
      : deferred
        ? new LazyElement(name, attrs, text, lt, scopes[scopes.length - 1].map, skip, skipAttributes)
        : { name, attrs, children: selfClosing ? NO_CHILDREN : [] };
    if (deferred) {
      lazyDepth = 1;
      lazyOpen = element as LazyElement;
    }
    if (skipped) {
      if (!selfClosing) skipDepth = 1;
    } else if (stack.length > 0) stack[stack.length - 1].children.push(element);
    if (selfClosing) {
      if (stack.length === 0) root = element;
    } else {
      if (stack.length >= MAX_DEPTH) throw new XmlError(`Elements nested deeper than ${MAX_DEPTH} levels`);
      stack.push(element);
      rawNames.push(rawName);
      scopes.push(scope);
    }
    pos = p;
  }
  if (stack.length > 0) throw new XmlError(`Element <${rawNames[rawNames.length - 1]}> is never closed`);
  if (root === null) throw new XmlError('No root element');
  return root;
}

// ─── Tree helpers used by every reader ────────────────────────────────────────────────────────────────────────
// Indexed loops, not for…of: these run for nearly every element of every part, and an array iterator allocates a
// result object per step until the caller is optimised — most of an import runs in code not yet optimised (each
// file exercises other paths), where child() alone was a tenth of the import's allocations.

export function isElement(node: XNode): node is XElement {
  return typeof node !== 'string';
}

/** The first child element called `name`. */
export function child(el: XElement | undefined, name: string): XElement | undefined {
  if (!el) return undefined;
  const nodes = el.children;
  for (let i = 0; i < nodes.length; i++) {
    const c = nodes[i];
    if (typeof c !== 'string' && c.name === name) return c;
  }
  return undefined;
}

/** All child elements called `name` (or all child elements without a name). */
export function children(el: XElement | undefined, name?: string): XElement[] {
  if (!el) return [];
  const out: XElement[] = [];
  const nodes = el.children;
  for (let i = 0; i < nodes.length; i++) {
    const c = nodes[i];
    if (typeof c !== 'string' && (name === undefined || c.name === name)) out.push(c);
  }
  return out;
}

/** The first descendant called `name`, depth first. */
export function descendant(el: XElement | undefined, name: string): XElement | undefined {
  if (!el) return undefined;
  const nodes = el.children;
  for (let i = 0; i < nodes.length; i++) {
    const c = nodes[i];
    if (typeof c === 'string') continue;
    if (c.name === name) return c;
    const found = descendant(c, name);
    if (found) return found;
  }
  return undefined;
}

/** Every descendant called `name`, in document order (not descending into matches). */
export function descendants(el: XElement | undefined, name: string, out: XElement[] = []): XElement[] {
  if (!el) return out;
  const nodes = el.children;
  for (let i = 0; i < nodes.length; i++) {
    const c = nodes[i];
    if (typeof c === 'string') continue;
    if (c.name === name) out.push(c);
    else descendants(c, name, out);
  }
  return out;
}

/** The concatenated text content of an element. */
export function textOf(el: XElement | undefined): string {
  if (!el) return '';
  let out = '';
  const nodes = el.children;
  for (let i = 0; i < nodes.length; i++) {
    const c = nodes[i];
    out += typeof c === 'string' ? c : textOf(c);
  }
  return out;
}

/** `w:val` (or another attribute) of the child `name`. */
export function childVal(el: XElement | undefined, name: string, attr = 'w:val'): string | undefined {
  return child(el, name)?.attrs[attr];
}
