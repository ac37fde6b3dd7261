/**
 * Which face draws each character: the family's standard PDF font for WinAnsi text (nothing embedded), DejaVu
 * Sans then a Noto script font for Hebrew and Arabic, Droid Sans Fallback for CJK, else the family's TTF, else
 * DejaVu Sans, else Droid Sans Fallback; a character none of them covers becomes the missing-glyph box.
 */
import { ARABIC, CJK, DEFAULT_FAMILY, DEJAVU_SANS, HEBREW, type FamilyDef, type Variant } from './families.js';
import { familyTtfFace, missingGlyphFace, standardFace, type Face } from './faces.js';
import { onFontsDirChange } from './dir.js';

export interface FaceRun {
  text: string;
  face: Face;
}

function isHebrew(cp: number): boolean {
  return (cp >= 0x0590 && cp <= 0x05ff) || (cp >= 0xfb1d && cp <= 0xfb4f);
}

function isArabic(cp: number): boolean {
  return (cp >= 0x0600 && cp <= 0x06ff) || (cp >= 0x0750 && cp <= 0x077f) || (cp >= 0x08a0 && cp <= 0x08ff) ||
    (cp >= 0xfb50 && cp <= 0xfdff) || (cp >= 0xfe70 && cp <= 0xfefe);
}

function isCjk(cp: number): boolean {
  return (cp >= 0x2e80 && cp <= 0x2fdf) || (cp >= 0x3000 && cp <= 0x33ff) || (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xa960 && cp <= 0xa97f) || (cp >= 0xac00 && cp <= 0xd7ff) ||
    (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xffef) ||
    (cp >= 0x1100 && cp <= 0x11ff);
}

/** Script fonts have no italic: italic falls back to the upright face, bold italic to bold. */
function uprightOf(variant: Variant): Variant {
  return variant === 'bold' || variant === 'bolditalic' ? 'bold' : 'normal';
}

/** The face a family draws Latin text with (its standard font when it has one). */
export function primaryFace(family: FamilyDef, variant: Variant): Face {
  const chain = chainOf(family, variant);
  return chain.std ?? chain.own;
}

/**
 * The face whose ascent and descent a line takes for text that `face` draws in `family`'s stead: the family's own
 * (primary) face when `face` is the CJK font filling in for a family without those glyphs, else null (the face's
 * own metrics). LibreOffice draws such glyphs by fallback without letting them set the line height: 12 pt text
 * with w:eastAsia "Hei" (unknown, so the default family) is 13.8 pt a line there, with "SimSun" (the CJK font)
 * 15.7 pt. Hebrew and Arabic keep their fallback's metrics (DejaVu Sans, measured as LibreOffice draws them).
 */
export function fallbackLineFace(face: Face, family: FamilyDef, variant: Variant): Face | null {
  if (family === CJK || face !== familyTtfFace(CJK, 'normal')) return null;
  const primary = primaryFace(family, variant);
  return primary === face ? null : primary;
}

/** The faces one family and variant may draw with, resolved once (font files are read lazily). */
class FaceChain {
  private stdFace: Face | null | undefined;
  private ownFace: Face | undefined;

  constructor(
    private readonly family: FamilyDef,
    private readonly variant: Variant,
  ) {}

  get std(): Face | null {
    if (this.stdFace === undefined) this.stdFace = this.family.standard !== undefined ? standardFace(this.family, this.variant) : null;
    return this.stdFace;
  }

  get own(): Face {
    if (!this.ownFace) this.ownFace = familyTtfFace(this.family, this.variant);
    return this.ownFace;
  }

  /** The face for one code point, or null when no bundled font covers it. */
  faceFor(cp: number): Face | null {
    const std = this.std;
    if (std && std.covers(cp)) return std;
    // Below U+0590 (Latin, Greek, Cyrillic…) no script test can match: straight to the family's own face.
    if (cp >= 0x0590) {
      if (isHebrew(cp) || isArabic(cp)) {
        // Standing in for a family without the script (Times New Roman's Arabic in Word): DejaVu Sans, whose line
        // height is a text face's (1.16 em, as LibreOffice falls back); the Noto faces (up to 2.1 em, for their
        // marks) only draw what it lacks or when a template names them.
        const script = isHebrew(cp) ? HEBREW : ARABIC;
        if (this.family !== script) {
          const dejavu = familyTtfFace(DEJAVU_SANS, this.variant);
          if (dejavu.covers(cp)) return dejavu;
        }
        const f = familyTtfFace(script, uprightOf(this.variant));
        if (f.covers(cp)) return f;
      } else if (isCjk(cp)) {
        const f = familyTtfFace(CJK, 'normal');
        if (f.covers(cp)) return f;
      }
    }
    if (this.own.covers(cp)) return this.own;
    if (this.family === CJK) {
      // The CJK font has no Latin letters or digits: a run in an East Asian face (w:ascii="微软雅黑") draws them
      // in the default family, as LibreOffice does (its fallback is the default font, not the widest one), and
      // close to the narrow Latin of SimSun or YaHei that Word draws.
      const latin = chainOf(DEFAULT_FAMILY, this.variant);
      if (latin.std?.covers(cp)) return latin.std;
      if (latin.own.covers(cp)) return latin.own;
    }
    const dejavu = familyTtfFace(DEJAVU_SANS, this.variant);
    if (dejavu.covers(cp)) return dejavu;
    const cjk = familyTtfFace(CJK, 'normal');
    if (cjk.covers(cp)) return cjk;
    return null;
  }
}

const chains = new Map<FamilyDef, Map<Variant, FaceChain>>();
onFontsDirChange(() => chains.clear());

function chainOf(family: FamilyDef, variant: Variant): FaceChain {
  let byVariant = chains.get(family);
  if (!byVariant) {
    byVariant = new Map();
    chains.set(family, byVariant);
  }
  let chain = byVariant.get(variant);
  if (!chain) {
    chain = new FaceChain(family, variant);
    byVariant.set(variant, chain);
  }
  return chain;
}

/** The face for one code point, or null when no bundled font covers it. */
export function faceForChar(family: FamilyDef, variant: Variant, cp: number): Face | null {
  return chainOf(family, variant).faceFor(cp);
}

// Text a standard font draws whole: the common case, answered without looking at each character.
const LATIN1_ONLY = /^[\x20-\x7e\xa0-\xff\t\n]*$/;

/**
 * ASCII digits, spaces and punctuation, the no-break space and hyphens: they stay in the face of the text
 * around them when it has them (no switch to the standard font and back for a Cyrillic "1 000").
 */
function isNeutral(cp: number): boolean {
  return cp < 0x80 ? !((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) : cp === 0xa0 || cp === 0x2010 || cp === 0x2011;
}

/**
 * Splits cleaned text (see cleanText) into runs of one face each. Characters no font covers (a surrogate pair
 * among them) go to the missing-glyph face, which draws a box for each and keeps the character in the text.
 * '\t' and '\n' stay in the run of the character before them.
 */
export function splitByFace(text: string, family: FamilyDef, variant: Variant): FaceRun[] {
  const chain = chainOf(family, variant);
  const std = chain.std;
  if (std && LATIN1_ONLY.test(text)) return [{ text, face: std }];
  const runs: FaceRun[] = [];
  let current: Face | null = null;
  // The open run is DejaVu Sans or a Noto face drawing Hebrew or Arabic letters that the family itself lacks.
  let rtlStandIn = false;
  // Runs are consecutive slices of `text`: where the open one starts (control characters before the first face
  // chosen belong to the first run).
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Control characters are laid out, never drawn: keep them with whatever run is open.
    if (code === 0x09 || code === 0x0a) continue;
    // Spaces, digits and punctuation stay in the face of the text around them, except amid Hebrew or Arabic
    // drawn by a stand-in: there they are the run's own font's (Word draws a w:rtl run's spaces and digits in its
    // w:cs font, which has them; LibreOffice's glyph fallback replaces only the glyphs that font lacks), so a
    // line of Arabic in Times New Roman has Times' spaces, not DejaVu Sans' third-of-an-em ones.
    const keep: boolean = current !== null && !current.standard && !rtlStandIn && isNeutral(code) && current.covers(code);
    let face: Face | null = keep ? current : chain.faceFor(code);
    face ??= missingGlyphFace(DEJAVU_SANS.files.normal);
    if (face !== current) {
      rtlStandIn = (isHebrew(code) || isArabic(code)) && face !== chain.std && face !== chain.own;
      if (current) {
        runs.push({ text: text.slice(start, i), face: current });
        start = i;
      }
      current = face;
    }
  }
  if (current) runs.push({ text: start === 0 ? text : text.slice(start), face: current });
  else if (text) runs.push({ text, face: primaryFace(family, variant) });
  return runs;
}
