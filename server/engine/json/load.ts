/**
 * Reads a docloom .json template (either form, see docs/templates.md) into a TemplateModel. Anything wrong with
 * the file is an EngineError('invalid_template') whose message names the JSON path; nothing else is thrown.
 */
import type { TemplateModel } from '../model/types.js';
import { EngineError } from '../errors.js';
import { isObject, type Json } from './read.js';
import { readAuthoring } from './authoring.js';
import { readModelForm } from './model-form.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

export function loadJsonTemplate(bytes: Uint8Array): TemplateModel {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new EngineError('invalid_template', 'The template file is not UTF-8 text.');
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let doc: Json;
  try {
    doc = JSON.parse(text) as Json;
  } catch (err) {
    throw new EngineError('invalid_template', `The template file is not valid JSON: ${(err as Error).message}`);
  }
  try {
    if (!isObject(doc)) throw new EngineError('invalid_template', '$: a docloom template is a JSON object.');
    if (doc.docloom !== undefined) return readAuthoring(doc);
    if (doc.version !== undefined && doc.sections !== undefined) return readModelForm(doc);
    throw new EngineError(
      'invalid_template',
      '$: not a docloom template: expected "docloom": 1 (a template written by hand) or "version": 1 with "sections" (the full model).',
    );
  } catch (err) {
    if (err instanceof EngineError) throw err;
    // A bug or an absurd input (say, nesting deep enough to exhaust the stack) must still be a clean refusal.
    throw new EngineError('invalid_template', `The template cannot be read: ${(err as Error)?.message ?? String(err)}`);
  }
}
