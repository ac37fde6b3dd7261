/**
 * Filled .docx output (output_type=docx, and the editable copy kept beside a PDF) comes from the DOCX filler in
 * the engine. The service looks it up on the engine's facade as `fillDocx(bytes, data, delimiters, options)`
 * returning the filled .docx; until the facade exports it, .docx output is simply not offered (422 on
 * output_type=docx, no editable copy).
 */
import type { ImageResolver } from '../engine/index.js';
import { loadEngine, type Engine } from './engine.js';

export type DocxFill = (
  template: Uint8Array,
  data: Record<string, unknown>,
  delimiters: readonly [string, string],
  options: { locale?: string; fetchImage?: ImageResolver },
) => Uint8Array | Promise<Uint8Array>;

export function docxFiller(engine: Engine): DocxFill | undefined {
  // Read through `unknown`: the facade may not export it yet, and then TypeScript rightly knows no such member.
  const candidate = (engine as unknown as Record<string, unknown>).fillDocx;
  return typeof candidate === 'function' ? (candidate as DocxFill) : undefined;
}

export async function docxOutputAvailable(): Promise<boolean> {
  try {
    return docxFiller(await loadEngine()) !== undefined;
  } catch {
    return false;
  }
}
