/**
 * A minimal TrueType reader: just what layout needs (character → glyph, glyph advances, vertical metrics).
 * jsPDF parses fonts itself when they are added to a document, but only the subset we hand it; measuring text
 * needs the full font, read once per process and kept.
 */

export interface TtfMetrics {
  unitsPerEm: number;
  /**
   * Ascent and descent (positive, below the baseline) as fractions of the em, chosen so that their sum is the
   * font's single line spacing the way Word computes it: the larger of the Windows metrics (usWinAscent +
   * usWinDescent) and the hhea ones (ascender + descender + lineGap), or the typographic ones when the font asks
   * for them (USE_TYPO_METRICS). Arial/Liberation Sans: 1.15; Calibri: 1.22; Caladea: 1.15. The descent is the
   * font's own (Windows or typographic); any line gap is part of the ascent, above the text.
   */
  ascent: number;
  descent: number;
  /** The ascent without the external leading (GDI's tmAscent): where a metafile's top-aligned text hangs from. */
  cellAscent: number;
  /** Glyph id of each BMP code point (0 = not covered). */
  glyphOf: Uint16Array;
  /** Advance width of each glyph in em fractions. */
  advances: Float32Array;
}

interface TableDir {
  [tag: string]: { offset: number; length: number } | undefined;
}

function readTables(view: DataView): TableDir {
  const count = view.getUint16(4);
  const tables: TableDir = {};
  for (let i = 0; i < count; i++) {
    const rec = 12 + i * 16;
    const tag = String.fromCharCode(view.getUint8(rec), view.getUint8(rec + 1), view.getUint8(rec + 2), view.getUint8(rec + 3));
    tables[tag] = { offset: view.getUint32(rec + 8), length: view.getUint32(rec + 12) };
  }
  return tables;
}

function need(tables: TableDir, tag: string): { offset: number; length: number } {
  const t = tables[tag];
  if (!t) throw new Error(`font has no ${tag} table`);
  return t;
}

function readCmapFormat4(view: DataView, at: number, glyphOf: Uint16Array): void {
  const segX2 = view.getUint16(at + 6);
  const ends = at + 14;
  const starts = ends + segX2 + 2;
  const deltas = starts + segX2;
  const rangeOffsets = deltas + segX2;
  for (let s = 0; s < segX2; s += 2) {
    const end = view.getUint16(ends + s);
    const start = view.getUint16(starts + s);
    const delta = view.getInt16(deltas + s);
    const ro = view.getUint16(rangeOffsets + s);
    for (let c = start; c <= end && c < 0xffff; c++) {
      let g: number;
      if (ro === 0) {
        g = (c + delta) & 0xffff;
      } else {
        const addr = rangeOffsets + s + ro + (c - start) * 2;
        if (addr + 2 > view.byteLength) continue;
        g = view.getUint16(addr);
        if (g !== 0) g = (g + delta) & 0xffff;
      }
      if (g !== 0) glyphOf[c] = g;
    }
  }
}

function readCmapFormat12(view: DataView, at: number, glyphOf: Uint16Array): void {
  const groups = view.getUint32(at + 12);
  for (let i = 0; i < groups; i++) {
    const g = at + 16 + i * 12;
    const start = view.getUint32(g);
    const end = Math.min(view.getUint32(g + 4), 0xfffe);
    let glyph = view.getUint32(g + 8);
    for (let c = start; c <= end; c++, glyph++) glyphOf[c] = glyph;
  }
}

function readCmap(view: DataView, table: { offset: number }): Uint16Array {
  const glyphOf = new Uint16Array(0x10000);
  const base = table.offset;
  const n = view.getUint16(base + 2);
  // Prefer the full Unicode table (3,10 / 0,4: format 12), else the BMP one (3,1 / 0,3: format 4).
  let best = -1;
  let bestRank = -1;
  for (let i = 0; i < n; i++) {
    const rec = base + 4 + i * 8;
    const platform = view.getUint16(rec);
    const encoding = view.getUint16(rec + 2);
    const offset = base + view.getUint32(rec + 4);
    const format = view.getUint16(offset);
    let rank = -1;
    if (format === 12 && ((platform === 3 && encoding === 10) || platform === 0)) rank = 3;
    else if (format === 4 && platform === 3 && encoding === 1) rank = 2;
    else if (format === 4 && platform === 0) rank = 1;
    if (rank > bestRank) {
      bestRank = rank;
      best = offset;
    }
  }
  if (best < 0) throw new Error('font has no Unicode cmap');
  if (view.getUint16(best) === 12) readCmapFormat12(view, best, glyphOf);
  else readCmapFormat4(view, best, glyphOf);
  return glyphOf;
}

/** Reads the metrics layout needs from a TrueType font file. Throws on a file it cannot read. */
export function readTtfMetrics(bytes: Uint8Array): TtfMetrics {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tables = readTables(view);
  const head = need(tables, 'head');
  const hhea = need(tables, 'hhea');
  const hmtx = need(tables, 'hmtx');
  const maxp = need(tables, 'maxp');
  const unitsPerEm = view.getUint16(head.offset + 18);
  const hheaAscent = view.getInt16(hhea.offset + 4);
  const hheaDescent = -view.getInt16(hhea.offset + 6);
  const lineGap = view.getInt16(hhea.offset + 8);
  const numberOfHMetrics = view.getUint16(hhea.offset + 34);
  const numGlyphs = view.getUint16(maxp.offset + 4);
  let winAscent = hheaAscent;
  let winDescent = hheaDescent;
  const os2 = tables['OS/2'];
  if (os2 && os2.length >= 78) {
    winAscent = view.getUint16(os2.offset + 74);
    winDescent = view.getUint16(os2.offset + 76);
  }
  let total = Math.max(winAscent + winDescent, hheaAscent + hheaDescent + Math.max(0, lineGap));
  // What the line has beyond the Windows ascent and descent is Windows' external leading (GDI's
  // tmExternalLeading: what the hhea line gap adds past the Windows metrics), and it goes above the text: the
  // descent stays the font's. LibreOffice does the same for Word's layout (SwFntObj::GetFontAscent adds the
  // external leading to the ascent on every platform but macOS). Liberation Sans: 0.905 + 0.033 above, 0.212
  // below; Carlito and DejaVu have none (their Windows metrics are the whole line).
  let descent = winDescent;
  let ascent = total - descent;
  let cellAscent = Math.max(winAscent, hheaAscent);
  // fsSelection bit 7 (USE_TYPO_METRICS): the font says its typographic metrics are the line spacing. Caladea,
  // Cambria's stand-in, sets it: its Windows metrics (1.30 em) are far taller than Cambria's line (1.17 em), its
  // typographic ones (1.15 em) are what LibreOffice uses.
  if (os2 && os2.length >= 78 && (view.getUint16(os2.offset + 62) & 0x80) !== 0) {
    const typoAscent = view.getInt16(os2.offset + 68);
    const typoTotal = typoAscent - view.getInt16(os2.offset + 70) + Math.max(0, view.getInt16(os2.offset + 72));
    if (typoAscent > 0 && typoTotal > 0) {
      total = typoTotal;
      descent = -view.getInt16(os2.offset + 70);
      ascent = total - descent;
      cellAscent = typoAscent;
    }
  }
  const advances = new Float32Array(numGlyphs);
  let last = 0;
  for (let g = 0; g < numGlyphs; g++) {
    if (g < numberOfHMetrics) last = view.getUint16(hmtx.offset + g * 4) / unitsPerEm;
    advances[g] = last;
  }
  return {
    unitsPerEm,
    ascent: ascent / unitsPerEm,
    descent: descent / unitsPerEm,
    cellAscent: cellAscent / unitsPerEm,
    glyphOf: readCmap(view, need(tables, 'cmap')),
    advances,
  };
}
