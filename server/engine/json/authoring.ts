/** The authoring form of a .json template (`"docloom": 1`) → TemplateModel. Documented in docs/templates.md. */
import type { DocMetadata, HeaderFooterSet, PageSetup, Section, TemplateModel } from '../model/types.js';
import { at, array, boolean, fail, integer, object, onlyKeys, string, type Json, type JsonObject } from './read.js';
import { readPage } from './page.js';
import { readBlocks, type BlockContext } from './blocks.js';
import { mergeParts, readStyle, StyleBook, STYLE_KEYS, type StyleParts } from './styles.js';

const TOP_KEYS = new Set([
  'docloom', '$schema', 'name', 'description', 'locale', 'metadata', 'page', 'defaults', 'styles',
  'header', 'footer', 'titlePage', 'body', 'sections',
]);
const SECTION_KEYS = new Set(['page', 'header', 'footer', 'titlePage', 'body']);
const METADATA_KEYS = new Set(['title', 'author', 'subject', 'keywords', 'creator']);

export const BUILT_IN_DEFAULTS: StyleParts = {
  run: { font: 'Helvetica', size: 11, color: '#000000' },
  para: { lineHeight: 1.25, spaceAfter: 6 },
};

export function readLocale(value: Json | undefined, path: string): string | undefined {
  if (value === undefined) return undefined;
  const text = string(value, path);
  try {
    const canonical = Intl.getCanonicalLocales(text)[0];
    if (canonical) return canonical;
  } catch {
    // reported below
  }
  fail(path, `"${text}" is not a valid locale; use a language tag such as en-US, de-DE or fr.`);
}

export function readMetadata(value: Json | undefined, path: string): DocMetadata | undefined {
  if (value === undefined) return undefined;
  const obj = object(value, path);
  onlyKeys(obj, path, METADATA_KEYS);
  const out: DocMetadata = {};
  for (const key of ['title', 'author', 'subject', 'creator'] as const) {
    if (obj[key] !== undefined) out[key] = string(obj[key], at(path, key));
  }
  if (obj.keywords !== undefined) {
    const kp = at(path, 'keywords');
    out.keywords = Array.isArray(obj.keywords) ? obj.keywords.map((k, i) => string(k, at(kp, i))).join(', ') : string(obj.keywords, kp);
  }
  return out;
}

function readPartSet(value: Json | undefined, path: string, ctx: BlockContext, width: number): HeaderFooterSet | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return { default: readBlocks(value, path, ctx, width) };
  const obj = object(value, path);
  onlyKeys(obj, path, new Set(['default', 'first', 'even']));
  const out: HeaderFooterSet = {};
  for (const variant of ['default', 'first', 'even'] as const) {
    if (obj[variant] !== undefined) out[variant] = readBlocks(obj[variant], at(path, variant), ctx, width);
  }
  return out;
}

function widthOf(page: PageSetup): number {
  return page.width - page.margins.left - page.margins.right;
}

export function readAuthoring(doc: JsonObject): TemplateModel {
  onlyKeys(doc, '$', TOP_KEYS);
  integer(doc.docloom, '$.docloom', 1, 1);
  if (doc.name !== undefined) string(doc.name, '$.name');
  if (doc.description !== undefined) string(doc.description, '$.description');

  let defaults = BUILT_IN_DEFAULTS;
  if (doc.defaults !== undefined) {
    const d = object(doc.defaults, '$.defaults');
    onlyKeys(d, '$.defaults', STYLE_KEYS);
    defaults = mergeParts(defaults, readStyle(d, '$.defaults'));
  }
  const book = new StyleBook(doc.styles === undefined ? {} : object(doc.styles, '$.styles'), '$.styles');
  let lists = 0;
  const ctx: BlockContext = { book, nextListId: () => `list-${++lists}`, depth: 0 };

  const page = readPage(doc.page, '$.page');
  const sections: Section[] = [];
  if (doc.sections !== undefined) {
    if (doc.body !== undefined) fail('$.body', 'give either "body" or "sections", not both.');
    const list = array(doc.sections, '$.sections');
    if (list.length === 0) fail('$.sections', 'a template needs at least one section.');
    list.forEach((value, i) => {
      const path = at('$.sections', i);
      const obj = object(value, path);
      onlyKeys(obj, path, SECTION_KEYS);
      const sectionPage = readPage(obj.page, at(path, 'page'), page);
      sections.push(
        section(
          obj.body,
          obj.header === undefined ? doc.header : obj.header,
          obj.footer === undefined ? doc.footer : obj.footer,
          obj.titlePage === undefined ? doc.titlePage : obj.titlePage,
          path,
          obj.header === undefined ? '$' : path,
          obj.footer === undefined ? '$' : path,
          sectionPage,
          ctx,
        ),
      );
    });
  } else {
    if (doc.body === undefined) fail('$', 'a template needs a "body" (a list of blocks) or "sections".');
    sections.push(section(doc.body, doc.header, doc.footer, doc.titlePage, '$', '$', '$', page, ctx));
  }
  const model: TemplateModel = {
    version: 1,
    sections,
    defaults: { run: defaults.run, paragraph: defaults.para },
  };
  const metadata = readMetadata(doc.metadata, '$.metadata');
  if (metadata) model.metadata = metadata;
  const locale = readLocale(doc.locale, '$.locale');
  if (locale) model.locale = locale;
  return model;
}

function section(
  body: Json | undefined,
  header: Json | undefined,
  footer: Json | undefined,
  titlePage: Json | undefined,
  path: string,
  headerPath: string,
  footerPath: string,
  page: PageSetup,
  ctx: BlockContext,
): Section {
  const width = widthOf(page);
  if (body === undefined) fail(path, 'a section needs a "body" (a list of blocks).');
  const out: Section = { page, body: readBlocks(body, at(path, 'body'), ctx, width) };
  const h = readPartSet(header, at(headerPath, 'header'), ctx, width);
  const f = readPartSet(footer, at(footerPath, 'footer'), ctx, width);
  if (h) out.header = h;
  if (f) out.footer = f;
  // A "first" header or footer only shows if the section has a title page: say so unless told otherwise.
  const hasFirst = h?.first !== undefined || f?.first !== undefined;
  const tp = titlePage === undefined ? hasFirst : boolean(titlePage, at(path, 'titlePage'));
  if (tp) {
    out.titlePage = true;
    // In this format "first" replaces "default" on the first page only where it is given: a footer without a
    // "first" keeps showing on page one (write "first": [] for an empty one).
    for (const set of [out.header, out.footer]) {
      if (set && set.first === undefined && set.default !== undefined) set.first = set.default;
    }
  }
  return out;
}

