/**
 * Hands docloom's subset fonts to jsPDF without the work jsPDF would otherwise repeat for every document:
 * parsing the font (its `addFont` handler runs TTFFont.open on the file) and deflating the font program when
 * the PDF is written (its Identity-H `putFont` handler). Both depend on the subset only, so they are done once
 * per subset (`prepareProgram`, cached with the subset in fonts/embed.ts) and shared by every document.
 *
 * What a document changes while its text is drawn — the glyphs used, their widths, the ToUnicode map — lives in
 * a fresh object per document (`DocFontMetadata`), so two documents built at the same time share nothing
 * mutable. The parsed font itself is only read (character → glyph, glyph widths).
 *
 * jsPDF's font internals are untyped; the interfaces below name the parts used here (jsPDF 4.2).
 */
import { zlibDeflate } from '../../flate.js';
import { jsPDF } from 'jspdf';

/** A font as jsPDF's TTFFont parses it: the parts read here and by jsPDF's text functions. */
interface ParsedTtf {
  cmap: DocFontMetadata['cmap'];
  characterToGlyph(code: number): number;
  widthOfGlyph(glyph: number): number;
  widthOfString(text: string, size: number, charSpace: number): number;
  bbox: number[];
  flags: number;
  stemV: number;
  italicAngle: number;
  ascender: number;
  decender: number;
  capHeight: number;
}

/** What a subset font costs once per process: parsed, and its program deflated. */
export interface FontProgram {
  ttf: ParsedTtf;
  /** The font program deflated (zlib), as the binary string jsPDF writes into the PDF. */
  deflated: string;
  /** Bytes before deflating (the stream's /Length1). */
  length: number;
}

/** The per-document font state jsPDF's text functions read and write (font.metadata). */
interface DocFontMetadata {
  /** Own property: jsPDF's UTF-8 text path checks metadata.hasOwnProperty('cmap') before mapping characters. */
  cmap: { unicode: { codeMap: Record<number, number | undefined> } };
  Unicode: { encoding: Record<string, never>; kerning: Record<string, never>; widths: Array<number | number[]> };
  glyIdsUsed: number[];
  toUnicode: Record<number, number>;
  characterToGlyph(code: number): number;
  widthOfGlyph(glyph: number): number;
  widthOfString(text: string, size: number, charSpace: number): number;
}

interface JsPdfFontObject {
  id: string;
  fontName: string;
  encoding: string;
  metadata: unknown;
  objectNumber?: number;
  isAlreadyPutted?: boolean;
}

interface PutFontArgs {
  font: JsPdfFontObject;
  out(line: string): void;
  newObject(): number;
  putStream(options: {
    data: string;
    filters?: string[];
    alreadyAppliedFilters?: string[];
    additionalKeyValues?: Array<{ key: string; value: string | number }>;
    addLength1?: boolean;
    objectId: number;
  }): void;
}

type Handler = (...args: never[]) => unknown;

interface PubSub {
  getTopics(): Record<string, Record<string, [Handler, boolean]>>;
  subscribe(topic: string, fn: Handler): string;
  unsubscribe(token: string): void;
}

const api = jsPDF.API as unknown as {
  TTFFont: { open(bytes: Uint8Array): ParsedTtf };
  PDFObject: { convert(value: unknown): string };
  events: Array<[string, Handler | [Handler, ...unknown[]]]>;
};

/** Parses and deflates a subset font once; the result is shared, read-only, by every document. */
export function prepareProgram(bytes: Uint8Array): FontProgram {
  return {
    ttf: api.TTFFont.open(bytes),
    // Level 6: zlib's default (and fflate's, which this used before).
    deflated: zlibDeflate(bytes, 6).toString('latin1'),
    length: bytes.length,
  };
}

/** jsPDF's global handlers of one event (every document subscribes them when it is created). */
function globalHandlers(topic: string): Set<Handler> {
  const out = new Set<Handler>();
  for (const [t, h] of api.events) if (t === topic) out.add(typeof h === 'function' ? h : h[0]);
  return out;
}

const GLOBAL_ADD_FONT = globalHandlers('addFont');

/** The fonts of one jsPDF document that docloom writes itself. */
export class JsPdfFonts {
  private readonly programs = new Map<string, FontProgram>();
  /** Our fonts' per-document metadata by jsPDF font name. */
  private readonly metadata = new Map<string, DocFontMetadata>();
  /** Glyphs whose width is already in metadata.Unicode.widths, by font name (rebuilt when jsPDF added some). */
  private readonly widthsRecorded = new Map<string, Set<number>>();
  /**
   * Per font name, what glyphString did for each character already drawn (its glyph bytes; '' for one the font
   * lacks), so that it does that work once per distinct character, not for every character drawn.
   */
  private readonly known = new Map<string, KnownCharacters>();

  constructor(private readonly doc: jsPDF) {
    const events = (doc.internal as unknown as { events: PubSub }).events;
    // jsPDF's addFont handlers would read the font from its virtual file system and parse it again; docloom
    // gives each font its metadata itself (below). The standard fonts were added when the document was created.
    for (const [token, [fn]] of Object.entries(events.getTopics().addFont ?? {})) if (GLOBAL_ADD_FONT.has(fn)) events.unsubscribe(token);
    events.subscribe('putFont', ((args: PutFontArgs) => this.put(args)) as Handler);
  }

  /** Adds a subset font under `name` (style 'normal'). */
  add(name: string, program: FontProgram): void {
    this.doc.addFont(name, name, 'normal', 'Identity-H');
    const font = (this.doc.internal as unknown as { getFont(name: string, style: string): JsPdfFontObject }).getFont(name, 'normal');
    const { ttf } = program;
    // Not a TTFFont instance: jsPDF's own Identity-H writer leaves the font to put() below.
    const metadata: DocFontMetadata = {
      cmap: ttf.cmap,
      Unicode: { encoding: {}, kerning: {}, widths: [] },
      glyIdsUsed: [0],
      toUnicode: {},
      characterToGlyph: (code) => ttf.characterToGlyph(code),
      widthOfGlyph: (glyph) => ttf.widthOfGlyph(glyph),
      widthOfString: (text, size, charSpace) => ttf.widthOfString(text, size, charSpace),
    };
    font.metadata = metadata;
    this.programs.set(font.id, program);
    this.metadata.set(name, metadata);
  }

  /**
   * `text` in our font `name` as the glyph string jsPDF's Identity-H text path writes (utf8TextFunction and
   * pdfEscape16 in jsPDF 4.2), the same two-byte codes written as the body of a literal string (glyphBytes)
   * instead of hex: a character the font's cmap lacks is dropped unless it is below U+0100, and the
   * string ends at the first character that maps to glyph 0. Like that path, it records each glyph's width
   * (/W) and its character (ToUnicode) — but once per distinct character (the bytes kept per character; a
   * glyph's ToUnicode entry is the last character drawn with it, as jsPDF leaves it), where jsPDF searches its
   * widths array for every character, and without jsPDF's list of every glyph drawn, which only its own font
   * writer reads.
   * Null for a font docloom did not add (the standard fonts).
   */
  glyphString(name: string, text: string): string | null {
    const meta = this.metadata.get(name);
    if (!meta) return null;
    const widths = meta.Unicode.widths;
    let recorded = this.widthsRecorded.get(name);
    // jsPDF's own text() (a document's first text in a font, rotated text) appends to the same array.
    if (!recorded || recorded.size * 2 !== widths.length) {
      recorded = new Set();
      for (const w of widths) if (typeof w === 'number') recorded.add(w);
      this.widthsRecorded.set(name, recorded);
    }
    let known = this.known.get(name);
    // jsPDF's own text() also writes ToUnicode entries (and lists every glyph it draws): what was known may not hold.
    if (!known || known.drawnByJsPdf !== meta.glyIdsUsed.length) {
      known = { drawnByJsPdf: meta.glyIdsUsed.length, pages: [] };
      this.known.set(name, known);
    }
    const pages = known.pages;
    const codeMap = meta.cmap.unicode.codeMap;
    const toUnicode = meta.toUnicode;
    let out = '';
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      // A character met before in this font: its bytes, its width and ToUnicode entry already recorded.
      const done = pages[code >> 8]?.[code & 0xff];
      if (done !== undefined) {
        out += done;
        continue;
      }
      // characterToGlyph, read from the same cmap directly.
      const glyph = codeMap[code] || 0;
      if (glyph === 0 && code >= 0x100) {
        remember(pages, code, '');
        continue;
      }
      // The glyph's ToUnicode entry names the last character drawn with it: a character that shares its glyph with
      // this one must record its own again when next drawn.
      const before = toUnicode[glyph];
      if (before !== undefined && before !== code) remember(pages, before, undefined);
      toUnicode[glyph] = code;
      if (!recorded.has(glyph)) {
        recorded.add(glyph);
        widths.push(glyph, [Math.trunc(meta.widthOfGlyph(glyph))]);
      }
      if (glyph === 0) break;
      const bytes = GLYPH_BYTES[glyph] ?? (GLYPH_BYTES[glyph] = glyphBytes(glyph));
      remember(pages, code, bytes);
      out += bytes;
    }
    return out;
  }

  /** Writes one of our fonts as jsPDF's Identity-H writer does, with the program deflated beforehand. */
  private put({ font, out, newObject, putStream }: PutFontArgs): void {
    const program = this.programs.get(font.id);
    if (!program || font.isAlreadyPutted) return;
    const meta = font.metadata as DocFontMetadata;
    const { ttf } = program;
    const fontFile = newObject();
    putStream({
      data: program.deflated,
      filters: [],
      alreadyAppliedFilters: ['/FlateDecode'],
      additionalKeyValues: [{ key: 'Length1', value: program.length }],
      objectId: fontFile,
    });
    out('endobj');
    const cmap = newObject();
    putStream({ data: toUnicodeCmap(meta.toUnicode), addLength1: true, objectId: cmap });
    out('endobj');
    const descriptor = newObject();
    out('<<');
    out('/Type /FontDescriptor');
    out(`/FontName /${font.fontName}`);
    out(`/FontFile2 ${fontFile} 0 R`);
    out(`/FontBBox ${api.PDFObject.convert(ttf.bbox)}`);
    out(`/Flags ${ttf.flags}`);
    out(`/StemV ${ttf.stemV}`);
    out(`/ItalicAngle ${ttf.italicAngle}`);
    out(`/Ascent ${ttf.ascender}`);
    out(`/Descent ${ttf.decender}`);
    out(`/CapHeight ${ttf.capHeight}`);
    out('>>');
    out('endobj');
    const descendant = newObject();
    out('<<');
    out('/Type /Font');
    out(`/BaseFont /${font.fontName}`);
    out(`/FontDescriptor ${descriptor} 0 R`);
    out(`/W ${api.PDFObject.convert(meta.Unicode.widths)}`);
    out('/CIDToGIDMap /Identity');
    out('/DW 1000');
    out('/Subtype /CIDFontType2');
    out('/CIDSystemInfo');
    out('<<');
    out('/Supplement 0');
    out('/Registry (Adobe)');
    out('/Ordering (Identity-H)');
    out('>>');
    out('>>');
    out('endobj');
    font.objectNumber = newObject();
    out('<<');
    out('/Type /Font');
    out('/Subtype /Type0');
    out(`/ToUnicode ${cmap} 0 R`);
    out(`/BaseFont /${font.fontName}`);
    out('/Encoding /Identity-H');
    out(`/DescendantFonts [${descendant} 0 R]`);
    out('>>');
    out('endobj');
    font.isAlreadyPutted = true;
  }
}

/** Characters whose glyph string is known, by the length of jsPDF's glyph list when it was last checked. */
interface KnownCharacters {
  drawnByJsPdf: number;
  /** By UTF-16 code: 256 blocks of 256, made as needed (a document uses a few). */
  pages: Array<Array<string | undefined> | undefined>;
}

function remember(pages: KnownCharacters['pages'], code: number, bytes: string | undefined): void {
  const page = pages[code >> 8] ?? (pages[code >> 8] = new Array<string | undefined>(256));
  page[code & 0xff] = bytes;
}

const hex4 = (n: number): string => n.toString(16).padStart(4, '0');

/**
 * A glyph id's two bytes (big-endian, Identity-H) inside a PDF literal string, as a binary string (one char per
 * byte): the backslash and parentheses escaped, and CR and LF too, since a reader turns an unescaped end of line
 * in a literal string into a single LF (PDF 32000-1, 7.3.4.2). Half the bytes of jsPDF's <hex> form for the
 * page stream to hold and deflate, and the deflate finds its matches faster in them: on a 313-page document's
 * text it took a third of the time the hex took, and the streams came out a tenth smaller.
 */
function glyphBytes(glyph: number): string {
  return byteEscaped(glyph >> 8) + byteEscaped(glyph & 0xff);
}

function byteEscaped(b: number): string {
  if (b === 0x28 || b === 0x29 || b === 0x5c) return `\\${String.fromCharCode(b)}`;
  if (b === 0x0a) return '\\n';
  if (b === 0x0d) return '\\r';
  return String.fromCharCode(b);
}

/** glyphBytes of each glyph id met so far (ids are below 2^16): a lookup instead of new strings per character drawn. */
const GLYPH_BYTES: Array<string | undefined> = new Array<string | undefined>(0x10000);

/**
 * The text a glyph stands for. Arabic is drawn as presentation forms (text/arabic.ts shapes it), but its text is
 * the letters: ﺏ ﺑ ﺒ ﺐ are all U+0628 and ﻻ is "لا", as a copy, a search or a screen reader expects.
 */
function unicodeOf(code: number): string {
  if ((code >= 0xfb50 && code <= 0xfdff) || (code >= 0xfe70 && code <= 0xfefc)) {
    const letters = String.fromCharCode(code).normalize('NFKC').replace(/ /g, '');
    if (letters.length > 0) return Array.from({ length: letters.length }, (_, i) => hex4(letters.charCodeAt(i))).join('');
  }
  return hex4(code);
}

/** The ToUnicode CMap of the glyphs a document used (glyph id → UTF-16 code), as jsPDF writes it. */
function toUnicodeCmap(map: Record<number, number>): string {
  let cmap =
    '/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CIDSystemInfo <<\n  /Registry (Adobe)\n  /Ordering (UCS)\n  /Supplement 0\n>> def\n/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n1 begincodespacerange\n<0000><ffff>\nendcodespacerange';
  const glyphs = Object.keys(map).map(Number).sort((a, b) => a - b);
  // A bfchar block holds at most 100 entries.
  for (let i = 0; i < glyphs.length; i += 100) {
    const chunk = glyphs.slice(i, i + 100);
    cmap += `\n${chunk.length} beginbfchar\n${chunk.map((g) => `<${hex4(g)}><${unicodeOf(map[g])}>`).join('\n')}\nendbfchar`;
  }
  return `${cmap}\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend`;
}
