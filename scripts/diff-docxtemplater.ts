/**
 * Differential test of docloom's template language against docxtemplater 3.71 with its expressions parser
 * (angular-expressions), `paragraphLoop`, `linebreaks` and `nullGetter` → "" (issue #12, "Done when"):
 * for each template and data set, docxtemplater's filled text is the oracle; docloom's upload check, filled .docx
 * and PDF are compared with it and with each other.
 *
 *   npm run diff:docxtemplater            all sets: the shared docxtemplater examples, resources/templates, the
 *                                         generated set (one or more templates per grammar rule) and the .docx files
 *                                         the tests build (collected by running those tests, a few minutes)
 *   npm run diff:docxtemplater -- --dir F  the tests' .docx from folder F instead (collected before with
 *                                         DOCLOOM_COLLECT_DOCX=F node --import tsx --test test/docx/*.test.ts …)
 *   npm run diff:docxtemplater -- --no-tests   without the tests' .docx
 *   (test/engine/lang/diff-docxtemplater.test.ts runs the generated set in the suite)
 *
 * Fails (exit 1) on: a filled .docx that is not well-formed XML; a template docloom refuses or fails where
 * docxtemplater fills (beyond issue #12 item 4's refusals: invalid_expression, unsupported_tag); same text on
 * fewer than 95 % of the templates both fill; a text difference not listed as deliberate; PDF words ≠ .docx words
 * (word equality with counts; see pdfMatchesDocx).
 * Test tooling only: docxtemplater and angular-expressions are never on docloom's render path for this.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Docxtemplater from 'docxtemplater';
import PizZip from 'pizzip';
import { SaxesParser } from 'saxes';
import { compileTemplate, fillDocx, renderPdf, sampleData } from '../server/engine/index.js';
import type { Delimiters } from '../server/engine/model/types.js';
import { buildDocx, DEFAULT_SECT, p } from '../test/docx/build-docx.js';

// docxtemplater's expressions parser is CommonJS and requires angular-expressions (a devDependency).
import expressionParser from 'docxtemplater/expressions.js';

export interface DiffCase {
  id: string;
  set: 'generated' | 'fixtures' | 'resources' | 'tests';
  bytes: Uint8Array;
  kind: 'docx' | 'json';
  delimiters: Delimiters;
  data: Record<string, unknown>;
  /** Why docloom's text differs from docxtemplater's on purpose (docs/templates.md, "Deliberate differences"). */
  deliberate?: string;
}

export interface DiffResult {
  id: string;
  set: DiffCase['set'];
  oracle: { ok: true; text: string; withoutDiagrams: string } | { ok: false; error: string } | null;
  docloom: { ok: true; docx: string | null; pdf: string; wellFormed: boolean } | { ok: false; codes: string[]; stage: 'upload' | 'render'; message: string };
  verdict:
    | 'same'
    | 'deliberate'
    | 'different'
    | 'both refuse'
    | 'item-4 refusal'
    | 'limit refusal'
    | 'docloom refuses'
    | 'docloom only'
    | 'malformed input'
    | 'malformed docx'
    | 'pdf differs from docx';
  detail?: string;
  /** How PDF = .docx was shown: by the word check, or (when drawn text differs) by the filled .docx's own rendering. */
  shown?: 'words' | 'rendered';
}

const MAIN = /^word\/document\d*\.xml$/;
const HEADER_FOOTER = /^word\/(header|footer)\d*\.xml$/;
const DIAGRAM = /^word\/diagrams\/drawing\d*\.xml$/;
const BIDI_MARKS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The text of some parts of a package, paragraph by paragraph (mc:Fallback copies left out). */
function partsText(zip: PizZip, test: (name: string) => boolean): string {
  const out: string[] = [];
  const names = Object.keys(zip.files).filter(test).sort();
  for (const name of names) {
    const xml = (zip.file(name)?.asText() ?? '').replace(/<mc:Fallback>[\s\S]*?<\/mc:Fallback>/g, '');
    for (const para of xml.split(/<(?:w|a):p[ >]/)) {
      let text = '';
      for (const m of para.matchAll(/<(?:w|a):t(?: [^>]*)?>([^<]*)<\/(?:w|a):t>|<w:(br|tab|ptab|cr)\b[^>]*\/>/g)) text += m[1] !== undefined ? decode(m[1]) : ' ';
      out.push(text);
    }
  }
  return squash(out.join(' '));
}

/** Headers, then the main part, then footers, then diagram drawings (as the PDF has them on a page). */
export function docxWords(bytes: Uint8Array, diagrams = true): string {
  const zip = new PizZip(bytes);
  const parts = [partsText(zip, (n) => /^word\/header/.test(n) && HEADER_FOOTER.test(n)), partsText(zip, (n) => MAIN.test(n)), partsText(zip, (n) => /^word\/footer/.test(n) && HEADER_FOOTER.test(n))];
  if (diagrams) parts.push(partsText(zip, (n) => DIAGRAM.test(n)));
  return squash(parts.join(' '));
}

/** The main part's (and diagrams') words: what the PDF must show whatever headers its pages use. */
function bodyWords(bytes: Uint8Array): string {
  const zip = new PizZip(bytes);
  return squash([partsText(zip, (n) => MAIN.test(n)), partsText(zip, (n) => DIAGRAM.test(n))].join(' '));
}

function decode(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}

export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Every XML part of the package parses as well-formed XML. */
export function wellFormed(bytes: Uint8Array): string | null {
  const zip = new PizZip(bytes);
  for (const name of Object.keys(zip.files)) {
    if (!/\.(xml|rels)$/.test(name)) continue;
    const parser = new SaxesParser();
    let error: string | null = null;
    parser.on('error', (e) => {
      error ??= e.message;
    });
    parser.write(zip.file(name)?.asText() ?? '').close();
    if (error) return `${name}: ${error as string}`;
  }
  return null;
}

/**
 * The PDF's words in the order docloom draws them (pdftotext -raw): cell by cell, row by row. pdftotext's default
 * reading order guesses columns from the gaps between lines, so a table whose rows sit close together was read
 * column by column.
 */
function pdfToText(bytes: Uint8Array): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-diff-'));
  try {
    const file = path.join(dir, 'out.pdf');
    fs.writeFileSync(file, bytes);
    return squash(execFileSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Words with how often each occurs, list markers, page numbers and bidi marks aside (drawn, not written, in a .docx). */
function words(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const w of text.replace(BIDI_MARKS, '').split(/\s+/)) {
    if (w === '' || /^[•◦▪■●○–-]$/.test(w) || /^\d+[.)]?$/.test(w)) continue;
    out.set(w, (out.get(w) ?? 0) + 1);
  }
  return out;
}

/**
 * PDF = .docx, as word equality: every word occurs in the PDF as often as in the filled main part (and diagrams),
 * except words of the headers and footers, which the PDF repeats on each page (and a first-page or even-page
 * variant a page does not use may be missing): those occur at least as often as in the main part.
 */
export function pdfMatchesDocx(pdf: string, filled: Uint8Array): string | null {
  const inPdf = words(pdf);
  const body = words(bodyWords(filled));
  const zip = new PizZip(filled);
  const margins = words(partsText(zip, (n) => HEADER_FOOTER.test(n)));
  const problems: string[] = [];
  for (const w of new Set([...inPdf.keys(), ...body.keys()])) {
    const p = inPdf.get(w) ?? 0;
    const d = body.get(w) ?? 0;
    if (p === d || (margins.has(w) && p >= d)) continue;
    problems.push(`${w} (PDF ${p}, .docx ${d})`);
  }
  return problems.length === 0 ? null : `words that differ: ${problems.join(', ')}`;
}

/** Same text: equal once white space is set aside (docloom repeats a paragraph-wide section as paragraphs). */
function sameText(a: string, b: string): boolean {
  return a.replace(/\s+/g, '') === b.replace(/\s+/g, '');
}

function oracle(c: DiffCase): DiffResult['oracle'] {
  if (c.kind !== 'docx') return null;
  try {
    const doc = new Docxtemplater(new PizZip(c.bytes), {
      delimiters: { start: c.delimiters[0], end: c.delimiters[1] },
      paragraphLoop: true,
      linebreaks: true,
      parser: expressionParser as unknown as (tag: string) => Docxtemplater.DXT.Parser,
      nullGetter: () => '',
      // Its refusals are counted, not printed.
      errorLogging: false,
    });
    doc.render(structuredClone(c.data));
    const out = doc.toUint8Array();
    return { ok: true, text: docxWords(out), withoutDiagrams: docxWords(out, false) };
  } catch (err) {
    const e = err as { properties?: { errors?: Array<{ properties?: { explanation?: string } }>; explanation?: string }; message?: string };
    return { ok: false, error: e.properties?.errors?.[0]?.properties?.explanation ?? e.properties?.explanation ?? e.message ?? String(err) };
  }
}

const ITEM_4 = new Set(['invalid_expression', 'unsupported_tag']);

export async function runCase(c: DiffCase): Promise<DiffResult> {
  const want = oracle(c);
  const base = { id: c.id, set: c.set, oracle: want };
  const compiled = compileTemplate({ kind: c.kind, bytes: c.bytes, delimiters: c.delimiters });
  if (!compiled.ok) {
    const codes = compiled.errors.map((e) => e.code);
    const docloom = { ok: false as const, codes, stage: 'upload' as const, message: compiled.errors.map((e) => e.message).join(' ') };
    const verdict = !want || !want.ok ? 'both refuse' : codes.every((code) => ITEM_4.has(code)) ? 'item-4 refusal' : codes.every((code) => code === 'too_large') ? 'limit refusal' : 'docloom refuses';
    return { ...base, docloom, verdict, detail: docloom.message };
  }
  let pdf: string;
  let docx: string | null = null;
  let docxWithoutDiagrams: string | null = null;
  let malformed: string | null = null;
  let mismatch: string | null = null;
  let malformedInput: string | null = null;
  let shown: DiffResult['shown'] = c.kind === 'docx' ? 'words' : undefined;
  try {
    pdf = pdfToText((await renderPdf(compiled.template, structuredClone(c.data))).bytes);
    if (c.kind === 'docx') {
      const filled = await fillDocx(compiled, structuredClone(c.data));
      malformed = wellFormed(filled);
      // A part the template itself brought malformed is copied byte for byte (XML nobody changed is not rewritten):
      // counted apart, not as a malformed fill.
      if (malformed && malformed.split(':')[0] === wellFormed(c.bytes)?.split(':')[0]) malformedInput = malformed;
      docx = docxWords(filled);
      docxWithoutDiagrams = docxWords(filled, false);
      mismatch = pdfMatchesDocx(pdf, filled);
      if (mismatch) {
        const rendered = await renderedText(filled);
        if (rendered !== null && sameWords(pdf, rendered)) {
          mismatch = null;
          shown = 'rendered';
        } else mismatch += `\nthe filled .docx rendered: ${rendered ?? '(not readable)'}`;
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'render_failed';
    const docloom = { ok: false as const, codes: [code], stage: 'render' as const, message: (err as Error).message };
    return { ...base, docloom, verdict: !want || !want.ok ? 'both refuse' : 'docloom refuses', detail: docloom.message };
  }
  const docloom = { ok: true as const, docx, pdf, wellFormed: malformed === null };
  const shownBase = { ...base, shown };
  if (malformedInput) return { ...shownBase, docloom, verdict: 'malformed input', detail: malformedInput };
  if (malformed) return { ...shownBase, docloom, verdict: 'malformed docx', detail: malformed };
  if (mismatch) return { ...shownBase, docloom, verdict: 'pdf differs from docx', detail: `${mismatch}\npdf: ${pdf}\ndocx: ${docx ?? ''}` };
  if (!want) return { ...shownBase, docloom, verdict: 'same' };
  if (!want.ok) return { ...shownBase, docloom, verdict: 'docloom only', detail: want.error };
  if (docx !== null && sameText(docx, want.text)) return { ...shownBase, docloom, verdict: 'same' };
  const detail = `docxtemplater: ${want.text}\ndocloom:       ${docx ?? ''}`;
  if (c.deliberate) return { ...shownBase, docloom, verdict: 'deliberate', detail };
  const rule = docxWithoutDiagrams !== null && sameText(docxWithoutDiagrams, want.withoutDiagrams) ? DIAGRAM_RULE : null;
  if (rule) return { ...shownBase, docloom, verdict: 'deliberate', detail: `${rule}\n${detail}` };
  return { ...shownBase, docloom, verdict: 'different', detail };
}

/** The one difference by rule, for templates nobody annotated (the tests' own .docx); listed in docs/templates.md. */
export const DIAGRAM_RULE = 'docloom fills tags in SmartArt text (word/diagrams/drawing*.xml); docxtemplater leaves them';

/** Word equality (counts, list markers and page numbers aside) of two texts. */
function sameWords(a: string, b: string): boolean {
  const x = words(a);
  const y = words(b);
  return x.size === y.size && [...x].every(([w, n]) => y.get(w) === n);
}

/**
 * What the filled .docx shows, read back by docloom's own .docx reader and drawn with no data: the check for text
 * Word draws rather than writes (list markers, note numbers and the notes at the page foot, caps, tab leaders,
 * charts, repeated table headings, hidden text). The delimiters are a pair no .docx can hold (XML forbids U+0000),
 * so a filled value that looks like a tag stays text. Null when the filled .docx cannot be read back.
 */
async function renderedText(filled: Uint8Array): Promise<string | null> {
  const compiled = compileTemplate({ kind: 'docx', bytes: filled, delimiters: ['\u0000{', '}\u0000'] });
  if (!compiled.ok) return null;
  return pdfToText((await renderPdf(compiled.template, {})).bytes);
}

// ---------------------------------------------------------------------------------------------------------------
// The generated set: one template per grammar rule (issue #12, item 2), each with the data that exercises it.

const D: Delimiters = ['{{', '}}'];
const DATA = {
  a: 2,
  b: 3,
  s: 'text',
  n: '4',
  flag: false,
  name: 'Ada',
  last: 'Lovelace',
  customer: { name: 'Bob', 'first name': 'Bobby' },
  'variable 1': 'v1',
  items: [
    { desc: 'Design', hours: 2, rate: 40.5, net: 81, ok: true },
    { desc: 'Build', hours: 1, rate: 30, net: 30.25, ok: false },
    { desc: 'Test', hours: 3, rate: 20, net: 60, ok: true },
  ],
  tags: ['red', 'green'],
  balance: 12.5,
  empty: [],
};

function generated(id: string, lines: string[], deliberate?: string, data: Record<string, unknown> = DATA): DiffCase {
  return { id, set: 'generated', kind: 'docx', delimiters: D, data, bytes: buildDocx({ body: lines.map((l) => p(l)).join('') }), deliberate };
}

export function generatedCases(): DiffCase[] {
  return [
    generated('name', ['{{name}} {{customer.name}} {{variable 1}}']),
    generated('missing', ['[{{nothing}}][{{nothing.deeper}}][{{customer.none}}]']),
    generated('current item', ['{{#tags}}[{{.}}]{{/tags}}']),
    generated('this', ['{{#tags}}[{{this}}]{{/tags}}']),
    generated('index subscript', ['{{items[1].desc}} {{tags[0]}}']),
    generated('string subscript', ['{{customer["first name"]}}']),
    generated('numbers', ['{{12}} {{2.5}} {{a}}']),
    generated('true false null', ['[{{true}}][{{false}}][{{null}}]']),
    generated('strings', ['{{"straight"}} {{\'single\'}}']),
    generated('curly strings', ['{{“curly”}} {{‘single curly’}}']),
    generated('unary not', ['{{(!flag)}} {{(!a)}}']),
    generated('unary minus', ['{{-a}} {{-(a + b)}}']),
    generated('multiply divide modulo', ['{{a * b}} {{b % a}} {{a * b / 2}}']),
    generated('division', ['{{b / a}}']),
    generated('plus minus', ['{{a + b}} {{b - a}} {{a - b}}']),
    generated('precedence', ['{{a + b * 2}} {{(a + b) * 2}} {{10 - 4 - 3}}']),
    generated('text join', ['{{name + " " + last}}']),
    generated('relations', ['{{a < b}} {{a <= 2}} {{a > b}} {{b >= 3}}']),
    generated('equality', ['{{a == 2}} {{a != 2}} {{a === 2}} {{a !== 2}} {{name == "Ada"}}']),
    generated('and or', ['{{a && b}} {{flag || "fallback"}} {{flag && a}}']),
    generated('ternary', ['{{a > b ? "big" : "small"}} {{flag ? "yes" : "no"}}']),
    generated('ternary curly', ['{{a < b ? “lt” : “ge”}}']),
    generated('nested ternary', ['{{a > 5 ? "big" : a > 1 ? "mid" : "small"}}']),
    generated('length', ['{{items.length}} {{name.length}} {{empty.length}}']),
    generated('$index inline', ['{{#items}}[{{$index}}]{{/items}}']),
    generated('$index arithmetic', ['{{#items}}{{$index + 1}}. {{desc}} {{/items}}']),
    generated('$index paragraphs', ['{{#items}}', '{{$index}} {{desc}}', '{{/items}}']),
    generated('$index nested', ['{{#items}}{{#ok}}[{{$index}}]{{/ok}}{{/items}}']),
    generated('$index in a section over text', ['{{#items}}{{#desc}}[{{$index}}]{{/desc}}{{/items}}']),
    generated('filter lowest', ['{{hours * rate | number:2}}'.replace('hours * rate', 'a * b')], 'docloom\'s fixed filters (number) are not docxtemplater\'s (no filters by default)'),
    generated('section over expression', ['{{#a > 1}}big{{/a > 1}} {{#a > 5}}huge{{/a > 5}}']),
    generated('inverted over expression', ['{{^a > 5}}not huge{{/a > 5}}']),
    generated('section in loop reads item', ['{{#items}}{{#hours > 1}}{{desc}} {{/hours > 1}}{{/items}}']),
    generated('section expression yields list', ['{{#items.length > 0 && items}}{{desc}} {{/items.length > 0 && items}}']),
    generated('section over string', ['{{#name}}[{{.}}]{{/name}}'], 'docloom shows the section\'s value for {{.}} (issue #12 item 6); docxtemplater the enclosing scope'),
    generated('section over number', ['{{#a}}[{{.}}]{{/a}}'], 'docloom shows the section\'s value for {{.}} (issue #12 item 6)'),
    generated('loop paragraphs', ['{{#items}}', '{{desc}}: {{net}}', '{{/items}}']),
    generated('inverted empty', ['{{^empty}}none{{/empty}}']),
    generated('float rounding', ['{{0.1 + 0.2}}'], 'docloom rounds results to 15 significant digits (0.3, not 0.30000000000000004)'),
    generated('numeric text plus', ['{{n + 1}}'], 'docloom adds numeric text ("4" + 1 = 5); angular-expressions joins ("41")'),
    generated('division by zero', ['[{{a / 0}}]'], 'docloom shows nothing for x/0; angular-expressions shows Infinity'),
    generated('missing arithmetic', ['[{{nothing * 2}}]'], 'docloom shows nothing for arithmetic on missing data; angular-expressions shows 0'),
    generated('control characters', ['[{{ctl}}]'], 'docloom drops characters XML forbids in both outputs; docxtemplater refuses the data', { ctl: 'a\u0001b\u000bc\ud800d' }),
    generated('prototype names', ['[{{constructor}}][{{name.length}}][{{__proto__}}]']),
    generated('loop of empty nested sections', ['{{#items}}{{#nothing}}x{{/nothing}}{{#empty}}y{{/empty}}{{/items}}end']),
    generated('loop of empty nested section paragraphs', ['{{#items}}', '{{#nothing}}', 'x', '{{/nothing}}', '{{/items}}', 'end']),
    generated('null in a loop item', ['{{#rows}}[{{name}}|{{v}}]{{/rows}}'], undefined, { name: 'outer', rows: [{ name: null, v: 1 }, { name: 'inner', v: null }] }),
    generatedBody('loop spanning a section break', `${p('{{#items}}')}${p('Item {{desc}}')}<w:p><w:pPr><w:sectPr>${LANDSCAPE}</w:sectPr></w:pPr></w:p>${p('After {{desc}}')}${p('{{/items}}')}${p('End')}`),
  ];
}

const LANDSCAPE = '<w:pgSz w:w="16838" w:h="11906" w:orient="landscape"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/>';

function generatedBody(id: string, body: string, deliberate?: string, data: Record<string, unknown> = DATA): DiffCase {
  return { id, set: 'generated', kind: 'docx', delimiters: D, data, bytes: buildDocx({ body, sectPr: DEFAULT_SECT }), deliberate };
}

// ---------------------------------------------------------------------------------------------------------------

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = process.env.DOCLOOM_FIXTURES_DIR ?? path.resolve(ROOT, '..', 'shared', 'fixtures', 'docxtemplater-examples');

export function fixtureCases(): DiffCase[] {
  return folderCases(FIXTURES, 'fixtures', [['{', '}']]);
}

/**
 * Every .docx of a folder, filled with sample data for its fields, with the first delimiters under which it has
 * fields (the shared examples use `{ }`; the tests' templates mostly `{{ }}`).
 */
export function folderCases(dir: string, set: 'fixtures' | 'tests', tried: Delimiters[]): DiffCase[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.docx'))
    .sort()
    .map((f) => {
      const bytes = new Uint8Array(fs.readFileSync(path.join(dir, f)));
      let delimiters = tried[0];
      let compiled = compileTemplate({ kind: 'docx', bytes, delimiters });
      for (const other of tried.slice(1)) {
        if (compiled.ok && compiled.fields.length > 0) break;
        const next = compileTemplate({ kind: 'docx', bytes, delimiters: other });
        if (next.ok && next.fields.length > 0) {
          compiled = next;
          delimiters = other;
        }
      }
      const data = compiled.ok ? sampleData(compiled.fields) : {};
      return { id: f, set, kind: 'docx' as const, delimiters, bytes, data };
    });
}

function resourceCases(): DiffCase[] {
  const dir = path.join(ROOT, 'resources', 'templates');
  const index = JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')) as Array<{ file: string; data?: string }>;
  return index.map((entry) => ({
    id: entry.file,
    set: 'resources' as const,
    kind: 'json' as const,
    delimiters: D,
    bytes: new Uint8Array(fs.readFileSync(path.join(dir, entry.file))),
    data: entry.data ? (JSON.parse(fs.readFileSync(path.join(dir, entry.data), 'utf8')) as Record<string, unknown>) : {},
  }));
}

export interface Summary {
  results: DiffResult[];
  bothFill: number;
  same: number;
  failures: DiffResult[];
  sameShare: number;
}

export async function runAll(cases: DiffCase[]): Promise<Summary> {
  const results: DiffResult[] = [];
  for (const c of cases) results.push(await runCase(c));
  const compared = results.filter((r) => r.oracle?.ok && r.docloom.ok);
  const same = compared.filter((r) => r.verdict === 'same' || r.verdict === 'deliberate').length;
  const failing = new Set<DiffResult['verdict']>(['different', 'docloom refuses', 'malformed docx', 'pdf differs from docx']);
  const failures = results.filter((r) => failing.has(r.verdict));
  return { results, bothFill: compared.length, same, failures, sameShare: compared.length === 0 ? 1 : same / compared.length };
}

/** The largest test-built package compared (zipped bytes). */
const MAX_TEST_DOCX_BYTES = 40_000;

/**
 * The .docx files the tests build: every test file that builds .docx with test/docx/build-docx.ts is run with
 * DOCLOOM_COLLECT_DOCX pointing at a fresh folder (build-docx writes each package there). Returns the folder.
 */
function collectTestDocx(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-test-docx-'));
  const files: string[] = [];
  for (const sub of ['docx', 'service']) {
    const folder = path.join(ROOT, 'test', sub);
    for (const f of fs.readdirSync(folder).sort()) {
      if (f.endsWith('.test.ts') && fs.readFileSync(path.join(folder, f), 'utf8').includes('build-docx')) files.push(path.join('test', sub, f));
    }
  }
  console.log(`collecting the .docx built by ${files.length} test files (a few minutes)…`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', ...files], {
    cwd: ROOT,
    env: { ...process.env, DOCLOOM_COLLECT_DOCX: dir },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // A failing test still built its .docx; the suite, not this script, judges the tests.
  if (run.status !== 0) console.log(`(the test run exited ${run.status ?? run.signal}; its .docx are compared all the same)`);
  return dir;
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--dir');
  const given = at > 0 ? process.argv[at + 1] : process.env.DOCLOOM_DIFF_DIR;
  const dir = given ? path.resolve(given) : process.argv.includes('--no-tests') ? null : collectTestDocx();
  const all = dir ? folderCases(dir, 'tests', [D, ['{', '}']]) : [];
  // The tests' size and limit packages (megabytes of body XML) say nothing more about the language and take
  // minutes each through docxtemplater and two renders: left out, and named.
  const extra = all.filter((c) => c.bytes.length <= MAX_TEST_DOCX_BYTES);
  for (const c of all) if (c.bytes.length > MAX_TEST_DOCX_BYTES) console.log(`left out (over ${MAX_TEST_DOCX_BYTES / 1000} KB): tests ${c.id}, ${c.bytes.length} bytes`);
  if (dir && !given) fs.rmSync(dir, { recursive: true, force: true });
  const cases = [...generatedCases(), ...fixtureCases(), ...resourceCases(), ...extra];
  const summary = await runAll(cases);
  const counts = new Map<string, number>();
  for (const r of summary.results) counts.set(`${r.set}: ${r.verdict}`, (counts.get(`${r.set}: ${r.verdict}`) ?? 0) + 1);
  for (const [key, n] of [...counts].sort()) console.log(`${key.padEnd(40)} ${n}`);
  for (const r of summary.results.filter((x) => x.verdict === 'deliberate')) console.log(`deliberate  ${r.id}: ${cases.find((c) => c.id === r.id)?.deliberate ?? DIAGRAM_RULE}`);
  for (const r of summary.results.filter((x) => x.verdict === 'limit refusal' || x.verdict === 'malformed input')) console.log(`${r.verdict}  ${r.set} ${r.id}: ${r.detail ?? ''}`);
  const rendered = summary.results.filter((r) => r.shown === 'rendered').length;
  console.log(`PDF = .docx shown by the word check on ${summary.results.filter((r) => r.shown === 'words').length}, by the filled .docx's own rendering on ${rendered}`);
  for (const r of summary.failures) console.log(`FAIL  [${r.verdict}] ${r.set} ${r.id}\n${r.detail ?? ''}\n`);
  const share = (summary.sameShare * 100).toFixed(1);
  console.log(`templates: ${summary.results.length}; both fill: ${summary.bothFill}; same text (deliberate differences included): ${summary.same} (${share} %)`);
  const ok = summary.failures.length === 0 && summary.sameShare >= 0.95;
  console.log(ok ? 'PASS' : 'FAIL');
  process.exitCode = ok ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
