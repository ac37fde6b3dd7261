/**
 * A raw XML scanner for the filled .docx writer: elements with their source offsets, names as written. The
 * writer copies untouched XML byte for byte (namespaces, attributes and unknown markup stay exactly as Word
 * wrote them), so it needs offsets, not the importer's normalised tree (xml.ts). The part was already parsed
 * strictly by the importer before a fill starts (fill.ts), so this scanner only has to find boundaries.
 */
export interface RawElement {
  name: string;
  /** Offset of `<`. */
  start: number;
  /** Offset just after the opening tag's `>`. */
  openEnd: number;
  /** Offset of the closing tag's `<` (= end for an empty element). */
  closeStart: number;
  /** Offset just after the element. */
  end: number;
  children: RawElement[];
}

const TOKEN = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<!DOCTYPE[^>]*>|<(\/?)([^\s/>]+)(?:[^>"']|"[^"]*"|'[^']*')*?(\/?)>/g;

/** The root element of `xml` with every element below it (text is read through offsets). */
export function scanXml(xml: string): RawElement {
  const root: RawElement = { name: '#root', start: 0, openEnd: 0, closeStart: xml.length, end: xml.length, children: [] };
  const stack: RawElement[] = [root];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(xml); m; m = TOKEN.exec(xml)) {
    const name = m[2];
    if (name === undefined) continue;
    const end = m.index + m[0].length;
    if (m[1] === '/') {
      const el = stack.pop();
      if (!el || el === root || el.name !== name) throw new Error(`Unbalanced </${name}> at ${m.index}`);
      el.closeStart = m.index;
      el.end = end;
      continue;
    }
    const el: RawElement = { name, start: m.index, openEnd: end, closeStart: end, end, children: [] };
    stack[stack.length - 1].children.push(el);
    if (m[3] !== '/') stack.push(el);
  }
  if (stack.length !== 1) throw new Error(`<${stack[stack.length - 1].name}> is never closed`);
  const top = root.children[0];
  if (!top) throw new Error('No root element');
  return top;
}

export function rawOf(xml: string, el: RawElement): string {
  return xml.slice(el.start, el.end);
}

export function rawChild(el: RawElement, name: string): RawElement | undefined {
  return el.children.find((c) => c.name === name);
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** The text inside an element with no child elements (w:t), entities decoded. */
export function innerText(xml: string, el: RawElement): string {
  const raw = xml.slice(el.openEnd, el.closeStart);
  if (raw.indexOf('&') < 0) return raw;
  return raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (match, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isInteger(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return ENTITIES[body] ?? match;
  });
}

/** The value of attribute `name` in an element's opening tag, if present. */
export function rawAttr(xml: string, el: RawElement, name: string): string | undefined {
  const open = xml.slice(el.start, el.openEnd);
  const m = new RegExp(`\\s${name.replace(/[.:]/g, '\\$&')}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(open);
  return m ? (m[2] ?? m[3]) : undefined;
}

/** Characters XML 1.0 does not allow: C0 controls but tab, newline and return; U+FFFE, U+FFFF; lone surrogates. */
// eslint-disable-next-line no-control-regex -- these are exactly the characters to find
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function dropForbidden(text: string): string {
  return text.replace(FORBIDDEN, '');
}

export function escapeText(text: string): string {
  return dropForbidden(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttr(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;');
}
