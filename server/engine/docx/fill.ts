/**
 * The editable copy of a document made from a .docx template: the template filled with the data, as a .docx,
 * with docxtemplater (+ pizzip). The tag language is docloom's (the tags/ parser, bind/ lookup and filters),
 * so a value reads the same in the .docx as in the PDF:
 *
 * - delimiters per template; `paragraphLoop` (section tags on paragraphs of their own repeat the paragraphs
 *   between them); a paragraph holding only a section repeats as a paragraph; a section filling a one-cell
 *   row repeats the row; tags in table rows repeat rows; line breaks in values become Word line breaks;
 * - names are looked up from the innermost list item outwards, with dots for nested objects and spaces
 *   allowed; filters (number, currency, date, upper, lower, default) format with the template's locale;
 *   a missing value is empty;
 * - `{%logo}` embeds the image (data: URI; an http(s) URL only through fillDocxAsync with a resolver), sized
 *   as in the PDF; `{$page}`/`{$pages}` become Word page fields; `{! …}` comments vanish.
 *
 * The template is checked with the importer first (zip limits, real .docx), so a file that could not be
 * uploaded cannot be filled either. Every failure is an EngineError.
 */
import Docxtemplater from 'docxtemplater';
import PizZip from 'pizzip';
import { resolve } from '../bind/lookup.js';
import { formatValue } from '../bind/format.js';
import { EngineError } from '../errors.js';
import { fitImage } from '../images/fit.js';
import { decodeDataUriImage, sniffImage, type SniffedImage } from '../images/sniff.js';
import { DEFAULT_DELIMITERS, type Delimiters } from '../model/types.js';
import { parseTag } from '../tags/parse-tag.js';
import type { CName, CompiledFilter } from '../tags/types.js';
import { docloomModule, inlinePictureXml, type ImageRequest, type PlacedImage } from './fill-module.js';
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

const DEFAULT_IMAGE_BYTES = 10 * 1024 * 1024;
const DEFAULT_IMAGE_PIXELS = 40_000_000;
const DATA_URI = /^data:/i;
const HTTP_URL = /^https?:\/\//i;
const REL_TYPE_IMAGE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';
const MEDIA_TYPES: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' };

interface DxtError {
  properties?: { errors?: DxtError[]; explanation?: string; id?: string };
  message?: string;
}

function describe(err: unknown): string {
  const e = err as DxtError;
  const inner = e?.properties?.errors;
  if (Array.isArray(inner) && inner.length > 0) {
    return inner.map((x) => x.properties?.explanation ?? x.message ?? 'error').join(' ');
  }
  return e?.properties?.explanation ?? e?.message ?? String(err);
}

function xmlAttr(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
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
  const maxWidth = page ? Math.max(1, page.width - page.margins.left - page.margins.right) : 451;
  const imageBytes = options.imageBytes ?? DEFAULT_IMAGE_BYTES;
  const imagePixels = options.imagePixels ?? DEFAULT_IMAGE_PIXELS;
  const [open, close] = delimiters;

  let failure: EngineError | null = null;
  const placed: PlacedImage[] = [];
  const relIds = new Map<string, string>();
  let drawingId = 90000;
  const mediaBySrc = new Map<string, { media: string; image: SniffedImage; data: Uint8Array }>();

  const loadImage = (src: string, field: string): { media: string; image: SniffedImage; data: Uint8Array } => {
    const known = mediaBySrc.get(src);
    if (known) return known;
    let dataBytes: Uint8Array;
    let image: SniffedImage | null;
    if (DATA_URI.test(src)) {
      const decoded = decodeDataUriImage(src, imageBytes, field);
      dataBytes = decoded.data;
      image = decoded.image;
    } else {
      const fetched = options.fetchedImages?.get(src);
      if (!fetched) {
        throw new EngineError('image_url_not_allowed', `The image for "${field}" is a URL, and URLs cannot be fetched here; send the image as a data: URI.`, field);
      }
      if (fetched.byteLength > imageBytes) {
        throw new EngineError('image_too_large', `The image for "${field}" is larger than the limit of ${imageBytes} bytes.`, field);
      }
      dataBytes = fetched;
      image = sniffImage(fetched);
      if (!image) throw new EngineError('invalid_image', `The image for "${field}" is not a PNG, JPEG, GIF or WebP image.`, field);
    }
    if (image.width * image.height > imagePixels) {
      throw new EngineError('image_too_large', `The image for "${field}" has ${image.width}×${image.height} pixels, more than the limit of ${imagePixels} pixels.`, field);
    }
    const media = `docloom_image${mediaBySrc.size + 1}.${MEDIA_TYPES[image.mime]}`;
    const entry = { media, image, data: dataBytes };
    mediaBySrc.set(src, entry);
    return entry;
  };

  const placeImage = (request: ImageRequest, part: string): string => {
    if (failure) return '';
    const { value, ref, box } = request;
    if (typeof value !== 'string' || value.trim() === '') return '';
    const src = value.trim();
    try {
      if (!DATA_URI.test(src) && !HTTP_URL.test(src)) {
        throw new EngineError('invalid_image', `The image for "${ref.name}" must be a data: URI or an http(s) URL.`, ref.name);
      }
      const { media, image, data: imageData } = loadImage(src, ref.name);
      const key = `${part}\u0000${media}`;
      let relId = relIds.get(key);
      if (!relId) {
        relId = `rIdDocloom${relIds.size + 1}`;
        relIds.set(key, relId);
        placed.push({ part, relId, media, data: imageData });
      }
      const size = fitImage(image, box, maxWidth);
      return inlinePictureXml(relId, ++drawingId, size.width, size.height, xmlAttr(ref.name));
    } catch (err) {
      failure = err instanceof EngineError ? err : new EngineError('invalid_image', `The image for "${ref.name}" could not be used.`, ref.name);
      return '';
    }
  };

  const parseImageTag = (inner: string): { ref: CName; box: { width: number; height: number } | null } | null => {
    const parsed = parseTag(`%${inner}`, `${open}%${inner}${close}`);
    return parsed.ok && parsed.tag.type === 'image' ? { ref: parsed.tag.ref, box: parsed.tag.box } : null;
  };

  // docxtemplater builds one parser per tag (and caches it by position); `info.tag` is the tag's part.
  const parser = (
    tag: string,
    info?: { tag?: { module?: string } },
  ): { get(scope: unknown, context: { scopeList: unknown[]; num: number; scopePathItem?: number[]; scopeTypes?: unknown[]; scopePath?: string[] }): unknown } => {
    const module = info?.tag?.module;
    let ref: CName;
    let filters: CompiledFilter[] = [];
    if (module === 'docloom-image') {
      const image = parseImageTag(tag);
      if (!image) return { get: () => '' };
      ref = image.ref;
    } else {
      const parsed = parseTag(tag, `${open}${tag}${close}`);
      if (!parsed.ok || (parsed.tag.type !== 'var' && parsed.tag.type !== 'open' && parsed.tag.type !== 'close')) {
        return { get: () => '' };
      }
      ref = parsed.tag.ref;
      if (parsed.tag.type === 'var') filters = parsed.tag.filters;
    }
    // Sections and images take the raw value (docxtemplater's loops follow Mustache truthiness, as ours do);
    // variables are formatted exactly as for the PDF. Names are looked up from the innermost scope outwards.
    const raw = module === 'loop' || module === 'docloom-image';
    return {
      get(_scope, context) {
        // The same evaluator as the PDF's; `$index` is the item number (from 0) of the innermost loop over a
        // list, as in bind/ (a condition's scope keeps the enclosing loop's number).
        const items = context.scopePathItem ?? [];
        const types = context.scopeTypes ?? [];
        let index: number | undefined;
        for (let j = Math.min(context.num, items.length) - 1; j >= 0; j--) {
          if (types[j] === 'array' && loopsOverList(context, j)) {
            index = items[j];
            break;
          }
        }
        const value = resolve(context.scopeList.slice(0, context.num + 1), ref, index);
        // A section over a text or number opens a scope holding that value, as in the PDF (`{{#name}}{{.}}{{/name}}`
        // shows the name); docxtemplater would keep the enclosing scope, so the value goes in as a one-item list.
        if (module === 'loop' && (typeof value === 'string' || typeof value === 'number') && value) return [value];
        if (raw) return value;
        try {
          return formatValue(value, filters, locale, ref.name);
        } catch (err) {
          // A data error (an aggregate over a non-number) fails the document as it does for the PDF;
          // docxtemplater would wrap it into a template error.
          if (!(err instanceof EngineError)) throw err;
          failure ??= err;
          return '';
        }
      },
    };
  };

  /**
   * Whether loop level `j` runs over a real list (its item number is `$index`), not over a text or number wrapped
   * as a one-item list above: wrapped values are scalars, so only those re-read their section's tag.
   */
  const loopsOverList = (context: { scopeList: unknown[]; scopePath?: string[] }, j: number): boolean => {
    const item = context.scopeList[j + 1];
    if (typeof item !== 'string' && typeof item !== 'number') return true;
    const tag = context.scopePath?.[j];
    if (tag === undefined) return true;
    const parsed = parseTag(`#${tag}`, `${open}#${tag}${close}`);
    if (!parsed.ok || parsed.tag.type !== 'open') return true;
    return Array.isArray(resolve(context.scopeList.slice(0, j + 1), parsed.tag.ref));
  };

  let zip: PizZip;
  try {
    zip = new PizZip(bytes);
  } catch (err) {
    throw new EngineError('invalid_template', `The .docx file could not be opened: ${describe(err)}`);
  }
  let doc: Docxtemplater;
  try {
    doc = new Docxtemplater(zip, {
      delimiters: { start: open, end: close },
      paragraphLoop: true,
      linebreaks: true,
      parser,
      nullGetter: () => '',
      modules: [docloomModule({ parseImageTag, placeImage }) as Docxtemplater.DXT.Module],
    });
  } catch (err) {
    throw new EngineError('invalid_template', `The template's tags cannot be filled: ${describe(err)}`);
  }
  try {
    doc.render(data);
  } catch (err) {
    if (err instanceof EngineError) throw err;
    throw new EngineError('invalid_template', `The template could not be filled: ${describe(err)}`);
  }
  if (failure) throw failure;
  addImages(doc.getZip() as PizZip, placed);
  return doc.toUint8Array({ compression: 'DEFLATE' });
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
