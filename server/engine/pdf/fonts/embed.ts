/**
 * Embedding TTF faces in one document: only the glyphs the document uses. Each face is subset with
 * harfbuzz (subset-font) before jsPDF sees it, because jsPDF embeds whatever font it is given (142 KB of DejaVu
 * for one Cyrillic line). Subsets are cached across documents, keyed by face and character set, so a template
 * rendered again with similar data reuses them — parsed and deflated for jsPDF once (fonts/jspdf-font.ts).
 */
import subsetFont from 'subset-font';
import type { jsPDF } from 'jspdf';
import { fontFileBytes, type Face } from './faces.js';
import { onFontsDirChange } from './dir.js';
import { mirroredCode } from '../text/bidi.js';
import { JsPdfFonts, prepareProgram, type FontProgram } from './jspdf-font.js';

interface Subset {
  /** Font name in the PDF: a six-letter subset tag + the face's name, so pdffonts reports `sub yes`. */
  name: string;
  /** The subset parsed and deflated, embedded as it is: it holds only the glyphs needed, and the content refers
   *  to its own glyph ids (CIDToGIDMap /Identity), so jsPDF's own re-subsetting is not needed. */
  program: FontProgram;
  /** Memory the cache entry holds, roughly (font bytes, deflated copy, jsPDF's parsed tables). */
  cost: number;
}

// Tables a PDF viewer never reads: OpenType layout (we shape before drawing), hinting, colour, variations.
const DROP_TABLES = [
  'GSUB', 'GPOS', 'GDEF', 'BASE', 'JSTF', 'MATH', 'kern', 'morx', 'feat', 'DSIG', 'gasp', 'hdmx', 'LTSH', 'VDMX',
  'fpgm', 'prep', 'cvt ', 'meta', 'COLR', 'CPAL', 'SVG ', 'sbix', 'CBDT', 'CBLC', 'EBDT', 'EBLC', 'EBSC', 'PCLT',
];

const MAX_CACHED_SUBSETS = 256;
const MAX_CACHED_BYTES = 64 * 1024 * 1024;
const cache = new Map<string, Subset | Promise<Subset>>();
let cachedBytes = 0;
onFontsDirChange(() => {
  cache.clear();
  cachedBytes = 0;
});

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function subsetTag(key: string): string {
  let h = fnv1a(key);
  let tag = '';
  for (let i = 0; i < 6; i++) {
    tag += String.fromCharCode(65 + (h % 26));
    h = Math.floor(h / 26) + i * 7919;
  }
  return tag;
}

function remember(key: string, subset: Subset): void {
  cache.set(key, subset);
  cachedBytes += subset.cost;
  // Evict the oldest entries (Map keeps insertion order; hits are re-inserted below).
  for (const [k, v] of cache) {
    if (cache.size <= MAX_CACHED_SUBSETS && cachedBytes <= MAX_CACHED_BYTES) break;
    if (v instanceof Promise) continue;
    cache.delete(k);
    cachedBytes -= v.cost;
  }
}

async function makeSubset(face: Face, chars: string, key: string): Promise<Subset> {
  const bytes = await subsetFont(Buffer.from(fontFileBytes(face.file!)), chars, {
    targetFormat: 'truetype',
    noLayoutClosure: true,
    noHinting: true,
    dropTables: DROP_TABLES,
  });
  const base = face.file!.replace(/\.ttf$/i, '').replace(/[^A-Za-z0-9-]/g, '');
  const program = prepareProgram(new Uint8Array(bytes));
  return { name: `${subsetTag(key)}+${base}`, program, cost: 3 * bytes.length + program.deflated.length };
}

async function subsetFor(face: Face, chars: string): Promise<Subset> {
  const key = `${face.key}\u0000${chars}`;
  const hit = cache.get(key);
  if (hit) {
    if (!(hit instanceof Promise)) {
      cache.delete(key);
      cache.set(key, hit);
    }
    return hit;
  }
  const pending = makeSubset(face, chars, key);
  cache.set(key, pending);
  try {
    const subset = await pending;
    cache.delete(key);
    remember(key, subset);
    return subset;
  } catch (err) {
    cache.delete(key);
    throw err;
  }
}

/** The TTF faces one document uses, the characters drawn with each, and their names once embedded. */
export class DocumentFonts {
  private readonly chars = new Map<Face, Set<number>>();
  private readonly names = new Map<Face, string>();
  /** Set once the fonts are embedded: later layout (headers per page) can no longer add characters. */
  private sealed = false;
  private jsPdfFonts: JsPdfFonts | null = null;

  /**
   * Per face, a bit per UTF-16 code (8 KB): set once `use` has recorded it. Layout records every word and space it
   * sets, so most calls see characters recorded before: one array read each instead of a Set insertion and a mirror
   * lookup.
   */
  private readonly seen = new Map<Face, Uint8Array>();
  /**
   * Per face once embedded, a bit per UTF-16 code: set when the face draws the character as itself in this document
   * (recorded, covered, no stand-in), what `drawable` tests for every character painted.
   */
  private readonly plain = new Map<Face, Uint8Array>();

  /** Records that `text` will be drawn with `face` (standard faces need nothing). */
  use(face: Face, text: string): void {
    if (face.standard || this.sealed) return;
    let seen = this.seen.get(face);
    let set = this.chars.get(face);
    if (!seen || !set) {
      seen = new Uint8Array(0x2000);
      set = new Set();
      this.seen.set(face, seen);
      this.chars.set(face, set);
      // A space is drawn inside runs; harmless when unused.
      set.add(0x20);
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c > 0x20 && (seen[c >> 3] & (1 << (c & 7))) === 0) {
        seen[c >> 3] |= 1 << (c & 7);
        set.add(c);
        // Right-to-left lines draw brackets mirrored: keep the partner too.
        const partner = mirroredCode(c);
        if (partner !== c) set.add(partner);
      }
    }
  }

  /** Subsets every face used and adds it to the document. Must run before anything is drawn with them. */
  async embed(doc: jsPDF): Promise<void> {
    this.sealed = true;
    const faces = [...this.chars.keys()];
    const subsets = await Promise.all(
      faces.map((face) => {
        // Only characters the face covers (a space may not be, e.g. in a script font).
        // Stand-ins: the glyph drawn for the character (a space for a no-break space the font lacks).
        const codes = [...new Set([...this.chars.get(face)!].filter((c) => face.covers(c)).map((c) => face.drawnAs(c)))].sort((a, b) => a - b);
        let chars = '';
        for (const c of codes) chars += String.fromCharCode(c);
        return subsetFor(face, chars);
      }),
    );
    if (faces.length === 0) return;
    const jsPdfFonts = new JsPdfFonts(doc);
    this.jsPdfFonts = jsPdfFonts;
    faces.forEach((face, i) => {
      const { name, program } = subsets[i];
      jsPdfFonts.add(name, program);
      this.names.set(face, name);
      if (face.drawsAllAs === null) {
        const plain = new Uint8Array(0x2000);
        for (const c of this.chars.get(face)!) if (c < 0x10000 && face.covers(c) && face.standIns?.has(c) !== true) plain[c >> 3] |= 1 << (c & 7);
        this.plain.set(face, plain);
      }
    });
  }

  /** jsPDF font name and style that select `face`. */
  select(face: Face): [name: string, style: string] {
    if (face.standard) return [face.standard.font, face.standard.style];
    const name = this.names.get(face);
    if (!name) throw new Error(`docloom: face ${face.key} drawn without being recorded`);
    return [name, 'normal'];
  }

  /**
   * `text` (from drawable()) as the glyph codes of `face`'s embedded font, the body of a PDF literal string (see
   * JsPdfFonts.glyphString); null for a standard face.
   */
  glyphString(face: Face, text: string): string | null {
    const name = face.standard ? undefined : this.names.get(face);
    return name && this.jsPdfFonts ? this.jsPdfFonts.glyphString(name, text) : null;
  }

  /**
   * `text` without the characters `face` cannot draw in this document, and with the characters it lacks but
   * draws with a stand-in glyph (Face.standIns) replaced by that glyph's character. Layout records every
   * character, so this normally returns `text` itself; it guards jsPDF, which silently drops the rest of a string at the
   * first character missing from an embedded font.
   */
  drawable(face: Face, text: string): string {
    if (face.standard) return text;
    const plain = this.plain.get(face);
    let ok = plain !== undefined;
    for (let i = 0; i < text.length && ok; i++) {
      const c = text.charCodeAt(i);
      if ((plain![c >> 3] & (1 << (c & 7))) === 0) ok = false;
    }
    if (ok) return text;
    const set = this.chars.get(face);
    let out = '';
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      // The missing-glyph face draws one box per character: nothing for the second half of a surrogate pair.
      if (face.drawsAllAs !== null && c >= 0xdc00 && c <= 0xdfff) continue;
      // A character the font lacks is drawn with the glyph standing in for it (the subset holds that one).
      if (set?.has(c) && face.covers(c)) out += String.fromCharCode(face.drawnAs(c));
    }
    return out;
  }
}
