/**
 * Geometry tests read the layout as data: these helpers run the real import (compileTemplate), binding and
 * layout + flow (layoutPages) and return the pages of positioned boxes the painter would draw, no PDF involved.
 */
import { compileTemplate } from '../../../server/engine/index.js';
import { bindTemplate } from '../../../server/engine/bind/bind.js';
import { layoutPages } from '../../../server/engine/pdf/render.js';
import type { LaidPage, TextBox } from '../../../server/engine/pdf/flow/boxes.js';
import type { TemplateModel } from '../../../server/engine/model/types.js';

export type { LaidPage, TextBox };

/** Pages of boxes of a bound model. */
export function modelPages(model: TemplateModel): LaidPage[] {
  return layoutPages(model);
}

/** Pages of boxes of a .docx template bound to `data` (compile + bind + layout). */
export async function docxPages(bytes: Uint8Array, data: Record<string, unknown> = {}): Promise<LaidPage[]> {
  const compiled = compileTemplate({ kind: 'docx', bytes });
  if (!compiled.ok) throw new Error(`template refused: ${JSON.stringify(compiled.errors)}`);
  return layoutPages(await bindTemplate(compiled.template, data, {}));
}

/** Every text box of the pages, with its page number. */
export function textBoxes(pages: LaidPage[]): Array<TextBox & { page: number }> {
  const out: Array<TextBox & { page: number }> = [];
  for (const p of pages) for (const b of p.boxes) if (b.kind === 'text') out.push({ ...b, page: p.number });
  return out;
}

/** The first text box whose text contains `needle` (throws, naming what is there, when none does). */
export function findText(pages: LaidPage[], needle: string): TextBox & { page: number } {
  const all = textBoxes(pages);
  const hit = all.find((b) => b.text.includes(needle));
  if (!hit) throw new Error(`"${needle}" not laid out; text: ${all.slice(0, 40).map((b) => b.text).join(' | ')}`);
  return hit;
}

/** The text on one page, boxes joined in placing order. */
export function pageText(page: LaidPage): string {
  return page.boxes.map((b) => (b.kind === 'text' ? b.text : '')).filter(Boolean).join(' ');
}
