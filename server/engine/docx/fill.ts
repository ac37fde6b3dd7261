/**
 * The editable copy of a document made from a .docx template: the template filled with the data, as a .docx.
 * One engine for both outputs (issue #12): compileTemplate compiled each templated part once (fill-plan.ts: the
 * same tag compiler as the PDF decides syntax, section pairs and what repeats); here each part is bound by the
 * same binder as the PDF (bind/bind.ts: loops, conditions, values, `$index`, images sized as in the PDF) and
 * written back as XML (fill-write.ts). Parts without a tag are copied unchanged. Every failure is an EngineError.
 */
import PizZip from 'pizzip';
import { bindTemplate, type BindLimits } from '../bind/bind.js';
import type { ImageResolver } from '../bind/images.js';
import { EngineError } from '../errors.js';
import { decodeDataUriImage } from '../images/sniff.js';
import type { ImageRun } from '../model/types.js';
import { BOX_MARKER, type ContainerPlan, type DocxFillPlan } from './fill-plan.js';
import { inlinePictureXml, writeBlocks } from './fill-write.js';

export type { DocxFillPlan } from './fill-plan.js';

export interface FillDocxOptions {
  /** BCP 47 locale for filters; default the template's language, else en-US (as for the PDF). */
  locale?: string;
  /** Data limits, as for the PDF (CONTRACT.md §8; each one left out keeps its default). */
  limits?: Partial<BindLimits>;
  /** How image values that are http(s) URLs are fetched, as for the PDF; without it only data: URIs are taken. */
  resolveImage?: ImageResolver;
}

const REL_TYPE_IMAGE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';
const MEDIA_TYPES: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' };

/** One picture to add to the package after writing: media file, relationship of the part that shows it. */
interface PlacedImage {
  part: string;
  relId: string;
  media: string;
  data: Uint8Array;
}

/**
 * Fills a compiled .docx template with data and returns the filled .docx. Binding is the PDF's own (bindTemplate),
 * image fetches included, so the same data fails with the same error in both outputs; an image URL used in several
 * parts is fetched once.
 */
export async function fillDocx(plan: DocxFillPlan, data: Record<string, unknown>, options: FillDocxOptions = {}): Promise<Uint8Array> {
  const locale = options.locale ?? plan.locale ?? 'en-US';
  const { limits } = options;
  const resolve = options.resolveImage;
  const fetches = new Map<string, Promise<{ data: Uint8Array; mime: string }>>();
  const resolveImage: ImageResolver | undefined = resolve
    ? (src, field) => {
        let fetch = fetches.get(src);
        if (!fetch) fetches.set(src, (fetch = resolve(src, field)));
        return fetch;
      }
    : undefined;
  let zip: PizZip;
  try {
    zip = new PizZip(plan.bytes);
  } catch (err) {
    throw new EngineError('invalid_template', `The .docx file could not be opened: ${(err as Error).message}`);
  }
  const placed: PlacedImage[] = [];
  const media = new Map<string, string>();
  const relIds = new Map<string, string>();
  let drawingId = 90000;

  for (const part of plan.parts) {
    const placePicture = (run: ImageRun): string => {
      let mediaName = media.get(run.src);
      const { data: imageData, image } = decodeDataUriImage(run.src, Number.MAX_SAFE_INTEGER, run.alt ?? 'image');
      if (!mediaName) {
        mediaName = `docloom_image${media.size + 1}.${MEDIA_TYPES[image.mime] ?? 'png'}`;
        media.set(run.src, mediaName);
      }
      const key = `${part.name}\u0000${mediaName}`;
      let relId = relIds.get(key);
      if (!relId) {
        relId = `rIdDocloom${relIds.size + 1}`;
        relIds.set(key, relId);
        placed.push({ part: part.name, relId, media: mediaName, data: imageData });
      }
      return inlinePictureXml(relId, ++drawingId, run.width, run.height, run.alt ?? '');
    };
    const fill = async (container: ContainerPlan): Promise<string> => {
      const bound = await bindTemplate(container.template, data, { locale, limits, resolveImage });
      return container.before + writeBlocks(bound.sections[0]?.body ?? [], container.source, placePicture) + container.after;
    };
    const boxes: string[] = [];
    for (const box of part.boxes) boxes.push(await fill(box));
    const xml = part.main ? await fill(part.main) : part.xml;
    const filled = boxes.length > 0 ? xml.replace(BOX_MARKER, (_, n: string) => boxes[Number(n)]) : xml;
    zip.file(part.name, declareUtf8(filled));
  }
  addImages(zip, placed);
  return zip.generate({ type: 'uint8array', compression: 'DEFLATE' });
}

/**
 * The part is written back as UTF-8 (PizZip encodes strings so), whatever the template's bytes were: a part read
 * from UTF-16 keeps its `encoding="UTF-16"` declaration in the text, which would make Word misread the UTF-8 bytes.
 */
function declareUtf8(xml: string): string {
  return xml.replace(/^\uFEFF?(<\?xml\b[^?]*?\bencoding\s*=\s*)(["'])[^"']*\2/, '$1$2UTF-8$2');
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
