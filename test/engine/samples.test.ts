/**
 * The sample templates in resources/templates, end to end through the engine's facade: each compiles, its
 * sample data fits its schema, and the PDF (read back with poppler's pdftotext/pdfinfo/pdfimages) says what
 * the data says. The interface example round-trips the interface's own names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compileTemplate, dataSchema, fillOutputText, renderPdf, sampleData, type CompiledTemplate } from '../../server/engine/index.js';
import type { Field } from '../../server/engine/model/types.js';
import { pdfInfo, pdfPageCount, pdfText, squash } from '../helpers/pdf.js';

const DIR = path.resolve(import.meta.dirname, '../../resources/templates');

interface ManifestEntry {
  file: string;
  name: string;
  description: string;
  output_filename: string;
  data: string;
}

const manifest = JSON.parse(fs.readFileSync(path.join(DIR, 'index.json'), 'utf8')) as ManifestEntry[];

function load(file: string): { template: CompiledTemplate; fields: Field[]; data: Record<string, unknown> } {
  const entry = manifest.find((e) => e.file === file);
  assert.ok(entry, `${file} is in the manifest`);
  const result = compileTemplate({ kind: 'json', bytes: fs.readFileSync(path.join(DIR, file)) });
  if (!result.ok) assert.fail(`${file}: ${JSON.stringify(result.errors)}`);
  const data = JSON.parse(fs.readFileSync(path.join(DIR, entry.data), 'utf8')) as Record<string, unknown>;
  return { template: result.template, fields: result.fields, data };
}

/** pdfimages -list rows: page, width and height in pixels of every embedded image. */
function pdfImages(bytes: Uint8Array): Array<{ page: number; width: number; height: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-img-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    fs.writeFileSync(file, bytes);
    const out = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' });
    return out.split('\n').slice(2).filter((l) => l.trim() !== '').map((line) => {
      const cols = line.trim().split(/\s+/);
      return { page: Number(cols[0]), width: Number(cols[3]), height: Number(cols[4]) };
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A property-by-property check of data against the schema's types (the keywords dataSchema uses). */
function fitsSchema(value: unknown, schema: Record<string, unknown>, where = '$'): string[] {
  const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  const types = schema.type === undefined ? null : ([] as string[]).concat(schema.type as string);
  if (types && !types.includes(kind)) return [`${where}: ${kind} is not ${types.join('|')}`];
  const problems: string[] = [];
  if (kind === 'object') {
    const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    for (const [k, v] of Object.entries(value as object)) if (props[k]) problems.push(...fitsSchema(v, props[k], `${where}.${k}`));
  }
  if (kind === 'array' && schema.items) (value as unknown[]).forEach((v, i) => problems.push(...fitsSchema(v, schema.items as Record<string, unknown>, `${where}[${i}]`)));
  return problems;
}

test('the manifest lists each sample with its files, and every template has its data', () => {
  assert.deepEqual(manifest.map((e) => e.file), ['invoice.json', 'letter.json', 'certificate.json', 'interface-example.json']);
  for (const entry of manifest) {
    assert.ok(entry.name && entry.description && entry.output_filename, JSON.stringify(entry));
    assert.ok(fs.existsSync(path.join(DIR, entry.file)), entry.file);
    assert.ok(fs.existsSync(path.join(DIR, entry.data)), entry.data);
    const { fields, data } = load(entry.file);
    assert.deepEqual(fitsSchema(data, dataSchema(fields)), [], `${entry.data} fits the schema of ${entry.file}`);
  }
  const names = manifest.map((e) => fillOutputText(e.output_filename, load(e.file).data));
  assert.deepEqual(names, ['Invoice INV-2026-0042', 'Letter to Mr Daniel Okafor 2026-11-22', 'Certificate Amelia Hartmann', 'Interface example']);
});

test('invoice: one page with parties, every item row, totals, notes and "page 1 of 1"', async () => {
  const { template, data } = load('invoice.json');
  const pdf = await renderPdf(template, data);
  assert.equal(pdf.pages, 1);
  assert.equal(pdfPageCount(pdf.bytes), 1);
  const text = squash(pdfText(pdf.bytes));
  for (const phrase of [
    'INVOICE', 'No. INV-2026-0042', 'Issued 22 November 2026', 'Due 22 December 2026',
    'Northwind Studio LLC', 'Contoso Trading Ltd.', 'VAT GB123456789', 'Bristol BS1 4DJ',
    'Subtotal $11,060.50', 'Tax (8.5%) $940.14', 'Total due $12,000.64',
    'Work delivered on 18 November 2026.', 'Please pay $12,000.64 by 22 December 2026',
    'Invoice INV-2026-0042 · Page 1 of 1',
  ]) assert.ok(text.includes(phrase), `"${phrase}" in: ${text}`);
  const layout = pdfText(pdf.bytes, { layout: true });
  const rows = (data.items as Array<Record<string, string>>).map((item) => layout.split('\n').find((l) => l.includes(item.description)) ?? '');
  assert.match(rows[0], /Brand identity workshop\s+1\s+\$2,400\.00\s+\$2,400\.00/);
  assert.match(rows[4], /Printed brochures\s+500\s+\$1\.90\s+\$950\.00/);
  assert.ok(rows.every((r, i) => i === 0 || layout.indexOf(r) > layout.indexOf(rows[i - 1])), 'rows in data order');
  assert.equal(pdfImages(pdf.bytes).length, 1, 'the logo');
});

test('invoice: more items than fit on a page carry over, with the header row and page numbers on every page', async () => {
  const { template, data } = load('invoice.json');
  const items = Array.from({ length: 60 }, (_, i) => ({ description: `Line ${i + 1}`, details: '', quantity: '1', unit_price: '10', amount: '10' }));
  const pdf = await renderPdf(template, { ...data, items });
  assert.ok(pdf.pages >= 2, `pages: ${pdf.pages}`);
  const last = squash(pdfText(pdf.bytes, { page: pdf.pages }));
  assert.ok(last.includes(`Page ${pdf.pages} of ${pdf.pages}`), last);
  assert.ok(squash(pdfText(pdf.bytes, { page: 2 })).includes('Description Qty Unit price Amount'), 'header row repeats');
  const all = squash(pdfText(pdf.bytes));
  assert.ok(all.includes('Line 1 ') && all.includes('Line 60 '));
});

test('letter: addresses, a paragraph per list item, the signature, and no signature gap when one is missing', async () => {
  const { template, data } = load('letter.json');
  const pdf = await renderPdf(template, data);
  const text = squash(pdfText(pdf.bytes));
  for (const phrase of [
    'Harbourside Architects', 'Mr Daniel Okafor', 'Okafor Property Group', 'Edinburgh EH7 4AA', 'Bristol, 22 November 2026',
    'Proposal for the Elm Row renovation', 'Dear Mr Okafor,', 'Thank you for inviting us', 'We would be delighted to work with you on this project.',
    'Yours sincerely,', 'Eleanor Whitfield', 'Managing Partner', 'Page 1 of 1',
  ]) assert.ok(text.includes(phrase), `"${phrase}" in: ${text}`);
  assert.equal(pdfImages(pdf.bytes).length, 1);
  const unsigned = await renderPdf(template, { ...data, signature: '', recipient: { name: 'Ms Lee', address: 'Somewhere' } });
  const plain = squash(pdfText(unsigned.bytes));
  assert.ok(plain.includes('Dear Sir or Madam,'), 'default filter');
  assert.ok(!plain.includes('Okafor Property Group'), 'the company line goes when there is none');
  assert.equal(pdfImages(unsigned.bytes).length, 0);
});

test('certificate: landscape, with the optional parts shown or left out', async () => {
  const { template, data } = load('certificate.json');
  const pdf = await renderPdf(template, data);
  const [w, h] = (pdfInfo(pdf.bytes)['Page size'] ?? '').split(/\s*x\s*|\s+/).map(Number);
  assert.ok(w > h, `landscape: ${pdfInfo(pdf.bytes)['Page size']}`);
  const text = squash(pdfText(pdf.bytes));
  for (const phrase of [
    'NORTHWIND ACADEMY', 'Certificate of Completion', 'Amelia Hartmann', 'Advanced Data Visualisation',
    'a programme of 32 hours, completed on November 20, 2026, with honors.', 'Dr. Samuel Reyes', 'Director of Studies',
    'Certificate no. NWA-2026-11-0187 · Verify at https://academy.northwind.example/verify',
  ]) assert.ok(text.includes(phrase), `"${phrase}" in: ${text}`);
  const plain = squash(pdfText((await renderPdf(template, { ...data, with_honors: false, hours: '', verify_url: null })).bytes));
  assert.ok(plain.includes('completed on November 20, 2026.'), plain);
  assert.ok(!plain.includes('honors') && !plain.includes('programme') && !plain.includes('Verify'), plain);
});

test('interface example round-trip: variable 1, EXAMPLE_LIST bullets, TABLE rows COL_1..COL_4, the image', async () => {
  const { template, fields, data } = load('interface-example.json');
  assert.deepEqual(fields, [
    { name: 'variable 1', type: 'text' },
    { name: 'EXAMPLE_LIST', type: 'list', fields: [{ name: 'LIST_ITEM', type: 'text' }] },
    { name: 'TABLE', type: 'table', fields: ['COL_1', 'COL_2', 'COL_3', 'COL_4'].map((name) => ({ name, type: 'text' })) },
    { name: 'image', type: 'image' },
  ]);
  const pdf = await renderPdf(template, data);
  const text = squash(pdfText(pdf.bytes));
  assert.ok(text.includes('Variable 1: Hello from the interface example'), text);
  const bullets = ['First list item', 'Second list item', 'Third list item'];
  const positions = bullets.map((b) => text.indexOf(`• ${b}`));
  assert.ok(positions.every((p, i) => p > 0 && (i === 0 || p > positions[i - 1])), `bullets in order: ${text}`);
  const layout = pdfText(pdf.bytes, { layout: true });
  assert.match(layout, /COL_1\s+COL_2\s+COL_3\s+COL_4/);
  assert.match(layout, /Row 1 A\s+Row 1 B\s+Row 1 C\s+Row 1 D/);
  assert.match(layout, /Row 2 A\s+Row 2 B\s+Row 2 C\s+Row 2 D/);
  assert.ok(layout.indexOf('Row 1 A') < layout.indexOf('Row 2 A'));
  assert.deepEqual(pdfImages(pdf.bytes).map((i) => [i.width, i.height]), [[120, 90]]);

  // The same template with other data: one bullet, three rows, no image.
  const other = await renderPdf(template, {
    'variable 1': 'Second run',
    EXAMPLE_LIST: [{ LIST_ITEM: 'Only item' }],
    TABLE: [1, 2, 3].map((n) => ({ COL_1: `c1-${n}`, COL_2: `c2-${n}`, COL_3: `c3-${n}`, COL_4: `c4-${n}` })),
    image: '',
  });
  const otherText = squash(pdfText(other.bytes));
  assert.ok(otherText.includes('Variable 1: Second run') && otherText.includes('• Only item'), otherText);
  assert.ok(!otherText.includes('First list item'));
  assert.match(pdfText(other.bytes, { layout: true }), /c1-3\s+c2-3\s+c3-3\s+c4-3/);
  assert.equal(pdfImages(other.bytes).length, 0);
});

test('every sample renders its generated sample data (what the GUI pre-fills)', async () => {
  for (const entry of manifest) {
    const { template, fields } = load(entry.file);
    const pdf = await renderPdf(template, sampleData(fields));
    assert.ok(pdf.pages >= 1, entry.file);
    assert.ok(squash(pdfText(pdf.bytes)).length > 20, entry.file);
  }
});
