/**
 * Real PDF checks for tests: poppler-utils (pdftotext, pdfinfo, pdffonts, pdftoppm) and qpdf, run on bytes
 * written to a temporary file. Nothing here parses PDFs itself.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Runs `fn` on the bytes written to a temporary .pdf file (in its own folder, removed afterwards). */
export function withPdfFile<T>(bytes: Uint8Array, fn: (file: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-pdf-'));
  const file = path.join(dir, 'doc.pdf');
  fs.writeFileSync(file, bytes);
  try {
    return fn(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function run(cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
}

/** The text pdftotext extracts (layout kept with `layout: true`). */
export function pdfText(bytes: Uint8Array, opts: { password?: string; layout?: boolean; page?: number } = {}): string {
  return withPdfFile(bytes, (file) => {
    const args: string[] = [];
    if (opts.layout) args.push('-layout');
    if (opts.password !== undefined) args.push('-upw', opts.password);
    if (opts.page !== undefined) args.push('-f', String(opts.page), '-l', String(opts.page));
    return run('pdftotext', [...args, file, '-']);
  });
}

/** pdfinfo's key/value lines as an object ("Pages", "Title", "Page size", "Encrypted", …). */
export function pdfInfo(bytes: Uint8Array, opts: { password?: string } = {}): Record<string, string> {
  return withPdfFile(bytes, (file) => {
    const args = opts.password !== undefined ? ['-upw', opts.password, file] : [file];
    const out = run('pdfinfo', args);
    const info: Record<string, string> = {};
    for (const line of out.split('\n')) {
      const m = /^([^:]+):\s*(.*)$/.exec(line);
      if (m) info[m[1].trim()] = m[2].trim();
    }
    return info;
  });
}

export function pdfPageCount(bytes: Uint8Array, opts: { password?: string } = {}): number {
  return Number(pdfInfo(bytes, opts).Pages);
}

/** pdffonts' table rows: name, type, encoding, emb, sub, uni. */
export function pdfFonts(bytes: Uint8Array): Array<{ name: string; type: string; embedded: boolean; subset: boolean }> {
  return withPdfFile(bytes, (file) => {
    const lines = run('pdffonts', [file]).split('\n').slice(2).filter(Boolean);
    return lines.map((line) => {
      const cols = line.trim().split(/\s+/);
      // Columns from the right: object id (2 cols), uni, sub, emb, encoding…; the name is first.
      const n = cols.length;
      return { name: cols[0], type: cols.slice(1, n - 6).join(' '), embedded: cols[n - 5] === 'yes', subset: cols[n - 4] === 'yes' };
    });
  });
}

/** `qpdf --show-encryption` output (with the password when given). */
export function qpdfEncryption(bytes: Uint8Array, password?: string): string {
  return withPdfFile(bytes, (file) => {
    const args = ['--show-encryption'];
    if (password !== undefined) args.push(`--password=${password}`);
    try {
      return run('qpdf', [...args, file]);
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      return `${e.stdout ?? ''}${e.stderr ?? ''}`;
    }
  });
}

/** Renders one page to PNG with pdftoppm and returns the PNG bytes. */
export function pdfPagePng(bytes: Uint8Array, page = 1, dpi = 72, opts: { password?: string } = {}): Buffer {
  return withPdfFile(bytes, (file) => {
    const out = path.join(path.dirname(file), 'page');
    const args = ['-png', '-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile'];
    if (opts.password !== undefined) args.push('-upw', opts.password);
    run('pdftoppm', [...args, file, out]);
    return fs.readFileSync(`${out}.png`);
  });
}

/** Collapses runs of white space so assertions do not depend on layout. */
export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
