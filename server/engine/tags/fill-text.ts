/**
 * Fills the tags of a short one-line text, such as an output file name pattern (`Invoice {{number}}`), with
 * the same language as templates (variables, filters, sections). Never throws: a pattern with tag errors
 * comes back as written, and image or page tags give nothing.
 */
import type { Block, Delimiters, TemplateError, TemplateModel } from '../model/types.js';
import type { CompiledTemplate } from './types.js';
import { compileTags } from './compile.js';
import { bindBodySync } from '../bind/bind.js';

const CACHE_LIMIT = 500;
const cache = new Map<string, { template: CompiledTemplate; errors: TemplateError[] }>();

function modelOf(text: string): TemplateModel {
  return {
    version: 1,
    sections: [
      {
        page: { width: 100000, height: 100000, margins: { top: 0, right: 0, bottom: 0, left: 0 } },
        body: [{ type: 'paragraph', runs: [{ type: 'text', text }] }],
      },
    ],
    defaults: { run: {}, paragraph: {} },
  };
}

function compiledText(pattern: string, delimiters: Delimiters): { template: CompiledTemplate; errors: TemplateError[] } {
  const key = `${delimiters[0]}\u0000${delimiters[1]}\u0000${pattern}`;
  let entry = cache.get(key);
  if (!entry) {
    entry = compileTags(modelOf(pattern), delimiters);
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(key, entry);
  }
  return entry;
}

/** The problems of a text pattern (to refuse a bad output_filename up front); empty when it is fine. */
export function checkText(pattern: string, delimiters: Delimiters): TemplateError[] {
  return compiledText(pattern, delimiters).errors.map((e) => ({ ...e, location: { ...e.location, part: 'text' } }));
}

export function fillText(pattern: string, data: unknown, delimiters: Delimiters, locale?: string): string {
  if (!pattern.includes(delimiters[0])) return pattern;
  const { template, errors } = compiledText(pattern, delimiters);
  if (errors.length > 0) return pattern;
  let blocks: Block[];
  try {
    blocks = bindBodySync(template, data, locale);
  } catch {
    // Only a bad locale or a list over its limit can get here; a file name is not worth failing a document for.
    return pattern;
  }
  let out = '';
  for (const block of blocks) {
    if (block.type !== 'paragraph') continue;
    for (const run of block.runs) if (run.type === 'text') out += run.text;
  }
  return out;
}
