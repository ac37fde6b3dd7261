/**
 * The editable copy of a document made from a .docx template: the template filled with the data, as a .docx.
 * One engine for both outputs (issue #12): each templated part (the main document, its headers and footers) is
 * read into the template model with its XML kept (fill-source.ts), compiled by the same tag compiler as the PDF
 * (tags/compile.ts: syntax, section pairs, which structure repeats), bound by the same binder (bind/bind.ts:
 * loops, conditions, values, `$index`, images sized as in the PDF) and written back as XML (fill-write.ts). The
 * final section properties (w:body's last w:sectPr) are never part of a loop; a section break inside a loop
 * repeats with it. Parts without a tag are copied unchanged.
 *
 * The template is checked with the importer first (zip limits, real .docx), so a file that could not be
 * uploaded cannot be filled either. Every failure is an EngineError.
 */
import PizZip from 'pizzip';
import { bindTemplateSync } from '../bind/bind.js';
import { EngineError } from '../errors.js';
import { decodeDataUriImage } from '../images/sniff.js';
import { DEFAULT_DELIMITERS, type Delimiters, type ImageRun, type PageSetup, type TemplateModel } from '../model/types.js';
import { compileTags } from '../tags/compile.js';
import { inlineTextBoxes, readPart, visibleText, type Dialect } from './fill-source.js';
import { inlinePictureXml, writeBlocks } from './fill-write.js';
import { rawChild, scanXml, type RawElement } from './fill-xml.js';
import { importDocx, type DocxImportOptions } from './import.js';

export interface FillDocxOptions {
  /** BCP 47 locale for filters; default the template's language, else en-US (as for the PDF). */
  locale?: string;
  /** Zip limits for reading the template (defaults: DEFAULT_DOCX_LIMITS). */
  limits?: DocxImportOptions['limits'];
  /** Largest image, in bytes and in pixels (defaults as CONTRACT.md §8: 10 MB, 40 megapixels). */
  imageBytes?: number;
  imagePixels?: number;
  /** Images already fetched for URL values, by URL (fillDocxAsync fills this in). */
  fetchedImages?: ReadonlyMap<string, Uint8Array>;
}

export type ImageFetcher = (src: string, field: string) => Promise<{ data: Uint8Array; mime: string }>;

const HTTP_URL = /^https?:\/\//i;
const REL_TYPE_IMAGE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';
const REL_OFFICE_DOCUMENT = /\/officeDocument$/;
const MEDIA_TYPES: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' };
const HEADER_FOOTER = /^word\/(?:header|footer)\d*\.xml$/;
/** SmartArt: the diagram's data (what Word regenerates it from) and drawing (what it shows until then). */
const DIAGRAM = /^word\/diagrams\/(?:data|drawing)\d*\.xml$/;

/** One picture to add to the package after writing: media file, relationship of the part that shows it. */
interface PlacedImage {
  part: string;
  relId: string;
  media: string;
  data: Uint8Array;
}

/** Fills a .docx template with data and returns the filled .docx. Synchronous: image URLs need fillDocxAsync. */
export function fillDocx(
  bytes: Uint8Array,
  data: Record<string, unknown>,
  delimiters: Delimiters = DEFAULT_DELIMITERS,
  options: FillDocxOptions = {},
): Uint8Array {
  const model = importDocx(bytes, { limits: options.limits });
  const locale = options.locale ?? model.locale ?? 'en-US';
  const page = model.sections[0]?.page;
  let zip: PizZip;
  try {
    zip = new PizZip(bytes);
  } catch (err) {
    throw new EngineError('invalid_template', `The .docx file could not be opened: ${(err as Error).message}`);
  }
  const placed: PlacedImage[] = [];
  const media = new Map<string, string>();
  const relIds = new Map<string, string>();
  let drawingId = 90000;

  for (const name of templatedParts(zip)) {
    const file = zip.file(name);
    if (!file) continue;
    const xml = file.asText();
    if (!visibleText(xml).includes(delimiters[0])) continue;
    const placePicture = (run: ImageRun): string => {
      let mediaName = media.get(run.src);
      const { data: imageData, image } = decodeDataUriImage(run.src, Number.MAX_SAFE_INTEGER, run.alt ?? 'image');
      if (!mediaName) {
        mediaName = `docloom_image${media.size + 1}.${MEDIA_TYPES[image.mime] ?? 'png'}`;
        media.set(run.src, mediaName);
      }
      const key = `${name}\u0000${mediaName}`;
      let relId = relIds.get(key);
      if (!relId) {
        relId = `rIdDocloom${relIds.size + 1}`;
        relIds.set(key, relId);
        placed.push({ part: name, relId, media: mediaName, data: imageData });
      }
      return inlinePictureXml(relId, ++drawingId, run.width, run.height, run.alt ?? '');
    };
    zip.file(name, fillPart(name, xml, data, delimiters, { locale, page, imageBytes: options.imageBytes, imagePixels: options.imagePixels, fetched: options.fetchedImages }, placePicture));
  }
  addImages(zip, placed);
  return zip.generate({ type: 'uint8array', compression: 'DEFLATE' });
}

/** The main document part (from the package relationships: its name or content type may be anything) and the headers and footers. */
function templatedParts(zip: PizZip): string[] {
  const rels = zip.file('_rels/.rels')?.asText() ?? '';
  let main = 'word/document.xml';
  for (const m of rels.matchAll(/<Relationship\b[^>]*>/g)) {
    const type = /\bType="([^"]*)"/.exec(m[0])?.[1] ?? '';
    const target = /\bTarget="([^"]*)"/.exec(m[0])?.[1];
    if (target && REL_OFFICE_DOCUMENT.test(type)) main = target.replace(/^\//, '');
  }
  return [main, ...Object.keys(zip.files).filter((n) => HEADER_FOOTER.test(n) || DIAGRAM.test(n)).sort()];
}

interface PartOptions {
  locale: string;
  page: PageSetup | undefined;
  imageBytes?: number;
  imagePixels?: number;
  fetched?: ReadonlyMap<string, Uint8Array>;
}

/**
 * One part: the text boxes that need blocks of their own first (each a container, filled in the data's top
 * scope), then the part itself (with the other text boxes read into their paragraphs, filled in its scope).
 */
function fillPart(name: string, xml: string, data: Record<string, unknown>, delimiters: Delimiters, options: PartOptions, placePicture: (run: ImageRun) => string): string {
  const diagram = DIAGRAM.test(name);
  // SmartArt's text bodies, and text boxes holding sections, are containers of their own, filled in the data's top
  // scope.
  let root = scan(xml);
  const boxes: RawElement[] = [];
  if (diagram) {
    collect(root, 'dsp:txBody', boxes);
    collect(root, 'dgm:t', boxes);
    boxes.sort((a, b) => a.start - b.start);
  } else {
    // Text boxes read as part of the paragraph around them (fill-source.ts) are filled there, in its scope.
    const inline = new Set<RawElement>();
    collectInlineBoxes(xml, root, delimiters[0], inline);
    collect(root, 'w:txbxContent', boxes);
    boxes.splice(0, boxes.length, ...boxes.filter((b) => !inline.has(b)));
  }
  if (boxes.length > 0) {
    let out = '';
    let at = 0;
    for (const box of boxes) {
      const inner = xml.slice(box.start, box.end);
      const filled = visibleText(inner).includes(delimiters[0]) ? fillContainer(inner, scan(inner), undefined, diagram ? 'a' : 'w', data, delimiters, options, placePicture) : inner;
      out += xml.slice(at, box.start) + filled;
      at = box.end;
    }
    xml = out + xml.slice(at);
    if (diagram) return xml;
    root = scan(xml);
  }
  if (diagram) return xml;
  const container = root.name === 'w:document' ? rawChild(root, 'w:body') : root;
  if (!container || container.openEnd === container.end) return xml;
  // w:body's last w:sectPr holds the final section's properties: never part of the content, never repeated.
  const last = container.children[container.children.length - 1];
  const finalSectPr = container.name === 'w:body' && last?.name === 'w:sectPr' ? last : undefined;
  return fillContainer(xml, container, finalSectPr, 'w', data, delimiters, options, placePicture);
}

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

/** `xml` with the content of `container` (a body, header, footer, text box) read, compiled, bound and written back. */
function fillContainer(
  xml: string,
  container: RawElement,
  finalSectPr: RawElement | undefined,
  dialect: Dialect,
  data: Record<string, unknown>,
  delimiters: Delimiters,
  options: PartOptions,
  placePicture: (run: ImageRun) => string,
): string {
  const source = readPart(xml, container, delimiters[0], dialect, finalSectPr);
  const page: PageSetup = options.page ?? { width: 595, height: 842, margins: { top: 72, right: 72, bottom: 72, left: 72 } };
  const sourceModel: TemplateModel = { version: 1, sections: [{ page, body: source.blocks }], defaults: { run: {}, paragraph: {} } };
  const { template, errors } = compileTags(sourceModel, delimiters);
  if (errors.length > 0) throw new EngineError('invalid_template', `The template's tags cannot be filled: ${errors[0].message}`);
  const limits = { ...(options.imageBytes ? { imageBytes: options.imageBytes } : {}), ...(options.imagePixels ? { imagePixels: options.imagePixels } : {}) };
  const bound = bindTemplateSync(template, data, { locale: options.locale, limits }, options.fetched);
  const body = writeBlocks(bound.sections[0]?.body ?? [], source, placePicture);
  const tail = finalSectPr ? xml.slice(finalSectPr.start, finalSectPr.end) : '';
  return xml.slice(0, container.openEnd) + body + tail + xml.slice(container.closeStart);
}

/** fillDocx for data whose image values may be http(s) URLs: fetches them first with `fetchImage`. */
export async function fillDocxAsync(
  bytes: Uint8Array,
  data: Record<string, unknown>,
  delimiters: Delimiters = DEFAULT_DELIMITERS,
  options: FillDocxOptions & { fetchImage?: ImageFetcher } = {},
): Promise<Uint8Array> {
  const urls = new Map<string, string>();
  collectUrls(data, '', urls, 0);
  const fetched = new Map<string, Uint8Array>(options.fetchedImages ?? []);
  if (urls.size > 0 && options.fetchImage) {
    const fetchImage = options.fetchImage;
    await Promise.all(
      [...urls].map(async ([url, field]) => {
        try {
          fetched.set(url, (await fetchImage(url, field)).data);
        } catch {
          // Not every URL in the data is an image tag's value: only a tag that needs it fails, when filling.
        }
      }),
    );
  }
  return fillDocx(bytes, data, delimiters, { ...options, fetchedImages: fetched });
}

const MAX_URLS = 200;

function collectUrls(value: unknown, field: string, out: Map<string, string>, depth: number): void {
  if (out.size >= MAX_URLS || depth > 32) return;
  if (typeof value === 'string') {
    if (HTTP_URL.test(value.trim())) out.set(value.trim(), field);
    return;
  }
  if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) collectUrls(v, Array.isArray(value) ? field : key, out, depth + 1);
  }
}

/** Adds the media files, their relationships (per part) and content types for the pictures placed. */
function addImages(zip: PizZip, placed: PlacedImage[]): void {
  if (placed.length === 0) return;
  const extensions = new Set<string>();
  const relsByPart = new Map<string, PlacedImage[]>();
  for (const image of placed) {
    if (!zip.file(`word/media/${image.media}`)) zip.file(`word/media/${image.media}`, image.data);
    extensions.add(image.media.slice(image.media.lastIndexOf('.') + 1));
    const list = relsByPart.get(image.part) ?? [];
    list.push(image);
    relsByPart.set(image.part, list);
  }
  for (const [part, images] of relsByPart) {
    const slash = part.lastIndexOf('/');
    const relsPath = `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
    // Targets are relative to the part's folder; media lives in word/media.
    const depth = part.split('/').length - 2;
    const prefix = depth > 0 ? '../'.repeat(depth) : '';
    const entries = images.map((i) => `<Relationship Id="${i.relId}" Type="${REL_TYPE_IMAGE}" Target="${prefix}media/${i.media}"/>`).join('');
    const existing = zip.file(relsPath)?.asText();
    const xml = existing && existing.includes('</Relationships>')
      ? existing.replace('</Relationships>', `${entries}</Relationships>`)
      : `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${entries}</Relationships>`;
    zip.file(relsPath, xml);
  }
  const typesFile = zip.file('[Content_Types].xml');
  if (typesFile) {
    let types = typesFile.asText();
    for (const ext of extensions) {
      if (new RegExp(`Extension="${ext}"`, 'i').test(types)) continue;
      const mime = Object.keys(MEDIA_TYPES).find((m) => MEDIA_TYPES[m] === ext) ?? 'application/octet-stream';
      types = types.replace(/<Types([^>]*)>/, `<Types$1><Default Extension="${ext}" ContentType="${mime}"/>`);
    }
    zip.file('[Content_Types].xml', types);
  }
}
