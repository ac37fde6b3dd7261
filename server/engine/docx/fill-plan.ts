/**
 * The filled .docx's half of compileTemplate (issue #12: one engine for both outputs). Each templated part of the
 * package (the main document, its headers and footers, SmartArt text) is read into the template model with its
 * XML kept (fill-source.ts) and compiled by the same tag compiler as the PDF (tags/compile.ts: syntax, section
 * pairs, which structure repeats), once per template. What is left for each document (fill.ts) is binding the
 * compiled parts with the PDF's binder and writing XML (fill-write.ts): no syntax or structure rule is decided
 * there.
 *
 * Text boxes holding sections, and SmartArt's text bodies, are containers of their own, filled in the data's top
 * scope. Each is compiled on its own and left in its part as a marker element (`<docloom-box n="…"/>`) that the
 * writer replaces with the filled box: the part around it is compiled without the box's tags, so a value written
 * into a box is never read as a tag of the part.
 */
import { EngineError } from '../errors.js';
import type { Delimiters, PageSetup, TemplateError, TemplateModel } from '../model/types.js';
import { compileTags } from '../tags/compile.js';
import type { CompiledTemplate } from '../tags/types.js';
import { inlineTextBoxes, readPart, visibleText, type Dialect, type SourcePart } from './fill-source.js';
import { rawChild, scanXml, type RawElement } from './fill-xml.js';
import type { DocxPackage } from './package.js';

const HEADER_FOOTER = /^word\/(?:header|footer)\d*\.xml$/;
/** SmartArt: the diagram's data (what Word regenerates it from) and drawing (what it shows until then). */
const DIAGRAM = /^word\/diagrams\/(?:data|drawing)\d*\.xml$/;
const A4: PageSetup = { width: 595, height: 842, margins: { top: 72, right: 72, bottom: 72, left: 72 } };

/** One container's content, compiled: what binding expands, and the XML written around it. */
export interface ContainerPlan {
  source: SourcePart;
  template: CompiledTemplate;
  /** The XML before the content (up to the container's opening tag) and after it (final w:sectPr included). */
  before: string;
  after: string;
}

export interface PartPlan {
  name: string;
  /** The boxes filled on their own, by marker number. */
  boxes: ContainerPlan[];
  /** The part's content when it has tags outside its boxes; else `xml` is written with its markers filled. */
  main?: ContainerPlan;
  /** The part with each box replaced by its marker. */
  xml: string;
}

/** Everything a filled .docx of this template needs besides the data. */
export interface DocxFillPlan {
  /** The template file: parts without tags, media and the rest are copied from it. */
  bytes: Uint8Array;
  /** The template's language (filters' default locale, as for the PDF). */
  locale: string | undefined;
  parts: PartPlan[];
}

export const BOX_MARKER = /<docloom-box n="(\d+)"\/>/g;

/**
 * Compiles every templated part of the package `bytes` (already opened as `pkg` and read into `model` by the
 * importer). Errors are the tag compiler's, located in their package part.
 */
export function planDocxFill(bytes: Uint8Array, pkg: DocxPackage, delimiters: Delimiters, model: TemplateModel): { plan: DocxFillPlan } | { errors: TemplateError[] } {
  const page = model.sections[0]?.page ?? A4;
  const errors: TemplateError[] = [];
  const parts: PartPlan[] = [];
  for (const name of templatedParts(pkg)) {
    const xml = pkg.text(name);
    if (xml === undefined || !holdsDelimiter(xml, delimiters[0])) continue;
    parts.push(planPart(name, xml, delimiters, page, errors));
  }
  if (errors.length > 0) return { errors };
  return { plan: { bytes, locale: model.locale, parts } };
}

/**
 * The main document part (as the importer found it: its name or content type may be anything), then the headers,
 * footers and SmartArt parts; each named as the zip stores it, which is how the filled package is written.
 */
function templatedParts(pkg: DocxPackage): string[] {
  const names = pkg.partNames();
  const stored = (part: string): string => names.find((n) => n.replace(/^\/+/, '').toLowerCase() === part.toLowerCase()) ?? part;
  return [stored(pkg.mainPart), ...names.filter((n) => HEADER_FOOTER.test(n) || DIAGRAM.test(n)).sort()];
}

/** One part: its boxes that are containers of their own (each replaced by a marker), then the rest. */
function planPart(name: string, original: string, delimiters: Delimiters, page: PageSetup, errors: TemplateError[]): PartPlan {
  const diagram = DIAGRAM.test(name);
  const root = scan(original);
  const found: RawElement[] = [];
  if (diagram) {
    collect(root, 'dsp:txBody', found);
    collect(root, 'dgm:t', found);
    found.sort((a, b) => a.start - b.start);
  } else {
    // Text boxes read as part of the paragraph around them (fill-source.ts) are filled there, in its scope.
    const inline = new Set<RawElement>();
    collectInlineBoxes(original, root, delimiters[0], inline);
    collect(root, 'w:txbxContent', found);
    found.splice(0, found.length, ...found.filter((b) => !inline.has(b)));
  }
  const plan: PartPlan = { name, boxes: [], xml: original };
  let xml = '';
  let at = 0;
  for (const box of found) {
    const inner = original.slice(box.start, box.end);
    if (!visibleText(inner).includes(delimiters[0])) continue;
    const innerRoot = scan(inner);
    plan.boxes.push(planContainer(name, inner, innerRoot, undefined, diagram ? 'a' : 'w', delimiters, page, errors));
    xml += `${original.slice(at, box.start)}<docloom-box n="${plan.boxes.length - 1}"/>`;
    at = box.end;
  }
  plan.xml = xml + original.slice(at);
  if (diagram || !visibleText(plan.xml).includes(delimiters[0])) return plan;
  const marked = plan.boxes.length > 0 ? scan(plan.xml) : root;
  const container = marked.name === 'w:document' ? rawChild(marked, 'w:body') : marked;
  if (!container || container.openEnd === container.end) return plan;
  // w:body's last w:sectPr holds the final section's properties: never part of the content, never repeated.
  const last = container.children[container.children.length - 1];
  const finalSectPr = container.name === 'w:body' && last?.name === 'w:sectPr' ? last : undefined;
  plan.main = planContainer(name, plan.xml, container, finalSectPr, 'w', delimiters, page, errors);
  return plan;
}

function planContainer(
  name: string,
  xml: string,
  container: RawElement,
  finalSectPr: RawElement | undefined,
  dialect: Dialect,
  delimiters: Delimiters,
  page: PageSetup,
  errors: TemplateError[],
): ContainerPlan {
  const source = readPart(xml, container, delimiters[0], dialect, finalSectPr);
  const model: TemplateModel = { version: 1, sections: [{ page, body: source.blocks }], defaults: { run: {}, paragraph: {} } };
  const compiled = compileTags(model, delimiters);
  for (const e of compiled.errors) errors.push({ ...e, location: { ...e.location, part: name } });
  const tail = finalSectPr ? xml.slice(finalSectPr.start, finalSectPr.end) : '';
  return { source, template: compiled.template, before: xml.slice(0, container.openEnd), after: tail + xml.slice(container.closeStart) };
}

/** Does the part's text hold `open` (split over runs or not)? The first test spares most parts the second. */
function holdsDelimiter(xml: string, open: string): boolean {
  // A character XML may escape can be in the text without being in the markup as itself.
  if (!ESCAPABLE.has(open[0]) && !xml.includes(open[0])) return false;
  return visibleText(xml).includes(open);
}

const ESCAPABLE = new Set(['<', '>', '&', '"', "'"]);

function scan(xml: string): RawElement {
  try {
    return scanXml(xml);
  } catch (err) {
    throw new EngineError('invalid_template', `The template could not be filled: ${(err as Error).message}`);
  }
}

/** The text boxes of every run (w:r) below `el` that fill-source reads into the paragraph around them. */
function collectInlineBoxes(xml: string, el: RawElement, open: string, out: Set<RawElement>): void {
  for (const c of el.children) {
    if (c.name === 'w:r') {
      for (const part of c.children) for (const box of inlineTextBoxes(xml, part, open)) out.add(box);
    } else if (c.name !== 'w:del' && c.name !== 'w:moveFrom') collectInlineBoxes(xml, c, open, out);
  }
}

/** The outermost elements called `name` below `el`, in document order. */
function collect(el: RawElement, name: string, out: RawElement[]): void {
  for (const c of el.children) {
    if (c.name === name) out.push(c);
    else collect(c, name, out);
  }
}
