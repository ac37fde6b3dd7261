/**
 * Binding: data into a compiled template, the step that runs for every document (the service caches compiled
 * templates). It must stay a cheap tree walk — a binder that recompiled or deep-copied the template per document
 * would show here first. Usage: node --import tsx bench/engine-bind.ts [iterations]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileTemplate, type CompiledTemplate } from '../server/engine/index.js';
import { bindTemplate } from '../server/engine/bind/bind.js';
import { percentile } from './lib/stats.js';

const iterations = Number(process.argv[2] ?? 1000);
const templatesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'resources', 'templates');

function compile(bytes: Uint8Array): CompiledTemplate {
  const result = compileTemplate({ kind: 'json', bytes });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.template;
}

async function timeBind(template: CompiledTemplate, data: Record<string, unknown>, runs: number): Promise<number> {
  for (let i = 0; i < Math.min(100, runs); i++) await bindTemplate(template, data, {});
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await bindTemplate(template, data, {});
    times.push(performance.now() - start);
  }
  return percentile(times, 50);
}

const invoice = compile(fs.readFileSync(path.join(templatesDir, 'invoice.json')));
const invoiceData = JSON.parse(fs.readFileSync(path.join(templatesDir, 'invoice.data.json'), 'utf8')) as Record<string, unknown>;
const spanning = compile(
  new TextEncoder().encode(JSON.stringify({ docloom: 1, body: ['Intro {{#items}}{{name}}: {{#flag}}yes{{/flag}}', 'more {{name}}{{/items}} end'] })),
);
const spanningData = { items: Array.from({ length: 5000 }, (_, i) => ({ name: `n${i}`, flag: i % 2 === 0 })) };

const invoiceMs = await timeBind(invoice, invoiceData, iterations);
const spanningMs = await timeBind(spanning, spanningData, Math.max(10, Math.round(iterations / 50)));

console.log(`invoice bind (resources/templates/invoice.json):     p50 ${invoiceMs.toFixed(3)} ms`);
console.log(`5,000 items through a section spanning paragraphs:    p50 ${spanningMs.toFixed(1)} ms`);
console.log(`${invoiceMs <= 1 ? 'PASS' : 'MISS'} invoice bind p50 ${invoiceMs.toFixed(3)} ms (target ≤ 1 ms)`);
console.log(`${spanningMs <= 100 ? 'PASS' : 'MISS'} 5,000-item bind p50 ${spanningMs.toFixed(1)} ms (target ≤ 100 ms)`);
