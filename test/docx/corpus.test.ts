/**
 * The public corpus (../shared/corpus/docx, 143 real files from 20 projects; skipped where it is absent): every
 * file compiles, and no element is dropped without a word — the element walk. An independent walk over each
 * file's body, headers and footers lists the children of every block container (body, header, footer, table
 * cell, text box), table, row, paragraph-level container and run; each must be one the importer reads, one it knows to be
 * invisible (warnings.ts IGNORED), or one the import reported in a warning for that file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { compileTemplate, type ImportWarning } from '../../server/engine/index.js';
import { IGNORED } from '../../server/engine/docx/warnings.js';
import { decodeXmlBytes, parseXml, type XElement } from '../../server/engine/docx/xml.js';

export const CORPUS = process.env.DOCLOOM_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus/docx');
const files = fs.existsSync(CORPUS) ? fs.readdirSync(CORPUS).filter((f) => f.endsWith('.docx')).sort() : [];
/** Delimiters that occur in no file: the files are documents, not templates. */
const DELIMITERS = ['\u0001<<', '>>\u0001'] as const;

/** What each dispatcher reads (blocks.ts walk, table.ts unwrap, paragraph.ts walkInline, readRun and readRunContent). */
const READ = {
  block: new Set(['w:p', 'w:tbl', 'w:sdt', 'w:customXml', 'w:ins', 'w:moveTo', 'mc:AlternateContent', 'w:sectPr']),
  inline: new Set(['w:r', 'w:hyperlink', 'w:sdt', 'w:fldSimple', 'w:smartTag', 'w:customXml', 'w:ins', 'w:moveTo', 'w:dir', 'w:bdo', 'mc:AlternateContent', 'm:oMath', 'm:oMathPara']),
  table: new Set(['w:tr', 'w:sdt', 'w:customXml', 'w:ins', 'w:moveTo']),
  row: new Set(['w:tc', 'w:sdt', 'w:customXml', 'w:ins', 'w:moveTo']),
  run: new Set(['w:fldChar', 'w:instrText', 'w:pgNum', 'w:t', 'w:tab', 'w:ptab', 'w:br', 'w:cr', 'w:noBreakHyphen', 'w:sym', 'w:drawing', 'w:pict', 'w:object', 'mc:AlternateContent', 'w:ruby', 'w:footnoteReference', 'w:endnoteReference']),
};
const LEVEL_OF: Record<string, keyof typeof READ> = {
  'w:body': 'block', 'w:hdr': 'block', 'w:ftr': 'block', 'w:tc': 'block', 'w:txbxContent': 'block',
  'w:p': 'inline', 'w:hyperlink': 'inline', 'w:fldSimple': 'inline', 'w:smartTag': 'inline',
  'w:tbl': 'table', 'w:tr': 'row',
  'w:r': 'run',
};

/** Element names at a dispatch level that the importer neither reads nor ignores by design. */
function unread(root: XElement, out: Set<string>): void {
  const level = LEVEL_OF[root.name];
  for (const node of root.children) {
    if (typeof node === 'string') continue;
    if (level && !READ[level].has(node.name) && !IGNORED.has(node.name)) out.add(node.name);
    // Deleted text and math internals are not content the dispatchers walk into.
    if (node.name === 'w:del' || node.name === 'w:moveFrom' || node.name.startsWith('m:')) continue;
    unread(node, out);
  }
}

function contentParts(zip: Record<string, Uint8Array>): string[] {
  return Object.keys(zip).filter((name) => /^word\/(document\d*|header\d+|footer\d+)\.xml$/i.test(name));
}

function reported(warnings: ImportWarning[], element: string): boolean {
  return warnings.some((w) => w.location.element === element);
}

test(`every corpus file compiles, and no element is dropped without a warning (${files.length} files)`, { skip: files.length === 0 && `no corpus at ${CORPUS}` }, () => {
  const silent: string[] = [];
  for (const file of files) {
    const bytes = fs.readFileSync(path.join(CORPUS, file));
    const result = compileTemplate({ kind: 'docx', bytes, delimiters: DELIMITERS });
    assert.ok(result.ok, `${file}: ${JSON.stringify(result.ok ? '' : result.errors)}`);
    const zip = unzipSync(bytes);
    const names = new Set<string>();
    for (const part of contentParts(zip)) unread(parseXml(decodeXmlBytes(zip[part])), names);
    for (const name of names) if (!reported(result.warnings, name)) silent.push(`${file}: <${name}>`);
    // Every chart part in the corpus is there and readable: charts are drawn, none is left out.
    assert.ok(!result.warnings.some((w) => w.code === 'chart_not_drawn'), `${file}: a chart left out`);
  }
  assert.deepEqual(silent, [], 'elements dropped without a warning');
});
