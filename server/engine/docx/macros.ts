/**
 * No macros out (issue #10): a macro-enabled package (.docm, a macroEnabled main content type, vbaProject.bin or
 * vbaData.xml parts) is kept as a plain .docx — the VBA parts, every relationship to them and their content-type
 * entries removed, the main content type rewritten to the plain document type — so no file docloom serves (the
 * template file, a .docx output, the editable copy) can carry VBA. docloom never runs macros either way.
 */
import { zipSync, type Zippable } from 'fflate';
import { EngineError } from '../errors.js';
import { DEFAULT_DOCX_LIMITS, type DocxLimits } from './limits.js';
import { resolvePartPath } from './package.js';
import { hasZipSignature, ZipArchive } from './zip.js';

const PLAIN_MAIN = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';
const MACRO_MAIN = /^application\/vnd\.ms-word\.(document\.macroEnabled|template\.macroEnabledTemplate)\.main\+xml$/i;
/** Content types of the parts that hold or drive VBA: the project, its data, its key bindings and toolbars. */
const MACRO_PART_TYPE = /vbaProject|vbaData|keyMapCustomizations|attachedToolbars/i;
/** Relationship types (last segment) pointing at those parts. */
const MACRO_REL_TYPE = /\/(vbaProject|wordVbaData|keyMapCustomizations|attachedToolbars)$/i;
/** Part names that are VBA whatever the content types say. */
const MACRO_PART_NAME = /(^|\/)(vbaProject\.bin|vbaData\.xml|vbaProjectSignature\.bin|vbaProjectSignatureAgile\.bin|vbaProjectSignatureV3\.bin)$/i;

export interface MacroStripResult {
  bytes: Uint8Array;
  /** The zip entries removed (the VBA parts and their own relationship parts). */
  removed: string[];
  /** True when the main content type was macro-enabled and has been rewritten. */
  mainTypeRewritten: boolean;
}

const ELEMENT = (local: string): RegExp => new RegExp(`<(?:[\\w.-]+:)?${local}\\b[^>]*?(?:/>|>[\\s\\S]*?</(?:[\\w.-]+:)?${local}\\s*>)`, 'g');

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(tag);
  return m ? (m[2] ?? m[3]) : undefined;
}

function text(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

/** The part a relationship part belongs to: `word/_rels/document.xml.rels` → `word/document.xml`. */
function sourceOfRels(relsPath: string): string {
  const m = /^(.*?)_rels\/([^/]*)\.rels$/i.exec(relsPath);
  return m ? `${m[1]}${m[2]}` : '';
}

/**
 * Removes VBA from a .docx or .docm package. Returns null when there is nothing to remove (the bytes stay as
 * they were, byte for byte). Throws EngineError for a file that is not a readable zip (the importer says why).
 */
export function stripMacros(bytes: Uint8Array, limits: Partial<DocxLimits> = {}): MacroStripResult | null {
  if (!hasZipSignature(bytes)) return null;
  const zip = new ZipArchive(bytes, { ...DEFAULT_DOCX_LIMITS, ...limits });
  const names = zip.names();
  const typesName = names.find((n) => n.toLowerCase() === '[content_types].xml');
  if (!typesName) return null;
  const types = text(zip.read(typesName)!);

  const macroParts = new Set<string>();
  for (const name of names) if (MACRO_PART_NAME.test(name)) macroParts.add(name.toLowerCase());
  for (const tag of types.match(ELEMENT('Override')) ?? []) {
    const part = attr(tag, 'PartName');
    if (part && MACRO_PART_TYPE.test(attr(tag, 'ContentType') ?? '')) macroParts.add(part.replace(/^\/+/, '').toLowerCase());
  }
  // The macro-enabled main type, declared by an Override or (as some writers do) by a Default for the extension.
  const macroMain = [...(types.match(ELEMENT('Override')) ?? []), ...(types.match(ELEMENT('Default')) ?? [])].some((tag) => MACRO_MAIN.test(attr(tag, 'ContentType') ?? ''));
  const macroDefault = (types.match(ELEMENT('Default')) ?? []).some((tag) => MACRO_PART_TYPE.test(attr(tag, 'ContentType') ?? ''));
  // Relationship parts to scan: a VBA relationship may point at a part of any name.
  const relsNames = names.filter((n) => /\.rels$/i.test(n));
  const relsTexts = new Map<string, string>();
  for (const rels of relsNames) {
    const xml = text(zip.read(rels)!);
    relsTexts.set(rels, xml);
    for (const tag of xml.match(ELEMENT('Relationship')) ?? []) {
      if (!MACRO_REL_TYPE.test(attr(tag, 'Type') ?? '') || attr(tag, 'TargetMode') === 'External') continue;
      const target = attr(tag, 'Target');
      if (target) macroParts.add(resolvePartPath(sourceOfRels(rels), target).toLowerCase());
    }
  }
  if (macroParts.size === 0 && !macroMain && !macroDefault) return null;

  // The VBA parts' own relationship parts go with them (vbaProject.bin.rels → vbaData.xml).
  const removed = new Set<string>();
  for (const name of names) {
    const lower = name.toLowerCase();
    if (macroParts.has(lower) || (/\.rels$/i.test(name) && macroParts.has(sourceOfRels(lower)))) removed.add(name);
  }
  const remaining = names.filter((n) => !removed.has(n));

  const files: Zippable = {};
  for (const name of remaining) {
    if (name === typesName) {
      files[name] = new TextEncoder().encode(cleanContentTypes(types, macroParts, remaining));
    } else if (relsTexts.has(name)) {
      files[name] = new TextEncoder().encode(cleanRels(relsTexts.get(name)!, sourceOfRels(name), macroParts));
    } else {
      files[name] = zip.read(name)!;
    }
  }
  try {
    return { bytes: zipSync(files, { level: 6 }), removed: [...removed], mainTypeRewritten: macroMain };
  } catch (err) {
    throw new EngineError('invalid_template', `The .docx file could not be rewritten without its macros: ${(err as Error).message}`);
  }
}

function cleanContentTypes(types: string, macroParts: Set<string>, remaining: string[]): string {
  let out = types.replace(ELEMENT('Override'), (tag) => {
    const part = (attr(tag, 'PartName') ?? '').replace(/^\/+/, '').toLowerCase();
    const type = attr(tag, 'ContentType') ?? '';
    if (macroParts.has(part) || MACRO_PART_TYPE.test(type)) return '';
    if (MACRO_MAIN.test(type)) return tag.replace(type, PLAIN_MAIN);
    return tag;
  });
  out = out.replace(ELEMENT('Default'), (tag) => {
    const type = attr(tag, 'ContentType') ?? '';
    if (MACRO_MAIN.test(type)) return tag.replace(type, PLAIN_MAIN);
    if (!MACRO_PART_TYPE.test(type)) return tag;
    // A default for an extension other parts still use (.bin) keeps a neutral type; otherwise it goes.
    const ext = (attr(tag, 'Extension') ?? '').toLowerCase();
    const used = remaining.some((n) => n.toLowerCase().endsWith(`.${ext}`));
    return used ? tag.replace(type, 'application/octet-stream') : '';
  });
  return out;
}

function cleanRels(xml: string, source: string, macroParts: Set<string>): string {
  return xml.replace(ELEMENT('Relationship'), (tag) => {
    if (MACRO_REL_TYPE.test(attr(tag, 'Type') ?? '')) return '';
    const target = attr(tag, 'Target');
    if (target && attr(tag, 'TargetMode') !== 'External' && macroParts.has(resolvePartPath(source, target).toLowerCase())) return '';
    return tag;
  });
}
