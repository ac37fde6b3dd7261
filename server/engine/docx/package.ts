/**
 * The Open Packaging layer of a .docx: what makes a zip a Word document (content types + the main part found
 * through the package relationships), part relationships, parsed parts (cached) and embedded media as data URIs.
 * Everything outside the zip (external relationships: linked images, remote templates, OLE links) is never
 * followed: only its target string is kept, for hyperlinks.
 */
import { EngineError } from '../errors.js';
import { DRAWING_MIME } from '../images/drawing.js';
import { drawMetafile } from '../images/metafile.js';
import { maxImagePixels } from '../images/pixel-limit.js';
import { sniffImage, toDataUri } from '../images/sniff.js';
import type { DocxLimits } from './limits.js';
import { relTypeName } from './namespaces.js';
import { children, decodeXmlBytes, parseXml, XmlError, type XElement } from './xml.js';
import { pictureFormat } from './warnings.js';
import { hasZipSignature, ZipArchive } from './zip.js';

export interface Relationship {
  id: string;
  /** Last segment of the relationship type URI: 'image', 'header', 'hyperlink', … */
  type: string;
  /** Part path inside the zip (no leading slash) for internal targets; the raw target for external ones. */
  target: string;
  external: boolean;
}

const WORD_MAIN_TYPES = new Set([
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml',
  'application/vnd.ms-word.document.macroenabled.main+xml',
  'application/vnd.ms-word.template.macroenabledtemplate.main+xml',
]);

const NOT_DOCX = 'The file is not a Word document (.docx).';

/**
 * Elements no reader looks at, left out of every part's tree as it is parsed (parseXml's `skip`): a style
 * sheet's w:latentStyles (the recommended, hidden and locked flags of built-in styles a document does not
 * define, up to ~370 w:lsdException elements; formatting never depends on them) is 46 % of the public corpus's
 * styles.xml bytes, and the median file's styles.xml is twice its document.xml. Settings' w:rsids (one w:rsid per
 * editing session: 15,000 elements in the corpus's settings.xml) and a theme's formatting scheme, object defaults
 * and extra colour schemes (a:fmtScheme: the fills, lines and effects of shape styles, about half of a theme;
 * only its colours and fonts are read, theme.ts) are never read either.
 */
const UNREAD: ReadonlySet<string> = new Set(['w:latentStyles', 'w:rsids', 'a:fmtScheme', 'a:objectDefaults', 'a:extraClrSchemeLst']);

/**
 * Elements whose content is parsed when a reader first looks into it (parseXml's `lazy`; checked for errors with
 * the part): a style sheet's w:style and a numbering part's w:abstractNum. The median corpus file's styles.xml is
 * twice its document.xml and its document uses a handful of the styles; Word copies every list ever pasted into
 * numbering.xml. StyleSheet and Numbering index them by the ids on their start tags (styles.ts, numbering.ts).
 */
const LAZY: ReadonlySet<string> = new Set(['w:style', 'w:abstractNum']);

/**
 * Attributes no reader looks at, left out of every element's `attrs` (parseXml's `skipAttributes`): the revision
 * session ids Word writes on paragraphs, runs, table rows and sections (w:rsidR, w:rsidRPr, w:rsidRDefault …) and
 * Word 2010's paragraph ids (w14:paraId, w14:textId) are a quarter of the attributes of the corpus's
 * document.xml parts; the filled .docx copies them with the part's text (fill-xml.ts), not from this tree.
 */
const UNREAD_ATTRIBUTES: ReadonlySet<string> = new Set([
  'w:rsidR', 'w:rsidRPr', 'w:rsidRDefault', 'w:rsidP', 'w:rsidDel', 'w:rsidTr', 'w:rsidSect', 'w14:paraId', 'w14:textId',
]);

/** Joins a relationship target to the folder of the part that owns the relationship. */
export function resolvePartPath(sourcePart: string, target: string): string {
  if (target.startsWith('/')) return normalise(target.slice(1));
  const slash = sourcePart.lastIndexOf('/');
  const base = slash >= 0 ? sourcePart.slice(0, slash + 1) : '';
  return normalise(base + target);
}

function normalise(path: string): string {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return out.join('/');
}

function relsPathOf(part: string): string {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}

export class DocxPackage {
  readonly mainPart: string;
  private readonly xmlCache = new Map<string, XElement | null>();
  /** Parts' text as read for xml(): compiling the filled .docx reads the templated parts again (text()). */
  private readonly textCache = new Map<string, string>();
  private readonly relsCache = new Map<string, Map<string, Relationship>>();
  private readonly mediaCache = new Map<string, ImageLookup>();

  private constructor(private readonly zip: ZipArchive) {
    this.mainPart = this.findMainPart();
  }

  /** Opens and checks the container: a zip, with [Content_Types].xml and a WordprocessingML main part. */
  static open(bytes: Uint8Array, limits: DocxLimits): DocxPackage {
    if (!hasZipSignature(bytes)) throw new EngineError('unsupported_file', NOT_DOCX);
    const zip = new ZipArchive(bytes, limits);
    if (!zip.has('[Content_Types].xml')) throw new EngineError('unsupported_file', `${NOT_DOCX} It has no [Content_Types].xml.`);
    return new DocxPackage(zip);
  }

  private contentTypes(): { overrides: Map<string, string>; defaults: Map<string, string> } {
    const root = this.xml('[Content_Types].xml');
    const overrides = new Map<string, string>();
    const defaults = new Map<string, string>();
    for (const el of children(root)) {
      const local = el.name.slice(el.name.indexOf(':') + 1);
      if (local === 'Override' && el.attrs.PartName) overrides.set(normalise(el.attrs.PartName).toLowerCase(), el.attrs.ContentType ?? '');
      if (local === 'Default' && el.attrs.Extension) defaults.set(el.attrs.Extension.toLowerCase(), el.attrs.ContentType ?? '');
    }
    return { overrides, defaults };
  }

  /**
   * The main part as Open Packaging finds it: the package's `officeDocument` relationship (transitional or strict
   * type URI, both ending in that name), else a part the content types declare as a Word main part, else
   * word/document.xml. Its type is resolved as OPC does (Override by part name, then Default by extension, both
   * case-insensitive); a part whose type is not a Word main type is still accepted when it reads as a
   * w:document, since only what cannot be read is refused.
   */
  private findMainPart(): string {
    const { overrides, defaults } = this.contentTypes();
    const typeOf = (part: string): string | undefined => {
      const key = normalise(part).toLowerCase();
      const override = overrides.get(key);
      if (override !== undefined) return override;
      const name = key.slice(key.lastIndexOf('/') + 1);
      const dot = name.lastIndexOf('.');
      return dot >= 0 ? defaults.get(name.slice(dot + 1)) : undefined;
    };
    let main: string | undefined;
    for (const rel of this.rels('').values()) {
      if (rel.type === 'officeDocument' && !rel.external && this.zip.has(rel.target)) {
        main = rel.target;
        break;
      }
    }
    if (main === undefined) {
      // No (usable) package relationship: the part the content types declare as the main document.
      for (const [part, type] of overrides) if (WORD_MAIN_TYPES.has(type.toLowerCase()) && this.zip.has(part)) main = part;
    }
    if (main === undefined && this.zip.has('word/document.xml')) main = 'word/document.xml';
    if (main === undefined) {
      throw new EngineError('unsupported_file', `${NOT_DOCX} It has no main document part (word/document.xml).`);
    }
    const type = typeOf(main);
    if (type !== undefined && WORD_MAIN_TYPES.has(type.toLowerCase())) return main;
    // Undeclared or declared oddly: a main part that reads as a WordprocessingML document is still one.
    let root: XElement | undefined;
    try {
      root = this.xml(main);
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
    }
    if (root?.name === 'w:document') return main;
    throw new EngineError('unsupported_file', `${NOT_DOCX} Its main part is ${type ? `of type ${type}` : 'not declared'}.`);
  }

  has(part: string): boolean {
    return this.zip.has(part);
  }

  /** Every part's name as the zip stores it. */
  partNames(): string[] {
    return this.zip.names();
  }

  /** A part's XML as text, undefined when there is no such part. */
  text(part: string): string | undefined {
    const cached = this.textCache.get(part.toLowerCase());
    if (cached !== undefined) return cached;
    const bytes = this.zip.read(part);
    return bytes ? decodeXmlBytes(bytes) : undefined;
  }

  /**
   * The parsed root element of a part; undefined when the part does not exist. Malformed XML is an invalid
   * template, unless `optional` (decorative parts such as diagram data): then the part is treated as missing.
   */
  xml(part: string, optional = false): XElement | undefined {
    const key = part.toLowerCase();
    if (this.xmlCache.has(key)) return this.xmlCache.get(key) ?? undefined;
    const bytes = this.zip.read(part);
    let root: XElement | null = null;
    if (bytes) {
      try {
        const text = decodeXmlBytes(bytes);
        this.textCache.set(key, text);
        root = parseXml(text, UNREAD, UNREAD_ATTRIBUTES, LAZY);
      } catch (err) {
        if (!(err instanceof XmlError)) throw err;
        if (!optional) throw new EngineError('invalid_template', `The .docx part ${part} is not well-formed XML: ${err.message}.`);
      }
    }
    this.xmlCache.set(key, root);
    return root ?? undefined;
  }

  /** Drops a parsed part from the cache (the main part's tree, once read, can be as large as the model). */
  forget(part: string): void {
    this.xmlCache.delete(part.toLowerCase());
  }

  /** Relationships of a part ('' = the package itself), by id. */
  rels(part: string): Map<string, Relationship> {
    const cached = this.relsCache.get(part);
    if (cached) return cached;
    const map = new Map<string, Relationship>();
    const relsPath = part === '' ? '_rels/.rels' : relsPathOf(part);
    const root = this.xml(relsPath);
    for (const el of children(root)) {
      if (!el.name.endsWith(':Relationship') && el.name !== 'Relationship') continue;
      const id = el.attrs.Id;
      const target = el.attrs.Target;
      if (!id || target === undefined) continue;
      const external = el.attrs.TargetMode === 'External';
      map.set(id, {
        id,
        type: relTypeName(el.attrs.Type ?? ''),
        target: external ? target : resolvePartPath(part, decodeURIComponentSafe(target)),
        external,
      });
    }
    this.relsCache.set(part, map);
    return map;
  }

  /** The first internal part related to `part` by a relationship of this type. */
  relatedPart(part: string, type: string): string | undefined {
    for (const rel of this.rels(part).values()) if (rel.type === type && !rel.external) return rel.target;
    return undefined;
  }

  /**
   * An embedded image as a data URI, or why it cannot be drawn: a format the renderer does not draw (EMF, WMF,
   * TIFF, SVG…, recognised by its bytes), a relationship pointing outside the package or to a missing part, or a
   * damaged part. EMF and WMF become vector pictures (images/metafile.ts).
   */
  image(part: string, relId: string): ImageLookup {
    const rel = this.rels(part).get(relId);
    if (!rel) return { problem: 'missing', target: part };
    if (rel.external) return { problem: 'missing', target: rel.target };
    const key = rel.target.toLowerCase();
    const cached = this.mediaCache.get(key);
    if (cached) return cached;
    let result: ImageLookup;
    let bytes: Uint8Array | undefined;
    try {
      bytes = this.zip.read(rel.target);
      if (!bytes) result = { problem: 'missing', target: rel.target };
      else {
        // Only formats the renderer draws (PNG, JPEG, GIF, WebP), recognised by their bytes, not their names.
        const image = sniffImage(bytes);
        const format = image ? undefined : pictureFormat(bytes);
        // EMF and WMF are drawn as vectors (images/metafile.ts) when they can be.
        const metafile = format === 'EMF' || format === 'WMF' ? drawMetafile(bytes, maxImagePixels()) : null;
        // Bytes of no picture format at all are damaged data, not a format the renderer lacks.
        result = image
          ? image.width * image.height > maxImagePixels()
            ? { problem: 'too_large', target: rel.target, format: image.mime.slice(6).toUpperCase() }
            : { uri: toDataUri(bytes, image.mime) }
          : metafile
            ? { uri: toDataUri(metafile.drawing, DRAWING_MIME), ...(metafile.damaged ? { damaged: rel.target } : {}) }
            : format
              ? { problem: 'unsupported', target: rel.target, format }
              : { problem: 'damaged', target: rel.target };
      }
    } catch (err) {
      // A damaged picture is left out like any picture that cannot be drawn; the document still imports.
      if (!(err instanceof EngineError) || err.code !== 'invalid_template') throw err;
      result = { problem: 'damaged', target: rel.target };
    }
    this.mediaCache.set(key, result);
    return result;
  }

  /** An embedded image as a data URI, or undefined when it cannot be drawn (see image()). */
  imageDataUri(part: string, relId: string): string | undefined {
    const found = this.image(part, relId);
    return 'uri' in found ? found.uri : undefined;
  }
}

/** A drawable image (`damaged`: the part drawn only in part, named for the warning), or why there is none. */
export type ImageLookup = { uri: string; damaged?: string } | { problem: 'missing' | 'damaged' | 'unsupported' | 'too_large'; target: string; format?: string };

function decodeURIComponentSafe(target: string): string {
  try {
    return decodeURIComponent(target);
  } catch {
    return target;
  }
}
