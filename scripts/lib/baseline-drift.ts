/**
 * The baseline-drift measure of the corpus run (scripts/fidelity.ts --corpus): on pages of running text, how far
 * apart the first and the last line's baselines are in docloom's PDF against LibreOffice's. Line heights, space
 * before/after and empty paragraphs that differ add up down a page; the ink score sees that only as a blur, this
 * measure as one ratio per page.
 *
 * Per page (1..3, as the ink score): the lines of `pdftotext -bbox-layout` on both sides, in page order (top to
 * bottom, then left to right), matched by their text as a longest common subsequence (so a line one side lacks, a
 * float or a header drawn elsewhere, does not shift the rest). A page counts as running text when LibreOffice's page
 * has ≥ 15 lines, and is comparable when ≥ 15 of its lines are matched; its ratio is the distance between the
 * first and the last matched line's baseline in docloom's PDF over LibreOffice's. pdftotext gives line boxes, whose
 * bottom is the baseline plus the font's descent as each PDF declares it (docloom's and LibreOffice's embedded
 * fonts declare it differently): the first and last line are taken among the matched lines of the most common box
 * height on each side (the body text), where the descent is the same and cancels out.
 */
import { run } from './corpus-metrics.js';

/** Fewer lines than this on LibreOffice's page: not running text. */
export const RUNNING_TEXT_LINES = 15;
/** A page whose ratio is within this of 1 keeps LibreOffice's vertical rhythm. */
export const DRIFT_TOLERANCE = 0.02;

export interface Line {
  text: string;
  /** The line box's bottom (points from the page top): the baseline plus the font's descent. */
  bottom: number;
  /** The line box's height: the font size times the font's ascent + descent (as each PDF declares them). */
  height: number;
  x: number;
}

export interface DriftPage {
  page: number;
  /** Lines on LibreOffice's page. */
  lines: number;
  /** Lines matched by text, in order. */
  matched: number;
  /** First-to-last matched baseline distance (pt), docloom and LibreOffice. */
  docloom: number;
  lo: number;
  /** docloom ÷ LibreOffice. */
  ratio: number;
  /** The first and the last matched line (their text, cut), to find them again. */
  first: string;
  last: string;
}

const ATTR = (name: string): RegExp => new RegExp(`${name}="([-\\d.]+)"`);
const X_MIN = ATTR('xMin');
const Y_MIN = ATTR('yMin');
const Y_MAX = ATTR('yMax');

function decodeEntities(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[\da-f]+);/gi, (m, e: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (named[e.toLowerCase()]) return named[e.toLowerCase()];
    const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return Number.isFinite(code) ? String.fromCodePoint(code) : m;
  });
}

/** Lines of pages 1..last, per page number, in page order. */
export async function pageLines(pdf: string, last: number): Promise<Map<number, Line[]>> {
  const out = new Map<number, Line[]>();
  if (last < 1) return out;
  const xml = await run('pdftotext', ['-f', '1', '-l', String(last), '-bbox-layout', pdf, '-']);
  let page = 0;
  for (const chunk of xml.split('<page ').slice(1)) {
    page++;
    const lines: Line[] = [];
    for (const m of chunk.matchAll(/<line ([^>]*)>([\s\S]*?)<\/line>/g)) {
      const words = [...m[2].matchAll(/<word [^>]*>([\s\S]*?)<\/word>/g)].map((w) => decodeEntities(w[1]));
      const text = words.join(' ').trim();
      if (!text) continue;
      const bottom = Number(Y_MAX.exec(m[1])?.[1] ?? 0);
      lines.push({ text, bottom, height: bottom - Number(Y_MIN.exec(m[1])?.[1] ?? bottom), x: Number(X_MIN.exec(m[1])?.[1] ?? 0) });
    }
    // Page order: top to bottom, left to right (lines within 1 pt of each other's bottom share a row).
    lines.sort((a, b) => (Math.abs(a.bottom - b.bottom) > 1 ? a.bottom - b.bottom : a.x - b.x));
    out.set(page, lines);
  }
  return out;
}

/** Index pairs of a longest common subsequence of two line lists, matched by text. */
function matchLines(a: Line[], b: Line[]): Array<[number, number]> {
  const n = a.length;
  const m = b.length;
  const dp = new Uint16Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      dp[i * (m + 1) + j] = a[i].text === b[j].text ? dp[(i + 1) * (m + 1) + j + 1] + 1 : Math.max(dp[(i + 1) * (m + 1) + j], dp[i * (m + 1) + j + 1]);
    }
  }
  const pairs: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i].text === b[j].text) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (dp[(i + 1) * (m + 1) + j] >= dp[i * (m + 1) + j + 1]) i++;
    else j++;
  }
  return pairs;
}

/** The drift of one page, or null when LibreOffice's page is not running text or too few lines match. */
export function pageDrift(page: number, ours: Line[], lo: Line[]): DriftPage | null {
  if (lo.length < RUNNING_TEXT_LINES) return null;
  // Pages of thousands of lines (tiny type, a dump) are not running text either; the table would be large.
  if (lo.length > 400 || ours.length > 400) return null;
  const pairs = matchLines(ours, lo);
  if (pairs.length < RUNNING_TEXT_LINES) return { page, lines: lo.length, matched: pairs.length, docloom: NaN, lo: NaN, ratio: NaN, first: '', last: '' };
  // The line box's bottom is the baseline plus a descent each PDF declares its own way: the first and the last
  // line are taken among the matched lines of the most common box height on both sides (the body text), so that
  // the descent cancels out (a heading's would not).
  const key = ([i, j]: [number, number]): string => `${ours[i].height.toFixed(1)}/${lo[j].height.toFixed(1)}`;
  const counts = new Map<string, number>();
  for (const pair of pairs) counts.set(key(pair), (counts.get(key(pair)) ?? 0) + 1);
  const body = [...counts].sort((x, y) => y[1] - x[1])[0][0];
  const same = pairs.filter((pair) => key(pair) === body);
  const [fa, fb] = same[0];
  const [la, lb] = same[same.length - 1];
  const docloom = ours[la].bottom - ours[fa].bottom;
  const theirs = lo[lb].bottom - lo[fb].bottom;
  const cut = (s: string): string => (s.length > 40 ? `${s.slice(0, 40)}…` : s);
  return {
    page,
    lines: lo.length,
    matched: pairs.length,
    docloom: Math.round(docloom * 10) / 10,
    lo: Math.round(theirs * 10) / 10,
    ratio: theirs > 0 ? Math.round((docloom / theirs) * 10000) / 10000 : NaN,
    first: cut(lo[fb].text),
    last: cut(lo[lb].text),
  };
}

/** Running-text pages 1..last of two PDFs (docloom's, LibreOffice's) with their drift (ratio NaN: not comparable). */
export async function baselineDrift(ours: string, lo: string, last: number): Promise<DriftPage[]> {
  const a = await pageLines(ours, last);
  const b = await pageLines(lo, last);
  const out: DriftPage[] = [];
  for (let p = 1; p <= last; p++) {
    const d = pageDrift(p, a.get(p) ?? [], b.get(p) ?? []);
    if (d) out.push(d);
  }
  return out;
}

export interface DriftSummary {
  /** Pages of running text on LibreOffice's side. */
  running: number;
  /** Of those, pages with ≥ 15 lines matched (a ratio). */
  comparable: number;
  within: number;
  taller: number;
  shorter: number;
}

export function summariseDrift(pages: DriftPage[]): DriftSummary {
  const cmp = pages.filter((d) => Number.isFinite(d.ratio));
  return {
    running: pages.length,
    comparable: cmp.length,
    within: cmp.filter((d) => Math.abs(d.ratio - 1) <= DRIFT_TOLERANCE).length,
    taller: cmp.filter((d) => d.ratio > 1 + DRIFT_TOLERANCE).length,
    shorter: cmp.filter((d) => d.ratio < 1 - DRIFT_TOLERANCE).length,
  };
}
