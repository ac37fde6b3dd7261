/**
 * .docx (Word, Google Docs, LibreOffice exports) → the source TemplateModel.
 *
 *   zip.ts (limits, bounded inflate) → package.ts (content types, main part, relationships, media)
 *   → styles.ts + theme.ts + numbering.ts (resolved formatting) → blocks/paragraph/table/drawing.ts (content)
 *   → sections.ts (page setup, headers, footers)
 *
 * Contract: any input either yields a model or throws an EngineError — 'unsupported_file' (not a Word
 * document: HTTP 415), 'too_large' (over the zip limits: 413) or 'invalid_template' (damaged: 422). Macros
 * (vbaProject.bin), ActiveX controls, external relationships and embedded objects are never read. See
 * docs/docx.md for what is supported and how the rest degrades.
 */
import type { Block, DocMetadata, Section, TemplateModel } from '../model/types.js';
import { EngineError } from '../errors.js';
import { createPartContext } from './blocks.js';
import type { DocContext } from './context.js';
import { DEFAULT_DOCX_LIMITS, type DocxLimits } from './limits.js';
import { endnoteSeparator, Notes } from './notes.js';
import { Numbering } from './numbering.js';
import { DocxPackage } from './package.js';
import { mergeP, mergeR } from './props.js';
import { toParagraphStyle, toRunStyle } from './resolve.js';
import { HeaderFooterReader, pageNumbering, pageSetup, sectionReferences, startsNewPage, titlePage, type References } from './sections.js';
import { StyleSheet } from './styles.js';
import { readTheme, themeColor } from './theme.js';
import { hexColor, onOff, round2, twips } from './units.js';
import { Warnings } from './warnings.js';
import { child, children, textOf, type XElement } from './xml.js';

export { DEFAULT_DOCX_LIMITS, type DocxLimits } from './limits.js';
export { Warnings } from './warnings.js';

export interface DocxImportOptions {
  limits?: Partial<DocxLimits>;
  /** Collects what the import leaves out or changes (warnings.ts); without it, nothing is reported. */
  warnings?: Warnings;
}

export function importDocx(bytes: Uint8Array, options: DocxImportOptions = {}): TemplateModel {
  return openDocx(bytes, options).model;
}

/** importDocx, with the opened package (its parts are read again for the filled .docx's compilation). */
export function openDocx(bytes: Uint8Array, options: DocxImportOptions = {}): { model: TemplateModel; pkg: DocxPackage } {
  const limits: DocxLimits = { ...DEFAULT_DOCX_LIMITS, ...options.limits };
  try {
    const pkg = DocxPackage.open(bytes, limits);
    return { model: readDocument(pkg, options.warnings ?? new Warnings()), pkg };
  } catch (err) {
    if (err instanceof EngineError) throw err;
    // Anything else is a file the readers could not make sense of (or a bug): never let it escape as such.
    const detail = err instanceof Error ? err.message : String(err);
    throw new EngineError('invalid_template', `The .docx file could not be read: ${detail}`);
  }
}

/** An on/off element: absent is off, present is on unless its w:val says 0/false/off. */
function flagOn(el: XElement | undefined): boolean {
  return el !== undefined && onOff(el.attrs['w:val']);
}

function readDocument(pkg: DocxPackage, warnings: Warnings): TemplateModel {
  const main = pkg.mainPart;
  const stylesRoot = optionalPart(pkg, main, 'styles');
  const defaultLang = child(child(child(child(stylesRoot, 'w:docDefaults'), 'w:rPrDefault'), 'w:rPr'), 'w:lang');
  const theme = readTheme(optionalPart(pkg, main, 'theme'), defaultLang?.attrs['w:eastAsia']);
  const styles = new StyleSheet(stylesRoot, theme);
  const numbering = new Numbering(optionalPart(pkg, main, 'numbering'), theme, styles, pkg.relatedPart(main, 'numbering') ?? 'word/numbering.xml');
  const settings = optionalPart(pkg, main, 'settings');
  const split = child(child(settings, 'w:compat'), 'w:splitPgBreakAndParaMark');
  const mode = children(child(settings, 'w:compat'), 'w:compatSetting').find((c) => c.attrs['w:name'] === 'compatibilityMode');
  const fixedAutoSpacing = flagOn(child(child(settings, 'w:compat'), 'w:doNotUseHTMLParagraphAutoSpacing'));
  const doc: DocContext = {
    pkg, styles, numbering, theme, warnings,
    splitPageBreakAndMark: split !== undefined && onOff(split.attrs['w:val']),
    compatibilityMode: Number(mode?.attrs['w:val']) || undefined,
    collapseSpacing: settings !== undefined && !fixedAutoSpacing,
    fixedAutoSpacing,
    runStyles: new Map(),
  };
  const notes = new Notes(doc, main, settings);
  doc.notes = notes;

  // The page colour is shown (and printed by LibreOffice's PDF export, the yardstick) only when settings.xml turns
  // on w:displayBackgroundShape, which Word writes whenever a page colour is chosen.
  const display = child(settings, 'w:displayBackgroundShape');
  const { items, background } = readBody(doc, main, display !== undefined && onOff(display.attrs['w:val']));
  notes.finish();
  const evenAndOdd = child(settings, 'w:evenAndOddHeaders') !== undefined && child(settings, 'w:evenAndOddHeaders')?.attrs['w:val'] !== '0';
  const headerFooters = new HeaderFooterReader(doc);
  const gutterAtTop = flagOn(child(settings, 'w:gutterAtTop'));

  const sections: Section[] = [];
  let refs: References = { header: {}, footer: {} };
  let pending: Block[] = [];
  const closeSection = (sectPr: XElement | undefined, mark?: Block, next?: XElement): void => {
    // A paragraph that holds nothing but the section's properties, before a continuous break, takes no line: Word
    // balances complex2010's two columns of four paragraphs and that mark two and two (its last rendering breaks
    // the column before the third), and LibreOffice's importer drops such a paragraph ("if the paragraph contains
    // only the section properties and it has no runs, we should not create a paragraph for it", DomainMapper.cxx)
    // unless it is all its section holds.
    if (mark && next && !startsNewPage(next) && pending.length > 1 && pending[pending.length - 1] === mark) pending.pop();
    refs = sectionReferences(doc, sectPr, refs);
    const previous = sections[sections.length - 1];
    const page = pageSetup(sectPr, gutterAtTop, theme);
    const sameColumns = JSON.stringify(previous?.page.columns) === JSON.stringify(page.columns);
    // Word lays a continuous section out between its own left and right margins (when it states them), on the
    // page it shares with the section before.
    const sameSides = child(sectPr, 'w:pgMar') === undefined ||
      (previous?.page.margins.left === page.margins.left && previous?.page.margins.right === page.margins.right);
    if (previous && !startsNewPage(sectPr) && sameColumns && sameSides) {
      // A continuous section break with nothing changing that the flow sees: one model section.
      for (const block of pending) previous.body.push(block);
    } else {
      const first = titlePage(sectPr);
      const section: Section = { page, body: pending };
      // A continuous section with other columns or side margins goes on below the one before, on its page.
      if (previous && !startsNewPage(sectPr)) section.continuous = true;
      const header = headerFooters.set(refs.header, first, evenAndOdd);
      const footer = headerFooters.set(refs.footer, first, evenAndOdd);
      if (header) section.header = header;
      if (footer) section.footer = footer;
      if (first) section.titlePage = true;
      const numbers = pageNumbering(sectPr);
      if (numbers) section.pageNumbers = numbers;
      sections.push(section);
    }
    pending = [];
  };
  const ends = items.filter((item) => item.type === 'sectionEnd');
  let endIndex = 0;
  for (const item of items) {
    if (item.type === 'sectionEnd') closeSection(item.sectPr, item.mark, ends[++endIndex]?.sectPr);
    else pending.push(item);
  }
  // Content after the last w:sectPr (a body without a final sectPr) still needs a section.
  if (pending.length > 0 || sections.length === 0) closeSection(undefined);
  // Endnotes follow the body, as Word prints them by default (w:endnotePr w:pos docEnd).
  const last = sections[sections.length - 1];
  if (notes.endnotes.length > 0) last.body.push(endnoteSeparator(last.page), ...notes.endnotes);

  const baseStyle = styles.paragraphStyle(undefined);
  const runDefaults = mergeR(styles.docR, baseStyle.r);
  const model: TemplateModel = {
    version: 1,
    sections,
    defaults: {
      run: toRunStyle(runDefaults, ''),
      paragraph: toParagraphStyle(mergeP(styles.docP, baseStyle.p)),
    },
  };
  // Default tab stops every w:defaultTabStop (settings.xml) instead of every half inch.
  const defaultTab = twips(child(settings, 'w:defaultTabStop')?.attrs['w:val']);
  if (defaultTab !== undefined && defaultTab >= 1 && defaultTab <= 1584 && Math.abs(defaultTab - 36) > 0.01) model.defaults.paragraph.defaultTab = round2(defaultTab);
  if (background) model.background = background;
  const metadata = readMetadata(pkg);
  if (metadata) model.metadata = metadata;
  const locale = localeOf(runDefaults.lang);
  if (locale) model.locale = locale;
  return model;
}

/**
 * The main part's blocks. Its XML tree is let go once they are read (a 30 MB document.xml makes a tree of
 * hundreds of megabytes, which the rest of the import and the compile need not hold as well).
 */
function readBody(doc: DocContext, main: string, displayBackground: boolean): {
  items: ReturnType<ReturnType<typeof createPartContext>['readBlocks']>;
  background: string | undefined;
} {
  const root = doc.pkg.xml(main);
  const body = child(root, 'w:body');
  if (!root || !body) throw new EngineError('invalid_template', 'The .docx main part has no document body.');
  const background = displayBackground ? pageColour(doc, main, child(root, 'w:background')) : undefined;
  const items = createPartContext(doc, main).readBlocks(body);
  doc.pkg.forget(main);
  return { items, background };
}

/**
 * The page colour (w:background: w:color, or a theme colour with tint/shade) as '#rrggbb'; white or automatic is no
 * colour at all. A fill effect (picture, texture, pattern, gradient: the VML v:background's v:fill) is not drawn —
 * its page colour is, and a warning says so.
 */
function pageColour(doc: DocContext, main: string, background: XElement | undefined): string | undefined {
  if (!background) return undefined;
  const attrs = background.attrs;
  const themed = attrs['w:themeColor'] ? themeColor(doc.theme, attrs['w:themeColor'], attrs['w:themeTint'], attrs['w:themeShade']) : undefined;
  const colour = themed ?? hexColor(attrs['w:color']);
  const fill = children(background).flatMap((shape) => children(shape, 'v:fill'));
  if (fill.some((f) => f.attrs['r:id'] !== undefined || (f.attrs.type !== undefined && f.attrs.type !== 'solid'))) {
    doc.warnings.add('background_not_drawn', main, 'w:background');
  }
  return colour && colour !== '#ffffff' ? colour : undefined;
}

/** The document's default language as a locale filters can use (Word writes e.g. 'de-DE'; 'x-none' is none). */
function localeOf(lang: string | undefined): string | undefined {
  if (!lang || !/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(lang)) return undefined;
  try {
    return Intl.getCanonicalLocales(lang)[0];
  } catch {
    return undefined;
  }
}

/** A part related to the main document by type; a decorative part that is damaged is treated as missing. */
function optionalPart(pkg: DocxPackage, main: string, type: string): XElement | undefined {
  const part = pkg.relatedPart(main, type);
  return part ? pkg.xml(part, type === 'theme') : undefined;
}

function readMetadata(pkg: DocxPackage): DocMetadata | undefined {
  const part = pkg.relatedPart('', 'core-properties');
  const core = part ? pkg.xml(part, true) : undefined;
  if (!core) return undefined;
  const meta: DocMetadata = {};
  const pick = (name: string): string | undefined => {
    const value = textOf(child(core, name)).trim();
    return value === '' ? undefined : value;
  };
  const title = pick('dc:title');
  const author = pick('dc:creator');
  const subject = pick('dc:subject');
  const keywords = pick('cp:keywords');
  if (title) meta.title = title;
  if (author) meta.author = author;
  if (subject) meta.subject = subject;
  if (keywords) meta.keywords = keywords;
  return Object.keys(meta).length > 0 ? meta : undefined;
}
