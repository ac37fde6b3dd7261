/**
 * The .docx XML parser (server/engine/docx/xml.ts): what its speed-ups (names resolved once per namespace scope,
 * end tags compared in place) must not change — prefixes redeclared inside a part, end tags that only start like
 * the open one, white space before '>' in an end tag.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseXml, XmlError, type XElement } from '../../server/engine/docx/xml.js';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';

function names(el: XElement): string[] {
  return [el.name, ...el.children.flatMap((c) => (typeof c === 'string' ? [] : names(c)))];
}

test('a prefix redeclared in a child scope resolves by the inner declaration there and by the outer one after it', () => {
  const root = parseXml(
    `<x:document xmlns:x="${W}"><x:p x:val="1"/><y:wrap xmlns:y="urn:other" xmlns:x="${A}"><x:p x:val="2"/></y:wrap><x:p x:val="3"/></x:document>`,
  );
  assert.deepEqual(names(root), ['w:document', 'w:p', '~y:wrap', 'a:p', 'w:p']);
  const ps = [root.children[0], (root.children[1] as XElement).children[0], root.children[2]] as XElement[];
  assert.deepEqual(ps.map((p) => p.attrs), [{ 'w:val': '1' }, { 'a:val': '2' }, { 'w:val': '3' }]);
});

test('a default namespace applies to elements, not to unprefixed attributes', () => {
  const root = parseXml(`<document xmlns="${W}"><p val="1"/></document>`);
  assert.deepEqual(names(root), ['w:document', 'w:p']);
  assert.deepEqual((root.children[0] as XElement).attrs, { val: '1' });
});

test('end tags: white space before ">" is allowed; a name that only starts like the open one is refused', () => {
  assert.equal(parseXml(`<w:p xmlns:w="${W}"><w:r></w:r \n></w:p >`).name, 'w:p');
  assert.throws(() => parseXml(`<w:p xmlns:w="${W}"><w:r></w:rPr></w:p>`), (e: unknown) => e instanceof XmlError && /<\/w:rPr> does not match <w:r>/.test(e.message));
  assert.throws(() => parseXml(`<w:p xmlns:w="${W}"></w:p2>`), XmlError);
  assert.throws(() => parseXml(`<w:p xmlns:w="${W}"></w:`), XmlError);
  assert.throws(() => parseXml(`<w:p xmlns:w="${W}"></x:p>`), XmlError);
});

test('duplicate attributes, after resolution, are refused even when their prefixes differ', () => {
  assert.throws(() => parseXml(`<w:p xmlns:w="${W}" xmlns:v="${W}" w:val="1" v:val="2"/>`), (e: unknown) => e instanceof XmlError && /Duplicate attribute/.test(e.message));
});

test('a skipped element is left out of the tree with everything inside it; its siblings and what follows are kept', () => {
  const root = parseXml(
    `<w:styles xmlns:w="${W}"><w:docDefaults/><w:latentStyles w:count="2"><w:lsdException w:name="Normal"/>text<x:q xmlns:x="${A}"><x:r/></x:q></w:latentStyles>` +
      `<w:latentStyles/><w:style w:styleId="A"><w:name w:val="a"/></w:style></w:styles>`,
    new Set(['w:latentStyles']),
  );
  assert.deepEqual(names(root), ['w:styles', 'w:docDefaults', 'w:style', 'w:name']);
  assert.deepEqual((root.children[1] as XElement).attrs, { 'w:styleId': 'A' });
  // Without the set, the same text keeps them.
  assert.equal(names(parseXml(`<w:styles xmlns:w="${W}"><w:latentStyles><w:lsdException/></w:latentStyles></w:styles>`)).length, 3);
});

test('markup inside a skipped element must still be well formed', () => {
  const skip = new Set(['w:latentStyles']);
  for (const bad of [
    '<w:latentStyles><w:a></w:b></w:latentStyles>',
    '<w:latentStyles><w:a w:val="1></w:latentStyles>',
    '<w:latentStyles><w:a w:val="<"/></w:latentStyles>',
    '<w:latentStyles><w:a>',
  ]) {
    assert.throws(() => parseXml(`<w:styles xmlns:w="${W}">${bad}</w:styles>`, skip), XmlError, bad);
  }
});

/** An element as plain data (a lazy element's children are read, and so parsed, on the way). */
function plain(node: XElement | string): unknown {
  return typeof node === 'string' ? node : { name: node.name, attrs: { ...node.attrs }, children: node.children.map(plain) };
}

test('skipped attributes are left out of attrs, and still refused when given twice', () => {
  const drop = new Set(['w:rsidR', 'w14:paraId']);
  const W14 = 'http://schemas.microsoft.com/office/word/2010/wordml';
  const root = parseXml(`<w:p xmlns:w="${W}" xmlns:w14="${W14}" w:rsidR="00A1" w14:paraId="1F" w:rsidRDefault="00B2"><w:r w:rsidR="00C3"/></w:p>`, undefined, drop);
  assert.deepEqual(root.attrs, { 'w:rsidRDefault': '00B2' });
  assert.deepEqual((root.children[0] as XElement).attrs, {});
  assert.throws(() => parseXml(`<w:p xmlns:w="${W}" w:rsidR="1" w:rsidR="2"/>`, undefined, drop), (e: unknown) => e instanceof XmlError && /Duplicate attribute w:rsidR/.test(e.message));
  assert.throws(() => parseXml(`<w:p xmlns:w="${W}" w:rsidR="&bogus;"/>`, undefined, drop), XmlError);
});

test('a lazy element has its attributes at once and, when read, the children an eager parse gives', () => {
  const text =
    `<w:styles xmlns:w="${W}"><w:docDefaults/><w:style w:type="paragraph" w:styleId="A"><w:name w:val="a &amp; b"/>` +
    `<w:rPr xmlns:q="${A}"><q:latin typeface="X"/><![CDATA[<raw>]]></w:rPr> <w:rsid w:val="1"/></w:style>` +
    `<w:style w:styleId="B"/><w:latentStyles><w:lsdException/></w:latentStyles></w:styles>`;
  const skip = new Set(['w:latentStyles', 'w:rsid']);
  const lazyRoot = parseXml(text, skip, undefined, new Set(['w:style']));
  const style = lazyRoot.children[1] as XElement;
  assert.deepEqual(style.attrs, { 'w:type': 'paragraph', 'w:styleId': 'A' });
  assert.deepEqual(plain(lazyRoot), plain(parseXml(text, skip)));
  // The drawing namespace declared inside the lazy element is resolved when it is read.
  assert.equal(((style.children[1] as XElement).children[0] as XElement).name, 'a:latin');
});

test('errors inside a lazy element are thrown when the part is parsed, as an eager parse throws them', () => {
  const lazy = new Set(['w:style']);
  const W2 = 'urn:other';
  for (const bad of [
    '<w:style><w:a></w:b></w:style>',
    '<w:style><w:a w:val="1></w:style>',
    '<w:style><w:a w:val="&nope;"/></w:style>',
    '<w:style>a &amp b</w:style>',
    '<w:style><w:a w:val="1" w:val="2"/></w:style>',
    `<w:style><w:a xmlns:v="${W}" w:val="1" v:val="2"/></w:style>`,
    '<w:style><w:a w:x="1" constructor="2"/></w:style>',
    `<w:style><w:a xmlns:z="${W2}"></w:style>`,
  ]) {
    // Alone, and after well-formed lazy elements with and without entities (the next '&' is looked for once and
    // kept across them, as for text and attribute values).
    for (const before of ['', '<w:style><w:b/></w:style><w:style><w:t>x &amp; y</w:t></w:style><w:style><w:b/></w:style>']) {
      const text = `<w:styles xmlns:w="${W}">${before}${bad}</w:styles>`;
      let eager = '';
      try {
        parseXml(text);
      } catch (err) {
        eager = (err as Error).message;
      }
      assert.notEqual(eager, '', bad);
      assert.throws(() => parseXml(text, undefined, undefined, lazy), (e: unknown) => e instanceof XmlError && e.message === eager, `${before}${bad}`);
    }
  }
});

test('a name ends at white space (space, tab, CR, LF), "/", ">" or "="; any other character, non-ASCII too, belongs to it', () => {
  const root = parseXml(`<w:doc\txmlns:w="${W}"><w:p\nw:val\r="1"\t/><w:é w:ü="2"/><w:a.b-c_d w:x\u00b7y ="3"></w:a.b-c_d\n></w:doc>`);
  assert.deepEqual(names(root), ['w:doc', 'w:p', 'w:é', 'w:a.b-c_d']);
  assert.deepEqual((root.children as XElement[]).map((c) => c.attrs), [{ 'w:val': '1' }, { 'w:ü': '2' }, { 'w:x\u00b7y': '3' }]);
  // '/' and '>' end a name too: "<w:p/>" is an empty w:p, "<w:r>" an open w:r.
  assert.deepEqual(names(parseXml(`<w:p xmlns:w="${W}"><w:r><w:t/></w:r></w:p>`)), ['w:p', 'w:r', 'w:t']);
});

test('only xmlns and xmlns:… declare namespaces; other attributes starting with "x" are attributes', () => {
  const root = parseXml(`<w:doc xmlns:w="${W}" xml:space="preserve" xmlnsx="1" x="2"><w:p xmlns:x="${A}" x:val="3" xmlns="${A}"><p/></w:p></w:doc>`);
  assert.deepEqual(root.attrs, { 'xml:space': 'preserve', xmlnsx: '1', x: '2' });
  const p = root.children[0] as XElement;
  assert.deepEqual(p.attrs, { 'a:val': '3' });
  assert.equal((p.children[0] as XElement).name, 'a:p');
});
