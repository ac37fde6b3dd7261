/**
 * Helpers for the renderer's tests: model builders, word positions (pdftotext -bbox), pixels of a rendered
 * page, the PDF's object structure (qpdf), all from the real tools in poppler-utils and qpdf.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { Block, HeaderFooterSet, Inline, PageSetup, Paragraph, ParagraphStyle, RunStyle, Section, TemplateModel } from '../../../server/engine/model/types.js';
import { renderModel } from '../../../server/engine/pdf/render.js';
import { pdfPagePng, withPdfFile } from '../../helpers/pdf.js';
import { decodePng, type Raster } from './png.js';

export const A4: PageSetup = { width: 595.28, height: 841.89, margins: { top: 72, right: 72, bottom: 72, left: 72 } };

export function run(text: string, style?: RunStyle): Inline {
  return { type: 'text', text, style };
}

export function para(content: string | Inline[], style?: ParagraphStyle, runStyle?: RunStyle): Paragraph {
  const runs = typeof content === 'string' ? [run(content, runStyle)] : content;
  return { type: 'paragraph', runs, style };
}

export function section(body: Block[], extra: Partial<Section> = {}): Section {
  return { page: A4, body, ...extra };
}

export function model(sections: Section[] | Block[], extra: Partial<TemplateModel> = {}): TemplateModel {
  const first = sections[0] as unknown;
  const isSections = first !== null && typeof first === 'object' && 'body' in first;
  const list = (isSections ? sections : [section(sections as Block[])]) as Section[];
  return {
    version: 1,
    defaults: { run: { font: 'Helvetica', size: 11 }, paragraph: {} },
    sections: list,
    ...extra,
  };
}

export function headerFooter(blocks: Block[]): HeaderFooterSet {
  return { default: blocks };
}

export async function render(m: TemplateModel, test = false): Promise<Uint8Array> {
  return (await renderModel(m, { test })).bytes;
}

export interface Word {
  text: string;
  page: number;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

function unescapeHtml(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}

/** Every word pdftotext finds, with its box in points (y from the top of the page). */
export function words(bytes: Uint8Array): Word[] {
  const html = withPdfFile(bytes, (file) =>
    execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }));
  const out: Word[] = [];
  let page = 0;
  const re = /<page |<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    if (m[0] === '<page ') {
      page++;
      continue;
    }
    out.push({ text: unescapeHtml(m[5]), page, xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), yMax: Number(m[4]) });
  }
  return out;
}

/** The first word equal to `text` (throws when there is none, naming what was found). */
export function word(all: Word[], text: string, page?: number): Word {
  const w = all.find((x) => x.text === text && (page === undefined || x.page === page));
  if (!w) throw new Error(`word "${text}" not found; words: ${all.slice(0, 60).map((x) => x.text).join(' ')}`);
  return w;
}

/** Page `page` rendered at `dpi`; coordinates of rgb() are pixels (points × dpi / 72). */
export function raster(bytes: Uint8Array, page = 1, dpi = 72): Raster {
  return decodePng(pdfPagePng(bytes, page, dpi));
}

/** The PDF with its streams decompressed (qpdf --qdf), as text: to look for objects like /URI or /Outlines. */
export function structure(bytes: Uint8Array): string {
  return withPdfFile(bytes, (file) => {
    const out = `${file}.qdf`;
    execFileSync('qpdf', ['--qdf', '--object-streams=disable', file, out]);
    return fs.readFileSync(out, 'latin1');
  });
}

/** One key of `qpdf --json` (outlines, pages, …) as JSON text. */
export function qpdfJson(bytes: Uint8Array, key: string): string {
  return withPdfFile(bytes, (file) => execFileSync('qpdf', ['--json', `--json-key=${key}`, file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
}

/** qpdf --check: throws with qpdf's report when the file is damaged. */
export function assertValidPdf(bytes: Uint8Array): void {
  withPdfFile(bytes, (file) => {
    try {
      execFileSync('qpdf', ['--check', file], { encoding: 'utf8' });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; status?: number };
      // Exit code 3 = warnings only (the file is usable); 2 = errors.
      if (e.status !== 3) throw new Error(`qpdf --check failed: ${e.stdout ?? ''}${e.stderr ?? ''}`, { cause: err });
    }
  });
}

/** Counts pixels in a rectangle (points) matching a predicate. */
export function countPixels(r: Raster, dpi: number, box: { x: number; y: number; w: number; h: number },
  match: (rgb: [number, number, number]) => boolean): number {
  const k = dpi / 72;
  let n = 0;
  for (let y = Math.floor(box.y * k); y < Math.ceil((box.y + box.h) * k); y++) {
    for (let x = Math.floor(box.x * k); x < Math.ceil((box.x + box.w) * k); x++) if (match(r.rgb(x, y))) n++;
  }
  return n;
}

/** True when a colour is within `tolerance` of `target` on every channel. */
export function near(rgb: [number, number, number], target: [number, number, number], tolerance = 24): boolean {
  return Math.abs(rgb[0] - target[0]) <= tolerance && Math.abs(rgb[1] - target[1]) <= tolerance && Math.abs(rgb[2] - target[2]) <= tolerance;
}
