/**
 * renderModel against hand-written jsPDF + autotable code for the same one-page invoice.
 *
 *   node --import tsx bench/engine-vs-handwritten.ts [iterations]
 *
 * Prints ms/document for both (warm, after a warm-up), the ratio (target ≤ 1.5×), and the sizes of the Latin
 * and Cyrillic invoices (targets < 50 KB and < 100 KB). Also times the sample invoice template through the
 * engine facade (bind + render) when resources/templates/invoice.json is present. Always exits 0: the
 * PASS/MISS lines are the result.
 */
import fs from 'node:fs';
import path from 'node:path';
import { renderModel } from '../server/engine/pdf/render.js';
import { cyrillicInvoice, handwrittenInvoice, invoiceModel, latinInvoice } from './engine-invoice-model.js';
import { projectRoot } from '../server/config.js';

const N = Math.max(10, Number(process.argv[2]) || 300);
const WARMUP = 50;

type Task = () => unknown | Promise<unknown>;

/**
 * Times several tasks in interleaved rounds (A B C A B C …) so that a busy, shared machine slows them alike;
 * reports the median round of each.
 */
async function timeAll(tasks: Array<[string, Task]>): Promise<number[]> {
  for (const [, fn] of tasks) for (let i = 0; i < WARMUP; i++) await fn();
  const ROUNDS = 15;
  const per = Math.max(1, Math.round(N / ROUNDS));
  const samples: number[][] = tasks.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (let t = 0; t < tasks.length; t++) {
      const fn = tasks[t][1];
      const t0 = performance.now();
      for (let i = 0; i < per; i++) await fn();
      samples[t].push((performance.now() - t0) / per);
    }
  }
  return samples.map((s, t) => {
    const sorted = [...s].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(`${tasks[t][0].padEnd(44)} ${median.toFixed(2).padStart(7)} ms/doc`);
    return median;
  });
}

function verdict(ok: boolean): string {
  return ok ? 'PASS' : 'MISS';
}

async function main(): Promise<void> {
  const latin = latinInvoice();
  const latinModel = invoiceModel(latin);
  const cyrillicModel = invoiceModel(cyrillicInvoice());

  console.log(`one-page invoice, 20 rows, ${N} warm iterations each, interleaved rounds (median)\n`);
  const tasks: Array<[string, Task]> = [
    ['hand-written jsPDF + autotable', () => handwrittenInvoice(latin)],
    ['renderModel (Latin, standard fonts)', () => renderModel(latinModel, { test: false })],
    ['renderModel (Cyrillic, embedded subsets)', () => renderModel(cyrillicModel, { test: false })],
    ['renderModel (Latin, test watermark)', () => renderModel(latinModel, { test: true })],
  ];

  const templateFile = path.join(projectRoot(), 'resources/templates/invoice.json');
  const dataFile = path.join(projectRoot(), 'resources/templates/invoice.data.json');
  if (fs.existsSync(templateFile) && fs.existsSync(dataFile)) {
    const { compileTemplate, renderPdf } = await import('../server/engine/index.js');
    const compiled = compileTemplate({ kind: 'json', bytes: fs.readFileSync(templateFile) });
    if (compiled.ok) {
      const data = JSON.parse(fs.readFileSync(dataFile, 'utf8')) as Record<string, unknown>;
      tasks.push(['facade: resources/templates/invoice.json', () => renderPdf(compiled.template, data)]);
    }
  }
  const [hand, engine] = await timeAll(tasks);

  const handSize = handwrittenInvoice(latin).length;
  const latinPdf = await renderModel(latinModel, { test: false });
  const cyrillicPdf = await renderModel(cyrillicModel, { test: false });
  const ratio = engine / hand;
  console.log('');
  console.log(`ratio renderModel / hand-written: ${ratio.toFixed(2)}×   target ≤ 1.5×   ${verdict(ratio <= 1.5)}`);
  console.log(`hand-written Latin invoice:  ${(handSize / 1024).toFixed(1)} KB (reference)`);
  console.log(`Latin invoice:               ${(latinPdf.bytes.length / 1024).toFixed(1)} KB, ${latinPdf.pages} page(s)   target < 50 KB    ${verdict(latinPdf.bytes.length < 50 * 1024 && latinPdf.pages === 1)}`);
  console.log(`Cyrillic invoice:            ${(cyrillicPdf.bytes.length / 1024).toFixed(1)} KB, ${cyrillicPdf.pages} page(s)   target < 100 KB   ${verdict(cyrillicPdf.bytes.length < 100 * 1024 && cyrillicPdf.pages === 1)}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 0;
});
