/**
 * Metrics of the corpus measurement (scripts/fidelity.ts --corpus): words of a PDF, their similarity in order,
 * page images as grey pixels (pdftoppm -gray PGM) and the ink F1 of two pages.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { bulletText } from '../../server/engine/docx/numbering.js';

const execFileP = promisify(execFile);

export async function run(cmd: string, args: string[], timeoutMs = 300_000): Promise<string> {
  const { stdout } = await execFileP(cmd, args, { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, timeout: timeoutMs });
  return stdout;
}

export async function pdfPages(pdf: string): Promise<number> {
  const m = /^Pages:\s+(\d+)/m.exec(await run('pdfinfo', [pdf]));
  return m ? Number(m[1]) : 0;
}

/**
 * Words in physical reading order (pdftotext -layout). Symbol-font characters (Word's bullets are U+F0B7 in the
 * Symbol font) stay private-use code points in LibreOffice's text layer while docloom draws the character they
 * show: both sides read them through the importer's own table (bulletText).
 */
export async function pdfWords(pdf: string): Promise<string[]> {
  return (await run('pdftotext', ['-layout', pdf, '-']))
    .replace(/[\uf000-\uf0ff]/g, (c) => bulletText(c))
    .split(/\s+/)
    .filter(Boolean);
}

/** Above this many cells the quadratic table gives way to Myers' O((N+M)·D) walk. */
const DP_CELLS = 40_000_000;
/** Myers' walk gives up past this much work ((N+M)·D); the text is then compared in aligned windows. */
const MYERS_WORK = 3_000_000_000;
const WINDOW = 3000;

export interface TextScore {
  similarity: number;
  /** True when the LCS was bounded from below in aligned windows (very long and very different texts). */
  approximate: boolean;
}

/** 2·LCS/(|a|+|b|) over words: 1 when the same words come in the same order. */
export function lcsRatio(a: string[], b: string[]): TextScore {
  if (a.length === 0 && b.length === 0) return { similarity: 1, approximate: false };
  // Words as integers; common prefix and suffix taken off first.
  const ids = new Map<string, number>();
  const idOf = (w: string): number => {
    let id = ids.get(w);
    if (id === undefined) ids.set(w, (id = ids.size));
    return id;
  };
  const A = Int32Array.from(a, idOf);
  const B = Int32Array.from(b, idOf);
  let lo = 0;
  while (lo < A.length && lo < B.length && A[lo] === B[lo]) lo++;
  let hiA = A.length;
  let hiB = B.length;
  while (hiA > lo && hiB > lo && A[hiA - 1] === B[hiB - 1]) {
    hiA--;
    hiB--;
  }
  const common = lo + (A.length - hiA);
  const x = A.subarray(lo, hiA);
  const y = B.subarray(lo, hiB);
  let lcs: number | null;
  let approximate = false;
  if (x.length * y.length <= DP_CELLS) lcs = dpLcs(x, y);
  else lcs = myersLcs(x, y, Math.floor(MYERS_WORK / (x.length + y.length)));
  if (lcs === null) {
    approximate = true;
    lcs = 0;
    const n = Math.ceil(Math.max(x.length, y.length) / WINDOW);
    for (let i = 0; i < n; i++) {
      const xa = Math.floor((i * x.length) / n);
      const xb = Math.floor(((i + 1) * x.length) / n);
      const ya = Math.floor((i * y.length) / n);
      const yb = Math.floor(((i + 1) * y.length) / n);
      lcs += dpLcs(x.subarray(xa, xb), y.subarray(ya, yb));
    }
  }
  return { similarity: (2 * (common + lcs)) / (a.length + b.length), approximate };
}

function dpLcs(a: Int32Array, b: Int32Array): number {
  let prev = new Uint32Array(b.length + 1);
  let cur = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const ai = a[i - 1];
    for (let j = 1; j <= b.length; j++) cur[j] = ai === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/** LCS length by Myers' greedy shortest edit script (insertions and deletions), or null past maxD edits. */
function myersLcs(a: Int32Array, b: Int32Array, maxD: number): number | null {
  const n = a.length;
  const m = b.length;
  const limit = Math.min(n + m, maxD);
  const off = limit + 1;
  const v = new Int32Array(2 * limit + 3);
  for (let d = 0; d <= limit; d++) {
    for (let k = -d; k <= d; k += 2) {
      let xx = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let yy = xx - k;
      while (xx < n && yy < m && a[xx] === b[yy]) {
        xx++;
        yy++;
      }
      v[off + k] = xx;
      if (xx >= n && yy >= m) return (n + m - d) / 2;
    }
  }
  return null;
}

// ─── pages as pixels ──────────────────────────────────────────────────────────────────────────────────────────

export interface Grey {
  width: number;
  height: number;
  px: Uint8Array;
}

function parsePgm(buf: Buffer): Grey {
  // P5 <ws> width <ws> height <ws> maxval <one ws> data
  const fields: number[] = [];
  let i = 2;
  while (fields.length < 3) {
    while (/\s/.test(String.fromCharCode(buf[i]))) i++;
    if (buf[i] === 0x23) {
      while (buf[i] !== 0x0a) i++;
      continue;
    }
    let s = '';
    while (!/\s/.test(String.fromCharCode(buf[i]))) s += String.fromCharCode(buf[i++]);
    fields.push(Number(s));
  }
  i++;
  const [width, height] = fields;
  return { width, height, px: new Uint8Array(buf.buffer, buf.byteOffset + i, width * height) };
}

/** Pages first..last of a PDF as grey pixels at `dpi` (pdftoppm -gray); pages the PDF lacks are absent. */
export async function pageImages(pdf: string, dir: string, tag: string, last: number, dpi: number): Promise<Map<number, Grey>> {
  const out = new Map<number, Grey>();
  if (last < 1) return out;
  const base = path.join(dir, tag);
  await run('pdftoppm', ['-gray', '-r', String(dpi), '-f', '1', '-l', String(last), pdf, base]);
  for (const f of fs.readdirSync(dir)) {
    const m = new RegExp(`^${tag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(\\d+)\\.pgm$`).exec(f);
    if (m) out.set(Number(m[1]), parsePgm(fs.readFileSync(path.join(dir, f))));
  }
  return out;
}

const INK = 192;
const REACH = 2;

/** Ink mask on a canvas of w×h (a smaller page is padded with paper). */
function inkMask(g: Grey | undefined, w: number, h: number): Uint8Array {
  const m = new Uint8Array(w * h);
  if (!g) return m;
  for (let y = 0; y < g.height; y++) for (let x = 0; x < g.width; x++) if (g.px[y * g.width + x] < INK) m[y * w + x] = 1;
  return m;
}

/** The mask grown by REACH pixels in every direction (a square neighbourhood): separable max filter. */
function dilate(m: Uint8Array, w: number, h: number): Uint8Array {
  const tmp = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!m[y * w + x]) continue;
      for (let dx = Math.max(0, x - REACH); dx <= Math.min(w - 1, x + REACH); dx++) tmp[y * w + dx] = 1;
    }
  }
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!tmp[y * w + x]) continue;
      for (let dy = Math.max(0, y - REACH); dy <= Math.min(h - 1, y + REACH); dy++) out[dy * w + x] = 1;
    }
  }
  return out;
}

/**
 * F1 of the ink (grey < 192) of two pages, where an ink pixel of one is matched when the other has ink within
 * 2 pixels. A missing page is blank; two blank pages score 1, ink against a blank page 0.
 */
export function inkF1(a: Grey | undefined, b: Grey | undefined): number {
  const w = Math.max(a?.width ?? 0, b?.width ?? 0);
  const h = Math.max(a?.height ?? 0, b?.height ?? 0);
  if (w === 0 || h === 0) return 1;
  const ma = inkMask(a, w, h);
  const mb = inkMask(b, w, h);
  const da = dilate(ma, w, h);
  const db = dilate(mb, w, h);
  let countA = 0;
  let countB = 0;
  let hitA = 0;
  let hitB = 0;
  for (let i = 0; i < w * h; i++) {
    if (ma[i]) {
      countA++;
      if (db[i]) hitA++;
    }
    if (mb[i]) {
      countB++;
      if (da[i]) hitB++;
    }
  }
  if (countA === 0 && countB === 0) return 1;
  if (countA === 0 || countB === 0) return 0;
  const precision = hitA / countA;
  const recall = hitB / countB;
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}
