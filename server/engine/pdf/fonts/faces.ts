/**
 * Faces: one font file (or one standard PDF font) in one variant, with the metrics layout measures with.
 * Everything here is read once per process and shared by every document (fonts are immutable).
 */
import fs from 'node:fs';
import path from 'node:path';
import { getFontsDir, onFontsDirChange } from './dir.js';
import { readTtfMetrics, type TtfMetrics } from './ttf.js';
import type { FamilyDef, StandardFont, Variant } from './families.js';
import { STANDARD_WIDTHS, WIN_ANSI_HIGH } from './standard-widths.js';

/** True when a standard PDF font can draw the code point without embedding anything (WinAnsiEncoding). */
export function isWinAnsi(cp: number): boolean {
  return (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) || WIN_ANSI_HIGH.has(cp);
}

/**
 * Characters a font may lack that are drawn with another glyph of the same font, of the same width, rather than
 * with a fallback font (an extra embedded font, other metrics): a no-break space as a space (as HarfBuzz, hence
 * LibreOffice, does; Carlito, the Calibri stand-in, has no U+00A0), a non-breaking hyphen and a hyphen as the
 * hyphen-minus (Carlito has neither). Candidates in order of preference. Spaces of other widths (U+2007, U+202F)
 * are not here: their glyph would need a width of its own.
 */
const STAND_INS: ReadonlyArray<readonly [number, readonly number[]]> = [
  [0x00a0, [0x0020]],
  [0x2010, [0x002d]],
  [0x2011, [0x2010, 0x002d]],
];

function standInsOf(ttf: TtfMetrics): ReadonlyMap<number, number> | null {
  let map: Map<number, number> | null = null;
  for (const [cp, candidates] of STAND_INS) {
    if (ttf.glyphOf[cp] !== 0) continue;
    const target = candidates.find((c) => ttf.glyphOf[c] !== 0);
    if (target !== undefined) (map ??= new Map()).set(cp, target);
  }
  return map;
}

export class Face {
  /** Standard fonts: widths in 1/1000 em by WinAnsi byte - 0x20. */
  private readonly afm: readonly number[] | null;
  /** Characters this TTF lacks, drawn with another of its glyphs (see STAND_INS); null when there are none. */
  readonly standIns: ReadonlyMap<number, number> | null;
  /**
   * The missing-glyph face only (missingGlyphFace): the character whose glyph it draws for every character, which
   * keeps its own code in the text (the painter gives the PDF's text layer the original with /ActualText).
   */
  readonly drawsAllAs: number | null;

  private constructor(
    /** Stable identity: `std:helvetica:bold` or the TTF file name. */
    readonly key: string,
    /** TTF file name (in the fonts folder), null for a standard font. */
    readonly file: string | null,
    /** jsPDF name and style of a standard font. */
    readonly standard: { font: StandardFont; style: Variant } | null,
    /** Em fractions above and below the baseline; their sum is the face's single line spacing. */
    readonly ascent: number,
    readonly descent: number,
    private readonly ttf: TtfMetrics | null,
    afm: readonly number[] | null,
    drawsAllAs: number | null = null,
  ) {
    this.afm = afm;
    this.standIns = ttf ? standInsOf(ttf) : null;
    this.drawsAllAs = drawsAllAs;
  }

  /** A face of `file` that draws every character as `box` (a glyph of that file). */
  static boxFace(file: string, metrics: TtfMetrics, box: number): Face {
    return new Face(`${file}#box`, file, null, metrics.ascent, metrics.descent, metrics, null, box);
  }

  static standardFace(font: StandardFont, style: Variant, vertical: TtfMetrics, afm: readonly number[]): Face {
    return new Face(`std:${font}:${style}`, null, { font, style }, vertical.ascent, vertical.descent, null, afm);
  }

  static ttfFace(file: string, metrics: TtfMetrics): Face {
    return new Face(file, file, null, metrics.ascent, metrics.descent, metrics, null);
  }

  /** True when this face can draw the code point (with its own glyph or a stand-in of the same font). */
  covers(cp: number): boolean {
    if (this.drawsAllAs !== null) return true;
    if (this.ttf) return cp < 0x10000 && (this.ttf.glyphOf[cp] !== 0 || this.standIns?.has(cp) === true);
    return isWinAnsi(cp);
  }

  /** The code point actually drawn for `cp`: itself, or the character whose glyph stands in for it. */
  drawnAs(cp: number): number {
    return this.drawsAllAs ?? this.standIns?.get(cp) ?? cp;
  }

  /** Advance of one code point, in em fractions (0 when not covered). */
  advance(cp: number): number {
    // The second half of a surrogate pair belongs to the box of the first.
    if (this.drawsAllAs !== null) return cp >= 0xdc00 && cp <= 0xdfff ? 0 : this.ttf!.advances[this.ttf!.glyphOf[this.drawsAllAs]];
    if (this.ttf) {
      const g = cp < 0x10000 ? this.ttf.glyphOf[this.ttf.glyphOf[cp] === 0 ? this.drawnAs(cp) : cp] : 0;
      return g === 0 ? 0 : this.ttf.advances[g];
    }
    const byte = cp < 0x80 || (cp >= 0xa0 && cp < 0x100) ? cp : WIN_ANSI_HIGH.get(cp);
    return byte !== undefined && byte >= 0x20 ? this.afm![byte - 0x20] / 1000 : 0;
  }

  /** Width in points of `text` (BMP characters this face covers) at `size`. */
  width(text: string, size: number): number {
    let em = 0;
    for (let i = 0; i < text.length; i++) em += this.advance(text.charCodeAt(i));
    return em * size;
  }
}

const ttfMetrics = new Map<string, TtfMetrics>();
const faces = new Map<string, Face>();
onFontsDirChange(() => {
  ttfMetrics.clear();
  faces.clear();
  fileBytes.clear();
});

const fileBytes = new Map<string, Uint8Array>();

/** The bytes of a bundled font file, read once. */
export function fontFileBytes(file: string): Uint8Array {
  let bytes = fileBytes.get(file);
  if (!bytes) {
    bytes = fs.readFileSync(path.join(getFontsDir(), file));
    fileBytes.set(file, bytes);
  }
  return bytes;
}

function metricsOf(file: string): TtfMetrics {
  let m = ttfMetrics.get(file);
  if (!m) {
    try {
      m = readTtfMetrics(fontFileBytes(file));
    } catch (err) {
      throw new Error(`docloom: cannot read the bundled font ${file} in ${getFontsDir()}: ${(err as Error).message}`, { cause: err });
    }
    ttfMetrics.set(file, m);
  }
  return m;
}

/** The face of a TTF file. */
export function ttfFace(file: string): Face {
  let face = faces.get(file);
  if (!face) {
    face = Face.ttfFace(file, metricsOf(file));
    faces.set(file, face);
  }
  return face;
}

/**
 * The face characters no bundled font has are drawn with: DejaVu Sans's white square (U+25A1), one per character,
 * while the text keeps the characters themselves.
 */
export function missingGlyphFace(file: string): Face {
  const key = `${file}#box`;
  let face = faces.get(key);
  if (!face) {
    face = Face.boxFace(file, metricsOf(file), 0x25a1);
    faces.set(key, face);
  }
  return face;
}

/** The TTF face of a family in a variant (the regular face when the family has no such variant). */
export function familyTtfFace(family: FamilyDef, variant: Variant): Face {
  return ttfFace(family.files[variant] ?? family.files.normal);
}

/** The standard PDF font of a family; line metrics come from its metric-compatible TTF twin. */
export function standardFace(family: FamilyDef, variant: Variant): Face {
  const font = family.standard!;
  const key = `std:${font}:${variant}`;
  let face = faces.get(key);
  if (!face) {
    face = Face.standardFace(font, variant, metricsOf(family.files[variant] ?? family.files.normal), STANDARD_WIDTHS[`${font}:${variant}`]);
    faces.set(key, face);
  }
  return face;
}
